"""Turn filled sheets into pages: front and back placements plus their furniture.

Marks live in the margins only: cut marks outside every block, stopped short of any other
block's bleed and of the footer and ruler; hairlines on fronts of touching pieces (one cut
between two cards); nothing at all is drawn over back art. Every page, blank backs included,
has a footer naming its sheet and side and a 50 mm check ruler, so no page is truly empty (a
printer set to skip blank pages would otherwise break the stack).
"""
from __future__ import annotations

from generator.core import primitives as p
from generator.data.i18n import message

from .frame import OUTER_BLEED, Frame
from .furniture import GREY, footer, glue_strip, lines, ruler
from .kit import Block, SheetDraft, TileInfo
from .page import Box, Page, Placement
from .tiling import GLUE

MARK_OFFSET = 0.5  # cut marks start this far outside a block's bleed
MARK_LENGTH = 3.5
MARK_MIN = 1.5  # a mark shortened below this by a neighbour is dropped
BLEED_MARK_STOP = 0.5  # a mark drawn across a tile's bleed stops this far from the trim

Segment = tuple[float, float, float, float]


def _clear_length(start: tuple[float, float], step: tuple[int, int], length: float,
                  obstacles: list[Box]) -> float:
    """How far an axis-aligned mark from ``start`` in direction ``step`` runs before it would
    enter an obstacle (with 0.3 mm to spare)."""
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
            best = min(best, gap - 0.3)
    return best


def cut_marks(block: Block, obstacles: list[Box], paper_w: float, paper_h: float,
              in_bleed: bool = False, keep_in: float = -0.5) -> list[Segment]:
    """Short lines in line with every trim edge of the block, outside its bleed, at least
    ``keep_in`` mm inside the paper's edges (-0.5: anywhere on the paper). With ``in_bleed``,
    a mark with no room outside (a neighbour, the ruler's band, the printer's margin) is
    drawn across the block's own bleed instead, stopping short of the trim: a board tile has
    no hairlines, so its marks are the only guide to where its edges are."""
    ox, oy, ow, oh = block.outer
    top = min(y for _, y, _, _ in block.trims)
    bottom = max(y + h for _, y, _, h in block.trims)
    left = min(x for x, _, _, _ in block.trims)
    right = max(x + w for x, _, w, _ in block.trims)

    def edges(trims: list[Box], vertical: bool) -> list[float]:
        """The trim lines that meet this side of the block (not those of empty slots)."""
        if vertical:
            return sorted({round(v, 4) for x, _, w, _ in trims for v in (x, x + w)})
        return sorted({round(v, 4) for _, y, _, h in trims for v in (y, y + h)})

    starts: list[tuple[tuple[float, float], tuple[int, int]]] = []
    eps = 1e-6
    for x in edges([t for t in block.trims if abs(t[1] - top) < eps], True):
        starts.append(((x, oy - MARK_OFFSET), (0, -1)))
    for x in edges([t for t in block.trims if abs(t[1] + t[3] - bottom) < eps], True):
        starts.append(((x, oy + oh + MARK_OFFSET), (0, 1)))
    for y in edges([t for t in block.trims if abs(t[0] - left) < eps], False):
        starts.append(((ox - MARK_OFFSET, y), (-1, 0)))
    for y in edges([t for t in block.trims if abs(t[0] + t[2] - right) < eps], False):
        starts.append(((ox + ow + MARK_OFFSET, y), (1, 0)))
    marks = []
    k = keep_in
    paper = [(-1e3, -1e3, 1e3 + k, 2e3 + paper_h), (paper_w - k, -1e3, 1e3, 2e3 + paper_h),
             (-1e3, -1e3, 2e3 + paper_w, 1e3 + k), (-1e3, paper_h - k, 2e3 + paper_w, 1e3)]
    for (sx, sy), (dx, dy) in starts:
        length = _clear_length((sx, sy), (dx, dy), MARK_LENGTH, obstacles + paper)
        if length >= MARK_MIN:
            marks.append((sx, sy, sx + dx * length, sy + dy * length))
        elif in_bleed:  # from the bleed's outer edge to BLEED_MARK_STOP short of the trim
            ex, ey = sx - dx * MARK_OFFSET, sy - dy * MARK_OFFSET
            inward = OUTER_BLEED - BLEED_MARK_STOP
            marks.append((ex, ey, ex - dx * inward, ey - dy * inward))
    return marks


