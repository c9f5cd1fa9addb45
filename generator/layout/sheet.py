"""Sheet geometry for cards and tokens: a centred grid, cut marks, duplex back positions.

Pure geometry, tested without rendering. Page coordinates are millimetres from the top-left
corner of the paper, y downwards.

Why centre the grid: the back page of a duplex print is the front mirrored about the page's
vertical axis (long-edge flip) or horizontal axis (short-edge flip). With a centred grid the
mirrored slots are slots of the same grid, so backs land exactly behind fronts.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model import Size
from .page import Box

FURNITURE = 4.0  # room kept beyond the printer margin for the footer and the check ruler
MARK_OFFSET = 0.5  # cut marks start this far outside the grid
MARK_LENGTH = 3.5


class LayoutError(ValueError):
    """The component cannot be laid out on this paper (e.g. a card larger than the page)."""


@dataclass(frozen=True)
class SheetSpec:
    paper: Size
    margin: float = 5.0  # the printer cannot print this close to the edge
    gap: float = 0.0  # space between neighbouring cards' bleed boxes
    bleed: float = 0.0  # art printed past each card's trim
    flip: str = "long"  # long | short: how the duplex printer turns the sheet
    back_dx: float = 0.0  # shift of every back page, measured with the calibration sheet
    back_dy: float = 0.0


@dataclass(frozen=True)
class Grid:
    """Where the cards of one sheet sit. Slots are numbered row by row from the top-left."""

    spec: SheetSpec
    card: Size
    cols: int
    rows: int

    @property
    def pitch_x(self) -> float:
        return self.card.w + 2 * self.spec.bleed + self.spec.gap

    @property
    def pitch_y(self) -> float:
        return self.card.h + 2 * self.spec.bleed + self.spec.gap

    @property
    def width(self) -> float:
        return self.cols * self.pitch_x - self.spec.gap

    @property
    def height(self) -> float:
        return self.rows * self.pitch_y - self.spec.gap

    @property
    def left(self) -> float:
        return (self.spec.paper.w - self.width) / 2

    @property
    def top(self) -> float:
        return (self.spec.paper.h - self.height) / 2

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def trim(self, slot: int) -> Box:
        """The trim box of a slot (the card's finished edges)."""
        row, col = divmod(slot, self.cols)
        x = self.left + col * self.pitch_x + self.spec.bleed
        y = self.top + row * self.pitch_y + self.spec.bleed
        return (x, y, self.card.w, self.card.h)

    def bleed_box(self, slot: int) -> Box:
        x, y, w, h = self.trim(slot)
        b = self.spec.bleed
        return (x - b, y - b, w + 2 * b, h + 2 * b)

    def back_slot(self, slot: int) -> tuple[int, int]:
        """The slot on the back page behind ``slot``, and the back's rotation in degrees."""
        row, col = divmod(slot, self.cols)
        if self.spec.flip == "short":
            return (self.rows - 1 - row) * self.cols + col, 180
        return row * self.cols + (self.cols - 1 - col), 0

    def cut_xs(self) -> list[float]:
        """Every distinct vertical trim line."""
        xs = {round(x + dx, 4) for x, _, w, _ in map(self.trim, range(self.cols)) for dx in (0, w)}
        return sorted(xs)

    def cut_ys(self) -> list[float]:
        rows = (self.trim(r * self.cols) for r in range(self.rows))
        ys = {round(y + dy, 4) for _, y, _, h in rows for dy in (0, h)}
        return sorted(ys)

    def bands(self) -> dict[str, float]:
        """Free space between the grid and the printer margin on each side."""
        m = self.spec.margin
        return {"top": self.top - m, "bottom": self.top - m,
                "left": self.left - m, "right": self.left - m}


def fit_grid(card: Size, spec: SheetSpec) -> Grid:
    """The largest grid of ``card`` that fits inside the printer margin and still leaves a band
    on some side for the footer and the check ruler."""
    if spec.flip not in ("long", "short"):
        raise LayoutError(f"flip must be 'long' or 'short', got {spec.flip!r}")
    usable_w = spec.paper.w - 2 * spec.margin
    usable_h = spec.paper.h - 2 * spec.margin
    pitch_w = card.w + 2 * spec.bleed + spec.gap
    pitch_h = card.h + 2 * spec.bleed + spec.gap
    cols = int((usable_w + spec.gap + 1e-9) // pitch_w)
    rows = int((usable_h + spec.gap + 1e-9) // pitch_h)
    if cols < 1 or rows < 1:
        raise LayoutError(f"a {card.w:g} x {card.h:g} mm piece (bleed {spec.bleed:g} mm) does not "
                          f"fit {spec.paper.w:g} x {spec.paper.h:g} mm paper inside a "
                          f"{spec.margin:g} mm margin")
    grid = Grid(spec, card, cols, rows)
    while max(grid.bands().values()) < FURNITURE and (grid.rows > 1 or grid.cols > 1):
        grid = (Grid(spec, card, cols, grid.rows - 1) if grid.rows > 1
                else Grid(spec, card, grid.cols - 1, 1))
    return grid


def cut_marks(grid: Grid) -> list[tuple[float, float, float, float]]:
    """Short lines outside the grid, in line with every trim line: (x1, y1, x2, y2).

    They stop short of the band that holds the footer or ruler, so the two never overlap.
    """
    paper = grid.spec.paper
    _, footer_rot, _, _ = furniture_boxes(grid)
    reserved = grid.spec.margin + FURNITURE + 0.3
    stop = {"top": 0.0, "bottom": 0.0, "left": 0.0, "right": 0.0}
    for side in (("top", "bottom") if footer_rot == 0 else ("left", "right")):
        stop[side] = reserved
    top, bottom = grid.top, grid.top + grid.height
    left, right = grid.left, grid.left + grid.width
    marks = []
    for x in grid.cut_xs():
        marks.append((x, top - MARK_OFFSET, x, max(stop["top"], top - MARK_OFFSET - MARK_LENGTH)))
        marks.append((x, bottom + MARK_OFFSET,
                      x, min(paper.h - stop["bottom"], bottom + MARK_OFFSET + MARK_LENGTH)))
    for y in grid.cut_ys():
        marks.append((left - MARK_OFFSET, y,
                      max(stop["left"], left - MARK_OFFSET - MARK_LENGTH), y))
        marks.append((right + MARK_OFFSET, y,
                      min(paper.w - stop["right"], right + MARK_OFFSET + MARK_LENGTH), y))
    # Keep marks that run at least 0.2 mm away from the grid: one clamped by the reserved band
    # would otherwise run back towards the cards (into their bleed) and over the furniture.
    cx, cy = left + grid.width / 2, top + grid.height / 2
    return [m for m in marks
            if (m[2] - m[0]) * (1 if m[0] > cx else -1) + (m[3] - m[1]) * (1 if m[1] > cy else -1)
            > 0.2]


def shared_cut_lines(grid: Grid) -> list[tuple[float, float, float, float]]:
    """Hairlines along the trim lines across the grid: touching cards share one cut, and the
    line shows a hobbyist with a craft knife where it is even where the printer margin eats
    the outer marks."""
    top, bottom = grid.top + grid.spec.bleed, grid.top + grid.height - grid.spec.bleed
    left, right = grid.left + grid.spec.bleed, grid.left + grid.width - grid.spec.bleed
    return ([(x, top, x, bottom) for x in grid.cut_xs()]
            + [(left, y, right, y) for y in grid.cut_ys()])


def furniture_boxes(grid: Grid) -> tuple[Box, int, Box, int]:
    """Where the footer and the 50 mm ruler go, and their rotations: the bottom and top bands
    when they have room, else the left and right bands (text turned 90 degrees)."""
    m = grid.spec.margin
    paper = grid.spec.paper
    band = grid.bands()
    if band["bottom"] >= FURNITURE:
        footer = (m, paper.h - m - FURNITURE, paper.w - 2 * m, FURNITURE)
        ruler = (m, m, paper.w - 2 * m, FURNITURE)
        return footer, 0, ruler, 0
    footer = (m, m, FURNITURE, paper.h - 2 * m)
    ruler = (paper.w - m - FURNITURE, m, FURNITURE, paper.h - 2 * m)
    return footer, 90, ruler, 90
