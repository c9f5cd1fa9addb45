"""A kit as a sequence of sheets: the contents sheet (rules summary on its back), board tiles,
and every piece packed onto as few sheets as it takes, each back behind its front.

Pure geometry over rendered faces: which face goes where on which side of which sheet. Page
furniture (cut marks, glue strips, footers, rulers) is added by ``sheet_pages``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from generator.core.model import Size, StartCell
from generator.core.primitives import Face, Text
from generator.core.words import said
from generator.data.translation.i18n import message
from generator.data.typefaces.fonts import book
from generator.faces.ink import SAFE_MM, text_box

from .frame import OUTER_BLEED, Frame, best_frame, frames
from .marks import MARK_ROOM
from .packing import (
    BlockShape,
    Geometry,
    SheetSpace,
    back_rotation,
    block_slots,
    first_fit,
    fresh_capacity,
    mirror_box,
)
from .page import Box, Placement, origin_for
from .sheet import LayoutError, SheetSpec
from .tiling import Keep, TilePlan, plan_board


@dataclass(frozen=True)
class Piece:
    """One printed piece: its front, its back (None: single-sided), whose it is."""

    front: Face
    back: Face | None
    component: str
    label: str
    round: bool = False


@dataclass(frozen=True)
class Board:
    face: Face
    component: str
    name: str
    seams_x: tuple[float, ...] = ()  # cell boundaries a seam may follow (board mm)
    seams_y: tuple[float, ...] = ()
    gap: float = 0.0  # each boundary is the middle of a gap this wide between cells
    start: StartCell | None = None  # the start space, crossed by as few seams as the paper allows

    def keeps(self) -> tuple[Keep, Keep]:
        """What a vertical and a horizontal seam keep clear of: the cell boundaries, the start
        space, and every word the board prints (its ink widened by the cutting tolerance, so a
        drifting cut leaves it whole)."""
        words = [box for prim in self.face.prims if isinstance(prim, Text)
                 if (box := text_box(prim, book())) is not None]
        s = self.start
        keep_x = Keep(self.seams_x, self.gap, None if s is None else (s.x, s.x + s.w),
                      [(x0 - SAFE_MM, x1 + SAFE_MM) for x0, _, x1, _ in words])
        keep_y = Keep(self.seams_y, self.gap, None if s is None else (s.y, s.y + s.h),
                      [(y0 - SAFE_MM, y1 + SAFE_MM) for _, y0, _, y1 in words])
        return keep_x, keep_y


@dataclass
class Block:
    """Pieces placed together on one sheet: their trims, and the outer box (bleed included)."""

    outer: Box
    trims: list[Box]
    round: bool
    touching: bool
    tile: TileInfo | None = None


@dataclass(frozen=True)
class TileInfo:
    """A board tile on a page: the plan, which tile, and the board's placement."""

    plan: TilePlan
    index: int
    board: Board
    placement: Placement


@dataclass
class SheetDraft:
    """A sheet being filled: its frame, free space, placements on each side, blocks."""

    space: SheetSpace
    front: list[Placement] = field(default_factory=list)
    back: list[Placement] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    content: str = "pieces"

    @property
    def frame(self) -> Frame:
        return self.space.frame


def tile_room(frame: Frame) -> tuple[float, float]:
    """How far a tile keeps inside the frame's area across and down: on a tight frame its
    trim could reach the printable band on the two sides without furniture, leaving the cuts
    that meet it no mark at that end; ``MARK_ROOM`` keeps one, across the tile's bleed."""
    if not frame.tight:
        return (0.0, 0.0)
    return (0.0, MARK_ROOM) if frame.sideways else (MARK_ROOM, 0.0)


def expand(box: Box, left: float, top: float, right: float, bottom: float) -> Box:
    x, y, w, h = box
    return (x - left, y - top, w + left + right, h + top + bottom)


