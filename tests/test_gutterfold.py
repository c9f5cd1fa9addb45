"""Gutterfold sheets measured in the PDF, for every kit on A4 and Letter: art 3 mm past every
outer trim edge of fronts and backs and never across the fold, round pieces as circles with
their ring of art and punch advice, the fold line clear of the footer and the ruler, and no
page holding a lone piece that packing could have put beside others.

A hand fold that is 1 mm off moves the back 1 mm against its front: with the art stopping on
the trim (as it did), every card showed a white edge.
"""
from __future__ import annotations

import math
import re
from functools import cache
from typing import Any

import pypdfium2 as pdfium
import pytest

from generator.core import primitives as p
from generator.core.sizes import PAPER_SIZES
from generator.data import load_game
from generator.layout.frame import OUTER_BLEED
from generator.layout.gutterfold import gutterfold_pages
from generator.layout.kit import Piece

GAMES = ("moving-target", "monster-day", "moving-day", "moving-day-boxes", "movement-game")
PT = 72 / 25.4
TOL = 0.05  # mm: the manifest rounds to 0.01 mm, the PDF to 0.01 pt
PAPERS = ("a4", "letter")


@cache
def round_components(game: str) -> frozenset[str]:
    return frozenset(c.id for c in load_game(game).components if c.shape == "round")


def folded_pages(kit: Any) -> list[dict[str, Any]]:
    """The manifest's gutterfold pages: the ones with backs beside their fronts."""
    return [pg for pg in kit.manifest["pages"]
            if any(pc["face"] == "back" for pc in pg["pieces"])]


def trim(pc: dict[str, Any]) -> tuple[float, float, float, float]:
    return (pc["x"], pc["y"], pc["x"] + pc["w"], pc["y"] + pc["h"])


def clip_of(box: tuple[float, ...], clips: list[dict[str, Any]]) -> dict[str, Any]:
    """The smallest clip (mm) that holds the trim: the one its face is drawn through."""
    x0, y0, x1, y1 = box
    holding = [c for c in clips if c["box"][0] <= x0 + TOL and c["box"][1] <= y0 + TOL
               and c["box"][2] >= x1 - TOL and c["box"][3] >= y1 - TOL]
    assert holding, box
    return min(holding, key=lambda c: (c["box"][2] - c["box"][0]) * (c["box"][3] - c["box"][1]))


