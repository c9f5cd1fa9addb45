"""Every tiled board's words against its seams, read from the printed kits (A4 and Letter).

The README promises that a seam keeps 3 mm clear of a board's words: home cutting drifts 1-2
mm, and a word cut in two ("sha|re", "Sa|ltire") is read on neither tile. Each board tile is
found in the kit's manifest (its outer box on the page: its share of the board plus its glue
strips, and its turn), every character the page draws inside that share is mapped back to the
board, and no character may come within 3 mm of any seam of its board. The seams are worked
out from the tiles' sizes alone (the board's size from its data), not from the planner.
"""
from __future__ import annotations

import re
from typing import Any

import pytest

from generator.data import load_game

MM = 72.0 / 25.4
GLUE = 10.0  # the glue strip a tile carries towards its right and lower neighbours (README)
SAFE = 3.0  # the README's promise: a seam keeps 3 mm clear of the board's words
TILE = re.compile(r" tile (\d+)$")
# The built-in games that print a board, each tiled on A4 and on Letter.
GAMES = ("movement-game", "moving-target", "monster-day", "moving-day")

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 (mm)


def _boards(game: str) -> dict[str, tuple[float, float]]:
    """The game's boards and their sizes (mm), from its data."""
    return {c.id: (c.size.w, c.size.h) for c in load_game(game).components
            if c.kind == "board"}


def _shares(sizes: list[float], length: float) -> list[float]:
    """Where each share along one axis starts, from the outer sizes of the tiles along it in
    order: each but the last (the one reaching the board's far edge) carries a glue strip."""
    starts, at = [], 0.0
    for size in sizes:
        starts.append(at)
        if at + size == pytest.approx(length, abs=0.05):
            return starts
        at += size - GLUE
        assert at < length, (sizes, length)
    raise AssertionError(f"tiles {sizes} do not add up to {length} mm")


def _tiles(kit: Any, component: str, board: tuple[float, float]) -> list[dict[str, Any]]:
    """Each tile of ``component``: its page, its outer box on the page (mm), its turn, and
    its share of the board (board mm: x0, y0, x1, y1)."""
    found: dict[int, dict[str, Any]] = {}
    for page in kit.manifest["pages"]:
        for piece in page["pieces"]:
            if piece["component"] == component and (m := TILE.search(piece["label"])):
                assert piece["rotation"] in (0, 90), piece
                turned = piece["rotation"] == 90
                # The tile in the board's own orientation: turned 90 degrees, its width on
                # the board runs up the page.
                w, h = (piece["h"], piece["w"]) if turned else (piece["w"], piece["h"])
                found[int(m[1])] = {"page": page["page"], "box": piece, "turned": turned,
                                    "w": w, "h": h}
    tiles = [found[k] for k in sorted(found)]
    if not tiles:
        return []
    board_w, board_h = board
    xs = _shares([t["w"] for t in tiles], board_w)
    cols = len(xs)
    assert len(tiles) % cols == 0
    ys = _shares([tiles[k]["h"] for k in range(0, len(tiles), cols)], board_h)
    assert len(ys) * cols == len(tiles)
    for k, tile in enumerate(tiles):
        c, r = k % cols, k // cols
        x1 = xs[c + 1] if c + 1 < cols else board_w
        y1 = ys[r + 1] if r + 1 < len(ys) else board_h
        tile["share"] = (xs[c], ys[r], x1, y1)
    return tiles


def _on_board(tile: dict[str, Any], char: dict[str, Any]) -> Box:
    """A character's box on the page, mapped to board mm through its tile (turned 90 degrees:
    board x runs up the page from the tile's lower edge, board y to the right)."""
    box = tile["box"]
    x0, x1 = char["x0"] / MM - box["x"], char["x1"] / MM - box["x"]
    y0, y1 = char["top"] / MM - box["y"], char["bottom"] / MM - box["y"]
    sx, sy, _, _ = tile["share"]
    if tile["turned"]:
        return (sx + box["h"] - y1, sy + x0, sx + box["h"] - y0, sy + x1)
    return (sx + x0, sy + y0, sx + x1, sy + y1)


def _board_chars(kit: Any, page_chars: Any, game: str
                 ) -> dict[str, tuple[list[dict[str, Any]], list[tuple[str, Box]]]]:
    """Each tiled board's tiles and every character it prints (text, board box), each read
    once: on the tile whose share holds its middle (the others clip it away)."""
    out = {}
    for component, board in _boards(game).items():
        tiles = _tiles(kit, component, board)
        chars: list[tuple[str, Box]] = []
        for tile in tiles:
            sx0, sy0, sx1, sy1 = tile["share"]
            for char in page_chars(kit.path, tile["page"]):
                if not char["text"].strip():
                    continue
                x0, y0, x1, y1 = _on_board(tile, char)
                if sx0 <= (x0 + x1) / 2 < sx1 and sy0 <= (y0 + y1) / 2 < sy1:
                    chars.append((char["text"], (x0, y0, x1, y1)))
        if tiles:
            out[component] = (tiles, chars)
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_every_seam_keeps_3_mm_clear_of_the_boards_words(kits, page_chars, game, paper):
    kit = kits(game, paper=paper)
    boards = _board_chars(kit, page_chars, game)
    assert boards  # each of these games tiles a board on both papers
    bad = []
    for component, (tiles, chars) in boards.items():
        assert len(tiles) > 1 and len(chars) > 20, component
        seams_x = sorted({t["share"][0] for t in tiles} - {0.0})
        seams_y = sorted({t["share"][1] for t in tiles} - {0.0})
        for text, (x0, y0, x1, y1) in chars:
            bad += [f"{component}: {text!r} at x {x0:.1f}-{x1:.1f} mm, seam at x {s:.1f}"
                    for s in seams_x if x0 - SAFE < s < x1 + SAFE]
            bad += [f"{component}: {text!r} at y {y0:.1f}-{y1:.1f} mm, seam at y {s:.1f}"
                    for s in seams_y if y0 - SAFE < s < y1 + SAFE]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_characters_land_where_the_board_prints_them(kits, page_chars, paper):
    """The mapping above, checked on what the boards print at known places: each movement
    board's side names in its 12 mm border (South along the lower edge, upright; West down
    the left edge), turned tiles (A4) and upright ones alike."""
    boards = _board_chars(kits("movement-game", paper=paper), page_chars, "movement-game")
    sizes = _boards("movement-game")
    assert set(boards) == set(sizes)
    for component, (_, chars) in boards.items():
        w, h = sizes[component]
        south = [(b[0], t) for t, b in chars if b[1] > h - 12 and 12 < b[0] < w - 12]
        west = [(b[1], t) for t, b in chars if b[2] < 12 and 12 < b[1] < h - 12]
        assert "".join(t for _, t in sorted(south)).startswith("South(red)"), component
        assert "".join(t for _, t in sorted(west)) == "West(blue)", component
