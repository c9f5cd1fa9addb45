"""Text in PNGs placed glyph by glyph where the PDF puts it (issue 13, item 6).

FreeType, as Pillow calls it, hints glyphs: each advance is rounded to a whole pixel of the
size it draws at. At 100 dpi (supersampled 3x) a 65-character rules line came out 1.1 mm
shorter than ReportLab measured it, so words drifted left along every line and the PNG of a
rules page no longer matched its PDF (the parity test's worst finding). Pillow also rounded
the font size to whole pixels before version 10.1; it takes a fractional size now.

ReportLab's ``drawString`` neither kerns nor shapes: a line is each character at the sum of
the widths before it. Drawing each glyph at that position from ReportLab's own widths gives
the PDF's layout at any resolution, for about the same cost as drawing the line whole.

A font comes as the renderer was given it (``FontUse``, generator/core/resources.py): its file
for Pillow and the name ReportLab has it registered under, for the advances.
"""
from __future__ import annotations

from PIL import ImageDraw, ImageFont
from reportlab.pdfbase import pdfmetrics

from generator.core import memo
from generator.core.primitives import PT_TO_MM
from generator.core.resources import FontUse


@memo.memo(maxsize=64)
def font(file: FontUse, px: float) -> ImageFont.FreeTypeFont:
    """A font at a fractional pixel size (the PDF's size exactly). Keyed by the file's
    version (a project's "Title" is not another project's "Title")."""
    return ImageFont.truetype(str(file.path), max(1.0, px), layout_engine=ImageFont.Layout.BASIC)


@memo.memo(maxsize=8192)
def _advance(pdf_name: str, char: str) -> float:
    """A character's advance in mm per point of font size, as ReportLab measures it (the
    registered name is unique per font file version)."""
    return pdfmetrics.stringWidth(char, pdf_name, 1.0) * PT_TO_MM


def line_width(file: FontUse, text: str, size_pt: float) -> float:
    """A line's width in mm, the PDF's (glyph advances summed, no kerning)."""
    name = file.pdf_name
    return sum(_advance(name, c) for c in text) * size_pt


def draw_line(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, file: FontUse,
              size_pt: float, px_per_mm: float, fill: tuple[int, ...]) -> None:
    """One line with its left end at (x, y) on the baseline, in canvas pixels."""
    face = font(file, size_pt * PT_TO_MM * px_per_mm)
    name = file.pdf_name
    step = size_pt * px_per_mm
    for char in text:
        if not char.isspace():
            draw.text((x, y), char, font=face, fill=fill, anchor="ls")
        x += _advance(name, char) * step
