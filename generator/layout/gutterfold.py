"""Gutterfold (fold-and-glue) sheets: a landscape page folded down the middle, fronts on the
left half and their backs on the right half, mirrored about the fold, so folding the sheet and
gluing it puts every back exactly behind its front without a duplex printer.

Pieces are packed as the sheets layout packs them (``packing.py``): blocks of one size and
shape in the free space of the front half, whole pages first, then the rest of a stream into
the first page with room, so a short last row shares a page with the next stream instead of
taking a page of its own. Every block prints its art 3 mm past each outer trim edge, on the
fronts and on the backs, so a cut or a fold that drifts shows art, not paper; the art stops
short of the fold line, which is folded, not cut. Round pieces are circles with their 3 mm ring
of art (cut on the hairline or punched), set apart so their rings do not touch.

Pure geometry plus furniture; cut marks beyond both ends of every cut of each rectangular block
on both halves (``marks.py``), so the folded block shows them on both of its faces.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.core import primitives as p
from generator.core.model import Size
from generator.data.translation.i18n import message, number

from . import furniture
from .frame import FURNITURE, OUTER_BLEED, Frame
from .kit import Piece, expand, open_sides, outer_bleed
from .marks import PRINTABLE, Mark, Segment, art_box, block_marks
from .packing import (
    BlockShape,
    Geometry,
    SheetSpace,
    back_rotation,
    block_slots,
    first_fit,
    mirror_box,
)
from .page import Box, Page, Placement, origin_for
from .sheet import LayoutError

FOLD_CLEAR = 4.0  # art to fold line, where the half has room: a cut mark fits between them
FOLD_CLEAR_MIN = 1.0  # never closer: a fold a little off still bends paper, not art
FOLD_MARK_CLEAR = 1.0  # marks stop this far from the fold line, so none reads as a "+" on it
FOLD_LINE_CLEAR = 1.0  # the dashed fold line stops this far short of the ruler and footer
BIG = 1 << 20


@dataclass(frozen=True)
class _Block:
    """A block on the front half: its pieces, trims (page mm) and whether they are round."""

    pieces: tuple[Piece, ...]
    shape: BlockShape
    trims: tuple[Box, ...]
    round: bool

    @property
    def outer(self) -> Box:
        """The block's trims and the 3 mm of art around them."""
        x0 = min(t[0] for t in self.trims) - OUTER_BLEED
        y0 = min(t[1] for t in self.trims) - OUTER_BLEED
        x1 = max(t[0] + t[2] for t in self.trims) + OUTER_BLEED
        y1 = max(t[1] + t[3] for t in self.trims) + OUTER_BLEED
        return (x0, y0, x1 - x0, y1 - y0)


def landscape(paper: Size) -> Size:
    return Size(max(paper.w, paper.h), min(paper.w, paper.h))


def front_half(sheet: Size, margin: float) -> Box:
    """Where the fronts' art may go (trims and their 3 mm of bleed): inside the printable band
    on the outer side, between the ruler and the footer bands, and at least ``FOLD_CLEAR_MIN``
    short of the fold."""
    band = max(PRINTABLE, margin)
    fold = sheet.w / 2
    top = margin + FURNITURE
    return (band, top, fold - FOLD_CLEAR_MIN - band, sheet.h - 2 * top)


def _geometry(piece: Piece) -> Geometry:
    """Cards touch (one cut between two); round pieces keep their rings of art apart, in
    staggered rows (the tokens of a kit then fit beside its last cards)."""
    spacing = 2 * OUTER_BLEED if piece.round else 0.0
    return Geometry(piece.front.w, piece.front.h, spacing, stagger=piece.round)


@dataclass
class _Draft:
    space: SheetSpace
    blocks: list[_Block]


def pack(streams: Sequence[Sequence[Piece]], sheet: Size, margin: float) -> list[_Draft]:
    """Blocks on front halves: each stream fills whole pages while it can, then its rest goes
    into the first page with room, before a new page starts (as ``kit.Packer`` does)."""
    half = front_half(sheet, margin)
    frame = Frame(sheet, margin)
    drafts: list[_Draft] = []
    for stream in streams:
        if not stream:
            continue
        geometry = _geometry(stream[0])
        whole = geometry.fit(half, BIG)
        if whole is None:
            raise LayoutError(f"a {geometry.w:g} x {geometry.h:g} mm piece does not fit half of "
                              f"a {sheet.w:g} x {sheet.h:g} mm gutterfold sheet")
        todo = list(stream)
        while todo:
            spot: tuple[int, int, BlockShape | None] | None = None
            if len(todo) < whole.count:
                spot = first_fit([d.space for d in drafts], geometry, len(todo))
            if spot is None:
                drafts.append(_Draft(SheetSpace(frame, [half]), []))
                spot = (len(drafts) - 1, 0, geometry.fit(half, len(todo)))
            s, f, shape = spot
            assert shape is not None
            draft = drafts[s]
            outer = draft.space.take(f, shape.outer_w, shape.outer_h)
            taken, todo = todo[:shape.count], todo[shape.count:]
            draft.blocks.append(_Block(tuple(taken), shape,
                                       tuple(block_slots(shape, outer, len(taken))),
                                       taken[0].round))
    return drafts


