"""What a build is asked for: paper, theme, ink, margins, flip, layout, language, output.

Its own light module (the ground floor and layout's sheet spec only), so the command line can
make one without loading the stages that build (generator/frontends/app.py stays lazy).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.core import paths
from generator.core.languages import SOURCE
from generator.core.model import Size
from generator.core.sizes import PAPER_SIZES
from generator.layout.sheet import SheetSpec


@dataclass(frozen=True)
class BuildOptions:
    paper: str = "a4"
    theme: str | None = None  # built-in theme name or a path to a user theme file
    ink_saver: bool = False
    margin: float = 5.0
    gap: float = 0.0
    bleed: float = 0.0
    flip: str = "long"
    back_dx: float = 0.0  # duplex calibration: shift back pages right (mm)
    back_dy: float = 0.0  # ... and down (mm)
    force: bool = False
    layout: str = "sheets"  # sheets | gutterfold | single (one piece per page, print shops)
    cut_svg: bool = False  # a cut file (SVG) per sheet side beside the PDF (layout/cutfile.py)
    # the kit's language: furniture and translated texts (data/translation/i18n.py)
    lang: str = SOURCE
    out_dir: Path = field(default=paths.OUTPUT)

    @property
    def paper_size(self) -> Size:
        return PAPER_SIZES[self.paper]

    def sheet_spec(self) -> SheetSpec:
        return SheetSpec(self.paper_size, self.margin, self.gap, self.bleed, self.flip,
                         self.back_dx, self.back_dy)
