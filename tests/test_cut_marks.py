"""Cut marks read back from every page of every kit, on A4 and Letter, sheets and gutterfold.

A mark helps only if the printer prints it and if each cut has one beyond both ends: a home
printer leaves off a band along every edge (5 mm is the least we trust), and a ruler needs two
points. So, measured in the PDF against the manifest's trims: every mark has at least
``BLEED_MARK_MIN`` of its length 5 mm or more from each edge of the paper (what every printer
prints) and none of it nearer than ``REACH`` (a mark the band would cut short runs on to there),
every cut of every block marked beyond both ends, no mark on a piece, no two marks meeting (a
"+" reads as a corner that is not there).
"""
from __future__ import annotations

from functools import cache
from typing import Any

import pdfplumber
import pytest

from generator.data import load_game
from generator.layout.frame import OUTER_BLEED as BLEED
from generator.layout.marks import (
    ACROSS_WANTED,
    BLEED_MARK_MIN,
    BLEED_MARK_STOP,
    MARK_LENGTH,
    MARK_OFFSET,
    PRINTABLE,
    REACH,
    cuts,
)

GAMES = ("moving-target", "monster-day", "moving-day", "moving-day-boxes", "movement-game")
PT = 72 / 25.4
MARK_WIDTH = 0.18
TOL = 0.02  # the manifest rounds to 0.01 mm

Segment = tuple[float, float, float, float]


@cache
def round_components(game: str) -> frozenset[str]:
    """Round pieces are cut on their circle or punched: they have no straight cuts."""
    return frozenset(c.id for c in load_game(game).components if c.shape == "round")


def page_marks(lines: list[dict[str, Any]]) -> list[Segment]:
    """Axis-aligned lines of the mark's width and at most its length, in mm, of those a page
    draws itself (its furniture: marks are never part of a piece's face)."""
    out = []
    for ln in lines:
        if abs(ln["linewidth"] / PT - MARK_WIDTH) > 0.01:
            continue
        x1, y1, x2, y2 = (ln[k] / PT for k in ("x0", "top", "x1", "bottom"))
        if abs(x1 - x2) > 0.01 and abs(y1 - y2) > 0.01:
            continue
        if abs(x2 - x1) + abs(y2 - y1) <= MARK_LENGTH + 0.05:
            out.append((x1, y1, x2, y2))
    return out


def snapped(trims: list[Segment]) -> list[Segment]:
    """Trims as (x, y, w, h) with edges the manifest's rounding set 0.01 mm apart made one
    (13.62 + 88.9 and 102.53 are the same cut)."""
    seen: tuple[list[float], list[float]] = ([], [])

    def snap(v: float, axis: int) -> float:
        near = next((s for s in seen[axis] if abs(s - v) <= TOL), None)
        if near is None:
            seen[axis].append(v)
            return v
        return near
    out = []
    for x, y, w, h in trims:
        x0, y0, x1, y1 = snap(x, 0), snap(y, 1), snap(x + w, 0), snap(y + h, 1)
        out.append((x0, y0, x1 - x0, y1 - y0))
    return out


def printed_length(m: Segment, paper_w: float, paper_h: float, band: float) -> float:
    """How much of an axis-aligned mark lies at least ``band`` mm from every paper edge."""
    x0, x1, y0, y1 = min(m[0], m[2]), max(m[0], m[2]), min(m[1], m[3]), max(m[1], m[3])
    x0, x1 = max(x0, band), min(x1, paper_w - band)
    y0, y1 = max(y0, band), min(y1, paper_h - band)
    if x1 < x0 - 1e-9 or y1 < y0 - 1e-9:
        return 0.0
    return (x1 - x0) + (y1 - y0)


def meet(a: Segment, b: Segment) -> bool:
    """Do two axis-aligned segments touch or cross?"""
    ax0, ax1, ay0, ay1 = min(a[0], a[2]), max(a[0], a[2]), min(a[1], a[3]), max(a[1], a[3])
    bx0, bx1, by0, by1 = min(b[0], b[2]), max(b[0], b[2]), min(b[1], b[3]), max(b[1], b[3])
    return ax0 <= bx1 + 0.01 and bx0 <= ax1 + 0.01 and ay0 <= by1 + 0.01 and by0 <= ay1 + 0.01


