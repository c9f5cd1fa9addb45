"""What the renderers draw with that lives in files: icon drawings, SVG art and fonts, given
to them already loaded.

Why: a build runs one way. Loading finds and checks every file (generator/data/); faces and
layout make primitives that name what they draw (an icon by name, SVG art by its file, text
by its font); then, once the kit's primitives are known, generator/data/design/resources.py walks
them (``needs``) and loads each distinct icon, picture and font once into ``Resources``,
which the orchestration hands to a renderer with the pages. The renderers
(generator/render/) only read it: they never look a name up in a project or open a file to
learn what a name means (an import-linter contract in pyproject.toml keeps
generator.render from importing generator.data), so a page renders the same wherever its
``Resources`` came from (a test gives it a made-up one).

Raster pictures are the exception that is no lookup: a ``primitives.Image`` carries the
path that loading found, confined and checked (generator/data/files/resolve.py); the renderer
reads those bytes as they are.

Kept on the ground floor because loading makes it and rendering reads it, and neither layer
may import the other's modules for it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from generator.core import primitives as p
from generator.core.vector import IconDef
from generator.core.words import said

T = TypeVar("T")
BASE_FONT = "sans"  # a PDF's initial font, so every Resources a PDF is given holds it


@dataclass(frozen=True)
class FontUse:
    """A font as both renderers use it: the name it is registered under in ReportLab (the
    PDF sets it, the PNG measures advances with it; unique per file content,
    generator/data/typefaces/fonts.py), and the file Pillow draws with (``version``: its content, so
    a table keyed by a FontUse is keyed by the font's bytes)."""

    pdf_name: str
    path: Path
    version: str | None = None
    scale: float = 1.0  # drawn at this fraction of the text's size (the plain zero's font)


@dataclass(frozen=True)
class Needs:
    """The names a set of primitives draws with: icons by name, SVG art by file, fonts."""

    icons: frozenset[str] = frozenset()
    art: frozenset[str] = frozenset()
    fonts: frozenset[str] = frozenset()


def needs(prims: Iterable[p.Primitive]) -> Needs:
    """Every icon, SVG picture and font ``prims`` draw with (a rich text's spans and inline
    icons too)."""
    icons: set[str] = set()
    art: set[str] = set()
    fonts: set[str] = set()
    for prim in prims:
        kind = type(prim)
        if kind is p.Text:
            assert isinstance(prim, p.Text)
            fonts.add(prim.font)
            fonts.update(span[3] for span in prim.spans)
            icons.update(icon.name for icon in prim.icons)
        elif kind is p.Icon:
            assert isinstance(prim, p.Icon)
            icons.add(prim.name)
        elif kind is p.Vector:
            assert isinstance(prim, p.Vector)
            art.add(prim.path)
    return Needs(frozenset(icons), frozenset(art), frozenset(fonts))


class MissingResource(LookupError):
    """A primitive names a drawing or font its renderer was not given: a bug in whoever made
    the ``Resources`` (generator/data/design/resources.py gathers every one the pages name)."""


@dataclass(frozen=True)
class Resources:
    """The drawings and fonts one render uses, by the names its primitives give them."""

    icons: Mapping[str, IconDef] = field(default_factory=dict)
    art: Mapping[str, IconDef] = field(default_factory=dict)  # SVG art, by Vector.path
    fonts: Mapping[str, FontUse] = field(default_factory=dict)  # by the name text gives

    def icon(self, name: str) -> IconDef:
        return _get(self.icons, name, "icon")

    def drawing(self, path: str) -> IconDef:
        return _get(self.art, path, "SVG picture")

    def font(self, name: str) -> FontUse:
        return _get(self.fonts, name, "font")

    def only(self, wanted: Needs) -> Resources:
        """The part of these that ``wanted`` names (a PNG worker is sent its face's own)."""
        return Resources({n: self.icon(n) for n in sorted(wanted.icons)},
                         {n: self.drawing(n) for n in sorted(wanted.art)},
                         {n: self.font(n) for n in sorted(wanted.fonts)})


def _get(table: Mapping[str, T], name: str, what: str) -> T:
    try:
        return table[name]
    except KeyError:
        raise MissingResource(f"the renderer was not given the {what} {said(name)} (have: "
                              f"{', '.join(sorted(table)) or 'none'})") from None
