"""Shape geometry for templates: arrows, stars and regular polygons as point lists (mm).

Jinja has no trigonometry, and a designer should not need it: a template asks for
``arrow(cx, cy, length, width, dx, dy)`` and gets a polygon pointing along (dx, dy).
"""
from __future__ import annotations

import math

Point = tuple[float, float]


def arrow(cx: float, cy: float, length: float, width: float, dx: float, dy: float
          ) -> list[Point]:
    """A block arrow centred on (cx, cy), pointing along (dx, dy) (y downwards)."""
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    px, py = -uy, ux  # perpendicular
    shaft, head = width * 0.38, width / 2
    tail = -length / 2
    neck = length / 2 - width * 0.75
    tip = length / 2
    local = [(tail, -shaft), (neck, -shaft), (neck, -head), (tip, 0.0), (neck, head),
             (neck, shaft), (tail, shaft)]
    return [(cx + a * ux + b * px, cy + a * uy + b * py) for a, b in local]


def regular(cx: float, cy: float, r: float, sides: int, turn: float = -90.0) -> list[Point]:
    """A regular polygon with a corner at angle ``turn`` degrees (-90 = pointing up)."""
    return [(cx + r * math.cos(math.radians(turn + 360 * k / sides)),
             cy + r * math.sin(math.radians(turn + 360 * k / sides))) for k in range(sides)]


def star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[Point]:
    out = []
    for k in range(points * 2):
        radius = r if k % 2 == 0 else r * inner
        angle = math.radians(-90 + 180 * k / points)
        out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return out
