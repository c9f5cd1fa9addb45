"""Page furniture as primitives: cut marks, footer line, 50 mm check ruler, and the glue strips
of a tiled board. Furniture text is never under 5 pt."""
from __future__ import annotations

import contextlib
import math

from generator.core import primitives as p
from generator.core.model import Size
from generator.data.translation.i18n import message
from generator.data.typefaces.fonts import book

from ..faces.text import TextBox, TextDoesNotFit, layout
from .marks import Mark
from .page import Box

MARK_WIDTH = 0.18  # ~0.5 pt
HALO_WIDTH = 0.6  # the white edge of a cut mark drawn across art
INK = "#000000"
GREY = "#9a9a9a"
RULER_MM = 50.0
MIN_FURNITURE_PT = 5.0
# Page furniture and the contents sheet are full of numbers (pages, sheets, mm, 100 %):
# DejaVu Sans Condensed has a plain zero, where Atkinson Hyperlegible's slashed zero reads as
# Ø, and its narrow figures keep page lists short.
TEXT_FONT = "condensed"
BOLD_FONT = "condensed-bold"


def lines(segments: list[tuple[float, float, float, float]], colour: str = INK,
          width: float = MARK_WIDTH) -> list[p.Primitive]:
    return [p.Line(x1, y1, x2, y2, colour, width) for x1, y1, x2, y2 in segments]


# A round piece's cut guide: short grey ticks in its ring of art, pointing at the centre, from
# TICK_CLEAR outside the cut circle outwards; never a line on the circle itself, which a punch
# a little off left as a grey arc on the token. Cut round the circle their inner ends mark.
TICK_CLEAR = 0.5
TICK_LENGTH = 2.0
TICKS = 8
TICK_WIDTH = 0.15


def circle_ticks(trims: list[Box]) -> list[p.Primitive]:
    """The cut guide of each round piece (``trims``: their square trim boxes): ``TICKS``
    radial ticks between ``TICK_CLEAR`` and ``TICK_CLEAR + TICK_LENGTH`` mm outside its
    circle, in the bleed that is cut or punched away with them."""
    out: list[p.Primitive] = []
    for x, y, w, h in trims:
        cx, cy, r = x + w / 2, y + h / 2, min(w, h) / 2
        for k in range(TICKS):
            a = 2 * math.pi * k / TICKS
            dx, dy = math.cos(a), math.sin(a)
            near, far = r + TICK_CLEAR, r + TICK_CLEAR + TICK_LENGTH
            out.append(p.Line(round(cx + near * dx, 4), round(cy + near * dy, 4),
                              round(cx + far * dx, 4), round(cy + far * dy, 4), GREY,
                              TICK_WIDTH))
    return out


def mark_lines(marks: list[Mark]) -> list[p.Primitive]:
    """Black cut marks; one drawn across art gets a white edge under it, so it shows on any
    art (the bleed it lies on is cut away with it)."""
    halo = [m.segment for m in marks if m.over_art]
    return [*lines(halo, "#ffffff", HALO_WIDTH), *lines([m.segment for m in marks])]


def _rotated(box: Box, rotate: int) -> Box:
    """The un-rotated text box that, turned ``rotate`` degrees about its centre, fills ``box``."""
    x, y, w, h = box
    if rotate in (90, 270):
        cx, cy = x + w / 2, y + h / 2
        return (cx - h / 2, cy - w / 2, h, w)
    return box


SEPARATOR = " · "  # between the parts of a footer line


