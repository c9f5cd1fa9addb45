"""Packing pieces onto sheets: touching grids ("blocks") placed in the free space of pages.

Pure geometry. Each sheet keeps a list of free rectangles on its front page (guillotine
packing). A back is always the mirror of its front, so space free on the front is free on the
back too: a piece with a back gets it at the mirrored position, a single-sided piece gets a
blank back, and nothing else ever lands behind it.

Sizes here are "outer" sizes: a block's trim plus the bleed it prints around its outside. Pieces
of one stream (same size, shape and sidedness, across components) are packed together: whole
sheets first, then the rest goes into the first free space that takes it, before a new sheet
starts.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .frame import OUTER_BLEED, Frame
from .page import Box

EPS = 1e-6


@dataclass(frozen=True)
class BlockShape:
    """A grid of ``cols`` x ``rows`` pieces of trim ``w`` x ``h`` (after any turn)."""

    w: float
    h: float
    cols: int
    rows: int
    pitch_x: float
    pitch_y: float
    turned: bool
    count: int  # pieces in the block (the last row may be short)
    # Staggered: every second row is shifted half a pitch (round pieces, rows pitch_y apart
    # keep neighbours pitch_x apart); ``short`` says whether those rows hold one piece less.
    stagger: bool = False
    short: bool = False

    @property
    def trim_w(self) -> float:
        if self.stagger and self.rows > 1 and not self.short:
            return (self.cols - 0.5) * self.pitch_x + self.w
        return (self.cols - 1) * self.pitch_x + self.w

    @property
    def trim_h(self) -> float:
        return (self.rows - 1) * self.pitch_y + self.h

    @property
    def outer_w(self) -> float:
        return self.trim_w + 2 * OUTER_BLEED

    @property
    def outer_h(self) -> float:
        return self.trim_h + 2 * OUTER_BLEED


@dataclass(frozen=True)
class Geometry:
    """How one stream's pieces sit in a block: trim size and spacing between trims."""

    w: float
    h: float
    spacing: float  # between neighbouring trims in a block (0: touching, one shared cut)
    can_turn: bool = True
    stagger: bool = False  # rows offset by half a pitch, closer together (circles)

    def shapes(self) -> list[tuple[float, float, bool]]:
        turns = [(self.w, self.h, False)]
        if self.can_turn and abs(self.w - self.h) > EPS:
            turns.append((self.h, self.w, True))
        return turns

    def fit(self, free: Box, wanted: int) -> BlockShape | None:
        """The block holding the most pieces (up to ``wanted``) in the free rectangle: upright
        unless turning the pieces fits more; staggered (if allowed) only where that fits more
        than a grid, or as many in less room."""
        best: BlockShape | None = None
        for w, h, turned in self.shapes():
            px, py = w + self.spacing, h + self.spacing
            room_w, room_h = free[2] - 2 * OUTER_BLEED, free[3] - 2 * OUTER_BLEED
            if w > room_w + EPS or h > room_h + EPS:
                continue
            cols = int((room_w - w + EPS) // px) + 1
            rows = int((room_h - h + EPS) // py) + 1
            n = min(wanted, cols * rows)
            across = min(cols, n)
            shape = BlockShape(w, h, across, -(-n // across), px, py, turned, n)
            if self.stagger:
                rows_of = _staggered(w, h, px, room_w, room_h, cols, wanted)
                if (rows_of.count, -rows_of.outer_w * rows_of.outer_h) > (
                        shape.count, -shape.outer_w * shape.outer_h):
                    shape = rows_of
            if best is None or shape.count > best.count:
                best = shape
        return best


def _staggered(w: float, h: float, px: float, room_w: float, room_h: float, cols: int,
               wanted: int) -> BlockShape:
    """Rows of circles ``px`` apart centre to centre, each second row shifted half a pitch
    into the hollows of the row above (rows ``px * sqrt(3) / 2`` apart): about 15 % more
    circles in the same room, each still ``px`` from all its neighbours."""
    py = px * 3 ** 0.5 / 2
    rows = int((room_h - h + EPS) // py) + 1
    short = (cols - 0.5) * px + w > room_w + EPS  # the shifted rows hold one less
    if cols == 1 and short:  # no room to shift: one column, rows a full pitch apart
        rows = int((room_h - h + EPS) // px) + 1
        n = min(wanted, rows)
        return BlockShape(w, h, 1, n, px, px, False, n)
    per_two = 2 * cols - (1 if short else 0)
    capacity = (rows // 2) * per_two + (rows % 2) * cols
    n = min(wanted, capacity)
    if n <= cols:  # one row: nothing to stagger
        return BlockShape(w, h, n, 1, px, py, False, n)
    used, rows = 0, 0
    while used < n:
        used += cols if rows % 2 == 0 else cols - (1 if short else 0)
        rows += 1
    return BlockShape(w, h, cols, rows, px, py, False, n, True, short)


@dataclass
class SheetSpace:
    """The free rectangles of one sheet's front page, in outer (bleed-inclusive) terms."""

    frame: Frame
    free: list[Box] = field(default_factory=list)

    @classmethod
    def empty(cls, frame: Frame) -> SheetSpace:
        x, y, w, h = frame.area
        b = OUTER_BLEED
        return cls(frame, [(x - b, y - b, w + 2 * b, h + 2 * b)])

    def take(self, index: int, w: float, h: float) -> Box:
        """Use the top-left ``w`` x ``h`` of free rectangle ``index``; the rest stays free, cut
        the way that keeps the larger remaining rectangle."""
        fx, fy, fw, fh = self.free.pop(index)
        right_full = ((fx + w, fy, fw - w, fh), (fx, fy + h, w, fh - h))
        below_full = ((fx + w, fy, fw - w, h), (fx, fy + h, fw, fh - h))
        best = max((right_full, below_full),
                   key=lambda pair: max(r[2] * r[3] for r in pair))
        for rect in best:
            if rect[2] > 1.0 and rect[3] > 1.0:
                self.free.append(rect)
        self.free.sort(key=lambda r: (round(r[1], 3), round(r[0], 3)))
        return (fx, fy, w, h)


def block_slots(shape: BlockShape, outer: Box, n: int) -> list[Box]:
    """Trim boxes of the first ``n`` slots of a block whose outer box is ``outer``, row by
    row from the top-left."""
    x0, y0 = outer[0] + OUTER_BLEED, outer[1] + OUTER_BLEED
    if shape.stagger:
        slots: list[Box] = []
        row = 0
        while len(slots) < n:
            shifted = row % 2 == 1
            across = shape.cols - (1 if shifted and shape.short else 0)
            for col in range(across):
                if len(slots) < n:
                    x = x0 + (col + (0.5 if shifted else 0.0)) * shape.pitch_x
                    slots.append((x, y0 + row * shape.pitch_y, shape.w, shape.h))
            row += 1
        return slots
    return [(x0 + (k % shape.cols) * shape.pitch_x, y0 + (k // shape.cols) * shape.pitch_y,
             shape.w, shape.h) for k in range(n)]


def first_fit(spaces: Sequence[SheetSpace], geometry: Geometry, wanted: int
              ) -> tuple[int, int, BlockShape] | None:
    """The first (sheet, free rectangle) that takes at least one piece, and the block there."""
    for s, space in enumerate(spaces):
        for f, free in enumerate(space.free):
            shape = geometry.fit(free, wanted)
            if shape is not None:
                return s, f, shape
    return None


def fresh_capacity(frame: Frame, geometry: Geometry) -> int:
    """How many pieces a new, empty sheet with this frame takes."""
    shape = geometry.fit(SheetSpace.empty(frame).free[0], 10 ** 6)
    return 0 if shape is None else shape.count


def mirror_box(box: Box, paper_w: float, paper_h: float, flip: str) -> Box:
    """Where a box of the front page lies on the back page of the same sheet."""
    x, y, w, h = box
    if flip == "short":
        return (x, paper_h - y - h, w, h)
    return (paper_w - x - w, y, w, h)


def back_rotation(rotate: int, flip: str) -> int:
    """The turn of a back behind a front turned ``rotate`` degrees, so that after the sheet
    is flipped the back's top lies behind the front's top."""
    return (180 - rotate) % 360 if flip == "short" else (-rotate) % 360
