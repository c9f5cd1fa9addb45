"""The one place that decides where things are found: a project folder, then the built-ins.

A *project* is a folder a designer owns (``pnp init DIR`` writes one): a game data file
(``game.yaml``, or the one ``*.yaml`` game file in it) beside optional ``faces/``, ``themes/``,
``icons/``, ``art/`` and ``fonts/`` folders. For each kind of file the locator gives the folders to
search, the project's own first and the built-in one second (generator/core/paths.py knows where
the built-ins are: the checkout in development, the package data when installed), so a face,
theme or icon of the project shadows the built-in one of the same name. The built-in fonts
are files of pinned packages, not a folder: ``fonts`` is searched in the project alone
(generator/data/typefaces/project_fonts.py lists it; a project font named like a built-in key
shadows it).

Every folder searched is confined the same way (generator/data/files/resolve.py): names only,
nothing outside the folder, symlinks followed before the check. A project's kind folder must itself
be a real folder inside the project (a ``faces`` symlink pointing elsewhere is refused).

The project in use is the folder of the game data file loaded last in this build (the loader
calls ``use_for``; it is kept in the build's context, generator/core/context.py, so two builds in
one process each have their own). Built-in games
live in the built-in ``card_data/`` folder, which has no kind folders: they see the built-ins.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from generator.core import context, paths
from generator.core import folders as places  # this module has a folders() of its own
from generator.core.atomic import atomic_file, make_folder, output_root
from generator.core.errors import InputError
from generator.core.words import said

# A name a data file, theme or template gives a file by (``face: playing-card``): lower-case
# letters, digits, - and _ (generator/data/files/resolve.py confines what it names).
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
NAME_RULE = "a name of lower-case letters, digits, - and _ (at most 64 characters)"
KINDS = ("faces", "themes", "icons", "art", "fonts", "games")
# What each kind is called in messages ("no face template 'x' in ...").
WHAT = {"faces": "face template", "themes": "theme", "icons": "icon", "art": "image",
        "fonts": "font", "games": "game"}
DATA_FILE = places.DATA_FILE
OUTPUT = "output"


def builtin(kind: str) -> Path:
    """The built-in folder of a kind (read from generator/core/paths.py at each call, so tests
    and tools can point it elsewhere)."""
    return {"faces": paths.FACES, "themes": paths.THEMES, "icons": paths.ICONS,
            "art": paths.ART, "games": paths.CARD_DATA}[kind]


class ProjectError(InputError):
    """A project folder that cannot be used as given; the message says why."""


@dataclass(frozen=True)
class Project:
    """A project folder (``root``; None: the built-ins alone) and where its files are found."""

    root: Path | None = None

    def own(self, kind: str) -> Path | None:
        """The project's own folder of ``kind`` (the root itself for games), or None when
        there is no project or it has no such folder. Refused (ProjectError) when the folder
        is a symlink or otherwise leads outside the project."""
        if self.root is None:
            return None
        folder = self.root if kind == "games" else self.root / kind
        if not folder.is_dir():
            return None
        return _confined(folder, self.root, f"a project's {kind}/ must be a folder inside it")

    def folders(self, kind: str) -> list[Path]:
        """Where files of ``kind`` are searched, in order: the project's, then the built-in."""
        if kind not in KINDS:
            raise KeyError(kind)
        found = [builtin(kind)] if kind != "fonts" else []  # built-in fonts: package files
        own = self.own(kind)
        if own is not None and not (found and _same(own, found[0])):
            found.insert(0, own)
        return found

    def output(self) -> Path:
        """Where kits go unless ``--out`` says otherwise: the project's ``output/``; the
        built-in output folder for the built-in games. A project's ``output/`` that is a
        link, or leads outside the project, is refused: a stranger's project must not choose
        where a build writes and deletes (only ``--out`` is followed). The folders below it are
        entered without following links as they are written (generator/core/atomic.py)."""
        if self.root is None or _same(self.root, paths.CARD_DATA):
            return paths.OUTPUT
        folder = self.root / OUTPUT
        if not (folder.exists() or folder.is_symlink()):
            return folder
        return _confined(folder, self.root, "a project's output/ must be a folder inside "
                                            "it (give --out to write somewhere else)")