def footer(box: Box, rotate: int, text: str) -> list[p.Primitive]:
    """One line of small grey text: "game · sheet n/m · what is on it · credit". Shrinks to
    fit; if it still does not, shortens the longest part before the credit (the credit is the
    licence's attribution, so it goes last), rather than failing a build over a footer."""
    x, y, w, h = _rotated(box, rotate)
    parts = text.split(SEPARATOR)
    while True:
        try:
            return [layout(TextBox(x, y + 0.6, w, h - 0.6, SEPARATOR.join(parts), TEXT_FONT,
                                   7.0, MIN_FURNITURE_PT, "#555555", "center", "top", 1.0,
                                   rotate), book())]
        except TextDoesNotFit:
            longest = max(range(len(parts) - 1), key=lambda i: len(parts[i]), default=None)
            if longest is not None and len(parts[longest]) > 16:
                parts[longest] = parts[longest][: int(len(parts[longest]) * 0.8)].rstrip() + "…"
            elif len(parts[-1]) >= 20:
                parts[-1] = parts[-1][: int(len(parts[-1]) * 0.9)].rstrip() + "…"
            else:
                return []


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
    label = layout(TextBox(x0 + RULER_MM + 2, y, 90, h, message("ruler.label"), TEXT_FONT, 6.5,
                           MIN_FURNITURE_PT, "#555555", "left", "middle", 1.0), book())
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


def glue_strip(box: Box, text: str, ticks: list[tuple[float, float, float, float]]
               ) -> list[p.Primitive]:
    """A tinted glue strip with its label along it and registration ticks where the
    neighbour's corners go."""
    x, y, w, h = box
    prims: list[p.Primitive] = [p.Rect(x, y, w, h, "#e6e6e6", GREY, 0.15)]
    rotate = 90 if h > w else 0
    tx, ty, tw, th = _rotated((x + 0.5, y + 0.5, w - 1, h - 1), rotate)
    with contextlib.suppress(TextDoesNotFit):  # a label is a help, never worth a failure
        prims.append(layout(TextBox(tx, ty, tw, th, text, BOLD_FONT, 7.0, MIN_FURNITURE_PT,
                                    "#555555", "center", "middle", 1.0, rotate), book()))
    prims += lines(ticks, INK, 0.35)
    return prims


# A draft's mark (watch with failing checks): red, translucent over the art, so the pieces
# still show through while no one can take the sheet for a finished kit.
DRAFT_RED = "#d0103a"
DRAFT_TEXT = DRAFT_RED + "66"  # 40 % over the art
DRAFT_BAND = "#ffffff8c"  # 55 % white under the words
DRAFT_EDGE = 2.5  # mm: the red frame's distance from the paper's edge (inside any margin)


def not_verified(paper: Size, failing: int) -> list[p.Primitive]:
    """NOT VERIFIED across the middle of a page, how many checks fail under it and a red frame
    round the paper: the mark of a kit built while its checks fail (``pnp watch``), which a
    plain build refuses to print. The frame is always drawn; a text that does not fit the
    page (a token's own page in the one-piece-per-page layout) is left out."""
    w, h = paper.w, paper.h
    edge = min(DRAFT_EDGE, w / 8, h / 8)
    prims: list[p.Primitive] = [p.Rect(edge, edge, w - 2 * edge, h - 2 * edge, None,
                                       DRAFT_RED, min(1.2, edge / 2))]
    key = "watch.not_verified_one" if failing == 1 else "watch.not_verified_many"
    big = min(72.0, w * 0.9)  # pt: about the page's width for the two words
    texts = ((message("watch.not_verified"), h / 2 - h * 0.1, h * 0.1, big, 8.0, DRAFT_TEXT),
             (message(key, count=failing), h / 2 + h * 0.01, h * 0.06, 16.0, 5.0,
              DRAFT_RED + "b3"))
    words: list[p.Primitive] = []
    for text, y, height, size, smallest, colour in texts:
        with contextlib.suppress(TextDoesNotFit):
            words.append(layout(TextBox(w * 0.08, y, w * 0.84, height, text, BOLD_FONT, size,
                                        smallest, colour, "center", "middle", 1.0), book()))
    if words:  # a pale band under the words: legible on dark art too
        top, bottom = h / 2 - h * 0.1, h / 2 + h * 0.07
        prims.append(p.Rect(w * 0.05, top, w * 0.9, bottom - top, DRAFT_BAND, None, 0.0))
    return prims + words