def marked(cut: Any, end: float, sign: int, marks: list[Segment]) -> bool:
    """A mark on the cut's line beyond ``end``, starting between the trim's bleed-stop and
    just past its bleed (a mark farther out belongs to another block's cut)."""
    for x1, y1, x2, y2 in marks:
        if cut.vertical and abs(x1 - cut.at) < TOL and abs(x2 - cut.at) < TOL:
            ends = (y1, y2)
        elif not cut.vertical and abs(y1 - cut.at) < TOL and abs(y2 - cut.at) < TOL:
            ends = (x1, x2)
        else:
            continue
        near = min(sign * (v - end) for v in ends)
        if BLEED_MARK_STOP - TOL <= near <= BLEED + MARK_OFFSET + TOL:
            return True
    return False


@pytest.mark.parametrize("layout", ["sheets", "gutterfold"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_every_cut_is_marked_at_both_ends_where_a_printer_prints(kits, page_shapes, game, paper,
                                                                 layout):
    kit = kits(game, paper, layout=layout)
    rounds = round_components(game)
    problems: list[tuple[Any, ...]] = []
    with pdfplumber.open(kit.pdf) as pdf:
        sizes = [(p.width / PT, p.height / PT) for p in pdf.pages]
    for page in kit.manifest["pages"]:
        paper_w, paper_h = sizes[page["page"] - 1]
        marks = page_marks(page_shapes(kit.pdf, page["page"], furniture=True)["lines"])
        trims = snapped([(pc["x"], pc["y"], pc["w"], pc["h"]) for pc in page["pieces"]
                         if pc["component"] not in rounds])
        if page["side"] == "back":
            assert marks == [], page["page"]  # nothing is drawn over back art
            continue
        for m in marks:
            x0, x1, y0, y1 = min(m[0], m[2]), max(m[0], m[2]), min(m[1], m[3]), max(m[1], m[3])
            edge = min(x0, y0, paper_w - x1, paper_h - y1)
            if edge < REACH - 0.01:
                problems.append((page["page"], "edge", round(edge, 2), m))
            if printed_length(m, paper_w, paper_h, PRINTABLE) < BLEED_MARK_MIN - 0.01:
                problems.append((page["page"], "printed", m))
            for x, y, w, h in trims:  # on a piece: inside its trim, not on its edge line
                if x + TOL < x1 and x0 < x + w - TOL and y + TOL < y1 and y0 < y + h - TOL:
                    problems.append((page["page"], "on a piece", m))
        for i, a in enumerate(marks):
            problems += [(page["page"], "marks meet", a, b) for b in marks[i + 1:]
                         if meet(a, b)]
        for cut in cuts(trims):
            for end, sign in ((cut.lo, -1), (cut.hi, 1)):
                if not marked(cut, end, sign, marks):
                    problems.append((page["page"], "unmarked", cut, end))
    assert problems == []


@pytest.mark.parametrize("game", ["moving-target", "monster-day"])
def test_letter_poker_marks_are_long_enough_to_lay_a_ruler_on(kits, page_shapes, game):
    """Letter's 3 x 3 poker cards leave 0.85 mm between the bleed's stop and the 5 mm band:
    the marks across the bleed run on into the band, so each is at least ``ACROSS_WANTED``
    long, and a printer keeping the whole 5 mm band still prints 0.85 mm of it."""
    kit = kits(game, "letter")
    with pdfplumber.open(kit.pdf) as pdf:
        paper_w, paper_h = pdf.pages[0].width / PT, pdf.pages[0].height / PT
    short, reaching = [], 0
    for page in kit.manifest["pages"]:
        if page["side"] != "front" or len(page["pieces"]) != 9:
            continue
        for m in page_marks(page_shapes(kit.pdf, page["page"], furniture=True)["lines"]):
            length = abs(m[2] - m[0]) + abs(m[3] - m[1])
            if length < ACROSS_WANTED - 0.01:
                short.append((page["page"], m))
            if min(m[1], m[3]) < PRINTABLE - 0.01 or max(m[1], m[3]) > paper_h - PRINTABLE + 0.01:
                reaching += 1
                assert printed_length(m, paper_w, paper_h, PRINTABLE) >= 0.84
    assert short == []
    assert reaching > 0
