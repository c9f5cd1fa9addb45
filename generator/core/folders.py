"""Which folder holds a project: the one predicate, light enough for ``pnp list``.

A project folder (``pnp init DIR`` writes one) holds a game data file at its top: ``game.yaml``,
or a ``*.yaml`` file with a top-level ``components:`` line (an included table file has none).
generator/data/files/project.py names project folders on the command line with it; the command line
asks it whether the folder a designer stands in is a project (``pnp build`` there builds that
project, not the built-in games) and which folders ``pnp list`` shows. It reads text only, never
parses YAML nor imports the data layer: ``pnp list`` answers in a tenth of a second
(``make bench``), and a folder is a project by what its files say, not by whether they load.
"""
from __future__ import annotations

import os
from pathlib import Path

from generator.core import paths

DATA_FILE = "game.yaml"
MAX_CANDIDATES = 200  # *.yaml files read to find a folder's game file
MAX_CANDIDATE_BYTES = 1024 * 1024
MAX_LISTED = 500  # folders `pnp list DIR` looks into


def data_files(folder: Path) -> list[Path]:
    """The game data files at the top of ``folder``: ``game.yaml`` if present, else every
    ``*.yaml`` file with a top-level ``components`` key (included table files have none)."""
    main = folder / DATA_FILE
    if main.is_file():
        return [main]
    found = []
    try:
        candidates = sorted(folder.glob("*.yaml"))
    except OSError:
        return []
    for file in candidates[:MAX_CANDIDATES]:
        try:
            if file.stat().st_size > MAX_CANDIDATE_BYTES or not file.is_file():
                continue
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if any(line.startswith("components:") for line in text.splitlines()):
            found.append(file)
    return found


def builtin_games(folder: Path) -> bool:
    """Whether ``folder`` is the built-in games' folder (several games, not a project)."""
    try:
        return os.path.samefile(folder, paths.CARD_DATA)
    except OSError:
        return False


def is_project(folder: Path) -> bool:
    """A folder holding one game data file (the one a build of the folder builds), other than
    the built-in games' folder. A folder of several games is none: named on the command line
    it is refused naming them (generator/data/files/project.py), unnamed it is passed by."""
    return folder.is_dir() and not builtin_games(folder) and len(data_files(folder)) == 1


def here() -> list[str]:
    """The game the commands act on when none is named: the project folder the designer stands
    in (its full path, which messages then show), else none (every built-in game)."""
    folder = Path.cwd()
    return [str(folder)] if is_project(folder) else []


def projects_in(folder: Path) -> list[Path]:
    """``folder`` itself when it is a project, else the project folders directly inside it
    (sorted, at most ``MAX_LISTED`` looked at; hidden folders and ``output`` skipped)."""
    if is_project(folder):
        return [folder]
    try:
        inside = sorted(p for p in folder.iterdir()
                        if not p.name.startswith(".") and p.name != "output")
    except OSError:
        return []
    return [p for p in inside[:MAX_LISTED] if not p.is_symlink() and is_project(p)]