def _trim_outlines(block: Block) -> list[p.Primitive]:
    """Hairlines on the trims of touching rectangular pieces (fronts only): the shared cuts."""
    if block.round:
        return [p.Circle(x + w / 2, y + h / 2, w / 2, None, GREY, 0.15)
                for x, y, w, h in block.trims]
    if not block.touching or block.tile is not None:
        return []
    return [p.Rect(x, y, w, h, None, GREY, 0.1) for x, y, w, h in block.trims]


def _glue(tile: TileInfo) -> list[p.Primitive]:
    """The tile's glue strips, mapped from board coordinates onto the page."""
    plan, pl = tile.plan, tile.placement
    t = plan.tiles[tile.index]
    prims: list[p.Primitive] = []
    strips: list[tuple[Box, str, list[tuple[float, float, float, float]]]] = []
    if t.glue_right:
        box = (t.x0 + t.w, t.y0, GLUE, t.h)
        ticks = [(t.x0 + t.w, t.y0, t.x0 + t.w + 3, t.y0),
                 (t.x0 + t.w, t.y0 + t.h, t.x0 + t.w + 3, t.y0 + t.h)]
        strips.append((box, message("glue.under", tile=t.right_name), ticks))
    if t.glue_below:
        width = t.w + (GLUE if t.glue_right else 0.0)
        box = (t.x0, t.y0 + t.h, width, GLUE)
        ticks = [(t.x0, t.y0 + t.h, t.x0, t.y0 + t.h + 3),
                 (t.x0 + t.w, t.y0 + t.h, t.x0 + t.w, t.y0 + t.h + 3)]
        strips.append((box, message("glue.under", tile=t.below_name), ticks))
    for box, text, ticks in strips:
        page_ticks = []
        for x1, y1, x2, y2 in ticks:
            a, b = pl.to_page(x1, y1)
            c, d = pl.to_page(x2, y2)
            page_ticks.append((a, b, c, d))
        prims += glue_strip(pl.face_box_on_page(box), text, page_ticks)
    return prims


def front_furniture(draft: SheetDraft, text: str, paper_w: float, paper_h: float
                    ) -> list[p.Primitive]:
    frame = draft.frame
    prims: list[p.Primitive] = []
    reserved = [frame.footer_box, frame.ruler_box]
    for block in draft.blocks:
        prims += _trim_outlines(block)
        if block.tile is not None:
            prims += _glue(block.tile)
    for block in draft.blocks:
        if block.round:
            continue  # cut round pieces on their hairline circle, or with a punch
        others = [b.outer for b in draft.blocks] + reserved
        tile = block.tile is not None  # marks that must print: inside the printer's margin
        prims += lines(cut_marks(block, others, paper_w, paper_h, in_bleed=tile,
                                 keep_in=frame.margin if tile else -0.5))
    prims += page_furniture(frame, text)
    return prims


def page_furniture(frame: Frame, text: str) -> list[p.Primitive]:
    """The footer line and the 50 mm check ruler, in the frame's bands."""
    return [*footer(frame.footer_box, frame.rotation, text),
            *ruler(frame.ruler_box, frame.rotation)]


def make_page(frame: Frame, placements: list[Placement], furniture: list[p.Primitive],
              side: str, content: str, bookmark: str | None = None) -> Page:
    return Page(frame.paper, tuple(placements), tuple(furniture), bookmark, side,
                content=content)

