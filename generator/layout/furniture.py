"""Page furniture as primitives: cut marks, footer line, 50 mm check ruler, registration marks
and the assembly map of a tiled board."""
from __future__ import annotations

from ..faces import primitives as p
from ..faces.text import TextBox, TextDoesNotFit, layout
from .page import Box

MARK_WIDTH = 0.18  # ~0.5 pt
INK = "#000000"
GREY = "#9a9a9a"
RULER_MM = 50.0


def lines(segments: list[tuple[float, float, float, float]], colour: str = INK,
          width: float = MARK_WIDTH) -> list[p.Primitive]:
    return [p.Line(x1, y1, x2, y2, colour, width) for x1, y1, x2, y2 in segments]


def _rotated(box: Box, rotate: int) -> Box:
    """The un-rotated text box that, turned ``rotate`` degrees about its centre, fills ``box``."""
    x, y, w, h = box
    if rotate in (90, 270):
        cx, cy = x + w / 2, y + h / 2
        return (cx - h / 2, cy - w / 2, h, w)
    return box


def footer(box: Box, rotate: int, text: str) -> list[p.Primitive]:
    """One line of small grey text: game, component, sheet n/m, credit. Shrinks to fit, and
    drops the tail of an overlong credit rather than failing a build over a footer."""
    x, y, w, h = _rotated(box, rotate)
    while True:
        try:
            return [layout(TextBox(x, y + 0.6, w, h - 0.6, text, "sans", 7.0, 4.5, "#555555",
                                   "center", "top", 1.0, rotate))]
        except TextDoesNotFit:
            if len(text) < 20:
                return []
            text = text[: int(len(text) * 0.9)].rstrip() + "…"


def ruler(box: Box, rotate: int) -> list[p.Primitive]:
    """A 50 mm scale with 10 mm ticks: if it does not measure 50 mm, the printer scaled the
    page ("fit to page") and the cut lines are off."""
    x, y, w, h = _rotated(box, rotate)
    x0 = x + 2.0
    base = y + h - 0.8
    prims: list[p.Primitive] = [p.Line(x0, base, x0 + RULER_MM, base, INK, 0.25)]
    for k in range(0, 51, 5):
        tick = 2.2 if k % 10 == 0 else 1.2
        prims.append(p.Line(x0 + k, base, x0 + k, base - tick, INK, 0.2))
    label = layout(TextBox(x0 + RULER_MM + 2, y, 80, h, "50 mm: check this measures 50 mm "
                           "(print at 100%, no fit-to-page)", "sans", 6.5, 4.5, "#555555",
                           "left", "middle", 1.0))
    prims.append(label)
    if rotate:
        prims = [_turn(prim, rotate, x + w / 2, y + h / 2) for prim in prims]
    return prims


def _turn(prim: p.Primitive, rotate: int, cx: float, cy: float) -> p.Primitive:
    """Turn a ruler line or label about (cx, cy) by 90 or 270 degrees (counter-clockwise, as
    seen on the page)."""
    def pt(px: float, py: float) -> tuple[float, float]:
        dx, dy = px - cx, py - cy
        return (cx + dy, cy - dx) if rotate == 90 else (cx - dy, cy + dx)
    if isinstance(prim, p.Line):
        (a, b), (c, d) = pt(prim.x1, prim.y1), pt(prim.x2, prim.y2)
        return p.Line(a, b, c, d, prim.stroke, prim.width, prim.dash)
    assert isinstance(prim, p.Text)
    return p.Text(prim.lines, prim.font, prim.size, prim.fill, rotate, cx, cy)


def registration(x: float, y: float, r: float = 2.5) -> list[p.Primitive]:
    """A crosshair in a circle: line two tiles up on these when gluing a board together."""
    return [p.Circle(x, y, r, None, INK, 0.15),
            p.Line(x - r - 1.5, y, x + r + 1.5, y, INK, 0.15),
            p.Line(x, y - r - 1.5, x, y + r + 1.5, INK, 0.15)]


def assembly_map(box: Box, cols: int, rows: int, current: tuple[int, int]) -> list[p.Primitive]:
    """A thumbnail of the tile grid with this page's tile filled, and its name (A1, B2...)."""
    x, y, _, h = box
    cell = min(h / rows, 6.0)
    prims: list[p.Primitive] = []
    for r in range(rows):
        for c in range(cols):
            fill = "#555555" if (c, r) == current else None
            prims.append(p.Rect(x + c * cell, y + r * cell, cell, cell, fill, INK, 0.15))
    prims.append(layout(TextBox(x + cols * cell + 1.5, y, 40, min(h, rows * cell),
                                f"tile {tile_name(*current)} of {cols * rows}", "sans-bold", 7,
                                5, "#333333", "left", "middle", 1.0)))
    return prims


def tile_name(col: int, row: int) -> str:
    """Column letter + row number, as on a map: A1 is the top-left tile."""
    return f"{chr(ord('A') + col)}{row + 1}"