def _confined(folder: Path, root: Path, expected: str) -> Path:
    """``folder`` of the project at ``root``, refused (ProjectError, saying ``expected``) when
    it is a symlink or otherwise leads outside the project: the one rule for every folder a
    project has by its place (its kind folders, its ``output/``)."""
    inside = root.resolve()
    if folder.is_symlink() or not folder.resolve().is_relative_to(inside):
        raise ProjectError(f"{folder} leads outside the project {inside} (a symlink?): "
                           f"{expected}")
    return folder


BUILTINS = Project()  # the built-ins alone: outside any game


def current() -> Project:
    """The project in use: the build's (generator/core/context.py), the built-ins alone until a
    game is loaded."""
    found = context.current().project
    return found if found is not None else BUILTINS


def use(project: Project) -> None:
    ctx = context.current()
    ctx.project = project
    ctx.fonts = None  # what was found in the previous project's fonts/ (project_fonts.py)


def use_for(data_file: Path) -> Project:
    """A game data file is being loaded: its folder becomes the project in use."""
    project = Project(data_file.resolve().parent)
    use(project)
    return project


@contextmanager
def using(project: Project) -> Iterator[Project]:
    """Use ``project`` for the duration of a ``with`` block (tests, tools)."""
    before = current()
    use(project)
    try:
        yield project
    finally:
        use(before)


def folders(kind: str) -> list[Path]:
    """The folders of ``kind`` the project in use searches, project first."""
    return current().folders(kind)


def known(kind: str) -> list[str]:
    """The names of every ``kind`` file (``<name>.yaml``) found, project and built-in."""
    names: set[str] = set()
    for folder in folders(kind):
        try:
            names.update(p.stem for p in folder.glob("*.yaml") if NAME.match(p.stem))
        except OSError:
            continue
    return sorted(names)


# -- project folders named on the command line ------------------------------------------------

def is_project_dir(name: str) -> bool:
    """Whether a command-line game argument names a project folder (an existing folder that
    holds a game data file): ``pnp build mygame``. A folder with no game file in it (say
    ``output/moving-target`` seen from ``output/``) does not hide the built-in game. What
    makes a folder a project is generator/core/folders.py's to say."""
    folder = Path(name)
    return folder.is_dir() and (places.data_files(folder) != [] or name.endswith(("/", os.sep)))


def data_file(folder: Path) -> Path:
    """The game data file of a project folder: ``game.yaml``, or the one ``*.yaml`` game file
    in it. ProjectError names the folder and what was expected."""
    found = places.data_files(folder)
    if not found:
        raise ProjectError(f"no game data file in {folder} (expected {DATA_FILE}, or one "
                           ".yaml file with a 'components' list; 'pnp init DIR' writes one)")
    if len(found) > 1:
        names = ", ".join(f.name for f in found)
        raise ProjectError(f"{folder} holds several game data files ({names}): name one "
                           f"of them, or call the one to build {DATA_FILE}")
    return found[0]


def output_folder(games: Sequence[str]) -> Path:
    """Where a command writes when ``--out`` is not given: the project's ``output/`` when the
    games named are in one project folder; the built-in output folder otherwise (built-in
    games, data files named by path, or no game named). Several project folders at once need
    ``--out`` (ProjectError)."""
    folders = [g for g in games if is_project_dir(g)]
    if not folders:
        return paths.OUTPUT
    roots = {Path(g).resolve() for g in folders}
    if len(roots) > 1 or len(folders) != len(games):
        raise ProjectError("these games would write to different output folders; build one "
                           "project folder at a time, or give --out")
    return Project(roots.pop()).output()


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


# -- pnp init ----------------------------------------------------------------------------------

# Where the starter's data file and README take the engine's additions (``pnp init --engine``):
# a placeholder line each, left out of a code-free starter.
ENGINE_SLOTS = {"#__RULES__\n": "rules-line.yaml", "#__RULES_PAGE__\n": "rules-page.yaml",
                "<!--__ENGINE_FILES__-->\n": "readme.md", "<!--__ENGINE_STEPS__-->\n":
                "readme-steps.md"}


