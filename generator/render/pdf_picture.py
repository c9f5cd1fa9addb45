"""Raster pictures of more than 8 bits a sample (16-bit grey TIFF or PNG, 32-bit integer or
float grey) made ready for the PDF a band of rows at a time.

Why: ReportLab turns any picture that is not L, RGB or CMYK into RGB whole, through Pillow,
before compressing it: a 7,000 x 7,000 16-bit TIFF (98 MB decoded, inside the decoded-size
limit of generator/data/files/resolve.py) made a 147 MB RGB copy and more besides, and the build
peaked at 632 MB. Such a picture is converted here to 8-bit grey band by band, with Pillow's
own conversion (so every sample comes out as Pillow, and ReportLab before, made it), and
ReportLab is given that grey image: it stores grey as grey (a third of the bytes), which
shows the same as the equal red, green and blue it stored before. Pictures of 8 bits a
sample keep their path, and ReportLab reads them from the file as it always did (the kits'
bytes do not change).
"""
from __future__ import annotations

from PIL import Image
from reportlab.lib.utils import ImageReader

from generator.core import context, memo

WIDE_MODES = ("I;16", "I;16L", "I;16B", "I;16N", "I", "F")  # more than 8 bits a sample
BAND_BYTES = 8 << 20  # bytes of one band converted at a time (in the wide mode)


def pdf_picture(path: str) -> str | ImageReader:
    """What ``Canvas.drawImage`` is given for the picture at ``path``: the path itself, or
    for a wide-sample picture its 8-bit grey copy (made once per file version)."""
    with Image.open(path) as src:  # the header only: the mode and size
        mode = src.mode
    if mode not in WIDE_MODES:
        return path
    return _grey(path, context.version(path))


@memo.memo(maxsize=2)  # the same picture on every card of a deck: converted once
def _grey(path: str, version: str | None) -> ImageReader:
    with Image.open(path) as src:
        return ImageReader(eight_bit_grey(src))


def eight_bit_grey(src: Image.Image) -> Image.Image:
    """``src`` (a wide-sample grey picture) as an 8-bit grey image, converted a band of rows
    at a time: the only full-size images are the decoded source and the result."""
    width, height = src.size
    sample = 4 if src.mode in ("I", "F") else 2
    rows = max(BAND_BYTES // max(width * sample, 1), 1)
    out = Image.new("L", src.size)
    for top in range(0, height, rows):
        band = src.crop((0, top, width, min(top + rows, height)))
        out.paste(band.convert("L"), (0, top))
    return out
