"""Gutterfold (fold-and-glue) sheets: a landscape page folded down the middle, fronts on the
left half and their backs on the right half, mirrored about the fold, so folding the sheet and
gluing it puts every back exactly behind its front without a duplex printer.

Pure geometry plus furniture; cut marks beyond both ends of every cut of each half
(``marks.py``), so the folded block shows them on its front.
"""
from __future__ import annotations

from collections.abc import Sequence

from generator.core import primitives as p
from generator.core.model import Size
from generator.data.i18n import message

from . import furniture
from .frame import FURNITURE, OUTER_BLEED
from .kit import Piece
from .marks import PRINTABLE, Mark, Segment, art_box, block_marks
from .page import Box, Page, Placement
from .sheet import LayoutError

FOLD_GAP = 6.0  # between the fold line and the nearest card on each side


def gutter_grid(card: Size, paper: Size, margin: float) -> tuple[int, int, float, float]:
    """(cols per half, rows, left x of the front block, top y) on a landscape sheet."""
    half = paper.w / 2
    cols = int((half - margin - FOLD_GAP + 1e-9) // card.w)
    # Above and below the rows: the ruler or footer band and the 3 mm the outer cards' art may
    # print past their trim, so the marks of the vertical cuts have printable room there.
    rows = int((paper.h - 2 * (margin + FURNITURE + OUTER_BLEED) + 1e-9) // card.h)
    if cols < 1 or rows < 1:
        raise LayoutError(f"a {card.w:g} x {card.h:g} mm piece does not fit half of a "
                          f"{paper.w:g} x {paper.h:g} mm gutterfold sheet")
    left = half - FOLD_GAP - cols * card.w
    top = (paper.h - rows * card.h) / 2
    return cols, rows, left, top


def gutterfold_pages(pieces: Sequence[Piece], paper: Size, margin: float, footer_text: str
                     ) -> list[Page]:
    """``paper`` is portrait; the sheet is turned landscape. Every piece has a back."""
    sheet = Size(max(paper.w, paper.h), min(paper.w, paper.h))
    card = Size(pieces[0].front.w, pieces[0].front.h)
    fronts = [pc.front for pc in pieces]
    cols, rows, left, top = gutter_grid(card, sheet, margin)
    per = cols * rows
    pages = []
    count = (len(fronts) + per - 1) // per
    for n in range(count):
        placed: list[Placement] = []
        for slot, index in enumerate(range(n * per, min(len(fronts), (n + 1) * per))):
            row, col = divmod(slot, cols)
            x, y = left + col * card.w, top + row * card.h
            piece = pieces[index]
            assert piece.back is not None
            placed.append(Placement(piece.front, x, y, (x, y, card.w, card.h), 0, False,
                                    piece.component, piece.label, "front"))
            bx = sheet.w - x - card.w  # mirrored about the fold line x = sheet.w / 2
            placed.append(Placement(piece.back, bx, y, (bx, y, card.w, card.h), 0, False,
                                    piece.component, piece.label, "back"))
        prims: list[p.Primitive] = [p.Line(sheet.w / 2, margin, sheet.w / 2, sheet.h - margin,
                                           furniture.INK, 0.2, (3.0, 2.0))]
        ruler = (margin, margin, sheet.w - 2 * margin, 4.0)
        foot = (margin, sheet.h - margin - 4, sheet.w - 2 * margin, 4.0)
        prims += furniture.mark_lines(_marks(placed, sheet, margin, [ruler, foot]))
        prims += furniture.ruler(ruler, 0)
        prims += furniture.footer(foot, 0,
                                  footer_text + furniture.SEPARATOR + message(
                                      "footer.gutterfold", sheet=n + 1, sheets=count))
        pages.append(Page(sheet, tuple(placed), tuple(prims), side="front"))
    return pages


def _marks(placed: Sequence[Placement], sheet: Size, margin: float, reserved: list[Box]
           ) -> list[Mark]:
    """Marks beyond both ends of every cut of each half (fronts, backs), inside the band a
    home printer prints, clear of the fold line, the other half's art, the ruler and footer."""
    fold: Box = (sheet.w / 2, margin, 0.0, sheet.h - 2 * margin)
    halves = [[pl.trim for pl in placed if pl.side == side] for side in ("front", "back")]
    drawn: list[Segment] = []
    marks: list[Mark] = []
    band = max(PRINTABLE, margin)
    for k, trims in enumerate(halves):
        others = [art_box(t) for t in halves[1 - k]] + reserved + [fold]
        marks += block_marks(trims, others, drawn, sheet.w, sheet.h, band)
    return marks
