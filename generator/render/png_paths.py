"""Paths filled by their fill rule, and SVG art, in the PNG renderer.

Pillow fills one polygon at a time (even-odd within it), so a path of several subpaths used
to be filled subpath by subpath: a ring's hole, a letter's counter, the holes that SVG icons
from game-icons.net or Inkscape cut with counter-wound subpaths, all came out filled, where
the PDF leaves them empty. Here a path's subpaths are rasterised together by a scanline
filler that follows the PDF rules: at each pixel centre (i + 0.5, j + 0.5: pixel i covers
i..i+1, as in generator/render/png_shapes.py) the edges crossed to its left are counted with
their direction; ``nonzero`` (SVG's default) fills where the sum is not zero, ``evenodd``
where the number of crossings is odd. Anti-aliasing comes from the painter's supersampling,
as for every other shape.

SVG art (a ``Vector``) is drawn shape by shape through the painter (so translucent shapes
blend as elsewhere) and then cut to its box and clip: what lies outside is put back as it was,
as the PDF's form bounding box and clipping path show nothing there.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import accumulate
from operator import add

from PIL import Image, ImageDraw

from generator.core import primitives as p
from generator.core.vector import paints
from generator.render.png_surface import Surface

from . import png_shapes as shapes

Point = tuple[float, float]
RGB = tuple[int, int, int]


def needs_rule(polys: Sequence[Sequence[Point]], rule: str) -> bool:
    """Whether a fill must go through ``fill_polys``: several subpaths (holes, overlaps) or
    the nonzero rule (a self-crossing outline); one even-odd polygon is Pillow's own fill."""
    return rule == "nonzero" or sum(1 for poly in polys if len(poly) > 2) > 1


def fill_polys(image: Image.Image, polys: Sequence[Sequence[Point]], colour: RGB,
               rule: str) -> None:
    """Fill the closed polygons (canvas pixels, each implicitly closed) together."""
    edges: list[tuple[float, float, float, float, int]] = []  # y top, y bottom, x, dx/dy, dir
    for poly in polys:
        if len(poly) < 3:
            continue
        for (ax, ay), (bx, by) in zip(poly, [*poly[1:], poly[0]], strict=True):
            if ay == by or not all(map(math.isfinite, (ax, ay, bx, by))):
                continue
            direction = 1 if by > ay else -1
            if ay > by:
                ax, ay, bx, by = bx, by, ax, ay
            edges.append((ay, by, ax, (bx - ax) / (by - ay), direction))
    if not edges:
        return
    width, height = image.size
    reach = [e[2] for e in edges] + [e[2] + e[3] * (e[1] - e[0]) for e in edges]
    left = max(0, math.floor(min(reach)))
    right = min(width, math.ceil(max(reach)) + 1)
    top = max(0, math.floor(min(e[0] for e in edges)))
    bottom = min(height, math.ceil(max(e[1] for e in edges)) + 1)
    if left >= right or top >= bottom:
        return
    span_w = right - left
    mask = bytearray(span_w * (bottom - top))
    ink = b"\xff" * span_w
    edges.sort()
    # The active edges as parallel lists (their x at this row's centre, dx per row, y
    # bottom, direction): each row advances every x in one ``map`` and sorts a copy,
    # instead of a Python statement per edge per row. The same floating-point steps as
    # before (the same pixels), ~35% less time for even-odd, ~15% for nonzero; the work
    # meter charges an edge a row all the same (generator/core/vector.py).
    xs: list[float] = []
    slopes: list[float] = []
    ends: list[float] = []
    turns: list[int] = []
    nonzero = rule == "nonzero"
    ceil = math.ceil
    waiting, count = 0, len(edges)
    last_end = math.inf  # the least y bottom of the active edges
    for row in range(top, bottom):
        yc = row + 0.5
        while waiting < count and edges[waiting][0] <= yc:
            ay, by, ax, slope, direction = edges[waiting]
            waiting += 1
            if by > yc:
                xs.append(ax + (yc - ay) * slope)
                slopes.append(slope)
                ends.append(by)
                turns.append(direction)
                last_end = min(last_end, by)
        if not xs:
            if waiting >= count:
                break
            continue
        offset = (row - top) * span_w - left
        if nonzero:  # a span runs from where the winding leaves 0 to where it is 0 again
            order = sorted(range(len(xs)), key=xs.__getitem__)
            at = [xs[i] for i in order]
            closing = [i for i, w in enumerate(accumulate([turns[i] for i in order])) if not w]
            spans = zip([at[0]] + [at[i + 1] for i in closing[:-1]],
                        [at[i] for i in closing], strict=True)
        else:
            at = sorted(xs)
            spans = zip(at[0::2], at[1::2], strict=False)
        for start, x in spans:
            first, last = max(left, ceil(start - 0.5)), min(right, ceil(x - 0.5))
            if last > first:
                mask[offset + first:offset + last] = ink[:last - first]
        following = yc + 1
        xs = list(map(add, xs, slopes))
        if last_end <= following:  # some edges end before the next row's centre
            kept = [i for i, end in enumerate(ends) if end > following]
            xs = [xs[i] for i in kept]
            slopes = [slopes[i] for i in kept]
            ends = [ends[i] for i in kept]
            turns = [turns[i] for i in kept]
            last_end = min(ends, default=math.inf)
    image.paste(colour, (left, top), Image.frombytes("L", (span_w, bottom - top), bytes(mask)))


