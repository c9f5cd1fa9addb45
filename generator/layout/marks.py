"""Cut marks: a short line beyond each end of every cut, where a home printer still prints.

A mark is only a guide if it is on the paper after printing and if both ends of its cut have
one (a ruler is laid through two points). Home printers leave off a band along every edge, so
no mark comes closer than ``PRINTABLE`` mm to any edge of the paper, on any paper or layout.
Where the margin a block leaves is too narrow for a mark outside its art (Letter's 3 x 3 poker
cards, a 190.5 mm row on A4), the mark is drawn across the block's own bleed instead, stopping
short of the trim, with a white edge so it shows on dark art; the bleed is cut away with the
mark. Such a mark that the band would cut shorter than ``ACROSS_WANTED`` (Letter's 3 x 3 poker
cards leave 0.85 mm between the bleed's stop and the band) runs on into the band, down to
``REACH`` mm from the edge: a printer that keeps the 5 mm band prints the same 0.85 mm as
before, one that prints to 4.2 mm (most lasers) or 3 mm (most inkjets) prints a mark a ruler
can be laid on. Marks stop short of one another, of every other piece's art and of the footer
and ruler, so two never cross into a "+" that would read as a corner.

Pure geometry: trims and obstacles in, segments out.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .frame import OUTER_BLEED
from .page import Box

PRINTABLE = 5.0  # no home printer is trusted to print closer than this to the paper's edge
REACH = 3.0  # most inkjets print this close: a mark across the bleed may run on to here ...
ACROSS_WANTED = 2.0  # ... where the printable band alone would leave it shorter than this
MARK_OFFSET = 0.5  # a mark outside the art starts this far past the bleed
MARK_LENGTH = 3.5
MARK_MIN = 1.5  # an outside mark shorter than this is drawn across the bleed instead
BLEED_MARK_STOP = 0.5  # a mark drawn across the bleed stops this far from the trim
BLEED_MARK_MIN = 0.8  # shorter than this, a mark is not worth drawing
# A trim on the printable band has no mark beyond the ends of the cuts that meet it (the
# bleed beyond it lies in the margin): this much room keeps one across its bleed.
MARK_ROOM = BLEED_MARK_STOP + BLEED_MARK_MIN
SPARE = 0.3  # room left between a mark and whatever stops it

Segment = tuple[float, float, float, float]


@dataclass(frozen=True)
class Cut:
    """One straight cut: vertical (x = ``at``) or horizontal (y = ``at``), from lo to hi."""

    vertical: bool
    at: float
    lo: float
    hi: float


@dataclass(frozen=True)
class Mark:
    segment: Segment
    over_art: bool  # drawn across the block's own bleed (needs its white edge to show)


def cuts(trims: Sequence[Box]) -> list[Cut]:
    """Every cut the trims need: each distinct trim line, over the stretch the trims on it
    cover (two stretches if it has a gap, as the last column beside a short last row)."""
    out: list[Cut] = []
    for vertical in (True, False):
        lines: dict[float, list[tuple[float, float]]] = {}
        for x, y, w, h in trims:
            ends = (x, x + w) if vertical else (y, y + h)
            span = (y, y + h) if vertical else (x, x + w)
            for v in ends:
                lines.setdefault(round(v, 4), []).append(span)
        for at, spans in sorted(lines.items()):
            spans.sort()
            lo, hi = spans[0]
            for a, b in spans[1:]:
                if a > hi + 1e-6:
                    out.append(Cut(vertical, at, lo, hi))
                    lo = a
                hi = max(hi, b)
            out.append(Cut(vertical, at, lo, hi))
    return out


def clear_length(start: tuple[float, float], step: tuple[int, int], length: float,
                 obstacles: Iterable[Box]) -> float:
    """How far an axis-aligned mark from ``start`` in direction ``step`` runs before it would
    enter an obstacle (with ``SPARE`` mm to spare); 0 if it starts inside one."""
    sx, sy = start
    dx, dy = step
    best = length
    for bx, by, bw, bh in obstacles:
        if dx == 0 and bx - 1e-6 <= sx <= bx + bw + 1e-6:
            near, far = (by + bh, by) if dy < 0 else (by, by + bh)
            if min(near, far) - 1e-6 <= sy <= max(near, far) + 1e-6:
                return 0.0
            gap = (sy - near) if dy < 0 else (near - sy)
        elif dy == 0 and by - 1e-6 <= sy <= by + bh + 1e-6:
            near, far = (bx + bw, bx) if dx < 0 else (bx, bx + bw)
            if min(near, far) - 1e-6 <= sx <= max(near, far) + 1e-6:
                return 0.0
            gap = (sx - near) if dx < 0 else (near - sx)
        else:
            continue
        if gap >= 0:
            best = min(best, gap - SPARE)
    return best


def art_box(trim: Box, bleed: float = OUTER_BLEED) -> Box:
    x, y, w, h = trim
    return (x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed)


def paper_band(paper_w: float, paper_h: float, band: float = PRINTABLE) -> list[Box]:
    """The unprintable band along the four edges, as obstacles (a mark may end on its line)."""
    k = band - SPARE  # clear_length keeps SPARE from an obstacle: marks reach the band exactly
    return [(-1e3, -1e3, 1e3 + k, 2e3 + paper_h), (paper_w - k, -1e3, 1e3, 2e3 + paper_h),
            (-1e3, -1e3, 2e3 + paper_w, 1e3 + k), (-1e3, paper_h - k, 2e3 + paper_w, 1e3)]


def block_marks(trims: Sequence[Box], others: Sequence[Box], placed: list[Segment],
                paper_w: float, paper_h: float, band: float = PRINTABLE,
                bleed: float = OUTER_BLEED) -> list[Mark]:
    """A mark beyond both ends of every cut of one block of pieces.

    ``others``: what no mark may touch (other blocks' art, the footer and ruler bands);
    ``placed``: the page's marks so far, extended with these, so none crosses another. The
    block's own art stops a mark outside it; where that leaves less than ``MARK_MIN``, the
    mark runs from ``BLEED_MARK_STOP`` outside the trim across the bleed instead."""
    own = [art_box(t, bleed) for t in trims]
    walls = [*others, *paper_band(paper_w, paper_h, band)]
    reach = [*others, *paper_band(paper_w, paper_h, band - (PRINTABLE - REACH))]
    marks: list[Mark] = []
    for cut in cuts(trims):
        for end, sign in ((cut.lo, -1), (cut.hi, 1)):
            step = (0, sign) if cut.vertical else (sign, 0)
            lines = [(x1, min(y1, y2), 0.0, abs(y2 - y1)) if x1 == x2
                     else (min(x1, x2), y1, abs(x2 - x1), 0.0) for x1, y1, x2, y2 in placed]
            mark = _one_mark(cut.at, end, step, bleed, own + walls + lines, walls + lines,
                             reach + lines)
            if mark is not None:
                marks.append(mark)
                placed.append(mark.segment)
    return marks


def _one_mark(at: float, end: float, step: tuple[int, int], bleed: float,
              outside: list[Box], across: list[Box], reach: list[Box]) -> Mark | None:
    """The mark beyond one end of a cut: outside the art if it has room, else across it
    (into the band down to ``REACH`` where the band alone leaves less than ``ACROSS_WANTED``)."""
    vertical = step[0] == 0
    sign = step[1] if vertical else step[0]

    def point(d: float) -> tuple[float, float]:
        return (at, end + sign * d) if vertical else (end + sign * d, at)

    def segment(d0: float, length: float) -> Segment:
        (x1, y1), (x2, y2) = point(d0), point(d0 + length)
        return (x1, y1, x2, y2)

    start = bleed + MARK_OFFSET
    length = clear_length(point(start), step, MARK_LENGTH, outside)
    if length >= MARK_MIN:
        return Mark(segment(start, length), False)
    length = clear_length(point(BLEED_MARK_STOP), step, MARK_LENGTH, across)
    if length >= BLEED_MARK_MIN:
        if length < ACROSS_WANTED:
            further = clear_length(point(BLEED_MARK_STOP), step, ACROSS_WANTED, reach)
            length = max(length, further)
        return Mark(segment(BLEED_MARK_STOP, length), True)
    return None
