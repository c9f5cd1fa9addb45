"""Geometry of printable dice nets, offered to face templates as functions.

Geometry, not data: which edges of a net join when folded is fixed by the solid, so it lives
here; the look (colours, sizes, numbers or pips) stays in the template.

Called from templates (user input): arguments are checked first (finite numbers), and every
net has a fixed number of points, so no argument can make one big.
"""
from __future__ import annotations

import math
from typing import Any

from .shapes import number

Point = tuple[float, float]

# Pip centres on a unit square for each d6 face.
PIPS: dict[int, list[Point]] = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def pips(value: int) -> list[Point]:
    """Pip centres (unit square) of a d6 face; values outside 1-6 have none."""
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit() and len(value) < 20:
        value = int(value)
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"pips(): the value must be a number, got {type(value).__name__}")
    return list(PIPS.get(int(value), []))  # a copy: the table stays ours


def _tab(a: Point, b: Point, depth: float) -> list[Point]:
    """A glue tab on edge a->b, on its left side when walking a->b with y downwards."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    nx, ny = (by - ay) / length * depth, -(bx - ax) / length * depth
    inset = 0.25
    return [a, (ax + (bx - ax) * inset + nx, ay + (by - ay) * inset + ny),
            (ax + (bx - ax) * (1 - inset) + nx, ay + (by - ay) * (1 - inset) + ny), b]


def d6_net(x: float, y: float, s: float) -> dict[str, Any]:
    """A cross of six squares (side ``s``) with its top-left bounding corner at (x + s, y).

    Column A, B, C, D with L and R beside B; values A=2, B=1, C=5, D=6, L=3, R=4, so opposite
    faces (A-C, B-D, L-R) sum to 7. Seven tabs, one for each pair of edges that meet.
    Bounding box: 3s wide (from x) and 4s tall (from y).
    """
    x, y, s = number("d6_net", "x", x), number("d6_net", "y", y), number("d6_net", "s", s)
    cells = {"A": (1, 0, 2), "B": (1, 1, 1), "C": (1, 2, 5), "D": (1, 3, 6),
             "L": (0, 1, 3), "R": (2, 1, 4)}
    squares = [{"x": x + c * s, "y": y + r * s, "s": s, "value": v} for c, r, v in cells.values()]

    def corner(c: float, r: float) -> Point:
        return (x + c * s, y + r * s)
    depth = s * 0.28
    # Edges walked so the tab falls outside the net: (A left), (A right), (C left), (C right),
    # (D left), (D right), (D bottom).
    tabs = [
        _tab(corner(1, 1), corner(1, 0), depth), _tab(corner(2, 0), corner(2, 1), depth),
        _tab(corner(1, 3), corner(1, 2), depth), _tab(corner(2, 2), corner(2, 3), depth),
        _tab(corner(1, 4), corner(1, 3), depth), _tab(corner(2, 3), corner(2, 4), depth),
        _tab(corner(2, 4), corner(1, 4), depth),
    ]
    return {"squares": squares, "tabs": tabs, "width": 3 * s, "height": 4 * s}


def d4_net(x: float, y: float, a: float) -> dict[str, Any]:
    """A triangle of side 2a cut into four, apex up, bounding box from (x, y).

    Tetrahedron vertices: the three outer corners fold together (number 1); the midpoints are
    2 (left side), 3 (right side) and 4 (base). Each face shows, near each corner, the number
    of that vertex, so the number at the top is the same on every visible face. Three tabs.
    """
    x, y, a = number("d4_net", "x", x), number("d4_net", "y", y), number("d4_net", "a", a)
    h = a * math.sqrt(3) / 2  # height of one small triangle
    p1, p2, p3 = (x + a, y), (x, y + 2 * h), (x + 2 * a, y + 2 * h)
    m12 = ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
    m13 = ((p1[0] + p3[0]) / 2, (p1[1] + p3[1]) / 2)
    m23 = ((p2[0] + p3[0]) / 2, (p2[1] + p3[1]) / 2)
    faces = [((p1, 1), (m12, 2), (m13, 3)), ((m12, 2), (p2, 1), (m23, 4)),
             ((m13, 3), (m23, 4), (p3, 1)), ((m12, 2), (m23, 4), (m13, 3))]
    triangles, numbers = [], []
    for face in faces:
        pts = [pt for pt, _ in face]
        triangles.append(pts)
        cx = sum(px for px, _ in pts) / 3
        cy = sum(py for _, py in pts) / 3
        for (px, py), n in face:
            numbers.append({"x": px + (cx - px) * 0.42, "y": py + (cy - py) * 0.42, "n": n})
    depth = a * 0.22
    tabs = [_tab(m12, p1, depth), _tab(m13, p3, depth), _tab(m23, p2, depth)]
    return {"triangles": triangles, "numbers": numbers, "tabs": tabs, "width": 2 * a,
            "height": 2 * h}
