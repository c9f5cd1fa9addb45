"""Pictures of more than 8 bits a sample (issue 35): a 7,000 x 7,000 16-bit TIFF, inside the
decoded-size limit, peaked at 632 MB in ``pnp build`` (ReportLab converted it to RGB whole).
Now the PDF is given an 8-bit grey copy made a band at a time
(generator/render/pdf_picture.py), which shows exactly what the RGB copy showed."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.render import pdf_picture
from tests.hostile.limits import pnp_limited


def wide_tiff(file: Path, side: int) -> None:
    """A 16-bit grey ramp across the picture and a band of small values (0..255, which
    Pillow's 8-bit conversion keeps as they are) down its middle."""
    ramp = Image.linear_gradient("L").resize((side, side)).convert("I")
    ramp = ramp.point(lambda v: v * 257)
    low = Image.linear_gradient("L").resize((side, side // 4)).convert("I")
    ramp.paste(low, (0, side // 2))
    ramp.convert("I;16").save(file, compression="tiff_deflate")


@pytest.mark.slow  # over tests/lanes.py's budget
def test_a_7000_pixel_16_bit_tiff_builds_within_500_mb(starter):
    wide_tiff(starter / "wide.tif", 7000)
    assert (starter / "wide.tif").stat().st_size < 50 << 20
    face = starter / "faces" / "card.yaml"
    face.write_text(face.read_text(encoding="utf-8")
                    + "  - image: {path: wide.tif, x: 5, y: 30, w: 50, h: 40}\n",
                    encoding="utf-8")
    result = pnp_limited(["build", starter])
    assert result.returncode == 0, result.stderr[-2000:]
    assert (starter / "output" / "game" / "game.pdf").stat().st_size > 0


def render(target: Path, source: object) -> Image.Image:
    canvas = Canvas(str(target), pagesize=(60 * mm, 60 * mm), invariant=1)
    canvas.drawImage(source, 0, 0, 60 * mm, 60 * mm, mask="auto")
    canvas.save()
    doc = pdfium.PdfDocument(target.read_bytes())
    try:
        return doc[0].render(scale=2).to_pil().convert("RGB")
    finally:
        doc.close()


def test_the_grey_copy_shows_what_reportlab_showed(tmp_path, monkeypatch):
    file = tmp_path / "wide.tif"
    wide_tiff(file, 300)
    monkeypatch.setattr(pdf_picture, "BAND_BYTES", 7_000)  # many bands, one a partial one
    given = pdf_picture.pdf_picture(str(file))
    assert not isinstance(given, str)
    before = render(tmp_path / "before.pdf", str(file))  # ReportLab's own RGB conversion
    after = render(tmp_path / "after.pdf", given)
    assert ImageChops.difference(before, after).getbbox() is None
    assert len({after.getpixel((100, y)) for y in range(0, 340, 4)}) > 10  # not all white


def test_an_8_bit_picture_keeps_its_path(tmp_path):
    """ReportLab reads it from the file as before: the kits keep their bytes."""
    file = tmp_path / "rgb.png"
    Image.new("RGB", (20, 10), "#c02020").save(file)
    assert pdf_picture.pdf_picture(str(file)) == str(file)


def test_the_banded_conversion_is_pillows(tmp_path):
    src = Image.linear_gradient("L").resize((123, 77)).convert("I").point(lambda v: v * 300)
    for mode in ("I", "I;16"):
        image = src.convert(mode) if mode != "I" else src
        assert pdf_picture.eight_bit_grey(image).tobytes() == image.convert("L").tobytes()
