"""Pure sheet and tile geometry (generator/layout/): no rendering involved."""
from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from generator.faces.primitives import Face
from generator.layout.pages import Footer, card_sheets
from generator.layout.sheet import (
    FURNITURE,
    MARK_LENGTH,
    Grid,
    LayoutError,
    SheetSpec,
    cut_marks,
    fit_grid,
    furniture_boxes,
    shared_cut_lines,
)
from generator.layout.sizes import CARD_SIZES, PAPER_SIZES
from generator.layout.tiling import plan_tiles
from generator.model import Size

EPS = 1e-6
# Timing varies (first font load, a big grid): no per-example deadline, so no flaky runs.
NO_DEADLINE = settings(deadline=None)
INCH = 25.4

cards = st.builds(Size, st.floats(40, 90), st.floats(50, 130))
specs = st.builds(
    SheetSpec,
    paper=st.sampled_from([PAPER_SIZES["a4"], PAPER_SIZES["letter"]]),
    margin=st.floats(0, 15),
    gap=st.floats(0, 5),
    bleed=st.sampled_from([0.0, 1.0, 3.0, 3.175]),
    flip=st.sampled_from(["long", "short"]),
)


def grid_or_skip(card: Size, spec: SheetSpec) -> Grid:
    try:
        return fit_grid(card, spec)
    except LayoutError:
        # Only legitimate when the piece really cannot fit inside the margin.
        assert (card.w + 2 * spec.bleed > spec.paper.w - 2 * spec.margin
                or card.h + 2 * spec.bleed > spec.paper.h - 2 * spec.margin)
        assume(False)
        raise


def overlap(a, b) -> bool:
    """Do two (x, y, w, h) boxes share interior area?"""
    return (a[0] < b[0] + b[2] - EPS and b[0] < a[0] + a[2] - EPS
            and a[1] < b[1] + b[3] - EPS and b[1] < a[1] + a[3] - EPS)


def fits(grid: Grid) -> bool:
    spec = grid.spec
    return (grid.width <= spec.paper.w - 2 * spec.margin + EPS
            and grid.height <= spec.paper.h - 2 * spec.margin + EPS)


# -- presets -------------------------------------------------------------------------------

def test_presets_are_the_standard_sizes():
    def inches(size):
        return pytest.approx((size.w / INCH, size.h / INCH))

    assert PAPER_SIZES["a4"] == Size(210.0, 297.0)
    assert inches(PAPER_SIZES["letter"]) == (8.5, 11)
    assert inches(CARD_SIZES["poker"]) == (2.5, 3.5)
    assert inches(CARD_SIZES["bridge"]) == (2.25, 3.5)
    assert inches(CARD_SIZES["tarot"]) == (2.75, 4.75)
    assert all(size.w > 0 and size.h > 0 for size in CARD_SIZES.values())


@pytest.mark.parametrize(("card", "paper", "margin", "gap", "bleed", "expected"), [
    ("poker", "a4", 5, 0, 0, (3, 3)),
    ("poker", "letter", 5, 0, 0, (3, 3)),
    ("poker", "a4", 9.75, 0, 0, (3, 3)),  # 3 x 63.5 = 190.5 mm: exactly the usable width
    ("poker", "a4", 10, 0, 0, (2, 3)),  # 190 mm usable: a third 63.5 mm column cannot fit
    ("euro-poker", "a4", 10, 0, 0, (3, 3)),  # 63 x 88 mm does
    ("poker", "a4", 5, 0, 3, (2, 3)),  # bleed: 3 x 69.5 mm > 200 mm
    ("poker", "a4", 5, 3, 0, (3, 3)),
    ("mini", "a4", 5, 0, 0, (4, 4)),
    ("tarot", "a4", 5, 0, 0, (2, 2)),
])
def test_cards_per_sheet(card, paper, margin, gap, bleed, expected):
    grid = fit_grid(CARD_SIZES[card], SheetSpec(PAPER_SIZES[paper], margin, gap, bleed))
    assert (grid.cols, grid.rows) == expected


def test_poker_on_a4_is_centred_3x3():
    grid = fit_grid(CARD_SIZES["poker"], SheetSpec(PAPER_SIZES["a4"]))
    assert grid.per_sheet == 9
    assert grid.trim(0)[:2] == pytest.approx((9.75, 15.15))
    assert grid.cut_xs() == pytest.approx([9.75, 73.25, 136.75, 200.25])
    assert grid.cut_ys() == pytest.approx([15.15, 104.05, 192.95, 281.85])


def test_piece_larger_than_paper_is_a_layout_error():
    with pytest.raises(LayoutError, match="does not fit"):
        fit_grid(Size(250, 100), SheetSpec(PAPER_SIZES["a4"]))
    with pytest.raises(LayoutError, match="flip"):
        fit_grid(CARD_SIZES["poker"], SheetSpec(PAPER_SIZES["a4"], flip="sideways"))


# -- sheet properties ----------------------------------------------------------------------

