"""Boards larger than the paper, split into overlapping tiles. Pure geometry.

Tiles are spread evenly, so every seam overlaps by the same amount (at least ``min_overlap``,
more than the printer margin, so nothing of the board is lost to the unprintable edge).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ..model import Size
from .sheet import LayoutError


@dataclass(frozen=True)
class Tile:
    col: int
    row: int
    x0: float  # board coordinates of the tile window's top-left corner
    y0: float
    w: float
    h: float


@dataclass(frozen=True)
class TilePlan:
    board: Size
    cols: int
    rows: int
    tiles: tuple[Tile, ...]

    def seams_x(self) -> list[tuple[float, float]]:
        """(start, end) of each vertical overlap band, in board x."""
        firsts = [t for t in self.tiles if t.row == 0]
        return [(b.x0, a.x0 + a.w) for a, b in itertools.pairwise(firsts)]

    def seams_y(self) -> list[tuple[float, float]]:
        firsts = [t for t in self.tiles if t.col == 0]
        return [(b.y0, a.y0 + a.h) for a, b in itertools.pairwise(firsts)]

    def registration_points(self) -> list[tuple[float, float]]:
        """Board points inside overlaps, so each shows on every tile that shares the seam."""
        points = []
        for start, end in self.seams_x():
            x = (start + end) / 2
            for tile in (t for t in self.tiles if t.col == 0):
                points += [(x, tile.y0 + tile.h * 0.25), (x, tile.y0 + tile.h * 0.75)]
        for start, end in self.seams_y():
            y = (start + end) / 2
            for tile in (t for t in self.tiles if t.row == 0):
                points += [(tile.x0 + tile.w * 0.25, y), (tile.x0 + tile.w * 0.75, y)]
        return points


def _split(length: float, window: float, min_overlap: float) -> list[tuple[float, float]]:
    """(start, size) of each tile along one axis."""
    if length <= window + 1e-9:
        return [(0.0, length)]
    if window <= min_overlap:
        raise LayoutError(f"a tile window of {window:g} mm cannot overlap by {min_overlap:g} mm")
    n = math.ceil((length - min_overlap) / (window - min_overlap) - 1e-9)
    n = max(n, 2)
    step = (length - window) / (n - 1)
    return [(round(i * step, 4), window) for i in range(n)]


def plan_tiles(board: Size, window: Size, min_overlap: float = 10.0) -> TilePlan:
    xs = _split(board.w, window.w, min_overlap)
    ys = _split(board.h, window.h, min_overlap)
    tiles = tuple(Tile(c, r, x0, y0, w, h)
                  for r, (y0, h) in enumerate(ys) for c, (x0, w) in enumerate(xs))
    return TilePlan(board, len(xs), len(ys), tiles)