class Packer:
    """Fills sheets; see packing.py for the free-space rules."""

    def __init__(self, spec: SheetSpec) -> None:
        if spec.flip not in ("long", "short", "none"):
            raise LayoutError(f"flip must be 'long' or 'short', got {said(spec.flip)}")
        self.spec = spec
        self.sheets: list[SheetDraft] = []

    # -- boards --------------------------------------------------------------------------------
    def add_board(self, board: Board) -> TilePlan:
        """Each tile on a sheet of its own; the rest of that sheet stays free for pieces."""
        size = Size(board.face.w, board.face.h)
        keep_x, keep_y = board.keeps()
        options = []
        for rank, frame in enumerate(frames(self.spec.paper, self.spec.margin)):
            room_x, room_y = tile_room(frame)
            _, _, aw, ah = frame.area
            try:
                plan = plan_board(size, Size(aw - 2 * room_x, ah - 2 * room_y),
                                  keep_x=keep_x, keep_y=keep_y)
            except LayoutError:
                continue
            options.append((plan.count, plan.cost, rank, plan, frame))
        if not options:
            raise LayoutError(f"board {said(board.name)} cannot be tiled on this paper")
        # The fewest tiles (a row or column more costs sheets: 13 Letter sheets for Moving
        # Target's grid instead of 12); then the seams that cross least (another frame's
        # window may let them pass the start space, or between cells); then the preferred
        # frame.
        *_, plan, frame = min(options, key=lambda o: (o[0], o[1], o[2]))
        rotate = 90 if plan.turned else 0
        room_x, room_y = tile_room(frame)
        for index, tile in enumerate(plan.tiles):
            draft = SheetDraft(SheetSpace.empty(frame), content="tile")
            _, _, ow, oh = tile.outer
            page_w, page_h = (oh, ow) if plan.turned else (ow, oh)
            outer = expand(draft.space.take(0, page_w + 2 * (OUTER_BLEED + room_x),
                                            page_h + 2 * (OUTER_BLEED + room_y)),
                           -room_x, -room_y, -room_x, -room_y)
            target = (outer[0] + OUTER_BLEED, outer[1] + OUTER_BLEED)
            x, y = origin_for(board.face, tile.outer, target, rotate)
            probe = Placement(board.face, x, y, (0, 0, 0, 0), rotate)
            share = (tile.x0, tile.y0, tile.w, tile.h)
            clip_face = expand(share, OUTER_BLEED, OUTER_BLEED,
                               0.0 if tile.glue_right else OUTER_BLEED,
                               0.0 if tile.glue_below else OUTER_BLEED)
            placement = replace(probe, clip=probe.face_box_on_page(clip_face),
                                component=board.component,
                                label=message("tile.label", board=board.name, tile=tile.name),
                                trim_override=probe.face_box_on_page(tile.outer))
            draft.front.append(placement)
            draft.blocks.append(Block(outer, [placement.trim], False, False,
                                      TileInfo(plan, index, board, placement)))
            self.sheets.append(draft)
        return plan

    # -- pieces --------------------------------------------------------------------------------
    def geometry(self, piece: Piece) -> Geometry:
        if piece.round:
            return Geometry(piece.front.w, piece.front.h, 2 * OUTER_BLEED)
        return Geometry(piece.front.w, piece.front.h, self.spec.gap + 2 * self.spec.bleed)

    def new_sheet(self, geometry: Geometry, wanted: int) -> SheetDraft:
        frame = best_frame(self.spec.paper, self.spec.margin, geometry.w, geometry.h,
                           geometry.w + geometry.spacing, geometry.h + geometry.spacing, wanted)
        if fresh_capacity(frame, geometry) == 0:
            raise LayoutError(f"a {geometry.w:g} x {geometry.h:g} mm piece does not fit "
                              f"{self.spec.paper.w:g} x {self.spec.paper.h:g} mm paper inside "
                              f"a {self.spec.margin:g} mm margin")
        draft = SheetDraft(SheetSpace.empty(frame))
        self.sheets.append(draft)
        return draft

    def add_stream(self, pieces: Sequence[Piece]) -> None:
        """Whole sheets first while the stream fills them; the rest into free space."""
        if not pieces:
            return
        geometry = self.geometry(pieces[0])
        todo = list(pieces)
        probe_frame = best_frame(self.spec.paper, self.spec.margin, geometry.w, geometry.h,
                                 geometry.w + geometry.spacing, geometry.h + geometry.spacing)
        per_sheet = fresh_capacity(probe_frame, geometry)
        while todo:
            if per_sheet and len(todo) >= per_sheet:
                draft = self.new_sheet(geometry, len(todo))
                self.place(draft, 0, geometry.fit(draft.space.free[0], len(todo)), todo)
                continue
            spot: tuple[int, int, BlockShape | None] | None = first_fit(
                [s.space for s in self.sheets], geometry, len(todo))
            if spot is None:
                draft = self.new_sheet(geometry, len(todo))
                spot = (len(self.sheets) - 1, 0, geometry.fit(draft.space.free[0], len(todo)))
            s, f, shape = spot
            self.place(self.sheets[s], f, shape, todo)

    def place(self, draft: SheetDraft, free_index: int, shape: BlockShape | None,
              todo: list[Piece]) -> None:
        assert shape is not None
        outer = draft.space.take(free_index, shape.outer_w, shape.outer_h)
        taken, todo[:] = todo[:shape.count], todo[shape.count:]
        trims = block_slots(shape, outer, len(taken))
        rotate = 90 if shape.turned else 0
        round_ = taken[0].round
        inner = self.spec.bleed
        for k, (piece, trim) in enumerate(zip(taken, trims, strict=True)):
            clip = expand(trim, *(OUTER_BLEED if round_ else inner,) * 4)
            if not round_:
                clip = outer_bleed(clip, trim, open_sides(k, shape.cols, len(taken)))
            x, y = origin_for(piece.front, (0, 0, piece.front.w, piece.front.h), trim[:2],
                              rotate)
            draft.front.append(Placement(piece.front, x, y, clip, rotate, round_,
                                         piece.component, piece.label, "front"))
            if piece.back is not None:
                draft.back.append(self._back(piece, trim, clip, rotate, round_))
        draft.blocks.append(Block(outer, trims, round_, shape.pitch_x == shape.w))

    def _back(self, piece: Piece, trim: Box, clip: Box, rotate: int, round_: bool
              ) -> Placement:
        spec = self.spec
        assert piece.back is not None
        btrim = mirror_box(trim, spec.paper.w, spec.paper.h, spec.flip)
        bclip = mirror_box(clip, spec.paper.w, spec.paper.h, spec.flip)
        brot = back_rotation(rotate, spec.flip)
        dx, dy = spec.back_dx, spec.back_dy
        x, y = origin_for(piece.back, (0, 0, piece.back.w, piece.back.h),
                          (btrim[0] + dx, btrim[1] + dy), brot)
        return Placement(piece.back, x, y, (bclip[0] + dx, bclip[1] + dy, bclip[2], bclip[3]),
                         brot, round_, piece.component, piece.label, "back")