@NO_DEADLINE
@given(cards, specs)
def test_cards_inside_printable_area_and_apart(card, spec):
    grid = grid_or_skip(card, spec)
    m, paper = spec.margin, spec.paper
    boxes = [grid.bleed_box(s) for s in range(grid.per_sheet)]
    for x, y, w, h in boxes:
        assert x >= m - EPS and y >= m - EPS
        assert x + w <= paper.w - m + EPS and y + h <= paper.h - m + EPS
    for a, b in itertools.combinations(boxes, 2):
        assert not overlap(a, b)
        # Neighbours keep at least the gap between their bleed boxes.
        dx = max(b[0] - (a[0] + a[2]), a[0] - (b[0] + b[2]))
        dy = max(b[1] - (a[1] + a[3]), a[1] - (b[1] + b[3]))
        assert max(dx, dy) >= spec.gap - EPS
    for slot in range(grid.per_sheet):  # the trim is the bleed box shrunk by the bleed
        tx, ty, tw, th = grid.trim(slot)
        bx, by, bw, _ = grid.bleed_box(slot)
        assert (tx - bx, ty - by) == pytest.approx((spec.bleed, spec.bleed))
        assert (tw, th) == (card.w, card.h) and bw == pytest.approx(tw + 2 * spec.bleed)


@NO_DEADLINE
@given(cards, specs)
def test_grid_is_the_largest_that_leaves_room_for_furniture(card, spec):
    grid = grid_or_skip(card, spec)
    for bigger in (Grid(spec, card, grid.cols + 1, grid.rows),
                   Grid(spec, card, grid.cols, grid.rows + 1)):
        assert not fits(bigger) or max(bigger.bands().values()) < FURNITURE


@NO_DEADLINE
@given(cards, specs)
def test_furniture_stays_off_the_cards(card, spec):
    grid = grid_or_skip(card, spec)
    assume(max(grid.bands().values()) >= FURNITURE)
    footer, _, ruler, _ = furniture_boxes(grid)
    for slot in range(grid.per_sheet):
        assert not overlap(footer, grid.bleed_box(slot))
        assert not overlap(ruler, grid.bleed_box(slot))


@NO_DEADLINE
@given(cards, specs)
def test_back_lands_behind_front(card, spec):
    grid = grid_or_skip(card, spec)
    paper = spec.paper
    targets = []
    for slot in range(grid.per_sheet):
        back, rotate = grid.back_slot(slot)
        targets.append(back)
        x, y, w, h = grid.trim(slot)
        bx, by, _, _ = grid.trim(back)
        if spec.flip == "long":  # the sheet turns about its vertical axis: x mirrors
            assert (bx, by) == pytest.approx((paper.w - x - w, y), abs=1e-9)
            assert rotate == 0
        else:  # short edge: y mirrors, and the back is turned to read upright
            assert (bx, by) == pytest.approx((x, paper.h - y - h), abs=1e-9)
            assert rotate == 180
    assert sorted(targets) == list(range(grid.per_sheet))


@NO_DEADLINE
@given(cards, specs)
def test_cut_marks_extend_trim_lines_outside_the_cards(card, spec):
    grid = grid_or_skip(card, spec)
    paper = spec.paper
    xs, ys = grid.cut_xs(), grid.cut_ys()
    footer, _, ruler, _ = furniture_boxes(grid)
    boxes = [grid.bleed_box(s) for s in range(grid.per_sheet)]
    for x1, y1, x2, y2 in cut_marks(grid):
        assert x1 == x2 or y1 == y2
        if x1 == x2:  # vertical mark: on a vertical trim line, above or below the grid
            assert min(abs(x1 - x) for x in xs) < 1e-3
            assert max(y1, y2) <= grid.top + EPS or min(y1, y2) >= grid.top + grid.height - EPS
        else:
            assert min(abs(y1 - y) for y in ys) < 1e-3
            assert max(x1, x2) <= grid.left + EPS or min(x1, x2) >= grid.left + grid.width - EPS
        assert 0.2 < math.hypot(x2 - x1, y2 - y1) <= MARK_LENGTH + EPS
        assert min(x1, x2) >= -EPS and max(x1, x2) <= paper.w + EPS
        assert min(y1, y2) >= -EPS and max(y1, y2) <= paper.h + EPS
        mark = (min(x1, x2), min(y1, y2), abs(x2 - x1) + EPS, abs(y2 - y1) + EPS)
        assert not any(overlap(mark, box) for box in boxes)
        if max(grid.bands().values()) >= FURNITURE:
            assert not overlap(mark, footer) and not overlap(mark, ruler)


@NO_DEADLINE
@given(cards, specs)
def test_every_trim_line_has_marks_when_there_is_room(card, spec):
    grid = grid_or_skip(card, spec)
    # Room for a mark past the band kept for the footer or ruler, on every side.
    assume(min(grid.bands().values()) >= FURNITURE + 2)
    marks = cut_marks(grid)
    for x in grid.cut_xs():
        assert sum(m[0] == m[2] == x for m in marks) == 2  # one above, one below
    for y in grid.cut_ys():
        assert sum(m[1] == m[3] == y for m in marks) == 2


