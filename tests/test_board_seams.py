"""Moving Target's play grid, tiled: where its seams fall on the printed kit (A4 and Letter).

Three 63.5 mm card columns never fit an A4 tile, so one seam must cross a column of cells. On
A4 the start cell C3 is crossed by that seam only; on Letter the paper leaves no 4-tile split
that keeps one seam off C3 with its cut marks printable (measured below), so both cross it. On
both, no seam passes through C3's words, and page 1 says which seams cross C3 and where. The
seams are read back from the kit's manifest (each tile's outer box: its share of the board
plus its glue strip) and the words from the PDF, mapped to the board.
"""
from __future__ import annotations

import json
import re

import pytest
import yaml

from generator.core import paths
from generator.layout.manifest import manifest_path

MM = 72.0 / 25.4
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PRINTABLE = 5.0  # nothing prints closer to the paper's edge (README: cut marks)
MARK_ROOM = 0.5 + 0.8  # a mark across a tile's bleed: 0.5 mm off its trim, 0.8 mm long at least
GLUE = 10.0  # the glue strip a tile carries towards its right and lower neighbours (README)
SAFE = 3.0  # home cutting drifts 1-2 mm: words keep 3 mm from every cut (pre-flight's rule)
CELL_W, CELL_H = 63.5, 88.9  # a poker card: what each cell holds


@pytest.fixture(scope="module")
def grid_data():
    data = yaml.safe_load((paths.CARD_DATA / "moving-target.yaml").read_text(encoding="utf-8"))
    return next(c for c in data["components"] if c["id"] == "grid")


@pytest.fixture(scope="module")
def c3(grid_data):
    """C3 worked out from the grid's own parameters (column C, row 3, from 0: 2 and 2)."""
    p = grid_data["params"]
    x, y = p["border"] + 2 * (CELL_W + p["gap"]), p["border"] + 2 * (CELL_H + p["gap"])
    return (x, y, x + CELL_W, y + CELL_H)


def _board(grid_data):
    """The grid's size: 5 x 5 cells, 4 gaps and 2 borders each way (345.5 x 472.5 mm)."""
    p = grid_data["params"]
    return (2 * p["border"] + 5 * CELL_W + 4 * p["gap"],
            2 * p["border"] + 5 * CELL_H + 4 * p["gap"])


def _tiles(kit):
    """Each grid tile: (page, x, y, w, h on the page in mm), in reading order."""
    data = json.loads(manifest_path(kit.path).read_text(encoding="utf-8"))
    found = {}
    for page in data["pages"]:
        for piece in page["pieces"]:
            if piece["component"] == "grid":
                assert piece["rotation"] == 0, piece  # upright: board x runs along page x
                number = int(piece["label"].rsplit(" ", 1)[1])
                found[number] = (page["page"], piece["x"], piece["y"], piece["w"], piece["h"])
    return [found[k] for k in sorted(found)]


def _seams(kit, grid_data):
    """The 2 x 2 plan's vertical and horizontal seam, board mm: tile 1's share of the board
    (its outer box less its glue strips); the rest of the board is tile 4's, so they agree."""
    tiles = _tiles(kit)
    assert len(tiles) == 4
    _, _, _, w1, h1 = tiles[0]
    _, _, _, w4, h4 = tiles[3]
    x, y = w1 - GLUE, h1 - GLUE
    board_w, board_h = _board(grid_data)
    assert x + w4 == pytest.approx(board_w, abs=0.02) and y + h4 == pytest.approx(board_h, abs=0.02)
    return x, y, tiles


def _board_words(kit, page_words, grid_data, wanted):
    """Where the words ``wanted`` lie on the board (x0, y0, x1, y1 mm), read from tile 1's page
    (each tile draws the whole board clipped to its share, so every word is extracted there
    too, at the board's offset)."""
    _, _, tiles = _seams(kit, grid_data)
    page, tx, ty, _, _ = tiles[0]
    out = []
    for word in page_words(kit.path, page):
        if word["text"] in wanted:
            out.append((word["x0"] / MM - tx, word["top"] / MM - ty,
                        word["x1"] / MM - tx, word["bottom"] / MM - ty))
    return out


