"""Pure sheet geometry (generator/layout/): frames, packing, duplex mirrors, tiles, cut marks.
No rendering involved."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.model import Size
from generator.core.primitives import Face
from generator.core.sizes import CARD_SIZES, PAPER_SIZES
from generator.layout.frame import BAND, FURNITURE, OUTER_BLEED, Frame, best_frame
from generator.layout.furnish import cut_marks
from generator.layout.kit import Board, Packer, Piece, centre_sheet
from generator.layout.marks import (
    BLEED_MARK_MIN,
    BLEED_MARK_STOP,
    MARK_LENGTH,
    PRINTABLE,
    REACH,
    cuts,
)
from generator.layout.packing import back_rotation, mirror_box
from generator.layout.sheet import LayoutError, SheetSpec
from generator.layout.tiling import GLUE, plan_board, plan_tiles

EPS = 1e-6
NO_DEADLINE = settings(deadline=None, max_examples=60)
INCH = 25.4
PAPERS = [PAPER_SIZES["a4"], PAPER_SIZES["letter"]]


def face(w: float, h: float, label: str = "") -> Face:
    return Face(w, h, 3.175, (), label)


def overlap(a, b) -> bool:
    """Do two (x, y, w, h) boxes share interior area?"""
    return (a[0] < b[0] + b[2] - EPS and b[0] < a[0] + a[2] - EPS
            and a[1] < b[1] + b[3] - EPS and b[1] < a[1] + a[3] - EPS)


def inside(inner, outer, slack: float = EPS) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[0] + inner[2] <= outer[0] + outer[2] + slack
            and inner[1] + inner[3] <= outer[1] + outer[3] + slack)


def pieces(n: int, w: float, h: float, backed: bool, component: str = "c",
           round_: bool = False) -> list[Piece]:
    return [Piece(face(w, h, f"{component}{i}"), face(w, h, f"{component}{i}-back") if backed
                  else None, component, f"{component}{i}", round_) for i in range(n)]


# -- presets and frames ----------------------------------------------------------------------

def test_presets_are_the_standard_sizes():
    def inches(size):
        return pytest.approx((size.w / INCH, size.h / INCH))

    assert PAPER_SIZES["a4"] == Size(210.0, 297.0)
    assert inches(PAPER_SIZES["letter"]) == (8.5, 11)
    assert inches(CARD_SIZES["poker"]) == (2.5, 3.5)
    assert inches(CARD_SIZES["bridge"]) == (2.25, 3.5)
    assert inches(CARD_SIZES["tarot"]) == (2.75, 4.75)


@pytest.mark.parametrize(("paper", "sideways"), [("a4", False), ("letter", True)])
def test_poker_frame_takes_nine_cards(paper, sideways):
    """A4 keeps footer and ruler above and below the cards; Letter needs the height, so its
    furniture turns to the sides. Either way 3 x 3 poker cards fit."""
    poker = CARD_SIZES["poker"]
    frame = best_frame(PAPER_SIZES[paper], 5.0, poker.w, poker.h, poker.w, poker.h)
    assert frame.sideways is sideways
    packer = Packer(SheetSpec(PAPER_SIZES[paper]))
    packer.add_stream(pieces(9, poker.w, poker.h, True))
    assert len(packer.sheets) == 1 and len(packer.sheets[0].front) == 9


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("sideways", [False, True])
def test_furniture_bands_leave_room_for_bleed(paper, sideways):
    frame = Frame(paper, 5.0, sideways)
    bleed_area = (frame.area[0] - OUTER_BLEED, frame.area[1] - OUTER_BLEED,
                  frame.area[2] + 2 * OUTER_BLEED, frame.area[3] + 2 * OUTER_BLEED)
    for box in (frame.footer_box, frame.ruler_box):
        assert not overlap(box, bleed_area)
        assert min(box[2], box[3]) == pytest.approx(FURNITURE)
        assert inside(box, (5, 5, paper.w - 10, paper.h - 10))
    # Symmetric about both axes, so a mirrored back page uses the same frame.
    x, y, w, h = frame.area
    assert x + w / 2 == pytest.approx(paper.w / 2) and y + h / 2 == pytest.approx(paper.h / 2)
    assert BAND == FURNITURE + OUTER_BLEED


def test_piece_larger_than_paper_is_a_layout_error():
    packer = Packer(SheetSpec(PAPER_SIZES["a4"]))
    with pytest.raises(LayoutError, match="does not fit"):
        packer.add_stream(pieces(1, 250, 300, False))
    with pytest.raises(LayoutError, match="flip"):
        Packer(SheetSpec(PAPER_SIZES["a4"], flip="sideways"))


# -- duplex mirrors --------------------------------------------------------------------------

@given(st.floats(0, 150), st.floats(0, 200), st.floats(1, 60), st.floats(1, 90),
       st.sampled_from(["long", "short"]))
def test_mirroring_twice_is_the_identity(x, y, w, h, flip):
    box = (x, y, w, h)
    assert mirror_box(mirror_box(box, 210, 297, flip), 210, 297, flip) == pytest.approx(box)


def test_back_rotation_keeps_tops_together():
    assert back_rotation(0, "long") == 0 and back_rotation(0, "short") == 180
    assert back_rotation(90, "long") == 270 and back_rotation(90, "short") == 90


# -- packing ---------------------------------------------------------------------------------

streams = st.lists(st.tuples(st.integers(1, 20), st.sampled_from([
    (63.5, 88.9), (30.0, 30.0), (56.0, 162.0), (120.0, 98.0), (20.0, 20.0), (28.0, 28.0),
    (140.0, 110.0)]), st.booleans()), min_size=1, max_size=4)


@pytest.mark.slow
@NO_DEADLINE
@given(streams, st.sampled_from(PAPERS), st.sampled_from(["long", "short"]))
def test_packing_places_every_piece_once_inside_the_frame_without_overlap(
        spec_streams, paper, flip):
    spec = SheetSpec(paper, flip=flip)
    packer = Packer(spec)
    wanted = 0
    for k, (n, (w, h), backed) in enumerate(spec_streams):
        round_ = w == h and w < 30
        packer.add_stream(pieces(n, w, h, backed, f"s{k}", round_))
        wanted += n
    placed = [pl for sheet in packer.sheets for pl in sheet.front]
    assert len(placed) == wanted
    assert len({(pl.component, pl.label) for pl in placed}) == wanted
    for draft in (centre_sheet(d, spec) for d in packer.sheets):
        area = draft.frame.area
        fronts = draft.front
        for i, a in enumerate(fronts):
            assert inside(a.trim, area, 1e-6)
            assert inside(a.clip, (0, 0, paper.w, paper.h))
            for b in fronts[i + 1:]:
                assert not overlap(a.trim, b.trim)
                if a.component != b.component or a.round:
                    # Different blocks: their bleeds never cover each other.
                    same_block = any(a.trim in blk.trims and b.trim in blk.trims
                                     for blk in draft.blocks)
                    if not same_block:
                        assert not overlap(a.clip, b.clip)
        # Every back sits behind its front, turned so the tops meet.
        backs = {(pl.component, pl.label): pl for pl in draft.back}
        for front in fronts:
            back = backs.pop((front.component, front.label), None)
            if back is None:
                continue
            assert back.trim == pytest.approx(mirror_box(front.trim, paper.w, paper.h, flip))
            assert back.rotate == back_rotation(front.rotate, flip)
        assert not backs  # no back without its front on the same sheet


@pytest.mark.parametrize(("count", "sheets"), [(9, 1), (18, 2), (45, 5), (52, 6)])
def test_whole_sheets_first(count, sheets):
    poker = CARD_SIZES["poker"]
    packer = Packer(SheetSpec(PAPER_SIZES["a4"]))
    packer.add_stream(pieces(count, poker.w, poker.h, True))
    assert len(packer.sheets) == sheets


def test_small_pieces_fill_space_left_on_other_sheets():
    """Seven cards leave two rows free: tokens go there instead of onto a new sheet."""
    poker = CARD_SIZES["poker"]
    packer = Packer(SheetSpec(PAPER_SIZES["a4"]))
    packer.add_stream(pieces(3, poker.w, poker.h, True, "cards"))
    packer.add_stream(pieces(12, 20, 20, True, "tokens", round_=True))
    assert len(packer.sheets) == 1


def test_turning_a_piece_when_it_fits_more():
    """Four 162 x 56 mm scooters fit one A4 sheet only turned."""
    packer = Packer(SheetSpec(PAPER_SIZES["a4"]))
    packer.add_stream(pieces(4, 56, 162, False))
    assert len(packer.sheets) == 1
    assert {pl.rotate for pl in packer.sheets[0].front} == {90}
    assert all(pl.trim[2:] == pytest.approx((162, 56)) for pl in packer.sheets[0].front)


# -- tiles -----------------------------------------------------------------------------------

boards = st.builds(Size, st.floats(50, 900), st.floats(50, 900))
windows = st.builds(Size, st.floats(120, 300), st.floats(120, 300))


@given(boards, windows)
def test_tiles_split_the_board_exactly_and_fit_the_window(board, window):
    plan = plan_tiles(board, window)
    area = sum(t.w * t.h for t in plan.tiles)
    assert area == pytest.approx(board.w * board.h)
    for t in plan.tiles:
        _, _, ow, oh = t.outer
        assert ow <= window.w + EPS and oh <= window.h + EPS
        assert t.glue_right == (t.col < plan.cols - 1)
        assert t.glue_below == (t.row < plan.rows - 1)
    for a in plan.tiles:
        for b in plan.tiles:
            if a is not b:
                assert not overlap((a.x0, a.y0, a.w, a.h), (b.x0, b.y0, b.w, b.h))
    # Fewest tiles: one column fewer would not fit.
    if plan.cols > 1:
        assert board.w / (plan.cols - 1) + GLUE > window.w - EPS


@given(boards, windows)
def test_orientation_with_fewest_tiles_wins(board, window):
    best = plan_board(board, window)
    upright = plan_tiles(board, window)
    turned = plan_tiles(board, Size(window.h, window.w), True)
    assert best.count == min(upright.count, turned.count)


@pytest.mark.parametrize(("board", "tiles", "turned"), [
    (Size(345.5, 472.5), 4, False),  # Moving Target's 5 x 5 grid
    (Size(455, 232), 3, False),  # the village mat
    (Size(249, 299), 2, True),  # the Lattice board
])
def test_our_boards_on_a4(board, tiles, turned):
    frame = Frame(PAPER_SIZES["a4"], 5.0)
    plan = plan_board(board, Size(frame.area[2], frame.area[3]))
    assert (plan.count, plan.turned) == (tiles, turned)


def test_board_tiles_carry_glue_strips_on_their_pages():
    spec = SheetSpec(PAPER_SIZES["a4"])
    packer = Packer(spec)
    plan = packer.add_board(Board(face(455, 232), "mat", "Mat"))
    assert plan.count == len(packer.sheets) == 3
    for draft, tile in zip(packer.sheets, plan.tiles, strict=True):
        (pl,) = draft.front
        assert pl.trim[2] == pytest.approx(tile.outer[2])
        assert inside(pl.trim, draft.frame.area)
        assert pl.label == f"Mat {tile.name}"


# -- cut marks -------------------------------------------------------------------------------

@NO_DEADLINE
@given(st.sampled_from(PAPERS), st.integers(1, 9))
def test_cut_marks_print_at_both_ends_of_every_cut(paper, count):
    """Every cut of every block gets a mark beyond each end, on its trim line, at least
    REACH mm from every paper edge with BLEED_MARK_MIN of it PRINTABLE mm or more from every
    edge; a mark lies outside every other block's art, the footer and the ruler, touches no
    trim, and never meets another mark."""
    poker = CARD_SIZES["poker"]
    spec = SheetSpec(paper)
    packer = Packer(spec)
    packer.add_stream(pieces(count, poker.w, poker.h, True))
    packer.add_stream(pieces(5, 20, 20, False, "t"))
    draft = centre_sheet(packer.sheets[0], spec)
    reserved = [draft.frame.footer_box, draft.frame.ruler_box]
    placed: list[tuple[float, float, float, float]] = []
    for block in draft.blocks:
        others = [b.outer for b in draft.blocks if b is not block] + reserved
        marks = [m.segment for m in cut_marks(block, others, placed, paper.w, paper.h)]
        for cut in cuts(block.trims):
            for end, sign in ((cut.lo, -1), (cut.hi, 1)):
                on = [m for m in marks if (m[0] == m[2] == cut.at if cut.vertical
                                           else m[1] == m[3] == cut.at)]
                beyond = [m for m in on if all(sign * (v - end) >= BLEED_MARK_STOP - EPS for v in
                                               ((m[1], m[3]) if cut.vertical else (m[0], m[2])))]
                assert beyond, (cut, end)
        for x1, y1, x2, y2 in marks:
            assert 0 < abs(x2 - x1) + abs(y2 - y1) <= MARK_LENGTH + EPS
            assert min(x1, x2, y1, y2) >= REACH - EPS
            assert max(x1, x2) <= paper.w - REACH + EPS
            assert max(y1, y2) <= paper.h - REACH + EPS
            inside_x = min(max(x1, x2), paper.w - PRINTABLE) - max(min(x1, x2), PRINTABLE)
            inside_y = min(max(y1, y2), paper.h - PRINTABLE) - max(min(y1, y2), PRINTABLE)
            assert min(inside_x, inside_y) >= -EPS
            assert inside_x + inside_y >= BLEED_MARK_MIN - EPS
            seg = (min(x1, x2), min(y1, y2), abs(x2 - x1) + 1e-3, abs(y2 - y1) + 1e-3)
            assert not any(overlap(seg, box) for box in [*others, *block.trims])
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            ga = (min(a[0], a[2]), min(a[1], a[3]), abs(a[2] - a[0]), abs(a[3] - a[1]))
            gb = (min(b[0], b[2]), min(b[1], b[3]), abs(b[2] - b[0]), abs(b[3] - b[1]))
            assert not (ga[0] <= gb[0] + gb[2] and gb[0] <= ga[0] + ga[2]
                        and ga[1] <= gb[1] + gb[3] and gb[1] <= ga[1] + ga[3]), (a, b)


@given(st.sets(st.integers(1, 60)))
def test_page_ranges_expand_back_to_the_pages(pages):
    from generator.layout.contents import ranges

    text = ranges(list(pages))
    back: set[int] = set()
    for part in filter(None, text.split(", ")):
        low, _, high = part.partition("-")
        back |= set(range(int(low), int(high or low) + 1))
    assert back == pages


# -- seams on cell boundaries ----------------------------------------------------------------

@pytest.mark.parametrize(("board", "window", "lines", "starts"), [
    (299.0, 162.0, [12 + 25 * k for k in range(12)], [0.0, 137]),  # Lattice: 137+10 and 162
    (249.0, 140.0, [12 + 25 * k for k in range(10)], [0.0, 112]),  # Saltire: 112+10 and 137
    (300.0, 160.0, [100.0, 200.0], [0.0, 150.0]),  # no line fits both shares: equal shares
])
def test_seams_follow_cell_boundaries_where_the_shares_fit(board, window, lines, starts):
    from generator.layout.tiling import seam_split

    assert seam_split(board, window, 2, lines) == pytest.approx(starts)


@given(st.floats(100, 600), st.floats(60, 300), st.lists(st.floats(0, 600), max_size=12))
def test_seams_never_change_the_tile_count_and_every_tile_fits(length, window, lines):
    from itertools import combinations

    from generator.layout.tiling import GLUE, plan_tiles

    try:
        even = plan_tiles(Size(length, 50), Size(window, 300))
    except LayoutError:
        return
    plan = plan_tiles(Size(length, 50), Size(window, 300), lines_x=lines)
    assert plan.count == even.count
    assert sum(t.w for t in plan.tiles) == pytest.approx(length)
    for t in plan.tiles:
        assert t.outer[2] <= window + 1e-6 or len(plan.tiles) == 1
        assert t.w > 0 and (t.glue_right or t.x0 + t.w == pytest.approx(length))
    inner = [t.x0 for t in plan.tiles[1:]]
    off = sum(all(abs(x - v) > 1e-6 for v in lines) for x in inner)
    assert plan.cost[1] == off  # the plan's own count of seams through cells is true
    # As few seams off the lines as any split of this many tiles allows: none when some choice
    # of lines fits every share (brute force over the lines).
    def fits(starts):
        ends = [*starts[1:], length]
        return all(b - a > 0 and b - a + (GLUE if k < len(starts) - 1 else 0) <= window + 1e-9
                   for k, (a, b) in enumerate(zip(starts, ends, strict=True)))
    inside = sorted({v for v in lines if 1e-6 < v < length - 1e-6})
    if any(fits([0.0, *c]) for c in combinations(inside, plan.cols - 1)):
        assert off == 0, (inner, lines)


def test_a_seam_keeps_clear_of_the_start_space_then_cells_then_words():
    """Moving Target's 345.5 mm grid row on a 186 mm window (A4, sideways, tight): no gap
    between cells fits, so the seam must cross column C (141-204.5); it passes C3's words
    (widened by the cutting tolerance) on the side that keeps the shares most even."""
    from generator.layout.tiling import Keep, best_split

    gaps = [73, 139.5, 206, 272.5]
    cost, starts = best_split(345.5, 186, 2, Keep(gaps, 3, (141, 204.5), [(170.1, 199.4)]))
    assert starts == pytest.approx([0, 170.1]) and cost[:3] == (1, 1, 0)
    # Letter's upright tight window (205.9 mm): the gap between B and C (138-141) fits, the
    # seam as near its middle as the shares allow, crossing no cell and not C3.
    cost, starts = best_split(345.5, 205.9, 2, Keep(gaps, 3, (141, 204.5)))
    assert starts == pytest.approx([0, 139.6]) and cost[:3] == (0, 0, 0)
    # Without the gap's width only its middle counts (139.5 leaves 206 mm > 205.9): the seam
    # is off the lines, still clear of C3.
    cost, starts = best_split(345.5, 205.9, 2, Keep(gaps, 0, (141, 204.5)))
    assert cost[:3] == (0, 1, 0) and 139.6 - 1e-6 <= starts[1] <= 141
    # Rows (472.5 mm) on A4's sideways tight window (287 mm, less 2 x 1.3 mm of room for
    # marks): 2 + 3 rows, in the gap above row 3 (188.8-191.8). Words count in a gap too:
    # its middle (190.3) is 2.9 mm from row 3's labels, so the seam moves 0.08 mm up the gap,
    # 3 mm clear of them, still crossing no cell.
    cost, starts = best_split(472.5, 284.4, 2, Keep([98.4, 190.3, 282.2, 374.1], 3,
                                                    (191.8, 280.7), [(190.22, 199.71)]))
    assert starts == pytest.approx([0, 190.22]) and cost[:3] == (0, 0, 0)
    assert cost[3] == pytest.approx(0.08)
    # A board's own lines (no gap: the movement boards) are chosen clear of words where one
    # fits: Saltire's 249 mm on A4's upright window, its side name centred across 102.8-146.2
    # (112 and 137 cross it, 87 and 162 do not).
    lines = [12 + 25 * k for k in range(10)]
    cost, starts = best_split(249, 190, 2, Keep(lines, 0, None, [(99.8, 149.2)]))
    assert starts in ([0, 87], [0, 162]) and cost == (0, 0, 0, 0)


@pytest.mark.parametrize("paper", PAPERS)
def test_movement_boards_are_split_between_cells_on_the_same_sheets(paper):
    """Every tiled movement board (their cells hold the tokens, some are start spaces) has
    each seam on a cell boundary its data lists, and as many tiles as an even split."""
    from generator.data import load_game

    for comp in load_game("movement-game").components:
        if comp.kind != "board":
            continue
        assert comp.seams[0] and comp.seams[1], comp.id
        board = face(comp.size.w, comp.size.h, comp.id)
        plan = Packer(SheetSpec(paper)).add_board(Board(board, comp.id, comp.name, *comp.seams))
        even = Packer(SheetSpec(paper)).add_board(Board(board, comp.id, comp.name))
        assert plan.count == even.count > 1, comp.id
        for t in plan.tiles:
            assert t.col == 0 or t.x0 in comp.seams[0], (comp.id, t)
            assert t.row == 0 or t.y0 in comp.seams[1], (comp.id, t)
