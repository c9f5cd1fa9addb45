"""Turn filled sheets into pages: front and back placements plus their furniture.

Cut marks beyond both ends of every cut of every block, inside the band a home printer prints
(``marks.py``: outside the art where the margin has room, across the block's own bleed where it
has not), stopped short of any other block's art, of the footer and ruler and of each other;
hairlines on fronts of touching pieces (one cut between two cards); nothing at all is drawn
over back art. Every page, blank backs included,
has a footer naming its sheet and side and a 50 mm check ruler, so no page is truly empty (a
printer set to skip blank pages would otherwise break the stack).
"""
from __future__ import annotations

from dataclasses import replace

from generator.core import primitives as p
from generator.data.translation.i18n import message

from .frame import Frame
from .furniture import GREY, circle_ticks, footer, glue_strip, mark_lines, not_verified, ruler
from .kit import Block, SheetDraft, TileInfo
from .marks import PRINTABLE, Mark, Segment, block_marks
from .page import Box, Kit, Page, Placement, Sheet
from .tiling import GLUE


def cut_marks(block: Block, obstacles: list[Box], placed: list[Segment], paper_w: float,
              paper_h: float, band: float = PRINTABLE) -> list[Mark]:
    """The block's marks (``marks.block_marks``): beyond both ends of each of its cuts,
    inside the printable band, stopped short of ``obstacles`` (the other blocks' art, the
    footer and ruler) and of the marks already ``placed`` on the page."""
    return block_marks(block.trims, obstacles, placed, paper_w, paper_h, band)


def _trim_outlines(block: Block) -> list[p.Primitive]:
    """Hairlines on the trims of touching rectangular pieces (fronts only): the shared cuts;
    round pieces' ticks (``furniture.circle_ticks``), which stay off the circle a punch cuts."""
    if block.round:
        return circle_ticks(list(block.trims))
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
    placed: list[Segment] = []
    band = max(PRINTABLE, frame.margin)
    for block in draft.blocks:
        if block.round:
            continue  # cut round pieces on their hairline circle, or with a punch
        others = [b.outer for b in draft.blocks if b is not block] + reserved
        prims += mark_lines(cut_marks(block, others, placed, paper_w, paper_h, band))
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



def mark_not_verified(kit: Kit, failing: int) -> Kit:
    """The kit with NOT VERIFIED on every page, in its furniture (drawn over the pieces):
    every layout's pages, the contents sheet, rules and blank backs alike
    (generator/orchestration/build.py: only a watch build of a set that fails its checks)."""
    def marked(page: Page) -> Page:
        return replace(page, furniture=(*page.furniture, *not_verified(page.size, failing)))

    return replace(kit, sheets=tuple(
        Sheet(marked(sheet.front), None if sheet.back is None else marked(sheet.back))
        for sheet in kit.sheets))
