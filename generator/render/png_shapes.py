"""Pillow drawing with the PDF's geometry, so a PNG matches its PDF (issue 13, item 6).

Pillow's own conventions differ from PDF in ways that showed up as whole-face differences in
the parity test (tests/test_render_parity.py):

- a box is inclusive pixel indices: [x0, x1] fills one pixel more than the area x0..x1, so
  every fill grew by a pixel of the supersampled canvas to the right and below;
- an outline is drawn inside its box, where PDF centres a stroke on the path: every framed
  card border sat half a stroke inside its place;
- a wide ``line`` has no joins (or round ones with ``joint="curve"``), PDF joins with a
  miter (limit 10) and cuts the ends square (butt caps);
- a dash pattern restarted at every corner and went round a rectangle from another corner
  than PDF's ``re`` / ReportLab's roundRect, so the dashes fell elsewhere.

Everything here works in pixels of the (supersampled) canvas, y downwards.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from PIL import ImageDraw

Point = tuple[float, float]
RGB = tuple[int, int, int]
MITER_LIMIT = 10.0  # PDF's default, which ReportLab keeps
KAPPA = 1 - 0.4472  # ReportLab's roundRect corner: control points 0.4472 r from the corner


def inclusive(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
    """Pillow's inclusive box for the area x0..x1, y0..y1: the pixels whose centres are in
    it (at least one pixel each way)."""
    i0, j0 = round(x0), round(y0)
    return i0, j0, max(i0, round(x1) - 1), max(j0, round(y1) - 1)


def polygon(draw: ImageDraw.ImageDraw, pts: Sequence[Point], fill: RGB) -> None:
    """Fill a polygon given in area coordinates (pixel i spans i..i+1). Pillow truncates the
    corners to whole pixels and fills both end pixels of every span, one pixel too many: half
    a pixel back keeps the extra pixel centred on the edges instead of all right and below."""
    draw.polygon([(x - 0.5, y - 0.5) for x, y in pts], fill=fill)


def rect(draw: ImageDraw.ImageDraw, box: Sequence[float], radius: float, fill: RGB | None,
         stroke: RGB | None, width: float) -> None:
    """A (rounded) rectangle: the fill covers the box, the stroke is centred on its edge."""
    x0, y0, x1, y1 = box
    if fill:
        if radius > 0:
            draw.rounded_rectangle(inclusive(x0, y0, x1, y1), radius=radius, fill=fill)
        else:
            draw.rectangle(inclusive(x0, y0, x1, y1), fill=fill)
    if stroke and width > 0:
        h = width / 2
        outer = inclusive(x0 - h, y0 - h, x1 + h, y1 + h)
        if radius > 0:
            draw.rounded_rectangle(outer, radius=radius + h, outline=stroke,
                                   width=max(1, round(width)))
        else:
            draw.rectangle(outer, outline=stroke, width=max(1, round(width)))


def ellipse(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB | None,
            stroke: RGB | None, width: float) -> None:
    """A circle: the fill covers radius r, the stroke is centred on it."""
    if fill:
        draw.ellipse(inclusive(cx - r, cy - r, cx + r, cy + r), fill=fill)
    if stroke and width > 0:
        h = width / 2
        draw.ellipse(inclusive(cx - r - h, cy - r - h, cx + r + h, cy + r + h), outline=stroke,
                     width=max(1, round(width)))


def rect_outline(x0: float, y0: float, x1: float, y1: float, radius: float,
                 steps: int = 8) -> list[Point]:
    """The rectangle's edge as a closed polyline, in the order PDF strokes it (y down):
    ``re`` and ReportLab's roundRect both start on the bottom edge at its left end (after the
    corner) and go right, up, left, down; dashes are laid out along this order."""
    r = max(0.0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    if r == 0:
        return [(x0, y1), (x1, y1), (x1, y0), (x0, y0), (x0, y1)]
    k = KAPPA * r
    pts: list[Point] = [(x0 + r, y1), (x1 - r, y1)]
    corners = (((x1 - r + k, y1), (x1, y1 - r + k), (x1, y1 - r)),
               ((x1, y0 + r - k), (x1 - r + k, y0), (x1 - r, y0)),
               ((x0 + r - k, y0), (x0, y0 + r - k), (x0, y0 + r)),
               ((x0, y1 - r + k), (x0 + r - k, y1), (x0 + r, y1)))
    edges = ((x1, y0 + r), (x0 + r, y0), (x0, y1 - r), None)
    for (c1, c2, end), edge in zip(corners, edges, strict=True):
        pts += bezier(pts[-1], c1, c2, end, steps)
        if edge is not None:
            pts.append(edge)
    return pts


def bezier(p0: Point, p1: Point, p2: Point, p3: Point, steps: int) -> list[Point]:
    """A cubic curve's points after p0, ``steps`` of them."""
    out = []
    for n in range(1, steps + 1):
        t = n / steps
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                    a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def dash_runs(pts: Sequence[Point], dash: Sequence[float]) -> list[list[Point]]:
    """The "on" parts of a dashed polyline (dash lengths in the polyline's units), the pattern
    running on across corners as PDF's does (phase 0 at the first point)."""
    period = sum(dash)
    if period <= 0 or len(pts) < 2:
        return [list(pts)]
    if len(dash) % 2:  # PDF repeats an odd pattern: [2] means 2 on, 2 off
        dash = [*dash, *dash]
    runs: list[list[Point]] = []
    k, left = 0, dash[0]  # current dash entry and what remains of it
    current: list[Point] | None = [pts[0]]
    for (xa, ya), (xb, yb) in itertools.pairwise(pts):
        length = math.hypot(xb - xa, yb - ya)
        pos = 0.0
        while length - pos > left:
            pos += left
            t = pos / length
            at = (xa + (xb - xa) * t, ya + (yb - ya) * t)
            if current is not None:  # an "on" entry ends here
                current.append(at)
                runs.append(current)
                current = None
            else:
                current = [at]
            k = (k + 1) % len(dash)
            left = dash[k]
        left -= length - pos
        if current is not None:
            current.append((xb, yb))
    if current is not None and len(current) > 1:
        runs.append(current)
    return [run for run in runs if len(run) > 1]


