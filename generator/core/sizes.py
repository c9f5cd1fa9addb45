"""Paper and card size presets, in millimetres (from the print-standards reference)."""
from __future__ import annotations

from generator.core.model import Size

PAPER_SIZES: dict[str, Size] = {
    "a4": Size(210.0, 297.0),
    "letter": Size(215.9, 279.4),
    "a3": Size(297.0, 420.0),
}

# How a print dialog names each paper: the ISO sizes in capitals, the US one capitalised.
PAPER_LABELS: dict[str, str] = {"a4": "A4", "letter": "Letter", "a3": "A3"}

CARD_SIZES: dict[str, Size] = {
    "poker": Size(63.5, 88.9),
    "bridge": Size(57.15, 88.9),
    "mini": Size(44.45, 63.5),
    "mini-euro": Size(44.0, 68.0),
    "euro-poker": Size(63.0, 88.0),
    "tarot": Size(69.85, 120.65),
    "square": Size(63.5, 63.5),
    "square-small": Size(50.8, 50.8),
    "square-large": Size(88.9, 88.9),
}

# A "page"-sized component (a rules summary) takes the printable area; resolved at layout time.
PAGE = Size(0.0, 0.0)
