"""Impose rendered faces onto pages: card sheets with duplex backs, tiled boards, full pages."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..faces import primitives as p
from ..model import Size
from . import furniture
from .page import Page, Placement
from .sheet import Grid, SheetSpec, cut_marks, fit_grid, furniture_boxes, shared_cut_lines
from .tiling import plan_tiles

FOOTER_BAND = 9.0  # bottom band of board tiles and full pages: footer and assembly map


@dataclass(frozen=True)
class Footer:
    """What the footer of every page says: game, component, sheet n/m, credit line."""

    game: str
    component: str
    credit: str

    def text(self, sheet: int, sheets: int, side: str = "") -> str:
        side_text = f" ({side})" if side else ""
        return (f"{self.game} · {self.component} · sheet {sheet}/{sheets}{side_text} · "
                f"{self.credit}")


def card_sheets(fronts: Sequence[p.Face], backs: Sequence[p.Face] | None, spec: SheetSpec,
                footer: Footer, round_cut: bool = False) -> list[Page]:
    """Fronts in a centred grid; after each front page, its back page for duplex printing."""
    if not fronts:
        return []
    card = Size(fronts[0].w, fronts[0].h)
    grid = fit_grid(card, spec)
    per = grid.per_sheet
    chunks = [fronts[i:i + per] for i in range(0, len(fronts), per)]
    back_chunks = ([backs[i:i + per] for i in range(0, len(backs), per)] if backs else None)
    pages = []
    for n, chunk in enumerate(chunks):
        sheet_no = n + 1
        front = [_place(grid, slot, face, 0, round_cut) for slot, face in enumerate(chunk)]
        pages.append(Page(spec.paper, tuple(front), _furniture(grid, footer.text(
            sheet_no, len(chunks), "fronts" if backs else ""), round_cut, front),
            bookmark=footer.component if n == 0 else None, side="front"))
        if back_chunks:
            back = []
            for slot, face in enumerate(back_chunks[n]):
                back_slot, rotate = grid.back_slot(slot)
                back.append(_place(grid, back_slot, face, rotate, round_cut,
                                   (spec.back_dx, spec.back_dy)))
            pages.append(Page(spec.paper, tuple(back), _furniture(
                grid, footer.text(sheet_no, len(chunks), f"backs, flip on {spec.flip} edge"),
                round_cut, back), side="back"))
    return pages


def _place(grid: Grid, slot: int, face: p.Face, rotate: int, round_cut: bool,
           shift: tuple[float, float] = (0.0, 0.0)) -> Placement:
    """A face in a slot; backs get the duplex calibration shift (faces and clip move together)."""
    x, y, _, _ = grid.trim(slot)
    cx, cy, cw, ch = grid.bleed_box(slot)
    dx, dy = shift
    return Placement(face, x + dx, y + dy, (cx + dx, cy + dy, cw, ch), rotate, round_cut)


def _furniture(grid: Grid, text: str, round_cut: bool,
               placed: list[Placement]) -> tuple[p.Primitive, ...]:
    prims: list[p.Primitive] = []
    if round_cut:
        # Round pieces: a hairline circle on each trim is the cut line.
        prims += [p.Circle(pl.x + pl.face.w / 2, pl.y + pl.face.h / 2, pl.face.w / 2, None,
                           furniture.GREY, 0.15) for pl in placed]
    elif grid.spec.gap == 0 and grid.spec.bleed == 0:
        prims += furniture.lines(shared_cut_lines(grid), furniture.GREY, 0.1)
    prims += furniture.lines(cut_marks(grid))
    footer_box, footer_rot, ruler_box, ruler_rot = furniture_boxes(grid)
    prims += furniture.footer(footer_box, footer_rot, text)
    prims += furniture.ruler(ruler_box, ruler_rot)
    return tuple(prims)


def printable_window(paper: Size, margin: float) -> Size:
    """The area of a page available to one large face: inside the margin, above the footer."""
    return Size(paper.w - 2 * margin, paper.h - 2 * margin - FOOTER_BAND)


def board_pages(board: p.Face, paper: Size, margin: float, footer: Footer,
                min_overlap: float = 10.0) -> list[Page]:
    """A board cut into overlapping tiles, each on its own page with registration marks, the
    neighbour's edge dashed, and an assembly map."""
    window = printable_window(paper, margin)
    plan = plan_tiles(Size(board.w, board.h), window, min_overlap)
    pages = []
    for index, tile in enumerate(plan.tiles):
        # Centre a tile narrower than the window (a board smaller than the paper).
        left = margin + (window.w - tile.w) / 2
        top = margin + (window.h - tile.h) / 2
        dx, dy = left - tile.x0, top - tile.y0
        clip = (left, top, tile.w, tile.h)
        prims: list[p.Primitive] = [p.Rect(left, top, tile.w, tile.h, None, furniture.GREY, 0.1)]
        for bx, by in plan.registration_points():
            if tile.x0 <= bx <= tile.x0 + tile.w and tile.y0 <= by <= tile.y0 + tile.h:
                prims += furniture.registration(bx + dx, by + dy)
        for other in plan.tiles:
            if other.row == tile.row and other.col == tile.col + 1:
                prims.append(p.Line(other.x0 + dx, top, other.x0 + dx, top + tile.h,
                                    furniture.INK, 0.15, (2.0, 1.5)))
            if other.col == tile.col and other.row == tile.row + 1:
                prims.append(p.Line(left, other.y0 + dy, left + tile.w, other.y0 + dy,
                                    furniture.INK, 0.15, (2.0, 1.5)))
        band_y = paper.h - margin - FOOTER_BAND + 1.0
        map_w = 50.0 if plan.cols * plan.rows > 1 else 0.0
        if map_w:
            prims += furniture.assembly_map((margin, band_y, map_w, FOOTER_BAND - 2.0),
                                            plan.cols, plan.rows, (tile.col, tile.row))
        prims += furniture.footer((margin + map_w, band_y + 2.0, paper.w - 2 * margin - map_w,
                                   4.0), 0, footer.text(index + 1, len(plan.tiles)))
        pages.append(Page(paper, (Placement(board, dx, dy, clip),), tuple(prims),
                          bookmark=footer.component if index == 0 else None, side="single"))
    return pages


def full_pages(faces: Sequence[p.Face], paper: Size, margin: float, footer: Footer) -> list[Page]:
    """Page-sized faces (a rules summary): one per page inside the margin, footer below."""
    pages = []
    for index, face in enumerate(faces):
        clip = (margin, margin, face.w, face.h)
        prims = furniture.footer((margin, paper.h - margin - 5.0, paper.w - 2 * margin, 4.0), 0,
                                 footer.text(index + 1, len(faces)))
        pages.append(Page(paper, (Placement(face, margin, margin, clip),), tuple(prims),
                          bookmark=footer.component if index == 0 else None, side="single"))
    return pages
