"""Renderer parity machinery: draw one face with both renderers and compare the pixels.

Written first (issue 13, item 6) so that other features (SVG art, translucent colours, rich
text) can check their own primitives with ``compare_face(face)`` (``result.ok``,
``result.describe()``, ``result.save_diff(path)``); the tolerance and why it is what it is
are explained in tests/test_render_parity.py, which runs it on every distinct face of the
five built-in kits.

How the two pictures are made on the same pixel grid:

- PNG: ``render_png(face, dpi, bleed=face.bleed)``, the exporter's own code (supersampled 3x
  and reduced): pixel (i, j) covers [i, i+1) x [j, j+1) in units of 25.4/dpi mm, counted from
  the bleed corner.
- PDF: the face placed on a page by the kit's own ``write_pdf`` (its canvas, the face as a
  form XObject, exactly as in a kit), the face plus its bleed at the page's top-left
  corner, rasterised by PDFium (pypdfium2,
  Chrome's PDF engine, a rasteriser independent of both ReportLab and Pillow) at the same
  dpi: the page's top-left corner is pixel (0, 0), the same scale. The page is padded to a
  whole number of pixels, because pypdfium2 makes its bitmap ``ceil(size * scale)`` pixels
  and stretches the page to fill it (a 34.35 mm token at 100 dpi came out 0.5% too large;
  see also ``rasterise``).
  Both pictures are then cropped to the whole pixels inside the face plus bleed (the PNG
  rounds its size, so its last row and column may be a partial pixel).

What is compared (all three must hold; see ``Tolerance``):

1. ``mean``: the mean absolute difference per channel, 0-255, over the whole face: a face
   drawn in the wrong tint overall, or many small things wrong at once.
2. ``clear``: after a ``clear_blur`` pixel box blur of both (anti-aliasing: one picture's
   thin rule is one dark pixel where the other's is two mid greys), pixels that differ by
   more than ``clear_level`` levels in some channel from every pixel of the other picture's
   3x3 neighbourhood (measured against the neighbourhood's min..max range, both ways),
   grouped into 8-connected regions; the largest region's area in mm2. A one-pixel shift of
   an edge or a hinted glyph stem is inside the neighbourhood range and does not count; a
   missing dot, a shifted rule or text line, a filled hole, a turned icon do.
3. ``tint``: both pictures box-blurred (radius ``tint_radius`` mm), then the same test as
   ``clear`` with ``tint_level``: the largest region in mm2. Catches a colour wrong by a few
   tens of levels over an area (below ``clear_level``), which ``clear`` lets through, while
   the blur averages away anti-aliasing and the neighbourhood absorbs a pixel-snapped edge
   (PDFium fills an axis-aligned rectangle to whole pixels, unlike the PNG's coverage).
"""
from __future__ import annotations

import math
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageFilter

from generator.core import primitives as p
from generator.core.model import Size
from generator.data.design.resources import load_resources
from generator.layout.page import Page, Placement, drawn
from generator.render.pdf import write_pdf
from generator.render.png import MM_PER_INCH, render_png

DEFAULT_DPI = 100


@dataclass(frozen=True)
class Tolerance:
    """The bounds a face's two pictures must keep (justified in tests/test_render_parity.py)."""

    mean: float = 10.0  # levels, mean |difference| per channel over the face
    clear_blur: int = 1  # px, box blur radius before the clear test (anti-aliasing)
    clear_level: int = 48  # levels beyond the other picture's 3x3 neighbourhood range
    clear_area: float = 1.0  # mm2, largest region of such pixels
    tint_radius: float = 0.75  # mm, box blur before the tint test
    tint_level: int = 20  # levels, blurred difference
    tint_area: float = 4.0  # mm2, largest region of such pixels


DEFAULT = Tolerance()