def test_at_most_one_seam_crosses_the_start_cell_and_none_its_words(kit, grid_data, c3,
                                                                     page_words):
    x, y, _ = _seams(kit, grid_data)
    x0, y0, x1, y1 = c3
    assert grid_data["seams"]["start"] == {"name": "C3", "x": pytest.approx(x0),
                                           "y": pytest.approx(y0), "w": CELL_W, "h": CELL_H}
    through_x, through_y = x0 < x < x1, y0 < y < y1
    if kit.opts.paper == "a4":
        assert (through_x, through_y) == (True, False), (x, y)
    else:
        # Letter, 4 tiles (what its 12 sheets hold). A column seam clear of C3 lies left of
        # it, so the right tiles hold columns C to E at least, 345.5 - 141 = 204.5 mm: wider
        # than the widest tile with printable marks at both ends of its cuts, 215.9 - 2 x 5
        # - 2 x 1.3 = 203.3 mm (right of it, the left tiles hold 204.5 mm and a glue strip).
        # A row seam clear of C3 lies above or below it, so one tile row holds rows 3-5
        # (280.7 mm) or rows 1-3 and a glue strip (290.7 mm): taller than Letter's tallest
        # tile, 279.4 - 2 x 5 - 2 x 1.3 = 266.8 mm. So both cross C3.
        paper_w, paper_h = PAPER["letter"]
        widest = paper_w - 2 * PRINTABLE - 2 * MARK_ROOM
        tallest = paper_h - 2 * PRINTABLE - 2 * MARK_ROOM
        board_w, board_h = _board(grid_data)
        assert min(board_w - x0, x1 + GLUE) > widest
        assert min(board_h - y0, y1 + GLUE) > tallest
        assert through_x and through_y, (x, y)
    # C3's words: its label and "first card / face up here".
    words = [w for w in _board_words(kit, page_words, grid_data,
                                     {"C3", "first", "card", "face", "up", "here"})
             if x0 < (w[0] + w[2]) / 2 < x1 and y0 < (w[1] + w[3]) / 2 < y1]
    assert len(words) == 6  # ("card" and "up" are also in the grid's caption, outside C3)
    for wx0, wy0, wx1, wy1 in words:
        assert x0 <= wx0 and wx1 <= x1 and y0 <= wy0 and wy1 <= y1  # wholly inside C3
        assert x <= wx0 - SAFE or x >= wx1 + SAFE or not through_x, (kit.opts.paper, x, wx0)
        assert y <= wy0 - SAFE or y >= wy1 + SAFE or not through_y, (kit.opts.paper, y, wy0)
    # A seam that does not cross C3 runs in a gap between cells: never through a card.
    gap = grid_data["params"]["gap"]
    cells_x = [grid_data["params"]["border"] + k * (CELL_W + gap) for k in range(5)]
    cells_y = [grid_data["params"]["border"] + k * (CELL_H + gap) for k in range(5)]
    if not through_x:
        assert not any(c < x < c + CELL_W for c in cells_x), x
    if not through_y:
        assert not any(c < y < c + CELL_H for c in cells_y), y


CUT = (r"the cut between (tile \d and tile \d(?: and between tile \d and tile \d)?), "
       r"([\d.]+) mm from its (left|top) edge")


@pytest.mark.parametrize(("paper", "opening", "cuts"), [
    # A4: the rows split in the gap above row 3 (2 + 3 rows, on the sideways frame: tiles
    # 282 mm tall), so only the column seam, across column C right of C3's label and left of
    # its words, crosses C3
    ("a4", "Only one seam crosses the start cell C3: ", [("tile 3 and tile 4", "left", 29.1)]),
    # Letter: both seams, left of and above C3's words (see above)
    ("letter", "2 seams cross the start cell C3: ", [
        ("tile 1 and tile 2 and between tile 3 and tile 4", "left", 29.1),
        ("tile 1 and tile 3 and between tile 2 and tile 4", "top", 36.3)]),
])
def test_the_contents_page_says_which_seams_cross_the_start_cell(kits, paper, opening, cuts,
                                                                 grid_data, c3, page_texts):
    kit = kits(paper=paper)
    x, y, _ = _seams(kit, grid_data)
    contents = " ".join(page_texts(kit.path, [1])[0].split())
    said = contents[contents.index(opening) + len(opening):]
    said = said[:said.index(".", said.index(" mm from its ", said.rindex("tile")))]
    found = [re.fullmatch(CUT, part) for part in said.split("; ")]
    assert all(found), said
    assert [(f[1], f[3], float(f[2])) for f in found if f] == cuts
    # True of the printed tiles: each offset is its seam's distance from C3's edge.
    for f in found:
        assert f is not None
        seam, edge = (x, c3[0]) if f[3] == "left" else (y, c3[1])
        assert float(f[2]) == pytest.approx(seam - edge, abs=0.05)