def stroke_ends(draw: ImageDraw.ImageDraw, pts: Sequence[Point], colour: RGB, width: float,
                cap: str, join: str) -> None:
    """Round or square line ends and round corners, added to a polyline that
    ``png_shapes.stroke`` drew with PDF's defaults (butt ends, miter corners)."""
    clean = [pt for i, pt in enumerate(pts) if i == 0 or pt != pts[i - 1]]
    if len(clean) < 2 or width <= 0:
        return
    h = width / 2
    closed = len(clean) > 2 and clean[0] == clean[-1]
    if join == "round":
        for x, y in clean[1:-1] + ([clean[0]] if closed else []):
            shapes.ellipse(draw, x, y, h, colour, None, 0)
    if closed or cap == "butt":
        return
    for (x, y), (ox, oy) in ((clean[0], clean[1]), (clean[-1], clean[-2])):
        if cap == "round":
            shapes.ellipse(draw, x, y, h, colour, None, 0)
            continue
        length = math.hypot(x - ox, y - oy)
        dx, dy = (x - ox) / length * h, (y - oy) / length * h  # outwards, half the width
        shapes.polygon(draw, [(x - dy, y + dx), (x + dx - dy, y + dy + dx),
                              (x + dx + dy, y + dy - dx), (x + dy, y - dx)], colour)


def paint_vector(painter: Surface, prim: p.Vector) -> None:
    """SVG art: its view box stretched over (x, y, w, h), only the box (and clip) shown."""
    drawing = painter.resources.drawing(prim.path)
    sx, sy = prim.w / drawing.view_w, prim.h / drawing.view_h
    scale = math.sqrt(abs(sx * sy))  # stroke widths (the PDF's scale is sx, sy each way)
    x0, y0, x1, y1 = prim.x, prim.y, prim.x + prim.w, prim.y + prim.h
    if prim.clip is not None:
        cx, cy, cw, ch = prim.clip
        x0, y0, x1, y1 = max(x0, cx), max(y0, cy), min(x1, cx + cw), min(y1, cy + ch)
    (px0, py0), (px1, py1) = painter.pt(x0, y0), painter.pt(x1, y1)
    keep = (round(px0), round(py0), round(px1), round(py1))
    before = painter.image.copy()
    for shape in drawing.shapes:
        fill, stroke = paints(shape, "#000000", "#ffffff")
        segments = tuple((op, tuple(v * (sx if i % 2 == 0 else sy) + (prim.x if i % 2 == 0
                                                                      else prim.y)
                                    for i, v in enumerate(args)))
                         for op, args in shape.segments)
        painter.paint(p.Path(segments, fill, stroke, shape.width * scale, shape.rule,
                             shape.cap, shape.join))
    if keep[0] < keep[2] and keep[1] < keep[3]:
        shown = painter.image.crop(keep)
        painter.image.paste(before)
        painter.image.paste(shown, keep[:2])
    else:
        painter.image.paste(before)
