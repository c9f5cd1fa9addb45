"""The frame of a page: where pieces may go, and where the footer and the check ruler sit.

Furniture takes two opposite bands inside the printer margin: top and bottom, or left and right
(text turned) when the pieces need the height, as poker cards do on Letter. Each band holds the
furniture plus the 3 mm of bleed the nearest pieces print past their trim, so neither touches
the other. The frame is symmetric under both duplex flips, so a back page mirrors its front
inside the same frame.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.core.model import Size

from .page import Box

FURNITURE = 4.0  # height of the footer line and of the check ruler
OUTER_BLEED = 3.0  # art printed past every outer trim edge, so a drifting cut shows no paper
BAND = FURNITURE + OUTER_BLEED


@dataclass(frozen=True)
class Frame:
    paper: Size
    margin: float
    sideways: bool = False  # furniture in the left and right bands, turned 90 degrees
    # Tight: trims may reach the printer margin on the two sides without furniture, their
    # bleed running into the margin. Only used when it fits more pieces (3 x 3 poker cards on
    # Letter); otherwise all bleed stays printable.
    tight: bool = False

    @property
    def area(self) -> Box:
        """Where trim boxes may go; their 3 mm of bleed lies around it, inside the printable
        area (or, for a tight frame, partly in the margin on the sides without furniture)."""
        m = self.margin
        b = 0.0 if self.tight else OUTER_BLEED
        if self.sideways:
            return (m + BAND, m + b, self.paper.w - 2 * (m + BAND), self.paper.h - 2 * (m + b))
        return (m + b, m + BAND, self.paper.w - 2 * (m + b), self.paper.h - 2 * (m + BAND))

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


def frames(paper: Size, margin: float) -> list[Frame]:
    """Every frame a sheet may use, in order of preference."""
    return [Frame(paper, margin, sideways, tight) for tight in (False, True)
            for sideways in (False, True)]


def best_frame(paper: Size, margin: float, w: float, h: float, pitch_x: float,
               pitch_y: float, wanted: int = 1 << 30) -> Frame:
    """The frame that holds the most of these pieces (either way up, up to ``wanted``); the
    first of ``frames`` on a tie: upright furniture, all bleed printable."""
    def count(frame: Frame) -> int:
        return min(wanted, max(grid_count(frame.area, w, h, pitch_x, pitch_y),
                               grid_count(frame.area, h, w, pitch_y, pitch_x)))
    options = frames(paper, margin)
    return max(options, key=lambda f: (count(f), -options.index(f)))
