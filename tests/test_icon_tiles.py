"""Rasterised icons remembered per icon content, size, turn and colours
(generator/render/png_icons.py): a deck's repeated suit icon is filled once, a tile never
stands in for a drawing it does not match, and the table's memory is bounded."""
from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from generator.core import memo
from generator.core import primitives as p
from generator.core.resources import Resources
from generator.core.vector import IconDef, IconShape
from generator.render import png as png_render
from generator.render import png_icons
from generator.render.png import render_png

STAR = (("M", (50.0, 5.0)), ("L", (61.0, 39.0)), ("L", (97.0, 39.0)), ("L", (68.0, 60.0)),
        ("L", (79.0, 95.0)), ("L", (50.0, 73.0)), ("L", (21.0, 95.0)), ("L", (32.0, 60.0)),
        ("L", (3.0, 39.0)), ("L", (39.0, 39.0)), ("Z", ()))
RING = (("M", (10.0, 10.0)), ("L", (90.0, 10.0)), ("L", (90.0, 90.0)), ("L", (10.0, 90.0)),
        ("Z", ()), ("M", (30.0, 30.0)), ("L", (70.0, 30.0)), ("L", (70.0, 70.0)),
        ("L", (30.0, 70.0)), ("Z", ()))
STAR_ICON = IconDef("suit", 100, 100, (
    IconShape(STAR, None, "main", "accent", 4, rule="nonzero", join="round"),
    IconShape((), (50.0, 50.0, 10.0), "accent", "none", 0)))
DPI = 127  # 15 pixels a millimetre supersampled: whole millimetres fall on whole pixels
RING_ICON = IconDef("suit", 100, 100, (IconShape(RING, None, "main", "none", 0),))


@pytest.fixture(autouse=True)
def fresh_tiles(monkeypatch):
    """A fresh table, and every icon tiled (the test icons are small: in a kit, an icon of
    fewer than ``TILE_FROM_POINTS`` outline points is drawn each time)."""
    monkeypatch.setattr(png_icons, "TILE_FROM_POINTS", 0)
    memo.forget_all()
    yield
    memo.forget_all()


def test_a_small_icon_is_drawn_each_time_not_tiled(monkeypatch):
    """Pillow fills a suit's few dozen points faster than a tile is pasted over them."""
    monkeypatch.setattr(png_icons, "TILE_FROM_POINTS", STAR_ICON.outline[0] + 1)
    card(STAR_ICON, p.Icon("suit", 5, 5, 10, 10, "#c02020", "#ffffff"),
         p.Icon("suit", 30, 5, 10, 10, "#c02020", "#ffffff"))
    assert (png_icons.TILES.misses, png_icons.TILES.hits) == (0, 0)
    monkeypatch.setattr(png_icons, "TILE_FROM_POINTS", STAR_ICON.outline[0])
    card(STAR_ICON, p.Icon("suit", 5, 5, 10, 10, "#c02020", "#ffffff"),
         p.Icon("suit", 30, 5, 10, 10, "#c02020", "#ffffff"))
    assert (png_icons.TILES.misses, png_icons.TILES.hits) == (1, 1)


def face(*icons: p.Icon) -> p.Face:
    return p.Face(60, 40, 3, (p.Rect(-3, -3, 66, 46, "#ffffcc"), *icons))


def card(icon: IconDef, *prims: p.Icon) -> Image.Image:
    return render_png(face(*prims), dpi=DPI, resources=Resources(icons={"suit": icon}))


def test_a_repeated_icon_is_filled_once_and_pasted_where_it_is_drawn_again():
    prims = (p.Icon("suit", 5, 5, 10, 10, "#c02020", "#ffffff"),
             p.Icon("suit", 30, 5, 10, 10, "#c02020", "#ffffff"))  # the same in-pixel fraction
    first = card(STAR_ICON, *prims)
    assert (png_icons.TILES.misses, png_icons.TILES.hits) == (1, 1)
    second = card(STAR_ICON, *prims)  # the next card of the deck
    assert (png_icons.TILES.misses, png_icons.TILES.hits) == (1, 3)
    assert first.tobytes() == second.tobytes()
    # the tile sits where the icon is: red inside the star, its accent dot in the middle
    scale = DPI / 25.4
    assert first.getpixel((round((3 + 10) * scale), round((3 + 8) * scale)))[:3] != (255, 255, 204)


def test_a_tile_draws_what_drawing_the_icon_draws(monkeypatch):
    prims = (p.Icon("suit", 5, 5, 12, 9, "#2040c0", "#ffee00", 90),
             p.Icon("suit", 31.3, 17.7, 20, 20, "#107010", "#ffffff", 180))
    tiled = card(STAR_ICON, *prims)
    monkeypatch.setattr(png_render.PngPainter, "_icon_tile", lambda *args: False)
    drawn = card(STAR_ICON, *prims)
    diff = ImageChops.difference(tiled.convert("RGB"), drawn.convert("RGB"))
    changed = sum(1 for px in diff.get_flattened_data() if max(px) > 40)
    assert changed <= 3  # a pixel centre exactly on an edge may round either way


def test_a_tile_is_keyed_by_content_colour_size_and_turn():
    base = p.Icon("suit", 5, 5, 10, 10, "#c02020", "#ffffff")
    for prim in (base, p.Icon("suit", 5, 5, 10, 10, "#2020c0", "#ffffff"),
                 p.Icon("suit", 5, 5, 10, 10, "#c02020", "#000000"),
                 p.Icon("suit", 5, 5, 12, 12, "#c02020", "#ffffff"),
                 p.Icon("suit", 5, 5, 10, 10, "#c02020", "#ffffff", 90)):
        card(STAR_ICON, prim)
    assert (png_icons.TILES.misses, png_icons.TILES.hits) == (5, 0)
    star = card(STAR_ICON, base)
    ring = card(RING_ICON, base)  # another project's icon of the same name
    assert png_icons.TILES.hits == 1 and png_icons.TILES.misses == 6
    assert star.tobytes() != ring.tobytes()
    scale = DPI / 25.4
    centre = (round((3 + 10) * scale), round((3 + 10) * scale))
    assert ring.getpixel(centre)[:3] == (255, 255, 204)  # the ring's hole, not a stale star


def test_a_translucent_shape_is_drawn_not_tiled():
    """A translucent colour mixes with what is beneath it, which a tile does not hold."""
    card(STAR_ICON, p.Icon("suit", 5, 5, 10, 10, "#c0202080", "#ffffff"))
    assert png_icons.TILES.bytes == 0 and png_icons.TILES.hits == 0


def test_the_table_keeps_its_bytes_bounded():
    tiles = png_icons.TileCache(max_bytes=10_000, max_one=4_000)
    for n in range(10):
        tiles.put(n, Image.new("RGBA", (30, 30)), (0, 0))  # 3,600 bytes each
    assert tiles.bytes <= 10_000 and tiles.get(9) is not None and tiles.get(0) is None
    tiles.put("big", Image.new("RGBA", (40, 40)), (0, 0))  # 6,400 bytes: not kept
    assert tiles.get("big") is None
    assert "generator.render.png_icons.TILES" in memo.tables()