@dataclass
class ParityResult:
    """The metrics of one comparison, the pictures themselves, and the verdict."""

    label: str
    dpi: int
    tolerance: Tolerance
    mean: float  # levels
    clear_area: float  # mm2, largest region
    clear_box: tuple[float, float, float, float] | None  # mm from the trim corner: x, y, w, h
    tint_area: float  # mm2
    tint_box: tuple[float, float, float, float] | None
    png: Image.Image
    pdf: Image.Image
    clear_mask: Image.Image
    tint_mask: Image.Image

    @property
    def ok(self) -> bool:
        t = self.tolerance
        return (self.mean <= t.mean and self.clear_area <= t.clear_area
                and self.tint_area <= t.tint_area)

    def describe(self) -> str:
        def box(b: tuple[float, float, float, float] | None) -> str:
            return "" if b is None else " at x={:.1f} y={:.1f} w={:.1f} h={:.1f} mm".format(*b)

        t = self.tolerance
        return (f"{self.label}: mean {self.mean:.2f} (max {t.mean}), clear region "
                f"{self.clear_area:.2f} mm2 (max {t.clear_area}){box(self.clear_box)}, tint "
                f"region {self.tint_area:.2f} mm2 (max {t.tint_area}){box(self.tint_box)}")

    def save_diff(self, target: Path) -> Path:
        """PNG | PDF | differences side by side (red: clear, orange: tint) for a developer."""
        w, h = self.png.size
        sheet = Image.new("RGB", (3 * w + 20, h), "white")
        sheet.paste(self.png, (0, 0))
        sheet.paste(self.pdf, (w + 10, 0))
        ghost = Image.blend(self.png, self.pdf, 0.5).convert("L").point(lambda v: 160 + v // 3)
        diff = ghost.convert("RGB")
        diff.paste((255, 150, 0), (0, 0), self.tint_mask)
        diff.paste((230, 0, 0), (0, 0), self.clear_mask)
        sheet.paste(diff, (2 * w + 20, 0))
        target.parent.mkdir(parents=True, exist_ok=True)
        sheet.save(target)
        return target


def whole_pixels(length: float, dpi: int) -> int:
    """How many whole pixels ``length`` mm covers at ``dpi``."""
    return math.floor(length * dpi / MM_PER_INCH + 1e-9)


def face_pdf(face: p.Face, dpi: int = DEFAULT_DPI) -> bytes:
    """A one-page PDF of the face plus its bleed at the top-left corner, written by the kit's
    own ``write_pdf`` (its canvas, the face as a placed form), on a page of a whole number of
    pixels at ``dpi`` (see the module's doc)."""
    return faces_pdf([face], dpi)


def faces_pdf(faces: Iterable[p.Face], dpi: int = DEFAULT_DPI) -> bytes:
    """``face_pdf`` of several faces at once: page n is face n's (one ``write_pdf``, as a kit
    is written, instead of one a face)."""
    px_mm = MM_PER_INCH / dpi
    pages = []
    for face in faces:
        b = face.bleed
        page_w = math.ceil((face.w + 2 * b) / px_mm - 1e-9) * px_mm
        page_h = math.ceil((face.h + 2 * b) / px_mm - 1e-9) * px_mm
        pages.append(Page(Size(page_w, page_h),
                          (Placement(face, b, b, (0.0, 0.0, page_w, page_h)),), ()))
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "faces.pdf"
        write_pdf(pages, target, title="parity", resources=load_resources(drawn(pages)))
        return target.read_bytes()


def rasterise(pdf: bytes, dpi: int, page: int = 0) -> Image.Image:
    """One page as RGB pixels by PDFium, anti-aliased, at ``dpi``, on white.

    pypdfium2 sizes the bitmap ``ceil(page size * scale)`` and maps the page onto all of it;
    PDFium reports the page size in single precision, so a page of exactly 510 pixels came
    back as 510.00002, got 511 and was stretched by 1/510 (0.6 px at the bottom of a vehicle
    card). A scale a millionth smaller keeps a whole-pixel page at its size, the mapping
    then exact (the page is a whole number of pixels: ``face_pdf``)."""
    doc = pdfium.PdfDocument(pdf)
    try:
        image = doc[page].render(scale=dpi / 72 * (1 - 1e-6), may_draw_forms=True).to_pil()
        return image.convert("RGB")
    finally:
        doc.close()


def _regions(mask: Image.Image, dpi: int) -> tuple[float, tuple[float, float, float, float] | None]:
    """The largest 8-connected region of a 0/255 mask: its area (mm2) and its box (mm)."""
    bbox = mask.getbbox()
    if bbox is None:
        return 0.0, None
    left, top = bbox[0], bbox[1]
    crop = mask.crop(bbox)
    w = crop.size[0]
    todo = {m.start() for m in _SET.finditer(crop.tobytes())}  # C speed: few pixels are set
    best: list[int] = []
    while todo:
        start = todo.pop()
        region, stack = [start], [start]
        while stack:
            i = stack.pop()
            x = i % w
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if not (dx or dy) or not 0 <= x + dx < w:
                        continue
                    j = i + dy * w + dx
                    if j in todo:
                        todo.discard(j)
                        region.append(j)
                        stack.append(j)
        if len(region) > len(best):
            best = region
    px_mm = MM_PER_INCH / dpi
    xs = [i % w + left for i in best]
    ys = [i // w + top for i in best]
    box = (min(xs) * px_mm, min(ys) * px_mm, (max(xs) - min(xs) + 1) * px_mm,
           (max(ys) - min(ys) + 1) * px_mm)
    return len(best) * px_mm * px_mm, box


_SET = re.compile(rb"[^\x00]")


def _shifted(image: Image.Image, dx: int, dy: int) -> Image.Image:
    """Each pixel replaced by its neighbour at (dx, dy); the edge keeps its own."""
    w, h = image.size
    out = image.copy()
    out.paste(image.crop((max(dx, 0), max(dy, 0), w + min(dx, 0), h + min(dy, 0))),
              (max(-dx, 0), max(-dy, 0)))
    return out


def _spread(image: Image.Image, pick) -> Image.Image:
    """The 3x3 minimum (``pick`` = darker) or maximum (lighter), in two separable passes of
    whole-image operations: four times faster than ``ImageFilter.MinFilter(3)`` on RGB."""
    row = pick(pick(image, _shifted(image, -1, 0)), _shifted(image, 1, 0))
    return pick(pick(row, _shifted(row, 0, -1)), _shifted(row, 0, 1))


def _beyond(a: Image.Image, b: Image.Image) -> Image.Image:
    """Per pixel, how far ``a`` lies outside the min..max range of ``b``'s 3x3 neighbourhood,
    the largest over the channels (L image)."""
    low = _spread(b, ImageChops.darker)
    high = _spread(b, ImageChops.lighter)
    under = ImageChops.subtract(low, a)  # clipped at 0: a above the minimum gives 0
    over = ImageChops.subtract(a, high)
    worst = ImageChops.lighter(under, over)
    r, g, b2 = worst.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b2)


def _threshold(image: Image.Image, level: int) -> Image.Image:
    return image.point(lambda v: 255 if v > level else 0)


def compare_images(png: Image.Image, pdf: Image.Image, dpi: int, label: str = "",
                   tolerance: Tolerance = DEFAULT, trim: float = 0.0,
                   size: tuple[int, int] | None = None) -> ParityResult:
    """Compare two RGB pictures of one face on the same grid (``trim``: the bleed in mm, so
    regions are reported from the trim corner; ``size``: at most this many pixels)."""
    w, h = min(png.size[0], pdf.size[0]), min(png.size[1], pdf.size[1])
    if size is not None:
        w, h = min(w, size[0]), min(h, size[1])
    a, b = png.convert("RGB").crop((0, 0, w, h)), pdf.convert("RGB").crop((0, 0, w, h))
    diff = ImageChops.difference(a, b)
    hist = diff.histogram()
    total = sum(level * count for channel in range(3)
                for level, count in enumerate(hist[channel * 256:(channel + 1) * 256]))
    mean = total / (3 * w * h)
    if tolerance.clear_blur:
        sharp_a = a.filter(ImageFilter.BoxBlur(tolerance.clear_blur))
        sharp_b = b.filter(ImageFilter.BoxBlur(tolerance.clear_blur))
    else:
        sharp_a, sharp_b = a, b
    clear = ImageChops.lighter(_threshold(_beyond(sharp_a, sharp_b), tolerance.clear_level),
                               _threshold(_beyond(sharp_b, sharp_a), tolerance.clear_level))
    radius = max(1, round(tolerance.tint_radius * dpi / MM_PER_INCH))
    soft_a, soft_b = a.filter(ImageFilter.BoxBlur(radius)), b.filter(ImageFilter.BoxBlur(radius))
    tint = ImageChops.lighter(_threshold(_beyond(soft_a, soft_b), tolerance.tint_level),
                              _threshold(_beyond(soft_b, soft_a), tolerance.tint_level))
    clear_area, clear_box = _regions(clear, dpi)
    tint_area, tint_box = _regions(tint, dpi)

    def from_trim(box: tuple[float, float, float, float] | None):
        return None if box is None else (box[0] - trim, box[1] - trim, box[2], box[3])

    return ParityResult(label, dpi, tolerance, mean, clear_area, from_trim(clear_box),
                        tint_area, from_trim(tint_box), a, b, clear, tint)


def compare_face(face: p.Face, dpi: int = DEFAULT_DPI, tolerance: Tolerance = DEFAULT,
                 pdf_face: p.Face | None = None, pdf: tuple[bytes, int] | None = None
                 ) -> ParityResult:
    """Render ``face`` (bleed included) with both renderers at ``dpi`` and compare them
    (``pdf_face``: draw another face in the PDF, of the same size: the test of the test;
    ``pdf``: the face is already written, on that page (from 0) of a ``faces_pdf``)."""
    png = render_png(face, dpi=dpi, bleed=face.bleed, resources=load_resources(face.prims))
    written, page = pdf or (face_pdf(pdf_face or face, dpi), 0)
    pdf_picture = rasterise(written, dpi, page)
    size = (whole_pixels(face.w + 2 * face.bleed, dpi), whole_pixels(face.h + 2 * face.bleed, dpi))
    return compare_images(png, pdf_picture, dpi, face.label, tolerance, face.bleed, size)


def failures(results: Iterable[ParityResult], folder: Path) -> list[str]:
    """A line per failed comparison, each with the diff image saved under ``folder``."""
    lines = []
    for index, result in enumerate(r for r in results if not r.ok):
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in result.label)[:60]
        target = result.save_diff(folder / f"{index:03d}-{safe}.png")
        lines.append(f"{result.describe()}\n    diff image: {target}")
    return lines
