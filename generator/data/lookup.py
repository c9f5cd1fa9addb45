"""The one door from drawing back to loading: a name known only while a face is drawn.

Loading resolves what a kit names with a fixed name into the model once (generator/core/
model.py's ``Known``: the theme's icons and fonts, the icons a game's data names, the face
templates its components name and their fixed includes), and the faces read that. A name a
face *computes* is known only while it is drawn: ``icon: {name: "{{ item.suit }}"}``,
``include: "{{ s.diagram }}"``, ``image: {path: "art/{{ item.id }}.png"}``, an inline
``:icon:`` in a text. The faces look such a name up through ``find`` and through nothing
else of the data layer that finds or loads files (an import-linter contract in
pyproject.toml holds generator.faces to it).

``find`` resolves and checks exactly as loading does (generator/data/resolve.py confines
every name; icons, templates and pictures are parsed once per version of their content),
and every file it looks at is noted, so the face cache knows the drawing read it. A name
that cannot be used raises ``Unusable`` with the reason in the user's terms; the face adds
its file, line and field.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, overload

from generator.core import context
from generator.core.errors import DataError
from generator.core.model import FaceTemplate
from generator.core.vector import IconDef
from generator.core.words import said
from generator.data import resolve
from generator.data.icons import load_icon
from generator.data.templates import load_template


class Unusable(ValueError):
    """A computed name that does not stand for a usable icon, template or picture."""


@dataclass(frozen=True)
class Picture:
    """An image a template names, found and checked: a raster file and its size in pixels,
    or an SVG file and its drawing (drawn as vectors)."""

    file: Path
    pixels: tuple[int, int] | None = None
    drawing: IconDef | None = None


@overload
def find(kind: Literal["icon"], name: object, beside: Path | None = None) -> IconDef: ...
@overload
def find(kind: Literal["face"], name: object, beside: Path | None = None) -> FaceTemplate: ...
@overload
def find(kind: Literal["image"], name: object, beside: Path | None = None) -> Picture: ...


def find(kind: str, name: object, beside: Path | None = None) -> IconDef | FaceTemplate | Picture:
    """What ``name`` stands for: an ``icon`` (by name), a ``face`` template (by name,
    ``beside`` an including template's folder first) or an ``image`` (a relative path).
    Unusable says why not."""
    try:
        if kind == "icon":
            return load_icon(str(name))
        if kind == "face":
            return load_template(str(name), beside)
    except DataError as exc:
        raise Unusable(exc.expected) from None
    if kind != "image":
        raise ValueError(f"nothing to find of kind {said(kind)}")
    return _picture(name)


def _picture(path: object) -> Picture:
    from generator.data.svg import SvgRefused, load_art  # svgelements: only for SVG art

    try:
        file = resolve.image_file(path)
        if file.suffix.lower() == ".svg":  # drawn as vectors: generator/data/svg.py
            return Picture(file, drawing=load_art(file))
        _, width, height = resolve.check_image(str(file), context.version(file))
    except (resolve.Refused, SvgRefused) as exc:
        raise Unusable(str(exc)) from None
    return Picture(file, pixels=(width, height))
