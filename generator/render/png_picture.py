"""A raster picture made ready for a PNG face: only the part the face shows, at the size it is
drawn, in RGBA, without ever holding the whole picture in RGBA.

Why: pictures are bounded by their decoded bytes in their own mode (generator/data/files/resolve.py,
``MAX_IMAGE_DECODED``), but converting a 100-megapixel grey picture to RGBA before resizing
it made 400 MB more, and a cover-fitted picture of an extreme shape was resized whole though
the face shows a sliver of it. Here the shown region is cut out first (with the margin the
resampling filter reads, so the pixels match resizing the whole), a region much larger than
its drawn size is first reduced by whole factors a band at a time (a box filter: RGBA only
for one band), and Lanczos makes the final size, as before. The same picture drawn the same
way on every card of a deck is made once (``picture_tile``, keyed by the file's content).
"""
from __future__ import annotations

import math

from PIL import Image

from generator.core import context, memo

LANCZOS_SUPPORT = 3.0  # source pixels the Lanczos filter reads either side, per output pixel
BAND_BYTES = 8 << 20  # RGBA bytes of one band converted at a time


def picture_tile(path: str, size: tuple[int, int],
                 part: tuple[int, int, int, int] | None) -> Image.Image:
    """``shown_part`` of the picture file at ``path`` (only read, never changed by a caller)."""
    return _tile(path, context.version(path), size, part)


@memo.memo(maxsize=2)  # a deck's cards share a picture: the last two kept, each face-sized
def _tile(path: str, version: str | None, size: tuple[int, int],
          part: tuple[int, int, int, int] | None) -> Image.Image:
    with Image.open(path) as src:
        return shown_part(src, size, part)


def shown_part(src: Image.Image, size: tuple[int, int],
               part: tuple[int, int, int, int] | None) -> Image.Image:
    """The RGBA tile of ``src`` resized to ``size`` pixels, or only ``part`` of that tile
    (left, top, right, bottom in the resized tile's pixels) when the face shows a part."""
    w, h = max(size[0], 1), max(size[1], 1)
    sx, sy = src.width / w, src.height / h  # source pixels per tile pixel
    left, top, right, bottom = part if part is not None else (0, 0, w, h)
    out = (max(right - left, 1), max(bottom - top, 1))
    box = (left * sx, top * sy, left * sx + out[0] * sx, top * sy + out[1] * sy)
    margin_x = math.ceil(LANCZOS_SUPPORT * max(sx, 1.0)) + 1
    margin_y = math.ceil(LANCZOS_SUPPORT * max(sy, 1.0)) + 1
    region = (max(math.floor(box[0]) - margin_x, 0), max(math.floor(box[1]) - margin_y, 0),
              min(math.ceil(box[2]) + margin_x, src.width),
              min(math.ceil(box[3]) + margin_y, src.height))
    kx, ky = max(int(sx // 2), 1), max(int(sy // 2), 1)  # Lanczos still sees >= 2x
    if (kx, ky) != (1, 1):  # whole factors from the region's own corner
        region = (region[0] - region[0] % kx, region[1] - region[1] % ky, *region[2:])
    tile = _rgba(src, region, kx, ky)
    shifted = ((box[0] - region[0]) / kx, (box[1] - region[1]) / ky,
               (box[2] - region[0]) / kx, (box[3] - region[1]) / ky)
    return tile.resize(out, Image.Resampling.LANCZOS, box=shifted)


def _rgba(src: Image.Image, region: tuple[int, int, int, int], kx: int, ky: int) -> Image.Image:
    """``region`` of ``src`` in RGBA, reduced by (kx, ky), one band of rows at a time."""
    if (kx, ky) == (1, 1):
        return src.crop(region).convert("RGBA")
    left, top, right, bottom = region
    width = right - left
    rows = max(BAND_BYTES // max(width * 4, 1) // ky, 1) * ky  # a whole number of factors
    # premultiplied while averaged, as Pillow's own resize does, so clear pixels lend no colour
    reduced = Image.new("RGBa", (math.ceil(width / kx), math.ceil((bottom - top) / ky)))
    for band_top in range(top, bottom, rows):
        band = src.crop((left, band_top, right, min(band_top + rows, bottom)))
        reduced.paste(band.convert("RGBA").convert("RGBa").reduce((kx, ky)),
                      (0, (band_top - top) // ky))
    return reduced.convert("RGBA")
