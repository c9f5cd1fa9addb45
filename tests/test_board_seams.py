"""Moving Target's play grid, tiled: where its seams fall on the printed kit (A4 and Letter).

Three 63.5 mm card columns never fit an A4 tile, so one seam must cross a column of cells; the
start cell C3 is crossed by at most one seam, never through its words, and page 1 says which
seam it is and where. The seams are read back from the kit's manifest (each tile's outer box:
its share of the board plus its glue strip) and the words from the PDF, mapped to the board.
"""
from __future__ import annotations

import json
import re

import pytest
import yaml

from generator.core import paths
from generator.layout.manifest import manifest_path

MM = 72.0 / 25.4
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
    p = grid_data["params"]
    board_w = 2 * p["border"] + 5 * CELL_W + 4 * p["gap"]
    board_h = 2 * p["border"] + 5 * CELL_H + 4 * p["gap"]
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
    assert through_x + through_y <= 1, (kit.opts.paper, x, y)
    # C3's words: its label and "first card / face up here".
    words = [w for w in _board_words(kit, page_words, grid_data,
                                     {"C3", "first", "card", "face", "up", "here"})
             if x0 < (w[0] + w[2]) / 2 < x1 and y0 < (w[1] + w[3]) / 2 < y1]
    assert len(words) == 6  # ("card" and "up" are also in the grid's caption, outside C3)
    for wx0, wy0, wx1, wy1 in words:
        assert x0 <= wx0 and wx1 <= x1 and y0 <= wy0 and wy1 <= y1  # wholly inside C3
        assert x <= wx0 - SAFE or x >= wx1 + SAFE or not through_x, (kit.opts.paper, x, wx0)
        assert y <= wy0 - SAFE or y >= wy1 + SAFE or not through_y, (kit.opts.paper, y, wy0)
    # The seam that does not cross C3 runs in a gap between cells where the paper allows it
    # (both papers do): never through a card.
    gap = grid_data["params"]["gap"]
    cells_x = [grid_data["params"]["border"] + k * (CELL_W + gap) for k in range(5)]
    cells_y = [grid_data["params"]["border"] + k * (CELL_H + gap) for k in range(5)]
    if not through_x:
        assert not any(c < x < c + CELL_W for c in cells_x), x
    if not through_y:
        assert not any(c < y < c + CELL_H for c in cells_y), y


@pytest.mark.parametrize(("paper", "vertical", "pair", "mm"), [
    # A4: the rows split in the gap above row 3 (2 + 3 rows, on the sideways frame: tiles
    # 283 mm tall), so only the column seam, across column C right of its label, crosses C3
    ("a4", True, "tile 3 and tile 4", 29.1),
    # Letter: the columns split in the gap between B and C, so only the row seam crosses C3,
    # above its words
    ("letter", False, "tile 2 and tile 4", 36.3),
])
def test_the_contents_page_says_which_seam_crosses_the_start_cell(kits, paper, vertical, pair,
                                                                  mm, grid_data, c3,
                                                                  page_texts):
    kit = kits(paper=paper)
    x, y, _ = _seams(kit, grid_data)
    contents = " ".join(page_texts(kit.path, [1])[0].split())
    found = re.search(r"Only one seam crosses the start cell C3: the cut between (tile \d and "
                      r"tile \d), ([\d.]+) mm from its (left|top) edge\.", contents)
    assert found, contents
    assert (found[1], found[3]) == (pair, "left" if vertical else "top")
    # True of the printed tiles: the offset is the seam's distance from C3's edge.
    seam, edge = (x, c3[0]) if vertical else (y, c3[1])
    assert float(found[2]) == pytest.approx(seam - edge, abs=0.05) == mm
    assert "No seam crosses" not in contents and "seams cross the start" not in contents
