"""A duplex calibration sheet: lines on the front, millimetre scales on the back.

Print both pages double-sided, hold the sheet against a window and read, on each scale of the
back, the number where the front's line shows through. Those numbers are the back page offsets
(BACK_DX to the right, BACK_DY downwards, as seen looking at the back) that make backs land
behind fronts on this printer.
"""
from __future__ import annotations

from generator.core import primitives as p
from generator.core.model import Size
from generator.data.translation.i18n import message
from generator.data.typefaces.fonts import book

from ..faces.text import TextBox, layout
from .page import Page

SPAN = 6  # the scales read -6 .. +6 mm


def _label(x: float, y: float, w: float, text: str, size: float = 7.0,
           align: str = "center", rotate: int = 0) -> p.Primitive:
    return layout(TextBox(x, y, w, 4, text, "sans", size, 4, "#333333", align, "middle", 1.0,
                          rotate), book())


def _mirror_x(paper: Size, x: float, flip: str) -> float:
    return paper.w - x if flip == "long" else x


def _mirror_y(paper: Size, y: float, flip: str) -> float:
    return paper.h - y if flip == "short" else y


def calibration_pages(paper: Size, flip: str = "long") -> list[Page]:
    xs = [paper.w * 0.25, paper.w * 0.5, paper.w * 0.75]
    ys = [paper.h * 0.25, paper.h * 0.5, paper.h * 0.75]
    front: list[p.Primitive] = [
        layout(TextBox(15, 12, paper.w - 30, 30, message(f"calibration.front_{flip}"),
                       "sans-bold", 11, 7, "#1b1b1b", "left", "top", 1.25), book())]
    for x in xs:
        front.append(p.Line(x, 45, x, paper.h - 30, "#000000", 0.25))
    for y in ys:
        front.append(p.Line(20, y, paper.w - 20, y, "#000000", 0.25))
    back: list[p.Primitive] = [
        layout(TextBox(15, 12, paper.w - 30, 30, message("calibration.back"),
                       "sans-bold", 11, 7, "#1b1b1b", "left", "top", 1.25), book())]
    # Horizontal scales across the front's vertical lines (mirrored for the flip).
    for x in xs:
        bx = _mirror_x(paper, x, flip)
        for y in (ys[0] - 12, ys[2] + 12):
            by = _mirror_y(paper, y, flip)
            back += _scale(bx, by, horizontal=True)
        back.append(_label(bx - 20, _mirror_y(paper, ys[0] - 12, flip) - 9, 40, "BACK_DX"))
    for y in ys:
        by = _mirror_y(paper, y, flip)
        for x in (xs[0] - 14, xs[2] + 14):
            back += _scale(_mirror_x(paper, x, flip), by, horizontal=False)
        back.append(_label(_mirror_x(paper, xs[2] + 14, flip) - 4, by - 11, 20, "BACK_DY",
                           align="left"))
    return [Page(paper, (), tuple(front), bookmark=message("calibration.bookmark"), side="front"),
            Page(paper, (), tuple(back), side="back")]


def _scale(cx: float, cy: float, horizontal: bool) -> list[p.Primitive]:
    """Ticks every millimetre from -SPAN to +SPAN around (cx, cy), numbered every 2 mm."""
    prims: list[p.Primitive] = []
    for k in range(-SPAN, SPAN + 1):
        tick = 3.0 if k % 2 == 0 else 1.8
        if horizontal:
            prims.append(p.Line(cx + k, cy - tick, cx + k, cy, "#000000", 0.12))
        else:
            prims.append(p.Line(cx, cy + k, cx + tick, cy + k, "#000000", 0.12))
        if k % 2 == 0:
            text = f"{k:+d}" if k else "0"
            if horizontal:
                prims.append(_label(cx + k - 2.5, cy + 0.3, 5, text, 5.5))
            else:
                prims.append(_label(cx + 3.3, cy + k - 2, 6, text, 5.5, "left"))
    line = (p.Line(cx - SPAN, cy, cx + SPAN, cy, "#000000", 0.12) if horizontal
            else p.Line(cx, cy - SPAN, cx, cy + SPAN, "#000000", 0.12))
    return [line, *prims]