def _settle(blocks: list[_Block], sheet: Size, margin: float) -> list[_Block]:
    """Move a page's blocks towards the fold (``FOLD_CLEAR`` from it where the half has room)
    and centre them between the ruler and the footer."""
    _, top, _, height = front_half(sheet, margin)
    outers = [b.outer for b in blocks]
    right = max(o[0] + o[2] for o in outers)
    y0 = min(o[1] for o in outers)
    y1 = max(o[1] + o[3] for o in outers)
    dx = max(0.0, sheet.w / 2 - FOLD_CLEAR - right)
    dy = top + (height - (y1 - y0)) / 2 - y0
    return [_Block(b.pieces, b.shape, tuple((x + dx, y + dy, w, h) for x, y, w, h in b.trims),
                   b.round) for b in blocks]


def _placements(block: _Block, sheet: Size) -> list[Placement]:
    """Each piece's front and, mirrored about the fold, its back: clipped 3 mm past every
    trim edge with no neighbour (all round a circle), so art covers a drifting cut."""
    rotate = 90 if block.shape.turned else 0
    out = []
    for k, (piece, trim) in enumerate(zip(block.pieces, block.trims, strict=True)):
        assert piece.back is not None
        if block.round:
            clip = expand(trim, *(OUTER_BLEED,) * 4)
        else:
            clip = outer_bleed(trim, trim, open_sides(k, block.shape.cols, len(block.pieces)))
        x, y = origin_for(piece.front, (0, 0, piece.front.w, piece.front.h), trim[:2], rotate)
        out.append(Placement(piece.front, x, y, clip, rotate, block.round, piece.component,
                             piece.label, "front"))
        # Folding about the vertical centre line is what a long-edge duplex flip does.
        btrim = mirror_box(trim, sheet.w, sheet.h, "long")
        bclip = mirror_box(clip, sheet.w, sheet.h, "long")
        brot = back_rotation(rotate, "long")
        bx, by = origin_for(piece.back, (0, 0, piece.back.w, piece.back.h), btrim[:2], brot)
        out.append(Placement(piece.back, bx, by, bclip, brot, block.round, piece.component,
                             piece.label, "back"))
    return out


def _footer_words(blocks: Sequence[_Block]) -> str:
    """What to do with this page, true of what is on it: cards are cut on their marks after
    gluing; round pieces on their circles, or punched."""
    rounds = [b for b in blocks if b.round]
    if not rounds:
        key = "footer.gutterfold" if len(blocks) == 1 else "footer.gutterfold_blocks"
        return message(key)
    mm = " / ".join(number(d) for d in sorted({b.pieces[0].front.w for b in rounds}))
    key = "footer.gutterfold_round" if len(rounds) == len(blocks) else "footer.gutterfold_mixed"
    return message(key, mm=mm)


def gutterfold_pages(streams: Sequence[Sequence[Piece]], paper: Size, margin: float,
                     footer_text: str, before: int = 0) -> list[Page]:
    """``paper`` is portrait; the sheet is turned landscape. Every piece has a back. The
    pages follow ``before`` sheets of the kit and end it: each footer names its sheet of the
    whole kit ("sheet 7 of 19"), the number the contents page lists it under."""
    sheet = landscape(paper)
    drafts = pack(streams, sheet, margin)
    ruler = (margin, margin, sheet.w - 2 * margin, FURNITURE)
    foot = (margin, sheet.h - margin - FURNITURE, sheet.w - 2 * margin, FURNITURE)
    pages = []
    for n, draft in enumerate(drafts, start=1):
        blocks = _settle(draft.blocks, sheet, margin)
        placed = [pl for block in blocks for pl in _placements(block, sheet)]
        fold_top = ruler[1] + ruler[3] + FOLD_LINE_CLEAR
        fold_bottom = foot[1] - FOLD_LINE_CLEAR
        prims: list[p.Primitive] = [p.Line(sheet.w / 2, fold_top, sheet.w / 2, fold_bottom,
                                           furniture.INK, 0.2, (3.0, 2.0))]
        prims += furniture.circle_ticks([t for block in blocks if block.round
                                         for t in block.trims])
        prims += furniture.mark_lines(_marks(blocks, sheet, margin, [ruler, foot]))
        prims += furniture.ruler(ruler, 0)
        sheet_words = message("footer.sheet", sheet=before + n, sheets=before + len(drafts),
                              side=message("footer.front"))
        prims += furniture.footer(foot, 0, furniture.SEPARATOR.join(
            (footer_text, sheet_words, _footer_words(blocks))))
        pages.append(Page(sheet, tuple(placed), tuple(prims), side="front"))
    return pages


def _marks(blocks: Sequence[_Block], sheet: Size, margin: float, reserved: list[Box]
           ) -> list[Mark]:
    """Marks beyond both ends of every cut of each rectangular block, on each half (fronts,
    backs), inside the band a home printer prints, clear of the fold line, every other
    block's art, the ruler and the footer, and of each other."""
    fold: Box = (sheet.w / 2 - FOLD_MARK_CLEAR, margin, 2 * FOLD_MARK_CLEAR,
                 sheet.h - 2 * margin)
    halves = [[(b.trims, b.round) for b in blocks],
              [(tuple(mirror_box(t, sheet.w, sheet.h, "long") for t in b.trims), b.round)
               for b in blocks]]
    arts = [art_box(t) for half in halves for trims, _ in half for t in trims]
    drawn: list[Segment] = []
    marks: list[Mark] = []
    band = max(PRINTABLE, margin)
    for half in halves:
        for trims, round_ in half:
            if round_:
                continue  # cut on the hairline circle, or punched
            own = {art_box(t) for t in trims}
            others = [a for a in arts if a not in own] + reserved + [fold]
            marks += block_marks(list(trims), others, drawn, sheet.w, sheet.h, band)
    return marks