def neighbours(box: tuple[float, ...], others: list[tuple[float, ...]]) -> list[bool]:
    """Which sides (left, top, right, bottom) another trim touches along more than 1 mm: a
    shared cut, where the art stops on the trim."""
    x0, y0, x1, y1 = box
    sides = [False] * 4
    for o in others:
        if o == box:
            continue
        along_y = min(y1, o[3]) - max(y0, o[1]) > 1
        along_x = min(x1, o[2]) - max(x0, o[0]) > 1
        sides[0] |= along_y and abs(o[2] - x0) < TOL
        sides[2] |= along_y and abs(o[0] - x1) < TOL
        sides[1] |= along_x and abs(o[3] - y0) < TOL
        sides[3] |= along_x and abs(o[1] - y1) < TOL
    return sides


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_art_runs_3mm_past_every_outer_trim_edge_and_never_across_the_fold(
        kits, page_clips, game, paper):
    kit = kits(game, paper, layout="gutterfold")
    rounds = round_components(game)
    problems: list[tuple[Any, ...]] = []
    pages = folded_pages(kit)
    assert pages
    for page in pages:
        clips = [{"box": [v / PT for v in c["bbox"]], "curved": c["curved"]}
                 for c in page_clips(kit.pdf, page["page"])]
        fold = max(PAPER_SIZES[paper].w, PAPER_SIZES[paper].h) / 2
        for face in ("front", "back"):
            pieces = [pc for pc in page["pieces"] if pc["face"] == face]
            boxes = [trim(pc) for pc in pieces]
            for pc, box in zip(pieces, boxes, strict=True):
                clip = clip_of(box, clips)
                cx0, cy0, cx1, cy1 = clip["box"]
                past = (box[0] - cx0, box[1] - cy0, cx1 - box[2], cy1 - box[3])
                round_ = pc["component"] in rounds
                if round_ != clip["curved"]:
                    problems.append((page["page"], pc["label"], face, "shape", clip["curved"]))
                touching = [False] * 4 if round_ else neighbours(box, boxes)
                for side, (gap, shared) in enumerate(zip(past, touching, strict=True)):
                    if not shared and gap < OUTER_BLEED - TOL:
                        problems.append((page["page"], pc["label"], face, side, round(gap, 2)))
                # the fold is folded, not cut: no art reaches it
                if (face == "front" and cx1 > fold - 0.5) or (face == "back" and cx0 < fold + 0.5):
                    problems.append((page["page"], pc["label"], face, "fold", cx0, cx1))
                for o in page["pieces"]:
                    other = trim(o)
                    if other == box or (not round_ and any(neighbours(box, [other]))):
                        continue  # a touching neighbour shares the cut line
                    if round_ and o["component"] in rounds:
                        continue  # circles: their distance is measured in the round test
                    if (cx0 < other[2] - TOL and other[0] + TOL < cx1
                            and cy0 < other[3] - TOL and other[1] + TOL < cy1):
                        problems.append((page["page"], pc["label"], face, "art on", other))
    assert problems == []


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_back_art_is_printed_in_the_bleed(kits, game, paper):
    """Rasterised: the art of every card back covers the band 1-2.5 mm outside each of its
    outer trim edges, on both sides of a fold a little off: a dark back is not paper white
    there, and any back (a light one too, such as the movement aids' conversion table)
    prints there the colour it has 1 mm inside its trim."""
    kit = kits(game, paper, layout="gutterfold")
    rounds = round_components(game)
    doc = pdfium.PdfDocument(str(kit.pdf))
    scale = 100 / 72  # 100 dpi
    px = 100 / 25.4
    problems = []
    for page in folded_pages(kit):
        backs = [trim(pc) for pc in page["pieces"]
                 if pc["face"] == "back" and pc["component"] not in rounds]
        image = doc[page["page"] - 1].render(scale=scale).to_pil().convert("RGB")
        for box in backs:
            touching = neighbours(box, backs)
            x0, y0, x1, y1 = box
            for side, shared in enumerate(touching):
                if shared:
                    continue
                for t in (0.2, 0.5, 0.8):
                    inside, *outside = [image.getpixel((
                        int({0: x0 - d, 2: x1 + d}.get(side, x0 + t * (x1 - x0)) * px),
                        int({1: y0 - d, 3: y1 + d}.get(side, y0 + t * (y1 - y0)) * px)))
                        for d in (-1.0, 1.0, 2.5)]
                    for d, pixel in zip((1.0, 2.5), outside, strict=True):
                        light = min(inside) > 235
                        if (not light and min(pixel) > 235) or (
                                light and max(abs(a - b) for a, b in zip(pixel, inside,
                                                                         strict=True)) > 24):
                            problems.append((page["page"], box, side, d, t, pixel, inside))
    doc.close()
    assert problems == []


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", ["monster-day", "movement-game"])
def test_round_pieces_are_circles_with_punch_advice(kits, page_texts, game, paper):
    """Tokens are cut on their circle or punched: each page with them says so (with the
    punch size), as does the contents page; none says to cut them apart as cards."""
    kit = kits(game, paper, layout="gutterfold")
    rounds = round_components(game)
    texts = page_texts(kit.pdf)
    diameters = set()
    seen = 0
    for page in folded_pages(kit):
        tokens = [pc for pc in page["pieces"] if pc["component"] in rounds]
        if not tokens:
            continue
        seen += 1
        mm = tokens[0]["w"]
        diameters.add(mm)
        assert all(pc["w"] == pc["h"] == mm for pc in tokens)
        footer = " ".join(texts[page["page"] - 1].split()[-40:])
        assert "circles" in footer and f"{mm:g} mm punch" in footer, footer
        for a in tokens:  # rings of art apart: centres at least a diameter + 2 x 3 mm apart
            for b in tokens:
                if a is not b and a["face"] == b["face"]:
                    dist = math.dist((a["x"], a["y"]), (b["x"], b["y"]))
                    assert dist >= mm + 2 * OUTER_BLEED - TOL
    assert seen
    contents = " ".join(texts[0].split())
    for mm in diameters:
        assert f"use a {mm:g} mm circle punch" in contents
    assert "the art runs 3 mm past the circle" in contents


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", ["moving-target", "monster-day"])
def test_fold_line_is_clear_of_the_footer_and_the_ruler(kits, page_shapes, page_chars, game,
                                                       paper):
    kit = kits(game, paper, layout="gutterfold")
    for page in folded_pages(kit):
        n = page["page"]
        chars = page_chars(kit.pdf, n)
        lines = page_shapes(kit.pdf, n, furniture=True)["lines"]
        folds = [ln for ln in lines if abs(ln["x0"] - ln["x1"]) < 0.01
                 and ln["bottom"] - ln["top"] > 100 * PT]
        assert len(folds) == 1, n
        fold = folds[0]
        paper_w, paper_h = (max(PAPER_SIZES[paper].w, PAPER_SIZES[paper].h) * PT,
                            min(PAPER_SIZES[paper].w, PAPER_SIZES[paper].h) * PT)
        assert fold["x0"] == pytest.approx(paper_w / 2, abs=0.1)
        footer = [c for c in chars if c["top"] > paper_h - 12 * PT]
        ruler = [c for c in chars if c["bottom"] < 12 * PT]
        assert footer and ruler
        assert fold["bottom"] < min(c["top"] for c in footer) - 0.5 * PT, n
        assert fold["top"] > max(c["bottom"] for c in ruler) + 0.5 * PT, n


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_no_page_holds_a_lone_piece_that_could_share(kits, game, paper):
    """Cards fill whole pages; the rest of a deck shares a page with the kit's tokens instead
    of taking one of its own: as many gutterfold pages as the cards need, no more, and no page
    with a single piece."""
    kit = kits(game, paper, layout="gutterfold")
    rounds = round_components(game)
    pages = folded_pages(kit)
    fronts = [[pc for pc in pg["pieces"] if pc["face"] == "front"] for pg in pages]
    assert all(len(f) > 1 for f in fronts), [len(f) for f in fronts]
    cards = [[pc for pc in f if pc["component"] not in rounds] for f in fronts]
    per_page = max(len(c) for c in cards)
    assert len(pages) == math.ceil(sum(len(c) for c in cards) / per_page)


