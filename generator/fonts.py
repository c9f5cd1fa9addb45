"""Fonts we ship or pin (never the system's), registered once for both renderers.

Both come from pinned PyPI packages: Atkinson Hyperlegible (fontpkg-atkinson-hyperlegible)
and DejaVu Sans (rinoh-typeface-dejavusans). Their folders are found without importing them
(the DejaVu package's code imports rinohtype, a typesetter we never use).

ReportLab measures text for line breaking; Pillow draws the same TTF files, so a wrapped text
box breaks at the same words in the PDF and in the PNGs.
"""
from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

PT_TO_MM = 25.4 / 72.0


def _package_dir(name: str) -> Path:
    """A package's folder found without importing it (a font package holds no code we need)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"font package {name!r} is not installed: run 'make venv' "
                           "(or 'pip install' this tool, which depends on it)")
    return Path(next(iter(spec.submodule_search_locations)))


@cache
def font_files() -> dict[str, Path]:
    """Font key (used in themes and templates) -> TTF file."""
    atkinson = _package_dir("fontpkg_atkinson_hyperlegible") / "files"
    dejavu = _package_dir("rinoh_typeface_dejavusans")
    return {
        "sans": atkinson / "AtkinsonHyperlegible-Regular.ttf",
        "sans-bold": atkinson / "AtkinsonHyperlegible-Bold.ttf",
        "sans-italic": atkinson / "AtkinsonHyperlegible-Italic.ttf",
        "symbol": dejavu / "DejaVuSans.ttf",
        "symbol-bold": dejavu / "DejaVuSans-Bold.ttf",
        "condensed": dejavu / "DejaVuSansCondensed.ttf",
        "condensed-bold": dejavu / "DejaVuSansCondensed-Bold.ttf",
    }


def pdf_name(key: str) -> str:
    """The name the font is registered under in ReportLab."""
    return f"pnp-{key}"


@cache
def register(key: str) -> TTFont:
    """Register a font key with ReportLab (idempotent) and return its TTFont."""
    files = font_files()
    if key not in files:
        raise KeyError(key)
    font = TTFont(pdf_name(key), str(files[key]))
    pdfmetrics.registerFont(font)
    return font


def known(key: str) -> bool:
    return key in font_files()


def text_width_mm(key: str, text: str, size_pt: float) -> float:
    register(key)
    return pdfmetrics.stringWidth(text, pdf_name(key), size_pt) * PT_TO_MM


@cache
def vertical_metrics(key: str) -> tuple[float, float]:
    """(ascent, descent) as fractions of the font size; descent is negative."""
    face = register(key).face
    return face.ascent / 1000.0, face.descent / 1000.0


def missing_glyphs(key: str, text: str) -> str:
    """Characters of ``text`` the font cannot draw (they would print as empty boxes)."""
    cmap = register(key).face.charToGlyph
    return "".join(sorted({ch for ch in text if ord(ch) not in cmap and not ch.isspace()}))
