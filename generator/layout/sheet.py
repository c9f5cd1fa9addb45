"""Sheet options shared by every layout: paper, printer margin, spacing, bleed and duplex flip.

Page coordinates are millimetres from the top-left corner of the paper, y downwards.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.core.errors import InputError
from generator.core.model import Size


class LayoutError(InputError):
    """The component cannot be laid out on this paper (e.g. a card larger than the page)."""


@dataclass(frozen=True)
class SheetSpec:
    paper: Size
    margin: float = 5.0  # the printer cannot print this close to the edge
    gap: float = 0.0  # space between neighbouring cards' bleed boxes
    bleed: float = 0.0  # art printed past each card's inner trim edges (outer edges get 3 mm)
    flip: str = "long"  # long | short: how the duplex printer turns the sheet
    back_dx: float = 0.0  # shift of every back page, measured with the calibration sheet
    back_dy: float = 0.0
