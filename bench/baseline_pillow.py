"""The baseline: a plain Pillow loop on both cores drawing the same 52 Moving Target fronts and
52 backs as 300 dpi PNGs with 3 mm bleed, supersampled 3x like ours, with the same fonts and
suit shapes (flattened to polygons once, before timing, as a hand-written script would)."""
from __future__ import annotations

import itertools
import multiprocessing
from pathlib import Path

import yaml
from PIL import Image, ImageDraw, ImageFont

from generator.core.vector import flatten
from generator.data.design.icons import load_icon
from generator.data.typefaces import fonts

DPI, SS, BLEED = 300, 3, 3.175
CARD = (63.5, 88.9)
PX = DPI / 25.4 * SS  # pixels per mm on the supersampled canvas
SIZE = (round((CARD[0] + 2 * BLEED) * DPI / 25.4), round((CARD[1] + 2 * BLEED) * DPI / 25.4))
RED, BLACK = (192, 22, 44), (27, 27, 27)


def _shapes(name: str) -> list[tuple[str, object]]:
    icon = load_icon(name)
    out: list[tuple[str, object]] = []
    for shape in icon.shapes:
        if shape.circle:
            out.append(("circle", tuple(v / icon.view_w for v in shape.circle)))
        else:
            out.append(("poly", [[(x / icon.view_w, y / icon.view_h) for x, y in poly]
                                 for poly in flatten(shape.segments)]))
    return out


def _p(x: float, y: float) -> tuple[float, float]:
    return ((x + BLEED) * PX, (y + BLEED) * PX)


def _suit(d: ImageDraw.ImageDraw, shapes: list, x: float, y: float, size: float, ink: tuple,
          turn: bool) -> None:
    for kind, data in shapes:
        if kind == "circle":
            cx, cy, r = data  # type: ignore[misc]
            cx, cy = (1 - cx, 1 - cy) if turn else (cx, cy)
            a, b = _p(x + cx * size, y + cy * size)
            d.ellipse([a - r * size * PX, b - r * size * PX, a + r * size * PX, b + r * size * PX],
                      fill=ink)
        else:
            for poly in data:  # type: ignore[union-attr]
                pts = [_p(x + ((1 - u) if turn else u) * size, y + ((1 - v) if turn else v) * size)
                       for u, v in poly]
                d.polygon(pts, fill=ink)


def front(job: tuple[dict, dict, dict, str]) -> None:
    suit, rank, shapes, target = job
    w, h = CARD
    ink = RED if suit["id"] in "HD" else BLACK
    img = Image.new("RGB", (SIZE[0] * SS, SIZE[1] * SS), "white")
    d = ImageDraw.Draw(img)
    big = ImageFont.truetype(str(fonts.font_files()["sans-bold"]), round(19 * 25.4 / 72 * PX))
    small = ImageFont.truetype(str(fonts.font_files()["sans"]), round(6.5 * 25.4 / 72 * PX))
    d.text(_p(7.2, 9.3), rank["id"], font=big, fill=ink, anchor="ms")
    _suit(d, shapes, 3.7, 11.2, 7, ink, False)
    layer = Image.new("RGBA", (round(12 * PX), round(12 * PX)), (0, 0, 0, 0))
    ImageDraw.Draw(layer).text((6 * PX, 8 * PX), rank["id"], font=big, fill=ink, anchor="ms")
    layer = layer.rotate(180)
    img.paste(layer, tuple(round(v) for v in _p(w - 13.2, h - 12.8)), layer)
    _suit(d, shapes, w - 10.7, h - 18.2, 7, ink, True)
    px0, pw, py0, ph, pip = w * 0.27, w * 0.46, h * 0.16, h * 0.68, w * 0.16
    for px, py in rank["pips"]:
        _suit(d, shapes, px0 + px * pw - pip / 2, py0 + py * ph - pip / 2, pip, ink, py > 0.5)
    if rank.get("ace"):
        _suit(d, shapes, w / 2 - 15, h / 2 - 15, 30, ink, False)
    if rank.get("court"):
        d.rounded_rectangle([*_p(13.5, 12), *_p(w - 13.5, h - 12)], radius=2.5 * PX,
                            fill=(244, 239, 225), outline=ink, width=round(0.5 * PX))
        huge = ImageFont.truetype(str(fonts.font_files()["sans-bold"]), round(64 * 25.4 / 72 * PX))
        d.text(_p(w / 2, h / 2 + 8), rank["id"], font=huge, fill=ink, anchor="ms")
    d.text(_p(w / 2, h - 3.6), f"{rank['name']} of {suit['name']}", font=small,
           fill=(107, 107, 107), anchor="ms")
    img.reduce(SS).save(target, dpi=(DPI, DPI), compress_level=3)


def back(target: str) -> None:
    w, h = CARD
    img = Image.new("RGB", (SIZE[0] * SS, SIZE[1] * SS), (31, 58, 95))
    d = ImageDraw.Draw(img)
    step = 7.0
    for row in range(-1, int(h / step) + 2):
        for col in range(-1, int(w / step) + 2):
            cx = w / 2 + (col - int(w / step) / 2) * step
            cy = h / 2 + (row - int(h / step) / 2) * step
            r = step * 0.42
            d.polygon([_p(cx, cy - r), _p(cx + r, cy), _p(cx, cy + r), _p(cx - r, cy)],
                      fill=(45, 82, 131))
    d.rounded_rectangle([*_p(5, 5), *_p(w - 5, h - 5)], radius=3 * PX, outline=(233, 196, 106),
                        width=round(0.8 * PX))
    font = ImageFont.truetype(str(fonts.font_files()["sans-bold"]), round(16 * 25.4 / 72 * PX))
    d.text(_p(w / 2, h / 2), "MOVING TARGET", font=font, fill=(233, 196, 106), anchor="mm")
    img.reduce(SS).save(target, dpi=(DPI, DPI), compress_level=3)


def _run(job: tuple) -> None:
    if job[0] == "front":
        front(job[1])
    else:
        back(job[1])


def export(folder: Path, jobs: int = 2) -> int:
    data = yaml.safe_load(Path("card_data/moving-target.yaml").read_text())
    shapes = {s["icon"]: _shapes(s["icon"]) for s in data["tables"]["suits"]}
    work: list[tuple] = []
    cards = itertools.product(data["tables"]["suits"], data["tables"]["ranks"])
    for n, (suit, rank) in enumerate(cards):
        work.append(("front", (suit, rank, shapes[suit["icon"]], str(folder / f"{n:03d}-f.png"))))
        work.append(("back", str(folder / f"{n:03d}-b.png")))
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for _ in pool.imap_unordered(_run, work, chunksize=2):
            pass
    return len(work)
