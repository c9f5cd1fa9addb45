"""The frame of a page: where pieces may go, and where the footer and the check ruler sit.

Furniture takes two opposite bands inside the printer margin: top and bottom, or left and right
(text turned) when the pieces need the height, as poker cards do on Letter. Each band holds the
furniture plus the 3 mm of bleed the nearest pieces print past their trim, so neither touches
the other. The frame is symmetric under both duplex flips, so a back page mirrors its front
inside the same frame.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model import Size
from .page import Box

FURNITURE = 4.0  # height of the footer line and of the check ruler
OUTER_BLEED = 3.0  # art printed past every outer trim edge, so a drifting cut shows no paper
BAND = FURNITURE + OUTER_BLEED


@dataclass(frozen=True)
class Frame:
    paper: Size
    margin: float
    sideways: bool = False  # furniture in the left and right bands, turned 90 degrees

    @property
    def area(self) -> Box:
        """Where trim boxes may go. Bleed may run past it into the printer margin on the two
        sides without furniture (a printer that cannot print there only loses some bleed)."""
        m = self.margin
        if self.sideways:
            return (m + BAND, m, self.paper.w - 2 * (m + BAND), self.paper.h - 2 * m)
        return (m, m + BAND, self.paper.w - 2 * m, self.paper.h - 2 * (m + BAND))

    @property
    def footer_box(self) -> Box:
        m, paper = self.margin, self.paper
        if self.sideways:
            return (m, m, FURNITURE, paper.h - 2 * m)
        return (m, paper.h - m - FURNITURE, paper.w - 2 * m, FURNITURE)

    @property
    def ruler_box(self) -> Box:
        m, paper = self.margin, self.paper
        if self.sideways:
            return (paper.w - m - FURNITURE, m, FURNITURE, paper.h - 2 * m)
        return (m, m, paper.w - 2 * m, FURNITURE)

    @property
    def rotation(self) -> int:
        return 90 if self.sideways else 0


def grid_count(area: Box, w: float, h: float, pitch_x: float, pitch_y: float) -> int:
    """How many w x h pieces at the given pitch fit in ``area``."""
    _, _, aw, ah = area
    if w > aw + 1e-9 or h > ah + 1e-9:
        return 0
    cols = int((aw - w + 1e-9) // pitch_x) + 1
    rows = int((ah - h + 1e-9) // pitch_y) + 1
    return cols * rows


def best_frame(paper: Size, margin: float, w: float, h: float, pitch_x: float,
               pitch_y: float) -> Frame:
    """The frame that holds the most of these pieces; upright furniture on a tie."""
    upright, sideways = Frame(paper, margin), Frame(paper, margin, True)
    if grid_count(sideways.area, w, h, pitch_x, pitch_y) > grid_count(upright.area, w, h,
                                                                        pitch_x, pitch_y):
        return sideways
    return upright
