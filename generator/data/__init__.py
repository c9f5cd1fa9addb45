"""Loading and validating game data files, and finding the games in card_data/.

A game is named by its id (a built-in game of card_data/), by the path of its data file, or
by its project folder (generator/data/files/project.py); the last two are "by path" below.

A game's kit goes to ``output/<id>/``, so two data files with one ``id`` would overwrite each
other's kits: game discovery refuses that (exit 2, naming both files). ``paths.CARD_DATA`` is
read at each call, so tests and tools can point it elsewhere.

The layer is five subpackages by concern, each importing only those below it (a contract in
pyproject.toml): ``files`` (where things are found), then ``typefaces`` (fonts) and
``translation`` (languages, and where a value was written), then ``design`` (templates,
themes, icons, SVG art, the drawing's look-ups and the renderers' resources), then ``tables``
(the game's data file, its tables and its checks). This module is the layer's front door.
"""
from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from generator.core import paths
from generator.core.errors import DataError
from generator.core.model import Game
from generator.core.words import said
from generator.core.yamlfile import load_yaml
from generator.data.files import project

from .tables import loader

__all__ = ["check_games", "game_ids", "game_sources", "load_game"]


def _card_data(card_data: Path | None) -> Path:
    """The built-in games' folder (generator/data/files/project.py decides), unless one is given."""
    return project.builtin("games") if card_data is None else card_data


def _declared_id(file: Path) -> tuple[str | None, DataError | None]:
    """The ``id`` a data file declares (None if it is not a game file), and where it is."""
    doc = load_yaml(file)
    if not isinstance(doc.data, dict) or "components" not in doc.data:
        return None, None
    value = doc.data.get("id")
    game_id = value if isinstance(value, str) and value else file.stem
    return game_id, doc.error(("id",), "") if "id" in doc.data else None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _clash(game_id: str, first: Path, second: Path, where: DataError | None) -> DataError:
    line = where.line if where is not None else None
    return DataError(second, line, "id",
                     f"game id {said(game_id)} is also the id of {first}; both kits would be "
                     f"written to output/{game_id}/ (give one of them another id)")


def game_sources(card_data: Path | None = None) -> dict[str, Path]:
    """Every game in card_data/ (a YAML file with a top-level ``components`` list): its id ->
    its data file. Two files declaring one id (ids are compared ignoring case, as some file
    systems do for the output folders) raise a DataError naming both."""
    found: dict[str, tuple[str, Path]] = {}
    for file in sorted(_card_data(card_data).glob("*.yaml")):
        game_id, where = _declared_id(file)
        if game_id is None:
            continue
        key = game_id.casefold()
        if key in found:
            raise _clash(game_id, found[key][1], file, where)
        found[key] = (game_id, file)
    return {game_id: file for game_id, file in found.values()}


def game_ids(card_data: Path | None = None) -> list[str]:
    """The name of every game in card_data/ (the file name without ``.yaml``, which is what
    ``load_game`` takes), refusing two files with one game id."""
    return sorted(file.stem for file in game_sources(card_data).values())


def load_game(game: str, card_data: Path | None = None) -> Game:
    """Load, validate and expand one game: a name from card_data/ or a path to a data file."""
    return loader.load_game(game, _card_data(card_data))


_QUICK_ID = re.compile(r"^id:[ \t]*(['\"]?)([A-Za-z0-9][A-Za-z0-9_-]*)\1[ \t]*(?:#.*)?$", re.M)


NOT_A_GAME = ""


def _quick_id(file: Path) -> str | None:
    """The id of a data file from its plain top-level ``id: name`` line, without parsing the
    YAML (``NOT_A_GAME`` if the word ``components`` is nowhere but in comment lines); None when
    that is not certain (no such line, two of them, an odd value, a big or unreadable file):
    then the file is parsed."""
    try:
        if file.stat().st_size > 1024 * 1024:
            return None
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if "components" not in re.sub(r"(?m)^[ \t]*#.*$", "", text):
        return NOT_A_GAME
    found = _QUICK_ID.findall(text)
    lines = re.findall(r"^id:", text, re.M)
    return found[0][1] if len(found) == 1 and len(lines) == 1 else None


def _game_id(file: Path) -> str | None:
    """A data file's game id: from its plain ``id:`` line if it has one, else parsed."""
    quick = _quick_id(file)
    if quick is not None:
        return quick or None
    return _declared_id(file)[0]


def _where(file: Path) -> DataError | None:
    try:
        return _declared_id(file)[1]
    except DataError:
        return None


def _claiming(key: str, card_data: Path, besides: Path) -> list[Path]:
    """The files in card_data/ other than ``besides`` whose game id is ``key`` (compared
    ignoring case). Only files whose id a plain line does not settle are parsed."""
    found = []
    for file in sorted(card_data.glob("*.yaml")):
        if _same_file(file, besides):
            continue
        try:
            game_id = _game_id(file)
        except DataError:
            continue  # not a readable game file, so not a game of that id
        if game_id is not None and game_id.casefold() == key:
            found.append(file)
    return found


def check_games(selected: Sequence[str], out_dir: Path | None = None,
                card_data: Path | None = None) -> list[str]:
    """The games a command works on (all of card_data/ when none are named), refusing any two
    data files that would write one output folder:

    * two files in card_data/ with one id (every game, or a game named by its name);
    * two files named in one command with one id (when the command writes);
    * a data file named by path with the id of a game in card_data/ (unless it is that file)
      when its kit would go where that game's kit lives: ``out_dir`` is the project's output
      folder (``paths.OUTPUT``). Elsewhere a variant may be tried out under the same id.

    ``out_dir=None`` (a command that writes nothing) skips the last two. Files that cannot be
    found or parsed are left for ``load_game`` to report, naming the file."""
    folder = _card_data(card_data)
    if not selected:
        return sorted(file.stem for file in game_sources(folder).values())
    shared_output = out_dir is not None and _same_file(out_dir, paths.OUTPUT)
    several = out_dir is not None and len(selected) > 1
    chosen: dict[str, Path] = {}
    for name in selected:
        by_path = Path(name).suffix in (".yaml", ".yml") or project.is_project_dir(name)
        against_card_data = not by_path or shared_output
        if not (against_card_data or several):
            continue  # one variant written elsewhere: nothing to compare it with
        try:
            file = loader.game_file(name, folder)
            game_id = _game_id(file)
        except DataError:
            continue
        if game_id is None:
            continue
        key = game_id.casefold()
        earlier = chosen.setdefault(key, file)
        if several and not _same_file(earlier, file):
            raise _clash(game_id, earlier, file, _where(file))
        if against_card_data:
            for other in _claiming(key, folder, file):
                first, second = (other, file) if by_path else (file, other)
                raise _clash(game_id, first, second, _where(second))
    return list(selected)
