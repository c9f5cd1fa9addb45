"""Icon shapes and SVG art in the PDF (the PdfRenderer of generator/render/pdf.py calls in).

Each distinct drawing becomes one form XObject, placed wherever it is used: an icon per
(name, main colour, accent colour), SVG art per file. A form's bounding box is the drawing's
view box, so, as an SVG viewer does, nothing outside the view box shows (the PNG renderer
clips art to the same box: generator/render/png_paths.py).

Each shape is filled with its own rule: SVG's default nonzero, or evenodd; the YAML icons and
template paths keep even-odd, as they always had (their kits' PDFs keep their bytes).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas  # type: ignore[attr-defined]  # stub lacks FILL_*

from generator.core import primitives as p
from generator.core.resources import Resources
from generator.core.vector import IconShape, paints


class Target(Protocol):
    """What these helpers need of generator/render/pdf.py's PdfRenderer (which satisfies it;
    typed here so the imports go one way, pdf -> pdf_vector)."""

    c: Canvas
    resources: Resources  # the loaded drawings: generator/core/resources.py
    vector_forms: dict[str, str]  # SVG art drawn once as a form, by file

    def paint(self, fill: str | None, stroke: str | None, width: float,
              dash: tuple[float, ...] | None = None) -> tuple[int, int]: ...

    def path(self, segments: Sequence[p.Segment], sx: float, sy: float) -> Any: ...


FILL_MODE = {"evenodd": FILL_EVEN_ODD, "nonzero": FILL_NON_ZERO}
CAPS = ("butt", "round", "square")  # PDF's line cap numbers
JOINS = ("miter", "round", "bevel")  # PDF's line join numbers


def draw_shapes(r: Target, shapes: Sequence[IconShape], main: str | None,
                accent: str | None) -> None:
    """Draw shapes in view-box units (y down, so the form's y runs negative)."""
    c = r.c
    ends = ("butt", "miter")  # a form starts with PDF's defaults; set only what differs
    for shape in shapes:
        fill, stroke = paints(shape, main, accent)
        f, s = r.paint(fill, stroke, shape.width / mm)
        if not (f or s):
            continue
        if s and (shape.cap, shape.join) != ends:
            ends = (shape.cap, shape.join)
            c.setLineCap(CAPS.index(shape.cap))
            c.setLineJoin(JOINS.index(shape.join))
        if shape.circle:
            cx, cy, radius = shape.circle
            c.circle(cx, -cy, radius, stroke=s, fill=f)
        else:
            c.drawPath(r.path(shape.segments, 1, -1), stroke=s, fill=f,
                       fillMode=FILL_MODE[shape.rule])


def ensure_vector_form(r: Target, prim: p.Vector) -> None:
    """Define the form of an SVG picture (once per file), before any face form begins."""
    if prim.path in r.vector_forms:
        return
    drawing = r.resources.drawing(prim.path)
    name = f"svg{len(r.vector_forms)}"
    r.vector_forms[prim.path] = name
    r.c.beginForm(name, lowerx=0, lowery=-drawing.view_h, upperx=drawing.view_w, uppery=0)  # type: ignore[arg-type]  # stub: ints; takes floats
    draw_shapes(r, drawing.shapes, "#000000", "#ffffff")
    r.c.endForm()


def draw_vector(r: Target, prim: p.Vector) -> None:
    """Place an SVG picture: its view box stretched over (x, y, w, h), clipped to ``clip``."""
    drawing = r.resources.drawing(prim.path)
    c = r.c
    c.saveState()
    if prim.clip is not None:
        cx, cy, cw, ch = prim.clip
        box = c.beginPath()
        box.rect(cx * mm, -(cy + ch) * mm, cw * mm, ch * mm)
        c.clipPath(box, stroke=0, fill=0)
    c.translate(prim.x * mm, -prim.y * mm)
    c.scale(prim.w / drawing.view_w * mm, prim.h / drawing.view_h * mm)
    c.doForm(r.vector_forms[prim.path])
    c.restoreState()
