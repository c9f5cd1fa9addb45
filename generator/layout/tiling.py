"""Boards larger than the paper, cut into tiles joined by glue strips. Pure geometry.

Each tile carries its share of the board; a tile with a neighbour to its right (or below) also
carries a blank glue strip of ``GLUE`` mm on that side. Assembly: glue the strip under the
neighbour, the neighbour's edge on the strip's inner edge and its corners on the strip's end
marks. A board that names its cell boundaries is split on them where the shares still fit
(never through a play cell or a start space, same number of tiles); otherwise evenly. No board
content is printed twice and no mark falls inside the board (so never inside a play cell).

Tiles may be laid on the paper upright (portrait) or turned (landscape); ``plan_board`` picks
the orientation that needs the fewest tiles.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from generator.core.model import Size
from generator.data.i18n import message

from .sheet import LayoutError

GLUE = 10.0


@dataclass(frozen=True)
class Tile:
    col: int
    row: int
    x0: float  # board coordinates of the tile's share of the board
    y0: float
    w: float
    h: float
    glue_right: bool  # a glue strip on the right (the neighbour in the next column)
    glue_below: bool
    cols: int = 1  # columns of the plan, for naming

    @property
    def name(self) -> str:
        return tile_name(self.col, self.row, self.cols)

    @property
    def right_name(self) -> str:
        return tile_name(self.col + 1, self.row, self.cols)

    @property
    def below_name(self) -> str:
        return tile_name(self.col, self.row + 1, self.cols)

    @property
    def outer(self) -> tuple[float, float, float, float]:
        """The whole tile, strips included, in board coordinates: what is cut out."""
        return (self.x0, self.y0, self.w + (GLUE if self.glue_right else 0.0),
                self.h + (GLUE if self.glue_below else 0.0))


@dataclass(frozen=True)
class TilePlan:
    board: Size
    cols: int
    rows: int
    turned: bool  # tiles lie landscape on the page (turned 90 degrees)
    tiles: tuple[Tile, ...]

    @property
    def count(self) -> int:
        return self.cols * self.rows


def tile_name(col: int, row: int, cols: int) -> str:
    """Tiles are numbered like reading a page: tile 1 top-left, left to right, then down.
    (Not A1, B1...: boards such as Moving Target's grid print cell names like that.)"""
    return message("tile.name", number=row * cols + col + 1)


def _pieces(length: float, window: float) -> int:
    """How many equal shares of ``length`` fit a window that also holds a glue strip."""
    if length <= window + 1e-9:
        return 1
    if window <= GLUE:
        raise LayoutError(f"a tile window of {window:g} mm has no room for a {GLUE:g} mm glue "
                          "strip")
    return max(2, math.ceil(length / (window - GLUE) - 1e-9))


def seam_split(length: float, window: float, pieces: int, lines: Sequence[float] = ()
               ) -> list[float]:
    """Where ``pieces`` shares of ``length`` begin: on the board's allowed seam ``lines``
    (cell boundaries, so no seam cuts a play cell) when some choice of them gives shares that
    each fit the window with their glue strip (none on the last), the most even such choice;
    otherwise equal shares. The count of shares never changes, so neither do the sheets."""
    even = [length * k / pieces for k in range(pieces)]
    inner = sorted({v for v in lines if 1e-6 < v < length - 1e-6})
    best: tuple[float, list[float]] | None = None
    for seams in combinations(inner, pieces - 1):
        starts = [0.0, *seams]
        shares = [b - a for a, b in zip(starts, [*seams, length], strict=True)]
        if any(s + (GLUE if k < pieces - 1 else 0.0) > window + 1e-9
               for k, s in enumerate(shares)):
            continue
        spread = max(shares) - min(shares)
        if best is None or spread < best[0] - 1e-9:
            best = (spread, starts)
    return even if best is None else best[1]


def plan_tiles(board: Size, window: Size, turned: bool = False,
               lines_x: Sequence[float] = (), lines_y: Sequence[float] = ()) -> TilePlan:
    """Tiles of ``board`` whose outer size (share plus strips) fits ``window``, given in the
    tile's own orientation; seams on ``lines_x`` / ``lines_y`` (board coordinates) where the
    shares still fit (``seam_split``)."""
    cols, rows = _pieces(board.w, window.w), _pieces(board.h, window.h)
    xs = [*seam_split(board.w, window.w, cols, lines_x), board.w]
    ys = [*seam_split(board.h, window.h, rows, lines_y), board.h]
    tiles = tuple(Tile(c, r, xs[c], ys[r], xs[c + 1] - xs[c], ys[r + 1] - ys[r],
                       c < cols - 1, r < rows - 1, cols)
                  for r in range(rows) for c in range(cols))
    return TilePlan(board, cols, rows, turned, tiles)


def plan_board(board: Size, window: Size, lines_x: Sequence[float] = (),
               lines_y: Sequence[float] = ()) -> TilePlan:
    """The fewer tiles of upright and turned; upright on a tie. ``window`` is upright."""
    upright = plan_tiles(board, window, False, lines_x, lines_y)
    turned = plan_tiles(board, Size(window.h, window.w), True, lines_x, lines_y)
    return turned if turned.count < upright.count else upright
