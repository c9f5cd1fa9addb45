"""One piece per page, for print shops: the page is the piece plus its bleed, the TrimBox is
the finished piece and the BleedBox the whole page. Fronts and backs alternate."""
from __future__ import annotations

from collections.abc import Sequence

from generator.core import primitives as p
from generator.core.model import Size

from .page import Page, Placement


def single_pages(fronts: Sequence[p.Face], backs: Sequence[p.Face] | None, bleed: float,
                 component: str = "", round_cut: bool = False) -> list[Page]:
    pages: list[Page] = []
    for index, face in enumerate(fronts):
        pair = [(face, "front")] + ([(backs[index], "back")] if backs else [])
        for side_face, side in pair:
            b = min(bleed, side_face.bleed)
            paper = Size(side_face.w + 2 * b, side_face.h + 2 * b)
            trim = (b, b, side_face.w, side_face.h)
            placement = Placement(side_face, b, b, (0.0, 0.0, paper.w, paper.h), 0, False,
                                  component, face.label, side)
            pages.append(Page(paper, (placement,), (), side="front", trim_box=trim,
                              bleed_box=(0.0, 0.0, paper.w, paper.h)))
    del round_cut  # print shops cut round pieces from the same square artwork
    return pages