@NO_DEADLINE
@given(cards, specs)
def test_shared_cut_lines_run_along_trim_lines_inside_the_grid(card, spec):
    grid = grid_or_skip(card, spec)
    lines = shared_cut_lines(grid)
    assert len(lines) == len(grid.cut_xs()) + len(grid.cut_ys())
    for x1, y1, x2, y2 in lines:
        assert grid.left - 1e-4 <= min(x1, x2) and max(x1, x2) <= grid.left + grid.width + 1e-4
        assert grid.top - 1e-4 <= min(y1, y2) and max(y1, y2) <= grid.top + grid.height + 1e-4
        assert (x1 == x2 and x1 in grid.cut_xs()) or (y1 == y2 and y1 in grid.cut_ys())


def test_card_sheets_put_each_back_behind_its_front():
    """Through pages.card_sheets: duplex pairs, backs mirrored and shifted by calibration."""
    card = CARD_SIZES["poker"]
    fronts = [Face(card.w, card.h, 3.175, (), f"front-{i}") for i in range(11)]
    backs = [Face(card.w, card.h, 3.175, (), f"back-{i}") for i in range(11)]
    for flip in ("long", "short"):
        spec = SheetSpec(PAPER_SIZES["a4"], flip=flip, back_dx=0.4, back_dy=-0.3)
        pages = card_sheets(fronts, backs, spec, Footer("G", "Cards", "credit"))
        assert [p.side for p in pages] == ["front", "back", "front", "back"]
        assert [len(p.placements) for p in pages] == [9, 9, 2, 2]
        for front, back in itertools.pairwise(pages):
            if front.side != "front":
                continue
            behind = {pl.face.label: pl for pl in back.placements}
            for pl in front.placements:
                other = behind[pl.face.label.replace("front", "back")]
                if flip == "long":
                    want = (spec.paper.w - pl.x - card.w + 0.4, pl.y - 0.3)
                else:
                    want = (pl.x + 0.4, spec.paper.h - pl.y - card.h - 0.3)
                assert (other.x, other.y) == pytest.approx(want)
                assert other.rotate == (0 if flip == "long" else 180)


# -- tiling --------------------------------------------------------------------------------

@NO_DEADLINE
@given(st.builds(Size, st.floats(50, 1200), st.floats(50, 1200)),
       st.builds(Size, st.floats(150, 280), st.floats(150, 280)),
       st.floats(0, 40))
def test_tiles_cover_the_board_with_the_overlap(board, window, min_overlap):
    plan = plan_tiles(board, window, min_overlap)
    assert len(plan.tiles) == plan.cols * plan.rows
    for tile in plan.tiles:
        assert tile.w <= window.w + EPS and tile.h <= window.h + EPS
        assert tile.x0 >= -EPS and tile.y0 >= -EPS
        assert tile.x0 + tile.w <= board.w + 1e-3 and tile.y0 + tile.h <= board.h + 1e-3
    for axis, count, length, win in (("x", plan.cols, board.w, window.w),
                                     ("y", plan.rows, board.h, window.h)):
        line = [t for t in plan.tiles if (t.row if axis == "x" else t.col) == 0]
        spans = [(t.x0, t.x0 + t.w) if axis == "x" else (t.y0, t.y0 + t.h) for t in line]
        assert len(spans) == count
        assert spans[0][0] == 0 and spans[-1][1] == pytest.approx(length, abs=1e-3)
        overlaps = [a[1] - b[0] for a, b in itertools.pairwise(spans)]
        assert all(o >= min_overlap - 1e-3 for o in overlaps)  # no gap, at least the overlap
        assert max(overlaps, default=0) - min(overlaps, default=0) < 1e-3  # spread evenly
        if count > 1:  # and no more tiles than needed
            assert (count - 1) * win - (count - 2) * min_overlap < length - 1e-6
        else:
            assert length <= win + EPS
    for x, y in plan.registration_points():
        assert any(a <= x <= b for a, b in plan.seams_x()) or any(
            a <= y <= b for a, b in plan.seams_y())


def test_moving_target_grid_tiles_on_a4():
    # 5 x 5 poker cells, 3 mm gaps, 8 mm border: 345.5 x 472.5 mm; A4 window 200 x 278 mm.
    plan = plan_tiles(Size(345.5, 472.5), Size(200, 278), 10.0)
    assert (plan.cols, plan.rows) == (2, 2)
    assert plan.seams_x() == [pytest.approx((145.5, 200.0))]
    assert plan.seams_y() == [pytest.approx((194.5, 278.0))]


def test_board_smaller_than_window_is_one_tile():
    plan = plan_tiles(Size(150, 100), Size(200, 278))
    assert plan.tiles == (plan.tiles[0],) and (plan.tiles[0].w, plan.tiles[0].h) == (150, 100)
    assert plan.registration_points() == []


def test_window_narrower_than_overlap_is_an_error():
    with pytest.raises(LayoutError, match="overlap"):
        plan_tiles(Size(500, 100), Size(8, 200), min_overlap=10)