def init_project(folder: Path, engine: bool = False) -> list[Path]:
    """Write the starter game (the built-in ``templates/starter/``) into ``folder``, which
    must be new or empty: a designer's files are never overwritten. The game's id comes from
    the folder's name when that is a valid id (``mygame``), else ``my-game``; its title from
    the same. With ``engine``, the starter's rules engine too (``templates/starter-engine/``:
    ``rules.py``, the face drawing its worked example, and the snippets filling
    ``ENGINE_SLOTS``: the ``rules:`` line and a rules page); without, no code at all.
    Returns the files written."""
    source = paths.STARTER
    extra = paths.STARTER.with_name("starter-engine")
    if not (source / DATA_FILE).is_file() or (engine and not (extra / "rules.py").is_file()):
        raise ProjectError(f"the starter project is missing from {source} (a broken install?)")
    if folder.exists() and not folder.is_dir():
        raise ProjectError(f"{folder} exists and is not a folder; give a new folder's name")
    if folder.is_dir() and any(folder.iterdir()):
        raise ProjectError(f"{folder} is not empty; 'pnp init' writes only into a new or empty "
                           "folder (it never overwrites your files)")
    name = folder.resolve().name.lower().replace(" ", "-")
    game_id = name if NAME.match(name) else "my-game"
    title = " ".join(part.capitalize() for part in game_id.replace("_", "-").split("-"))
    values = {"__ID__": game_id, "__TITLE__": title, "__FOLDER__": str(folder)}
    slots = {slot: (extra / "snippets" / file).read_text(encoding="utf-8") if engine else ""
             for slot, file in ENGINE_SLOTS.items()}
    files = [(file, file.relative_to(source)) for file in sorted(source.rglob("*"))]
    if engine:
        files += [(file, file.relative_to(extra)) for file in sorted(extra.rglob("*"))
                  if "snippets" not in file.relative_to(extra).parts]
    written = []
    for file, relative in files:
        if not file.is_file() or "__pycache__" in file.parts:
            continue
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        text = file.read_text(encoding="utf-8")
        for slot, snippet in slots.items():
            text = text.replace(slot, snippet)
        for key, value in values.items():
            text = text.replace(key, value)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


# -- pnp eject -----------------------------------------------------------------------------------

# What ``pnp eject KIND NAME`` copies: the kind's folder, and the suffixes a file may have.
EJECTABLE = {"face": ("faces", (".yaml",)), "theme": ("themes", (".yaml",)),
             "icon": ("icons", (".yaml", ".svg"))}


def eject(kind: str, name: str, folder: Path) -> tuple[Path, Path]:
    """Copy the built-in ``kind`` file ``name`` (a face template, theme or icon) into the
    project ``folder``'s own folder of that kind, where it then wins over the built-in one
    (faces, themes and icons are searched in the project first). Never overwrites: a file
    of that name already in the project is a ProjectError. Returns (source, copy)."""
    if kind not in EJECTABLE:
        raise ProjectError(f"cannot eject a {said(kind)}; one of: {', '.join(EJECTABLE)}")
    sub, suffixes = EJECTABLE[kind]
    if not isinstance(name, str) or not NAME.match(name):
        raise ProjectError(f"{said(name)} is not {NAME_RULE}")
    data_file(folder)  # a project (ProjectError: "no game data file ... pnp init DIR")
    source_dir = builtin(f"{sub}")
    sources = [source_dir / f"{name}{suffix}" for suffix in suffixes
               if (source_dir / f"{name}{suffix}").is_file()]
    if not sources:
        import difflib  # here: only a misspelt name needs it

        names = sorted({f.stem for suffix in suffixes for f in source_dir.glob(f"*{suffix}")})
        close = list(dict.fromkeys(difflib.get_close_matches(name, names, n=4, cutoff=0.6)
                                   + [n for n in names if name in n]))[:8]
        raise ProjectError(f"no built-in {WHAT[sub]} {said(name)}; "
                           + (f"did you mean {', '.join(close)}? " if close else "")
                           + f"'pnp eject {kind} --list' lists them")
    source = sources[0]
    own = folder / sub
    if own.is_symlink() or (own.exists() and not own.is_dir()):
        raise ProjectError(f"{own} is not a folder inside the project")
    target = own / source.name
    # lexists: a link there, dangling or not, is the project's too and is never replaced
    clash = [own / f"{name}{suffix}" for suffix in suffixes
             if os.path.lexists(own / f"{name}{suffix}")]
    if clash:
        raise ProjectError(f"{clash[0]} is already in the project; 'pnp eject' never "
                           "overwrites your files (rename or remove it first)")
    with output_root(folder):  # faces/ entered, never followed (a link swapped in meanwhile)
        make_folder(own)
        with atomic_file(target) as handle:
            handle.write(source.read_bytes())
    return source, target


def ejectable(kind: str) -> list[str]:
    """The built-in names ``pnp eject KIND`` can copy."""
    sub, suffixes = EJECTABLE[kind]
    return sorted({f.stem for suffix in suffixes for f in builtin(sub).glob(f"*{suffix}")})
