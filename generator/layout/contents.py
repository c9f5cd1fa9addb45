"""The contents sheet that opens every kit: what to print, on which paper, single or double
sided, what to cut and how to assemble it, and how many of each piece there are.

It is computed from the kit's own pages, so it never disagrees with the PDF it opens.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..faces import primitives as p
from ..faces.text import PT, TextBox, layout, wrap
from ..model import Size
from .page import Page

ASSEMBLY = {
    "card": "Cut along the marks: touching cards share one cut.",
    "tile": "Cut along the marks.",
    "token": "Cut out along the circles (a 1 in / 25 mm punch helps).",
    "board": "Trim the tiles, overlap them so the registration marks meet, glue or tape; the map "
             "at the foot of each tile shows where it goes.",
    "die": "Cut out, fold every edge, glue the grey tabs inside.",
    "sheet": "Keep as it is.",
}


@dataclass(frozen=True)
class Section:
    """One component's share of the kit."""

    name: str
    kind: str
    count: int
    first_page: int
    last_page: int
    duplex: bool
    assembly: str = ""


def _page_range(section: Section) -> str:
    if section.first_page == section.last_page:
        return f"page {section.first_page}"
    return f"pages {section.first_page}-{section.last_page}"


class _Flow:
    """Paragraphs stacked down the page."""

    def __init__(self, x: float, y: float, w: float) -> None:
        self.x, self.y, self.w = x, y, w
        self.prims: list[p.Primitive] = []

    def text(self, text: str, font: str = "sans", size: float = 10.0, colour: str = "#1b1b1b",
             indent: float = 0.0, after: float = 1.5) -> None:
        width = self.w - indent
        lines = wrap(text, font, size, width) or [text]
        height = len(lines) * size * PT * 1.25 + 0.2
        self.prims.append(layout(TextBox(self.x + indent, self.y, width, height, text, font, size,
                                         min(size, 6.0), colour, "left", "top", 1.25)))
        self.y += height + after

    def rule(self, colour: str = "#c9c9c9") -> None:
        self.prims.append(p.Line(self.x, self.y, self.x + self.w, self.y, colour, 0.3))
        self.y += 2.0


def contents_page(title: str, credit: str, paper_name: str, paper: Size, margin: float,
                  sections: Sequence[Section], flip: str, total_pages: int) -> Page:
    flow = _Flow(margin + 5, margin + 5, paper.w - 2 * margin - 10)
    flow.text(f"{title}: print-and-play kit", "sans-bold", 20, "#1f3a5f", after=2)
    flow.text(credit, "sans", 8.5, "#555555", after=4)
    flow.rule()
    flow.text("How to print", "sans-bold", 13, "#1f3a5f")
    duplex = [s for s in sections if s.duplex]
    flow.text(f"{total_pages} pages on {paper_name.upper()} paper. Print at 100 % (actual size): "
              "never 'fit to page'. Each sheet has a 50 mm ruler: measure it before cutting.",
              indent=3)
    if duplex:
        flow.text(f"Pieces with backs come as pairs of pages (fronts, then backs). Print those "
                  f"double-sided, flipping on the {flip} edge; or print the fronts, turn the "
                  "stack over and print the backs. If backs land off-centre, print the "
                  "calibration sheet (make calibration) and set BACK_DX / BACK_DY.", indent=3)
    flow.text("Card stock of 200-300 g/m² makes sturdy pieces; tokens and boards can be glued "
              "to card board.", indent=3, after=4)
    flow.rule()
    flow.text("What is in the kit", "sans-bold", 13, "#1f3a5f")
    for section in sections:
        sides = "double-sided" if section.duplex else "single-sided"
        flow.text(f"{section.name}: {section.count} piece{'s' if section.count != 1 else ''}, "
                  f"{_page_range(section)} ({sides})", "sans-bold", 10, indent=3, after=0.5)
        flow.text(section.assembly or ASSEMBLY.get(section.kind, ""), "sans", 9.5, "#333333",
                  indent=8, after=2.5)
    return Page(paper, (), tuple(flow.prims), bookmark="Contents", side="single")
