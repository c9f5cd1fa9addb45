"""Text boxes: wrap words and shrink the size until the text fits its box.

Line breaks are computed once here with ReportLab's metrics of the real TTF, so the PDF and
the PNG renderer draw the same lines. The metrics come from the ``FontBook`` the caller hands
in (generator/core/drawing.py): this module looks nothing up.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from generator.core.drawing import FontBook
from generator.core.primitives import PT_TO_MM, Colour, Text

PT = PT_TO_MM
SIZE_STEP = 0.25
# Lines break at white space except the no-break spaces (U+00A0, U+202F) French puts
# before : ; ! ? and inside « »: a line never starts with the colon of "Poids : 1".
NO_BREAK = "\u00a0\u202f"  # no-break spaces (French "Poids : 1", "3 points") join words
_BREAK = re.compile(r"[^\S\u00a0\u202f]+")


def words(paragraph: str) -> list[str]:
    """A paragraph's words: split at white space, never at a no-break space."""
    return [w for w in _BREAK.split(paragraph) if w]


class TextDoesNotFit(ValueError):
    """The text is too long for its box even at the minimum size."""


@dataclass(frozen=True)
class TextBox:
    x: float
    y: float
    w: float
    h: float
    text: str
    font: str
    size: float
    min_size: float
    fill: Colour = "#000000"
    align: str = "left"  # left | center | right
    valign: str = "top"  # top | middle | bottom
    line_height: float = 1.18
    rotate: int = 0


def wrap(text: str, font: str, size: float, width: float, fonts: FontBook
         ) -> list[str] | None:
    """Greedy word wrap; None when a single word is wider than the box."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = [w for w in _BREAK.split(paragraph) if w]
        if not words:
            lines.append("")
            continue
        current = words[0]
        if fonts.text_width_mm(font, current, size) > width:
            return None
        for word in words[1:]:
            trial = f"{current} {word}"
            if fonts.text_width_mm(font, trial, size) <= width:
                current = trial
            elif fonts.text_width_mm(font, word, size) > width:
                return None
            else:
                lines.append(current)
                current = word
        lines.append(current)
    return lines


def fit(box: TextBox, fonts: FontBook) -> tuple[list[str], float]:
    """The lines and the largest size (in SIZE_STEP steps) at which the text fits the box."""
    size = box.size
    while size >= box.min_size - 1e-9:
        lines = wrap(box.text, box.font, size, box.w + 1e-6, fonts)
        if lines is not None and len(lines) * size * PT * box.line_height <= box.h + 1e-6:
            return lines, size
        size = round(size - SIZE_STEP, 4)
    raise TextDoesNotFit(
        f"text {_preview(box.text)} does not fit a {box.w:g} x {box.h:g} mm box even at the "
        f"minimum size {box.min_size:g} pt: shorten it, enlarge the box or lower min_size")


def _preview(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def layout(box: TextBox, fonts: FontBook) -> Text:
    """Fit the box and place each line: a Text primitive ready for either renderer."""
    return place(box, *fit(box, fonts), fonts)


def place(box: TextBox, lines: list[str], size: float, fonts: FontBook) -> Text:
    """Lines already broken at ``size`` placed in the box (generator/faces/rich_layout.py
    places hyphenated lines of plain text this way too)."""
    ascent, descent = fonts.vertical_metrics(box.font)
    line_h = size * PT * box.line_height
    block_h = line_h * len(lines)
    offset = {"top": 0.0, "middle": (box.h - block_h) / 2, "bottom": box.h - block_h}
    top = box.y + offset[box.valign]
    # Centre the glyphs' ascent-to-descent band inside each line box.
    first_baseline = top + (line_h - (ascent - descent) * size * PT) / 2 + ascent * size * PT
    placed = []
    for index, line in enumerate(lines):
        width = fonts.text_width_mm(box.font, line, size)
        x = {"left": box.x, "center": box.x + (box.w - width) / 2,
             "right": box.x + box.w - width}[box.align]
        placed.append((round(x, 4), round(first_baseline + index * line_h, 4), line))
    # A line with characters another font draws (the plain zero) is drawn as spans.
    spans: list[Span] = []
    if any(swapped(box.font, line, fonts) for line in lines):
        for x, baseline, line in placed:
            spans += drawn(x, baseline, line, box.font, box.fill, size, fonts)
    return Text(tuple(placed), box.font, size, box.fill, box.rotate,
                box.x + box.w / 2, box.y + box.h / 2, tuple(spans))


Span = tuple[float, float, str, str, Colour]


def swapped(font: str, text: str, fonts: FontBook) -> bool:
    """Whether some character of ``text`` is drawn in another font than ``font``."""
    return any(drawn_by != font for _, drawn_by in fonts.runs(font, text))


def drawn(x: float, baseline: float, text: str, font: str, fill: Colour,
          size: float, fonts: FontBook) -> list[Span]:
    """Text in ``font`` from ``x`` as the spans drawn: one per run of the fonts that draw it
    (the book's ``runs``), each where the widths before it end."""
    out: list[Span] = []
    for piece, drawn_by in fonts.runs(font, text):
        if out:
            x += fonts.text_width_mm(out[-1][3], out[-1][2], size)
        out.append((round(x, 4), baseline, piece, drawn_by, fill))
    return out