def _piece(w: float, h: float, n: int, round_: bool = False) -> list[Piece]:
    front, back = p.Face(w, h, 3.0, (), "front"), p.Face(w, h, 3.0, (), "back")
    return [Piece(front, back, "tokens" if round_ else "deck", f"{n}-{i}", round_)
            for i in range(n)]


@pytest.mark.parametrize("paper", PAPERS)
def test_a_short_last_row_shares_its_page_with_the_tokens(paper):
    """5 cards and 16 tokens of 20 mm: two pages, not three; the tokens sit in staggered rows
    beside the fifth card, each ring of art apart from the next."""
    pages = gutterfold_pages([_piece(63.5, 88.9, 5), _piece(20, 20, 16, True)],
                             PAPER_SIZES[paper], 5.0, "test")
    assert len(pages) == 2
    last = [pl for pl in pages[1].placements if pl.side == "front"]
    assert sum(not pl.round for pl in last) == 1 and sum(pl.round for pl in last) == 16


@pytest.mark.parametrize("game", GAMES)
def test_every_footer_numbers_its_sheet_as_the_contents_page_does(kits, furniture_texts,
                                                                  page_texts, game):
    """The contents page lists a gutterfold deck on "pages 7-19" (its numbers: the kit's pages);
    each of those pages says "sheet 7 of 19" in its footer. It said "gutterfold sheet 1/13", a
    number the contents page never used."""
    kit = kits(game, "a4", layout="gutterfold")
    texts = furniture_texts(kit.pdf)
    n = len(texts)
    folded = [pg["page"] for pg in folded_pages(kit)]
    for page in folded:
        flat = " ".join(texts[page - 1].split())
        assert f"sheet {page} of {n}, front" in flat, (page, flat[-300:])
        assert not re.search(r"sheet \d+/\d+", flat), (page, flat[-300:])
    contents = " ".join(page_texts(kit.pdf, [1])[0].split())
    assert f"Pages {folded[0]}-{folded[-1]} are landscape" in contents, contents


@pytest.mark.parametrize("layout", ["sheets", "gutterfold"])
@pytest.mark.parametrize("game", ["monster-day", "movement-game"])
def test_no_cut_line_lies_on_a_punched_token(kits, page_shapes, game, layout):
    """A round piece's cut guide is a ring of short grey ticks in its bleed, from 0.5 mm outside
    its circle: a punch a little off cuts through art only. The grey hairline on the circle it
    replaced showed as a grey arc on every token punched 0.2 mm off centre."""
    kit = kits(game, "a4", layout=layout)
    rounds = round_components(game)
    seen = 0
    for page in kit.manifest["pages"]:
        tokens = [pc for pc in page["pieces"] if pc["component"] in rounds
                  and pc["face"] == "front"]
        if not tokens or page["side"] != "front":
            continue
        shapes = page_shapes(kit.pdf, page["page"], furniture=True)
        for pc in tokens:
            cx, cy, r = pc["x"] + pc["w"] / 2, pc["y"] + pc["h"] / 2, pc["w"] / 2
            for curve in shapes["curves"]:  # nothing drawn by the page round the trim
                x0, x1 = curve["x0"] / PT, curve["x1"] / PT
                top, bottom = curve["top"] / PT, curve["bottom"] / PT
                assert not (abs(x0 - (cx - r)) < 0.6 and abs(x1 - (cx + r)) < 0.6
                            and abs(top - (cy - r)) < 0.6 and abs(bottom - (cy + r)) < 0.6), pc
            ticks = []
            for ln in shapes["lines"]:
                ends = [(ln["x0"] / PT, ln["top"] / PT), (ln["x1"] / PT, ln["bottom"] / PT)]
                dist = sorted(math.dist(e, (cx, cy)) for e in ends)
                if r < dist[1] <= r + OUTER_BLEED:
                    ticks.append(dist[0])
            assert len(ticks) >= 4, pc
            assert min(ticks) >= r + 0.45, pc
            seen += 1
    assert seen