def stroke(draw: ImageDraw.ImageDraw, pts: Sequence[Point], colour: RGB, width: float) -> None:
    """Stroke a polyline as PDF does with its defaults: butt caps, miter joins (limit 10);
    closed when the last point is the first. ``polygon`` fills a pixel more than the area
    across each span, so the outline is drawn half a pixel narrower each side (a 0.3 mm rule
    at 100 dpi came out 1.7 px wide instead of 1.2)."""
    h = max(width / 2 - 0.5, 0.25)
    clean = [pt for i, pt in enumerate(pts) if i == 0 or pt != pts[i - 1]]
    if len(clean) < 2 or h <= 0:
        return
    closed = len(clean) > 2 and clean[0] == clean[-1]
    normals: list[Point] = []
    for (xa, ya), (xb, yb) in itertools.pairwise(clean):
        length = math.hypot(xb - xa, yb - ya)
        nx, ny = -(yb - ya) / length * h, (xb - xa) / length * h
        normals.append((nx, ny))
        polygon(draw, [(xa + nx, ya + ny), (xb + nx, yb + ny), (xb - nx, yb - ny),
                       (xa - nx, ya - ny)], colour)
    joins = [(clean[i + 1], normals[i], normals[i + 1]) for i in range(len(normals) - 1)]
    if closed:
        joins.append((clean[0], normals[-1], normals[0]))
    for (x, y), (ax, ay), (bx, by) in joins:
        if ax * bx + ay * by >= h * h * (1 - 1e-9):
            continue  # straight on: the two segments already meet
        d2x, d2y = by / h, -bx / h  # the next segment's direction (its normal turned back)
        s = -1.0 if ax * d2x + ay * d2y > 0 else 1.0  # the outside of the turn
        a = (x + s * ax, y + s * ay)
        b = (x + s * bx, y + s * by)
        mx, my = ax + bx, ay + by
        m2 = mx * mx + my * my
        if m2 <= 1e-12 or 2 * h / math.sqrt(m2) > MITER_LIMIT:
            polygon(draw, [(x, y), a, b], colour)  # bevel past the miter limit
            continue
        f = 2 * h * h / m2  # the miter tip: h / cos(half the angle between the normals)
        polygon(draw, [(x, y), a, (x + s * mx * f, y + s * my * f), b], colour)
