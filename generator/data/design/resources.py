"""The icons, SVG art and fonts a set of primitives draws with, loaded once for a renderer.

The orchestration calls ``load_resources`` with a kit's primitives once faces and layout have
made them (every distinct face and the page furniture) and hands the result to the renderer
with the pages (generator/core/resources.py says why the renderers never load anything
themselves). Each name is looked up the way the face that named it looked it up: an icon
through generator/data/design/icons.py (the project's icons/, then the built-in ones), SVG art
from the file the face found (generator/data/design/svg.py), a font through
generator/data/typefaces/fonts.py, which registers it with ReportLab here, before any page is drawn.
"""
from __future__ import annotations

from collections.abc import Iterable

from generator.core import primitives as p
from generator.core.resources import BASE_FONT, FontUse, Resources, needs
from generator.data.design.icons import load_icon
from generator.data.typefaces import fonts


def load_resources(prims: Iterable[p.Primitive], base_font: bool = True) -> Resources:
    """Every icon, SVG picture and font ``prims`` name, loaded and checked (a font
    registered); with ``base_font``, the PDF's initial font too."""
    wanted = needs(prims)
    art = {}
    if wanted.art:
        from generator.data.design.svg import (
            load_art,  # svgelements loads only for a kit with SVG art
        )

        art = {path: load_art(path) for path in sorted(wanted.art)}
    names = sorted(wanted.fonts | {BASE_FONT}) if base_font else sorted(wanted.fonts)
    return Resources({name: load_icon(name) for name in sorted(wanted.icons)}, art,
                     {name: font_use(name) for name in names})


def font_use(name: str) -> FontUse:
    """A font as the renderers take it: registered with ReportLab, its file found."""
    registered = fonts.register(name)
    file = fonts.path(name)
    return FontUse(registered.fontName, file.path, file.version, fonts.scale(name))
