"""The one door from drawing back to loading: a name known only while a face is drawn.

Loading resolves what a kit names with a fixed name into the model once (generator/core/
model.py's ``Known``: the theme's icons and fonts, the icons a game's data names, the face
templates its components name and their fixed includes), and the faces read that. A name a
face *computes* is known only while it is drawn: ``icon: {name: "{{ item.suit }}"}``,
``include: "{{ s.diagram }}"``, ``image: {path: "art/{{ item.id }}.png"}``, an inline
``:icon:`` in a text. The faces are handed a ``Finder`` (generator/core/drawing.py's
``Resolver``) that looks such a name up through ``find``; they import nothing of the data
layer (an import-linter contract in pyproject.toml). ``face_inputs`` makes what a face is
handed: the build's font book, its translator and this finder.

``find`` resolves and checks exactly as loading does (generator/data/files/resolve.py confines
every name; icons, templates and pictures are parsed once per version of their content),
and every file it looks at is noted, so the face cache knows the drawing read it. A name
that cannot be used raises ``Unusable`` with the reason in the user's terms; the face adds
its file, line and field.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal, overload

from generator.core import context
from generator.core.drawing import FaceInputs, Picture, Unusable
from generator.core.errors import DataError
from generator.core.model import FaceTemplate
from generator.core.vector import IconDef
from generator.core.words import said
from generator.data.design.icons import load_icon
from generator.data.design.templates import load_template
from generator.data.files import resolve
from generator.data.translation import i18n
from generator.data.typefaces import fonts

__all__ = ["Finder", "Picture", "Unusable", "face_inputs", "find"]


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
    from generator.data.design.svg import SvgRefused, load_art  # svgelements: only for SVG art

    try:
        file = resolve.image_file(path)
        if file.suffix.lower() == ".svg":  # drawn as vectors: generator/data/design/svg.py
            return Picture(file, drawing=load_art(file))
        _, width, height = resolve.check_image(str(file), context.version(file))
    except (resolve.Refused, SvgRefused) as exc:
        raise Unusable(str(exc)) from None
    return Picture(file, pixels=(width, height))


class Finder:
    """The faces' door for a computed name (generator/core/drawing.py's ``Resolver``):
    ``find``, as an object handed in."""

    def icon(self, name: object) -> IconDef:
        return find("icon", name)

    def face(self, name: object, beside: Path | None = None) -> FaceTemplate:
        return find("face", name, beside)

    def image(self, path: object) -> Picture:
        return find("image", path)


FINDER = Finder()


def face_inputs() -> FaceInputs:
    """What the faces of the build running here are drawn with: its font book (every font
    name resolved when it loaded), its language session's translator, and the finder."""
    return FaceInputs(fonts.book(), i18n.translator(), FINDER)
