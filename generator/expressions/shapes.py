"""Shape geometry for templates: arrows, stars and regular polygons as point lists (mm).

Jinja has no trigonometry, and a designer should not need it: a template asks for
``arrow(cx, cy, length, width, dx, dy)`` and gets a polygon pointing along (dx, dy).

Templates are user input: every argument is checked (a finite number; a whole count of at
most ``MAX_POINTS`` points) before anything is computed, and a bad one is a ``ValueError``
naming the function and the argument.
"""
from __future__ import annotations

import math
import operator
from typing import Any

from generator.core.words import said

Point = tuple[float, float]
MAX_POINTS = 1_000  # points of one generated shape
MAX_COORDINATE = 1e6  # mm: no argument is bigger (a face is at most a few hundred mm)


def number(function: str, name: str, value: Any) -> float:
    """An argument that must be a finite number."""
    if not isinstance(value, (int, float)):
        raise ValueError(f"{function}(): {name} must be a number, got {type(value).__name__}")
    try:
        out = float(value)
    except OverflowError:
        out = math.inf
    if not abs(out) <= MAX_COORDINATE:  # also refuses inf and nan
        raise ValueError(f"{function}(): {name} must be a number within "
                         f"+/-{MAX_COORDINATE:g}, got {said(value, 40)}")
    return out


def count(function: str, name: str, value: Any, low: int, high: int) -> int:
    """An argument that must be a whole number from ``low`` to ``high``."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    try:
        out = operator.index(value)
    except TypeError:
        raise ValueError(f"{function}(): {name} must be a whole number, got "
                         f"{type(value).__name__}") from None
    if not low <= out <= high:
        got = f", got {out}" if abs(out) < 10 ** 40 else ""
        raise ValueError(f"{function}(): {name} must be from {low} to {high}{got}")
    return out


def arrow(cx: float, cy: float, length: float, width: float, dx: float, dy: float
          ) -> list[Point]:
    """A block arrow centred on (cx, cy), pointing along (dx, dy) (y downwards)."""
    cx, cy, length, width, dx, dy = (number("arrow", name, value) for name, value in (
        ("cx", cx), ("cy", cy), ("length", length), ("width", width), ("dx", dx), ("dy", dy)))
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
    cx, cy, r, turn = (number("regular", name, value) for name, value in (
        ("cx", cx), ("cy", cy), ("r", r), ("turn", turn)))
    sides = count("regular", "sides", sides, 3, MAX_POINTS)
    return [(cx + r * math.cos(math.radians(turn + 360 * k / sides)),
             cy + r * math.sin(math.radians(turn + 360 * k / sides))) for k in range(sides)]


def star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[Point]:
    """A star of ``points`` tips (radius ``r``) and as many inner corners (``r * inner``)."""
    cx, cy, r, inner = (number("star", name, value) for name, value in (
        ("cx", cx), ("cy", cy), ("r", r), ("inner", inner)))
    points = count("star", "points", points, 2, MAX_POINTS // 2)
    out = []
    for k in range(points * 2):
        radius = r if k % 2 == 0 else r * inner
        angle = math.radians(-90 + 180 * k / points)
        out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return out
