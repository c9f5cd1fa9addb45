"""The PNG renderer's scanline filler (generator/render/png_paths.py ``fill_polys``), checked
against a second computation: the winding number of every pixel centre counted edge by edge
(brute force), for both fill rules. The filler keeps its active edges as parallel lists,
advanced and sorted a row at a time; what it fills is exactly what the rule says."""
from __future__ import annotations

import math
import random

import pytest
from PIL import Image

from generator.render.png_paths import fill_polys

Poly = list[tuple[float, float]]


def winding(polys: list[Poly], px: float, py: float) -> int:
    """The nonzero winding number of (px, py): each edge crossing the horizontal line to its
    left counts its direction (down +1, up -1), as the filler counts them."""
    total = 0
    for poly in polys:
        for (ax, ay), (bx, by) in zip(poly, [*poly[1:], poly[0]], strict=True):
            if ay == by:
                continue
            low, high = min(ay, by), max(ay, by)
            if low <= py < high:
                x = ax + (py - ay) * (bx - ax) / (by - ay)
                if x < px:
                    total += 1 if by > ay else -1
    return total


def crossings(polys: list[Poly], px: float, py: float) -> int:
    return sum(1 for poly in polys
               for (ax, ay), (bx, by) in zip(poly, [*poly[1:], poly[0]], strict=True)
               if ay != by and min(ay, by) <= py < max(ay, by)
               and ax + (py - ay) * (bx - ax) / (by - ay) < px)


def filled(polys: list[Poly], rule: str, size: tuple[int, int] = (48, 40)) -> set[tuple[int, int]]:
    image = Image.new("L", size, 0)
    fill_polys(image, polys, 255, rule)  # type: ignore[arg-type]  # L: one channel
    return {(x, y) for y in range(size[1]) for x in range(size[0]) if image.getpixel((x, y))}


def expected(polys: list[Poly], rule: str, size: tuple[int, int] = (48, 40)
             ) -> set[tuple[int, int]]:
    inside = ((lambda x, y: winding(polys, x, y) != 0) if rule == "nonzero"
              else (lambda x, y: crossings(polys, x, y) % 2 == 1))
    return {(x, y) for y in range(size[1]) for x in range(size[0])
            if inside(x + 0.5, y + 0.5)}


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("rule", ["nonzero", "evenodd"])
def test_random_self_crossing_paths_fill_what_their_winding_says(seed, rule):
    rnd = random.Random(seed)
    polys = [[(rnd.uniform(-5, 53), rnd.uniform(-5, 45)) for _ in range(rnd.randint(3, 14))]
             for _ in range(rnd.randint(1, 4))]
    assert filled(polys, rule) == expected(polys, rule)


def square(x0: float, y0: float, x1: float, y1: float, clockwise: bool = True) -> Poly:
    pts = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return pts if clockwise else pts[::-1]


def test_holes_by_the_rule():
    outer = square(4.2, 4.2, 40.2, 30.2)
    for rule in ("nonzero", "evenodd"):
        hole = filled([outer, square(14.2, 10.2, 24.2, 20.2, clockwise=False)], rule)
        assert (20, 15) not in hole and (6, 6) in hole  # counter-wound: a hole either way
    same = [outer, square(14.2, 10.2, 24.2, 20.2)]
    assert (20, 15) in filled(same, "nonzero")  # wound the same way: filled twice over
    assert (20, 15) not in filled(same, "evenodd")


def test_a_pentagram_s_centre_by_the_rule():
    star = [(24 + 18 * math.sin(a), 20 - 18 * math.cos(a))
            for a in (i * 4 * math.pi / 5 + 0.01 for i in range(5))]
    assert (24, 20) in filled([star], "nonzero")
    assert (24, 20) not in filled([star], "evenodd")
    for rule in ("nonzero", "evenodd"):
        assert filled([star], rule) == expected([star], rule)


def test_a_pixel_is_filled_when_its_centre_is_inside():
    assert filled([square(2.5, 1.0, 5.5, 2.0)], "evenodd") == {(2, 1), (3, 1), (4, 1)}
    assert filled([square(2.51, 1.0, 5.49, 2.0)], "nonzero") == {(3, 1), (4, 1)}


def test_many_edges_crossing_every_row():
    """The filler's worst case (an edge list as long as the outline on every row) gives
    what the rule says too."""
    zigzag = [(i * 47 / 200, 38.7 if i % 2 else 1.3) for i in range(200)]
    for rule in ("nonzero", "evenodd"):
        assert filled([zigzag], rule) == expected([zigzag], rule)
