"""A one-picture summary of a simulation: game-length histogram beside seat win rates (and mean
scores for point games), drawn with Pillow and the project's own fonts, written atomically."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

from .fonts import font_files
from .render.atomic import atomic_file, output_lock

if TYPE_CHECKING:
    from .simulate import Report

WIDTH, HEIGHT = 1200, 520
INK, GRID, BAR, SEAT = (30, 30, 30), (215, 215, 215), (70, 110, 170), (200, 120, 40)


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_files()["sans-bold" if bold else "sans"]), size)


def _axes(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], title: str) -> None:
    x0, y0, x1, y1 = box
    draw.text((x0, y0 - 44), title, font=_font(22, True), fill=INK)
    for k in range(5):
        y = y1 - (y1 - y0) * k / 4
        draw.line((x0, y, x1, y), fill=GRID, width=1)
    draw.line((x0, y1, x1, y1), fill=INK, width=2)


def _histogram(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
               lengths: list[int]) -> None:
    x0, y0, x1, y1 = box
    _axes(draw, box, "Game length (turns)")
    if not lengths:
        return
    low, high = min(lengths), max(lengths)
    bins = max(1, min(30, high - low + 1))
    width = (high - low + 1) / bins
    counts = Counter(min(bins - 1, int((v - low) / width)) for v in lengths)
    peak = max(counts.values())
    bar_w = (x1 - x0) / bins
    small = _font(16)
    for b in range(bins):
        h = (y1 - y0) * counts.get(b, 0) / peak
        draw.rectangle((x0 + b * bar_w + 1, y1 - h, x0 + (b + 1) * bar_w - 1, y1), fill=BAR)
    draw.text((x0, y1 + 8), str(low), font=small, fill=INK)
    draw.text((x1, y1 + 8), str(high), font=small, fill=INK, anchor="ra")
    draw.text((x0 - 8, y0), str(peak), font=small, fill=INK, anchor="ra")


def _bars(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], title: str,
          labels: list[str], values: list[float], top: float, fmt: str) -> None:
    x0, y0, x1, y1 = box
    _axes(draw, box, title)
    slot = (x1 - x0) / max(1, len(values))
    small = _font(16)
    for k, (label, value) in enumerate(zip(labels, values, strict=True)):
        h = (y1 - y0) * (value / top if top else 0)
        left = x0 + k * slot + slot * 0.2
        right = x0 + (k + 1) * slot - slot * 0.2
        draw.rectangle((left, y1 - h, right, y1), fill=SEAT)
        draw.text(((left + right) / 2, y1 - h - 6), fmt.format(value), font=small, fill=INK,
                  anchor="md")
        draw.text(((left + right) / 2, y1 + 8), label, font=small, fill=INK, anchor="ma")


def draw_chart(report: Report, target: Path) -> Path:
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    n = max(1, report.n)
    draw.text((40, 20), f"{report.game}: {report.players} players, {report.n} games, "
              f"{report.policy} policy", font=_font(24, True), fill=INK)
    _histogram(draw, (60, 130, 560, 460), report.lengths)
    labels = [f"seat {s + 1}" for s in range(report.players)]
    if report.points:
        scores = report.mean_scores()
        _bars(draw, (660, 130, 1160, 460), "Mean score per seat", labels, scores,
              max([*scores, 1e-9]) * 1.15, "{:.1f}")
    else:
        rates = [w / n for w in report.seat_wins()]
        labels.append("draw/stall")
        rates.append((report.count("draw") + report.count("stall")) / n)
        _bars(draw, (660, 130, 1160, 460), "Win rate per seat", labels, rates,
              max([*rates, 0.01]) * 1.15, "{:.0%}")
    with output_lock(target.parent), atomic_file(target) as out:
        image.save(out, format="PNG")
    return target
