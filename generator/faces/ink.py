"""Where a face's ink lies: the extent of each primitive in face millimetres, text measured
glyph by glyph from its font's metrics (the ``FontBook`` the caller hands in).

One measure for the two places that ask: pre-flight (game information too close to a trim
edge) and the board tiler (a seam that must pass clear of the words a board prints).
"""
from __future__ import annotations

from generator.core import primitives as p
from generator.core.drawing import FontBook
from generator.core.primitives import PT_TO_MM, turn_vector

# Game information (text, icons, pips) stays at least this far inside every trim edge: home
# cutting drifts 1-2 mm, so a cut that drifts still leaves it whole.
SAFE_MM = 3.0

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def text_box(prim: p.Text, fonts: FontBook) -> Box | None:
    if not prim.lines:
        return None
    ascent, descent = fonts.vertical_metrics(prim.font)
    size_mm = prim.size * PT_TO_MM
    xs, ys = [], []
    for x, baseline, line, font, _ in prim.runs():  # each run in its own font (rich text)
        width = fonts.text_width_mm(font, line, prim.size)
        for cx in (x, x + width):
            for cy in (baseline - ascent * size_mm, baseline - descent * size_mm):
                dx, dy = turn_vector(cx - prim.ox, cy - prim.oy, prim.rotate)
                xs.append(prim.ox + dx if prim.rotate else cx)
                ys.append(prim.oy + dy if prim.rotate else cy)
    for icon in prim.icons:  # inline icons, placed on the face already
        x0, y0, x1, y1 = bounds(icon, fonts) or (xs[0], ys[0], xs[0], ys[0])
        xs += [x0, x1]
        ys += [y0, y1]
    return (min(xs), min(ys), max(xs), max(ys))


def bounds(prim: p.Primitive, fonts: FontBook) -> Box | None:
    """The extent of a primitive's ink in face millimetres: a text's measured here (by
    ``fonts``), every other kind's its own (``extent``, generator/core/primitives.py)."""
    if isinstance(prim, p.Text):
        return text_box(prim, fonts)
    return prim.extent()