def outer_bleed(clip: Box, trim: Box, open_sides: tuple[bool, bool, bool, bool]) -> Box:
    """Stretch a piece's clip 3 mm past its trim on every side with no neighbour in the
    block (the outside, and beside the empty slots of a short last row): a cut that drifts
    there shows art, not paper. Shared cuts keep the inner bleed. One rule for the sheets and
    the gutterfold layouts."""
    x, y, w, h = clip
    tx, ty, tw, th = trim
    left, top, right, bottom = open_sides
    x0 = tx - OUTER_BLEED if left else x
    y0 = ty - OUTER_BLEED if top else y
    x1 = tx + tw + OUTER_BLEED if right else x + w
    y1 = ty + th + OUTER_BLEED if bottom else y + h
    return (x0, y0, x1 - x0, y1 - y0)


def open_sides(k: int, cols: int, n: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (left, top, right, bottom) of slot ``k`` have no neighbour in a block of
    ``n`` pieces filled row by row, ``cols`` wide."""
    row, col = divmod(k, cols)
    return (col == 0, row == 0, col == cols - 1 or k + 1 >= n, k + cols >= n)


def centre_sheet(draft: SheetDraft, spec: SheetSpec) -> SheetDraft:
    """Shift a sheet's content so its used area sits centred in the frame (fronts and backs
    together, so backs stay behind fronts)."""
    if not draft.blocks:
        return draft
    x0 = min(b.outer[0] for b in draft.blocks)
    y0 = min(b.outer[1] for b in draft.blocks)
    x1 = max(b.outer[0] + b.outer[2] for b in draft.blocks)
    y1 = max(b.outer[1] + b.outer[3] for b in draft.blocks)
    fx, fy, fw, fh = SheetSpace.empty(draft.frame).free[0]
    dx = fx + (fw - (x1 - x0)) / 2 - x0
    dy = fy + (fh - (y1 - y0)) / 2 - y0
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return draft
    bx, by = (-dx, dy) if spec.flip == "long" else (dx, -dy)

    def move(pl: Placement, mx: float, my: float) -> Placement:
        cx, cy, cw, ch = pl.clip
        trim = pl.trim_override
        return replace(pl, x=pl.x + mx, y=pl.y + my, clip=(cx + mx, cy + my, cw, ch),
                       trim_override=None if trim is None else (trim[0] + mx, trim[1] + my,
                                                                trim[2], trim[3]))

    def shift(box: Box) -> Box:
        return (box[0] + dx, box[1] + dy, box[2], box[3])

    blocks = []
    for b in draft.blocks:
        tile = b.tile
        if tile is not None:
            tile = replace(tile, placement=move(tile.placement, dx, dy))
        blocks.append(Block(shift(b.outer), [shift(t) for t in b.trims], b.round, b.touching,
                            tile))
    return SheetDraft(draft.space, [move(pl, dx, dy) for pl in draft.front],
                      [move(pl, bx, by) for pl in draft.back], blocks, draft.content)
