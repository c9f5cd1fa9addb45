"""A project's own fonts: the ``.ttf`` and ``.otf`` files of its ``fonts/`` folder.

A font is named in themes and templates by its file name without the extension
(``fonts/Lobster-Regular.ttf`` is ``font: Lobster-Regular``). Names are matched without regard
to case (``lobster-regular`` finds it too), because designers copy names from a file manager
on a case-insensitive disk as often as not; two files whose names differ only in case or
extension (``Foo.ttf`` and ``Foo.otf``) are ambiguous and refused by name. A project font with
the name of a built-in key (``fonts/sans.ttf``) replaces that font for the whole project, as a
project's face, theme or icon shadows the built-in one of the same name.

The folder is confined as the other kinds are (generator/data/files/project.py: a ``fonts`` symlink
leading elsewhere is refused); a font file that is a symlink, a device or a folder is not
used (the error says so when it is named). Only names of letters, digits, ``-`` and ``_``
(at most 64) are usable; at most ``MAX_FILES`` files are looked at. The folder is listed
once per build (the listing and what each name stood for are kept in the build's context,
generator/core/context.py); each file is parsed only when a template or theme names it
(generator/data/typefaces/fonts.py), once per version of its content.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.core import context
from generator.core.words import said
from generator.data.files import project

MAX_FONT_BYTES = 30 * 1024 * 1024  # the largest CJK families are ~20 MB; a font is not data
MAX_FILES = 200
SUFFIXES = (".ttf", ".otf")
FONT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
NAME_RULE = "use only letters, digits, - and _, at most 64"


@dataclass(frozen=True)
class FontFile:
    """One font as templates name it: a built-in key or a project file's name, its file and,
    for a project's, the version of that file (its content's sha256, generator/core/context.py)
    this build reads: memo tables keyed by a FontFile are keyed by the font's content. A
    built-in font is a file of a pinned package (the face cache's code key names it)."""

    name: str
    path: Path
    version: str | None = None
    builtin: bool = False

    def shown(self) -> str:
        """The file as a designer knows it: ``fonts/Lobster-Regular.ttf`` for a project's."""
        return self.path.name if self.builtin else f"fonts/{self.path.name}"


@dataclass(frozen=True)
class Listing:
    """A project's fonts/ folder: usable fonts by lower-case name, and why other files or
    names cannot be used (said when one of them is named)."""

    folder: Path | None = None
    fonts: dict[str, FontFile] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)  # lower-case name -> why
    unusable: tuple[str, ...] = ()  # file names that give no usable name


NO_FONTS = Listing()


@dataclass
class InUse:
    """The fonts of the project a build uses: its listing, and what
    generator/data/typefaces/fonts.py made of each name so far (text is measured word by word, so
    the look-up of a name must cost no more than a dict's). Kept in the build's context, never
    shared by two builds."""

    root: Path | None
    listing: Listing
    fonts: dict[str, Any] = field(default_factory=dict)  # name as written -> TTFont
    book: Any = None  # generator/data/typefaces/fonts.py's Book: every name resolved, made once
    # The code points the project fonts read so far map (generator/data/typefaces/fonts.py's
    # budget), and the versions counted (one file under two names is counted once).
    code_points: int = 0
    counted: set[str] = field(default_factory=set)


def in_use() -> InUse:
    """The project in use's fonts, listed once per build (generator/data/files/project.py's ``use``
    drops them when the project changes: they are listed anew)."""
    ctx = context.current()
    held = ctx.fonts
    if held is None:
        root = project.current().root
        held = ctx.fonts = InUse(root, NO_FONTS if root is None else _listing(root))
    return held


def listing() -> Listing:
    """The fonts/ folder of the project in use (``NO_FONTS`` for the built-ins alone)."""
    return in_use().listing


def fingerprint() -> list[Any]:
    """What the project's fonts are, by content: each usable font's name and version, and
    the names refused (for the face cache: a font added, removed or edited is a new key)."""
    found = listing()
    return [str(found.folder or ""), sorted(found.refused), list(found.unusable),
            [[key, font.name, context.version(font.path)]
             for key, font in sorted(found.fonts.items())]]


def _listing(root: Path) -> Listing:
    folder = project.Project(root).own("fonts")  # ProjectError when it leads outside
    if folder is None:
        return NO_FONTS
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return Listing(folder)
    found: dict[str, FontFile] = {}
    refused: dict[str, str] = {}
    unusable: list[str] = []
    seen: dict[str, str] = {}
    for entry in [e for e in entries if e.name.lower().endswith(SUFFIXES)][:MAX_FILES]:
        stem = entry.name[:-4]
        if not FONT_NAME.match(stem):
            unusable.append(entry.name)
            continue
        key = stem.lower()
        if key in seen:
            refused[key] = (f"fonts/{seen[key]} and fonts/{entry.name} are both font {said(stem)}: "
                            "keep one of them (names are matched without regard to case)")
            found.pop(key, None)
            continue
        seen[key] = entry.name
        try:
            st = os.stat(entry.path, follow_symlinks=False)
        except OSError:
            refused[key] = f"fonts/{entry.name} cannot be read"
            continue
        if stat.S_ISLNK(st.st_mode):
            refused[key] = (f"fonts/{entry.name} is a symlink; copy the font file itself "
                            "into fonts/")
        elif not stat.S_ISREG(st.st_mode):
            refused[key] = f"fonts/{entry.name} is not a regular file"
        elif st.st_size > MAX_FONT_BYTES:
            refused[key] = (f"fonts/{entry.name} is {st.st_size / 2**20:.0f} MB; a font file "
                            f"may be at most {MAX_FONT_BYTES // 2**20} MB")
        else:
            found[key] = FontFile(stem, Path(entry.path))
    return Listing(folder, found, refused, tuple(unusable))
