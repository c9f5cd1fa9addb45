"""Text in PNGs placed glyph by glyph where the PDF puts it (issue 13, item 6).

FreeType, as Pillow calls it, hints glyphs: each advance is rounded to a whole pixel of the
size it draws at. At 100 dpi (supersampled 3x) a 65-character rules line came out 1.1 mm
shorter than ReportLab measured it, so words drifted left along every line and the PNG of a
rules page no longer matched its PDF (the parity test's worst finding). Pillow also rounded
the font size to whole pixels before version 10.1; it takes a fractional size now.

ReportLab's ``drawString`` neither kerns nor shapes: a line is each character at the sum of
the widths before it. Drawing each glyph at that position from ReportLab's own widths gives
the PDF's layout at any resolution, for about the same cost as drawing the line whole.
"""
from __future__ import annotations

from PIL import ImageDraw, ImageFont
from reportlab.pdfbase import pdfmetrics

from generator.core import memo
from generator.data import fonts
from generator.data.project_fonts import FontFile


@memo.memo(maxsize=64)
def _font(file: FontFile, px: float) -> ImageFont.FreeTypeFont:
    # Keyed by file version (a project's "Title" is not another project's "Title").
    return ImageFont.truetype(str(file.path), max(1.0, px), layout_engine=ImageFont.Layout.BASIC)


def font(key: str, px: float) -> ImageFont.FreeTypeFont:
    """The font a template names, at a fractional pixel size (the PDF's size exactly)."""
    return _font(fonts.path(key), px)


@memo.memo(maxsize=8192)
def _advance(pdf_name: str, char: str) -> float:
    """A character's advance in mm per point of font size, as ReportLab measures it (the
    registered name is unique per font file version)."""
    return pdfmetrics.stringWidth(char, pdf_name, 1.0) * fonts.PT_TO_MM


def line_width(key: str, text: str, size_pt: float) -> float:
    """A line's width in mm, the PDF's (glyph advances summed, no kerning)."""
    name = fonts.pdf_name(key)
    return sum(_advance(name, c) for c in text) * size_pt


def draw_line(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, key: str,
              size_pt: float, px_per_mm: float, fill: tuple[int, ...]) -> None:
    """One line with its left end at (x, y) on the baseline, in canvas pixels."""
    face = font(key, size_pt * fonts.PT_TO_MM * px_per_mm)
    name = fonts.pdf_name(key)
    step = size_pt * px_per_mm
    for char in text:
        if not char.isspace():
            draw.text((x, y), char, font=face, fill=fill, anchor="ls")
        x += _advance(name, char) * step
