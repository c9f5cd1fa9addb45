"""Boards larger than the paper, cut into tiles joined by glue strips. Pure geometry.

Each tile carries its share of the board; a tile with a neighbour to its right (or below) also
carries a blank glue strip of ``GLUE`` mm on that side. Assembly: glue the strip under the
neighbour, the neighbour's edge on the strip's inner edge and its corners on the strip's end
marks. A board that names its cell boundaries is split on them where the shares still fit
(never through a play cell or a start space, same number of tiles), on the boundaries 3 mm
clear of the board's words where some are. Where they do not (three
63.5 mm card columns on an A4 tile), a seam keeps off the board's start space if another can
cross it instead, and 3 mm clear of the board's words; otherwise the shares are even. No board
content is printed twice and no mark falls inside the board (so never inside a play cell).

Tiles may be laid on the paper upright (portrait) or turned (landscape); ``plan_board`` picks
the orientation that needs the fewest tiles.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from generator.core.model import Size
from generator.data.translation.i18n import message

from .sheet import LayoutError

GLUE = 10.0

Span = tuple[float, float]  # an interval along one axis of the board, in board mm
# A seam's cost, worst first (``Keep.cost``); a route: summed cost, largest share, starts.
Cost = tuple[int, int, int, float]
_Route = tuple[Cost, float, list[float]]


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
    # What the seams cost, summed over both axes (``Keep.cost``): the start space, cells and
    # printed words they cross, and how far seams between cells are from their gaps' middles.
    cost: Cost = (0, 0, 0, 0.0)

    @property
    def seams_x(self) -> tuple[float, ...]:
        """Where the vertical seams lie, board mm from the left edge."""
        return tuple(t.x0 for t in self.tiles if t.row == 0 and t.col > 0)

    @property
    def seams_y(self) -> tuple[float, ...]:
        """Where the horizontal seams lie, board mm from the top edge."""
        return tuple(t.y0 for t in self.tiles if t.col == 0 and t.row > 0)

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


@dataclass(frozen=True)
class Keep:
    """What a seam along one axis should keep clear of, in board mm along that axis.

    ``lines``: where a seam crosses no cell (cell boundaries), each the middle of a ``gap``
    mm wide (0: the cells touch) inside which a seam still crosses none. ``start``: the
    start space's extent, never to be crossed where the sheets allow. ``words``: each
    printed word's extent, widened by the cutting tolerance: a seam forced through cells
    passes clear of them where it can."""

    lines: Sequence[float] = ()
    gap: float = 0.0
    start: Span | None = None
    words: Sequence[Span] = ()

    def cost(self, at: float) -> Cost:
        """What a seam at ``at`` costs, worst first: crossing the start space, crossing a
        cell, crossing words (how many), and how far it is from the middle of its gap.

        Words count on the board's own lines too: a line is where its designer expects a
        cut, but not every line is clear of words (the movement boards' side names are
        centred on their edges, across several cell lines, and the line that splits Lattice
        on the fewest sheets ran 0.5 mm from them), so of the lines that fit the sheets the
        seam takes one clear of words."""
        half = self.gap / 2
        away = min((abs(at - v) for v in self.lines), default=math.inf)
        in_gap = away <= half + 1e-6
        start = self.start is not None and self.start[0] + 1e-6 < at < self.start[1] - 1e-6
        words = sum(lo + 1e-6 < at < hi - 1e-6 for lo, hi in self.words)
        if in_gap:
            return (int(start), 0, words, away)
        return (int(start), 1, words, 0.0)


def _add(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def seam_split(length: float, window: float, pieces: int, lines: Sequence[float] = (),
               keep: Keep | None = None) -> list[float]:
    """Where ``pieces`` shares of ``length`` begin (see ``best_split``)."""
    return best_split(length, window, pieces, keep or Keep(lines))[1]


def best_split(length: float, window: float, pieces: int, keep: Keep
               ) -> tuple[Cost, list[float]]:
    """Where ``pieces`` shares of ``length`` begin, each share fitting the window with its glue
    strip (none on the last), and what the seams cost. Seams are chosen by ``Keep.cost``,
    summed: clear of the start space, then on cell boundaries (the middle of a gap), then
    clear of words, then the most even shares (the smallest largest share). The count of
    shares never changes, so neither do the sheets: the even split always fits, so one is
    always found."""
    if pieces <= 1:
        return (0, 0, 0, 0.0), [0.0]
    room = window - GLUE  # a share with its glue strip
    even = [length * k / pieces for k in range(pieces)]
    # Seam k (1..pieces-1) lies where the k shares before it and the ones after it can fit.
    bounds = [(max(0.0, length - (pieces - k - 1) * room - window), min(length, k * room))
              for k in range(1, pieces)]
    half = keep.gap / 2
    marks = {*even, *(b for span in bounds for b in span)}
    marks |= {e for lo, hi in keep.words for e in (lo, hi)}
    if keep.start is not None:
        marks |= set(keep.start)
    candidates = []
    for lo, hi in bounds:
        here = {min(max(v, lo), hi) for v in keep.lines
                if lo - half - 1e-6 <= v <= hi + half + 1e-6}
        here |= {m for m in marks if lo - 1e-9 <= m <= hi + 1e-9}
        candidates.append(sorted(here))
    # The best way to reach each candidate of seam k: its summed cost, its largest share so
    # far, its starts. A lexicographic sum then a maximum: the best prefix stays best.
    previous: list[tuple[float, _Route]] = [(0.0, ((0, 0, 0, 0.0), 0.0, [0.0]))]
    for k in range(pieces - 1):
        current: list[tuple[float, _Route]] = []
        for at in candidates[k]:
            cost = keep.cost(at)
            best: _Route | None = None
            for before, (summed, largest, starts) in previous:
                share = at - before
                if share <= 1e-6 or share > room + 1e-9:
                    continue
                option: _Route = (_add(summed, cost), max(largest, share), [*starts, at])
                if best is None or option[:2] < best[:2]:
                    best = option
            if best is not None:
                current.append((at, best))
        previous = current
    finals = [(summed, max(largest, length - before), starts)
              for before, (summed, largest, starts) in previous
              if 1e-6 < length - before <= window + 1e-9]
    summed, _, starts = min(finals, key=lambda f: f[:2])
    return summed, starts


def plan_tiles(board: Size, window: Size, turned: bool = False,
               lines_x: Sequence[float] = (), lines_y: Sequence[float] = (),
               keep_x: Keep | None = None, keep_y: Keep | None = None) -> TilePlan:
    """Tiles of ``board`` whose outer size (share plus strips) fits ``window``, given in the
    tile's own orientation; seams chosen by ``best_split`` against what each axis keeps clear
    of (``keep_x``, ``keep_y``; by default only the cell boundaries ``lines_x`` / ``lines_y``,
    board coordinates)."""
    cols, rows = _pieces(board.w, window.w), _pieces(board.h, window.h)
    cost_x, xs = best_split(board.w, window.w, cols, keep_x or Keep(lines_x))
    cost_y, ys = best_split(board.h, window.h, rows, keep_y or Keep(lines_y))
    xs.append(board.w)
    ys.append(board.h)
    tiles = tuple(Tile(c, r, xs[c], ys[r], xs[c + 1] - xs[c], ys[r + 1] - ys[r],
                       c < cols - 1, r < rows - 1, cols)
                  for r in range(rows) for c in range(cols))
    return TilePlan(board, cols, rows, turned, tiles, _add(cost_x, cost_y))


@dataclass(frozen=True)
class Crossing:
    """A seam through a board's start space: the tiles either side (one pair per row or
    column of tiles the space spans), whether it runs down (vertical) and how far into
    the space it lies, mm from its left (or top) edge."""

    pairs: tuple[tuple[Tile, Tile], ...]
    vertical: bool
    offset: float


def start_crossings(plan: TilePlan, x: float, y: float, w: float, h: float
                    ) -> list[Crossing]:
    """Every seam of ``plan`` that crosses the start space (x, y, w, h), board mm. A seam
    on the space's edge does not cross it."""
    def inside(at: float, lo: float, size: float) -> bool:
        return lo + 1e-6 < at < lo + size - 1e-6

    def spans(t: Tile) -> bool:
        return (t.x0 < x + w - 1e-6 and x + 1e-6 < t.x0 + t.w
                and t.y0 < y + h - 1e-6 and y + 1e-6 < t.y0 + t.h)

    at = {(t.col, t.row): t for t in plan.tiles}
    found = []
    for col, sx in enumerate(plan.seams_x, start=1):
        if inside(sx, x, w):
            pairs = tuple((at[col - 1, r], at[col, r]) for r in range(plan.rows)
                          if spans(at[col, r]))
            found.append(Crossing(pairs, True, sx - x))
    for row, sy in enumerate(plan.seams_y, start=1):
        if inside(sy, y, h):
            pairs = tuple((at[c, row - 1], at[c, row]) for c in range(plan.cols)
                          if spans(at[c, row]))
            found.append(Crossing(pairs, False, sy - y))
    return found


def plan_board(board: Size, window: Size, lines_x: Sequence[float] = (),
               lines_y: Sequence[float] = (), keep_x: Keep | None = None,
               keep_y: Keep | None = None) -> TilePlan:
    """The fewer tiles of upright and turned, then the seams that cross less; upright on a
    tie. ``window`` is upright."""
    upright = plan_tiles(board, window, False, lines_x, lines_y, keep_x, keep_y)
    turned = plan_tiles(board, Size(window.h, window.w), True, lines_x, lines_y, keep_x,
                        keep_y)
    return min((upright, turned), key=lambda plan: (plan.count, plan.cost))
