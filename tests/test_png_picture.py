"""The PNG renderer's pictures (generator/render/png_picture.py): only the part a face shows,
made without holding the whole picture in RGBA. The pixels stay within a level or two of
resizing the whole picture and cropping it (the old way): not always equal, because Pillow
picks the order of its two resampling passes by the sizes it is given, and each pass rounds
to 8 bits (on noise that reaches tens of levels; on pictures, a level or two)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat

from generator.render.png_picture import shown_part


def picture(mode: str, w: int, h: int, seed: int = 1) -> Image.Image:
    """Smooth content, as art is: noise on a coarse grid, blown up bilinearly."""
    rng = random.Random(seed)
    bands = len(mode)
    gw, gh = max(w // 8, 2), max(h // 8, 2)
    coarse = Image.frombytes(mode, (gw, gh), bytes(rng.randrange(256)
                                                   for _ in range(gw * gh * bands)))
    return coarse.resize((w, h), Image.Resampling.BILINEAR)


def within(got: Image.Image, want: Image.Image, mean: float, most: int) -> None:
    """Compared premultiplied, as pasting shows them: a colour under no alpha shows nothing."""
    assert got.mode == want.mode == "RGBA" and got.size == want.size
    difference = ImageChops.difference(got.convert("RGBa"), want.convert("RGBa"))
    stat = ImageStat.Stat(difference)
    assert max(stat.mean) <= mean and max(hi for _, hi in stat.extrema) <= most, stat.extrema


def whole_then_cropped(src: Image.Image, size: tuple[int, int],
                       part: tuple[int, int, int, int] | None) -> Image.Image:
    tile = src.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
    return tile.crop(part) if part is not None else tile


@settings(max_examples=40, deadline=None)
@given(w=st.integers(20, 90), h=st.integers(20, 90), scale=st.floats(0.6, 3.5),
       mode=st.sampled_from(["L", "RGB", "RGBA", "LA"]), data=st.data())
def test_the_shown_part_is_the_whole_resize_cropped(w, h, scale, mode, data):
    src = picture(mode, w, h)
    size = (max(round(w * scale), 1), max(round(h * scale), 1))
    left = data.draw(st.integers(0, size[0] - 1))
    top = data.draw(st.integers(0, size[1] - 1))
    right = data.draw(st.integers(left + 1, size[0]))
    bottom = data.draw(st.integers(top + 1, size[1]))
    for part in (None, (left, top, right, bottom)):
        within(shown_part(src, size, part), whole_then_cropped(src, size, part), 1.0, 4)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["L", "RGB", "RGBA"])
def test_a_large_picture_reduced_first_stays_within_two_levels(mode):
    # smooth content (a gradient with a soft disc): what a photo of a card's art looks like
    w, h = 2400, 1700
    src = Image.linear_gradient("L").resize((w, h)).convert(mode)
    size = (230, 160)
    want = whole_then_cropped(src, size, None)
    within(shown_part(src, size, None), want, 1.0, 4)
    part = (40, 30, 200, 120)
    within(shown_part(src, size, part), want.crop(part), 1.0, 4)


def test_clear_pixels_lend_no_colour_when_reduced():
    """Averaged premultiplied: a fully transparent red half does not tint the opaque blue."""
    src = Image.new("RGBA", (2000, 1000), (255, 0, 0, 0))
    src.paste((0, 0, 255, 255), (1000, 0, 2000, 1000))
    got = shown_part(src, (100, 50), None)
    r, _g, b, a = got.getpixel((60, 25))
    assert (r, b, a) == (0, 255, 255)


def test_the_band_of_a_reduction_is_bounded(monkeypatch):
    """Bands of whole reduction factors: the same pixels whatever the band height."""
    from generator.render import png_picture
    src = picture("RGB", 1500, 1300)
    whole = shown_part(src, (100, 90), (10, 5, 90, 80))
    monkeypatch.setattr(png_picture, "BAND_BYTES", 1500 * 4 * 7)  # bands of 7 rows or fewer
    banded = shown_part(src, (100, 90), (10, 5, 90, 80))
    assert banded.tobytes() == whole.tobytes()
