"""The faces' drawing functions as a build calls them, for tests that draw one face or text.

A face is handed what it reads (generator/core/drawing.py's ``FaceInputs``: the build's font
book, translator and resolver) and gives back what it told the translation record; a build
makes the inputs once (generator/data/design/lookup.py's ``face_inputs``) and tells the session once
per face (``Session.record``). These wrappers do the same for the project and session in use
here, so a test reads as it did when the faces fetched their inputs themselves. Tests of the
explicit inputs themselves (a hand-made font book) are in tests/test_faces_inputs.py.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.core import primitives as p
from generator.core.model import NOTHING_KNOWN, FaceTemplate, Known
from generator.data.design import lookup
from generator.data.translation import i18n
from generator.data.typefaces import fonts
from generator.faces import ink, rich_layout, template, text
from generator.faces.text import TextBox


def render_face(face: FaceTemplate, w: float, h: float, ctx: Mapping[str, Any],
                label: str = "", known: Known = NOTHING_KNOWN) -> p.Face:
    """``draw_face`` with the inputs of the build (or thread) running here; what it told the
    translation record is told to the session in use, as the build does."""
    drawn = template.draw_face(face, w, h, ctx, lookup.face_inputs(), label, known)
    i18n.current().record(drawn.told)
    return drawn.face


def dependencies(face: FaceTemplate, known: Known = NOTHING_KNOWN) -> frozenset[str]:
    return template.dependencies(face, known, lookup.FINDER)


def layout(box: TextBox) -> p.Text:
    return text.layout(box, fonts.book())


def wrap(words: str, font: str, size: float, width: float) -> list[str] | None:
    return text.wrap(words, font, size, width, fonts.book())


def fit(box: TextBox) -> tuple[list[str], float]:
    return text.fit(box, fonts.book())


def layout_markup(box: TextBox, hyphenation: bool = True, lang: object = None,
                  accent: p.Colour = "#ffffff", icon: rich_layout.IconFinder | None = None
                  ) -> p.Text:
    """Markup laid out, inline icons found by the build's resolver unless ``icon`` is given."""
    return rich_layout.layout_markup(box, fonts.book(), hyphenation, lang, accent,
                                     icon or lookup.FINDER.icon)


def bounds(prim: p.Primitive) -> ink.Box | None:
    return ink.bounds(prim, fonts.book())
