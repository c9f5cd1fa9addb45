"""A one-picture summary of a simulation, drawn with Pillow and the project's own fonts and
written atomically: a game-length histogram beside seat win rates with 95 % error bars (and, for
point games, mean scores with theirs), under a line saying whether the seats' differences are
more than noise.

Every axis has ticks, numbers and a unit, because a bar without a scale invites the reader to
over-read small differences, which is exactly what the error bars are there to prevent. The
picture depends only on the report's results (never on timing), so a seeded run redraws the
same PNG bytes.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from generator.core import memo
from generator.core.atomic import atomic_file, output_lock
from generator.data.typefaces.fonts import font_files
from generator.orchestration.simulate import Report
from generator.rules.stats import describe_seats
from generator.rules.stats import percent as percent_text

WIDTH = 1200
ROW = 430                                   # height of one row of panels, titles and axes
TOP = 180                                   # the first plot area's top edge
PLOT_H = 290                                # height of a plot area
LEFT_X, RIGHT_X, PANEL_W = 130, 730, 430    # plot areas' left edges and width
INK, MUTED, GRID = (30, 30, 30), (95, 95, 95), (220, 220, 220)
BAR, SEAT, OTHER = (70, 110, 170), (200, 120, 40), (160, 160, 160)
MAX_BINS = 30

Box = tuple[float, float, float, float]


@memo.memo
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_files()["sans-bold" if bold else "sans"]), size)


def nice_step(span: float, max_ticks: int = 5, whole: bool = False) -> float:
    """The tick step (1, 2 or 5 times a power of ten) giving at most ``max_ticks`` intervals
    over ``span``; whole-number axes (games, turns) never get a step under 1."""
    if span <= 0:
        return 1.0
    raw = span / max_ticks
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw - 1e-12)
    return max(1.0, step) if whole else step


def _tick_text(value: float, percent: bool) -> str:
    if percent:
        return f"{100 * value:.0f} %" if round(100 * value, 6).is_integer() else \
            f"{100 * value:.1f} %"
    return f"{value:g}"


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _vertical_text(image: Image.Image, centre: tuple[float, float], text: str) -> None:
    """A y-axis label, rotated to read bottom to top, centred on ``centre``."""
    font = _font(17)
    left, top, right, bottom = font.getbbox(text)
    # A FreeType font's box is whole pixels; the stub types it as float.
    mask = Image.new("L", (int(right - left) + 4, int(bottom - top) + 4), 0)
    ImageDraw.Draw(mask).text((2 - left, 2 - top), text, font=font, fill=255)
    mask = mask.rotate(90, expand=True)
    corner = (round(centre[0] - mask.width / 2), round(centre[1] - mask.height / 2))
    image.paste(Image.new("RGB", mask.size, MUTED), corner, mask)


def _frame(image: Image.Image, box: Box, title: str, y_label: str, x_label: str,
           top: float, step: float, percent: bool = False) -> None:
    """Panel title, horizontal grid lines at each y tick with its number, and axis labels."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    draw.text((x0 - 70, y0 - 58), title, font=_font(22, True), fill=INK)
    small = _font(16)
    ticks = round(top / step)
    for k in range(ticks + 1):
        y = y1 - (y1 - y0) * k / ticks
        if k:
            draw.line((x0, y, x1, y), fill=GRID, width=1)
        draw.line((x0 - 6, y, x0, y), fill=INK, width=2)
        draw.text((x0 - 12, y), _tick_text(k * step, percent), font=small, fill=INK, anchor="rm")
    draw.line((x0, y0, x0, y1), fill=INK, width=2)
    draw.line((x0, y1, x1, y1), fill=INK, width=2)
    _vertical_text(image, (x0 - 100 + 12, (y0 + y1) / 2), y_label)
    draw.text(((x0 + x1) / 2, y1 + 38), x_label, font=_font(17), fill=MUTED, anchor="ma")


def _histogram(image: Image.Image, box: Box, lengths: list[int], stalled: int) -> None:
    """Games per length, in whole-turn bins of equal width, on a labelled turn axis."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    low, high = min(lengths), max(lengths)
    if low == high:
        _constant_length(draw, box, low, len(lengths), stalled)
        return
    width = math.ceil((high - low + 1) / MAX_BINS)  # turns per bin
    bins = (high - low) // width + 1
    counts = Counter((v - low) // width for v in lengths)
    step = nice_step(max(counts.values()), whole=True)
    top = math.ceil(max(counts.values()) / step) * step
    _frame(image, box, "Game length", "games", "turns per game", top, step)
    span = bins * width

    def x_of(turns: float) -> float:
        return x0 + (x1 - x0) * (turns - low) / span

    for b, count in sorted(counts.items()):
        h = (y1 - y0) * count / top
        draw.rectangle((x_of(low + b * width) + 1, y1 - h, x_of(low + (b + 1) * width) - 1, y1),
                       fill=BAR)
    small = _font(16)
    turn_step = int(nice_step(high - low, max_ticks=6, whole=True))
    first = math.ceil(low / turn_step) * turn_step
    for t in range(first, high + 1, turn_step):
        x = x_of(t + 0.5)  # the middle of turn t's unit cell, inside its bin
        draw.line((x, y1, x, y1 + 6), fill=INK, width=2)
        draw.text((x, y1 + 10), str(t), font=small, fill=INK, anchor="ma")


def _constant_length(draw: ImageDraw.ImageDraw, box: Box, turns: int, games: int,
                     stalled: int) -> None:
    """A game whose length never varies has no distribution to draw: say so in words."""
    x0, y0, x1, y1 = box
    draw.text((x0 - 70, y0 - 58), "Game length", font=_font(22, True), fill=INK)
    draw.rounded_rectangle((x0 - 70, y0, x1, y1), radius=12, outline=GRID, width=2)
    middle = (x0 - 70 + x1) / 2
    draw.text((middle, y0 + 70), "every game lasted", font=_font(22), fill=MUTED, anchor="mm")
    draw.text((middle, (y0 + y1) / 2), f"{turns} turns", font=_font(56, True), fill=BAR,
              anchor="mm")
    note = f"(all {games} games"
    note += ", stopped at the turn limit)" if stalled == games else ")"
    draw.text((middle, y1 - 70), note, font=_font(20), fill=MUTED, anchor="mm")


def _bars(image: Image.Image, box: Box, title: str, y_label: str, x_label: str,
          labels: Sequence[str], values: Sequence[tuple[float, float, float]],
          colours: Sequence[tuple[int, int, int]], percent: bool,
          reference: float | None = None) -> None:
    """Bars with 95 % error bars (value, low, high), each labelled with its value; an optional
    dashed ``reference`` line across the seat bars (the share each seat would win if fair)."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    peak = max([hi for _, _, hi in values] + [1e-9])
    step = nice_step(peak)
    top = max(step, math.ceil(peak / step - 1e-9) * step)
    if top - peak < 0.08 * top:  # leave room above the tallest error bar for its number
        top += step
    if percent:
        top = min(top, 1.0)  # a share never passes 100 %; a number may sit above the frame
    _frame(image, box, title, y_label, x_label, top, step, percent)

    def y_of(v: float) -> float:
        return y1 - (y1 - y0) * max(0.0, v) / top

    slot = (x1 - x0) / max(1, len(values))
    small, bold = _font(16), _font(16, True)
    seats = sum(colour == SEAT for colour in colours)
    if reference is not None and seats:  # drawn first, so bars and numbers sit on top
        y, seat_right = y_of(reference), x0 + seats * slot
        for a in range(int(x0), int(seat_right), 14):
            draw.line((a, y, min(a + 7, seat_right), y), fill=MUTED, width=2)
    for k, (label, (value, low, high), colour) in enumerate(
            zip(labels, values, colours, strict=True)):
        left = x0 + k * slot + slot * 0.22
        right = x0 + (k + 1) * slot - slot * 0.22
        middle = (left + right) / 2
        draw.rectangle((left, y_of(value), right, y1), fill=colour)
        cap = min(12.0, (right - left) / 4)
        draw.line((middle, y_of(high), middle, y_of(low)), fill=INK, width=2)
        for v in (low, high):
            draw.line((middle - cap, y_of(v), middle + cap, y_of(v)), fill=INK, width=2)
        text = percent_text(value) if percent else f"{value:.2f}"
        where = (middle, y_of(high) - 6)
        draw.rectangle(draw.textbbox(where, text, font=bold, anchor="md"), fill="white")
        draw.text(where, text, font=bold, fill=INK, anchor="md")
        draw.text((middle, y1 + 10), label, font=small, fill=INK, anchor="ma")


def _notes(draw: ImageDraw.ImageDraw, box: Box, extras: dict[str, float]) -> None:
    """The module's own counters, averaged per game, as a short list beside the score panel."""
    x0, y0, x1, _ = box
    draw.text((x0 - 70, y0 - 58), "Per game (mean)", font=_font(22, True), fill=INK)
    y = y0
    for name, value in extras.items():
        for k, line in enumerate(_wrap(f"{name}: {value:.2f}", _font(18), x1 - x0 + 50)):
            draw.text((x0 - 70 + (20 if k else 0), y), line, font=_font(18), fill=INK)
            y += 26
        y += 6


def write_chart(report: Report, target: Path) -> Path:
    """Draw ``report`` as a PNG at ``target`` (atomically, under the output folder's lock)."""
    rows = 2 if report.points else 1
    image = Image.new("RGB", (WIDTH, TOP + PLOT_H + 70 + (rows - 1) * ROW), "white")
    draw = ImageDraw.Draw(image)
    draw.text((40, 20), f"{report.game}: {report.players} players, {report.n} games, "
              f"{report.policy} policy", font=_font(26, True), fill=INK)
    verdict = describe_seats(report.seat_test(), report.n)
    y = 62
    for line in _wrap(verdict[0].upper() + verdict[1:] + ".", _font(18), WIDTH - 80):
        draw.text((40, y), line, font=_font(18), fill=MUTED)
        y += 24
    left: Box = (LEFT_X, TOP, LEFT_X + PANEL_W, TOP + PLOT_H)
    right: Box = (RIGHT_X, TOP, RIGHT_X + PANEL_W, TOP + PLOT_H)
    _histogram(image, left, report.lengths or [0], report.count("stall"))
    labels = [f"seat {s + 1}" for s in range(report.players)]
    won = report.count("win") / max(1, report.n)
    fair = won / report.players if report.players > 1 and won > 0 else None
    _bars(image, right, "Win rate per seat", "share of games",
          "error bars: 95 % Wilson interval" + (" · dashes: equal share" if fair else ""),
          [*labels, "draw/stall"], [*report.win_intervals(), report.outcome_interval(
              "draw", "stall")], [SEAT] * report.players + [OTHER], percent=True,
          reference=fair)
    if report.points:
        below: Box = (LEFT_X, TOP + ROW, LEFT_X + PANEL_W, TOP + ROW + PLOT_H)
        _bars(image, below, "Mean score per seat", "points", "error bars: 95 % interval",
              labels, report.score_intervals(), [SEAT] * report.players, percent=False)
        _notes(draw, (RIGHT_X, TOP + ROW, RIGHT_X + PANEL_W, TOP + ROW + PLOT_H),
               report.extras())
    with output_lock(target.parent), atomic_file(target) as out:
        image.save(out, format="PNG")
    return target


def write_comparison_chart(first: Report, second: Report, target: Path) -> Path:
    """Two policies' runs of one set-up side by side (``pnp simulate --compare``, the
    preview): each seat's win rate under each policy and each policy's mean game length,
    every bar with its 95 % error bar, so "does playing well change who wins?" is read with
    its noise."""
    image = Image.new("RGB", (WIDTH, TOP + PLOT_H + 70), "white")
    draw = ImageDraw.Draw(image)
    draw.text((40, 20), f"{first.game}: {first.players} players, {first.n} games per policy",
              font=_font(26, True), fill=INK)
    draw.text((40, 62), f"{first.policy} (orange) against {second.policy} (blue), same seeds",
              font=_font(18), fill=MUTED)
    left: Box = (LEFT_X, TOP, LEFT_X + PANEL_W, TOP + PLOT_H)
    right: Box = (RIGHT_X, TOP, RIGHT_X + PANEL_W, TOP + PLOT_H)
    labels, values, colours = [], [], []
    for seat, (a, b) in enumerate(zip(first.win_intervals(), second.win_intervals(),
                                      strict=True)):
        labels += [f"seat {seat + 1}", ""]
        values += [a, b]
        colours += [SEAT, BAR]
    _bars(image, left, "Win rate per seat", "share of games",
          "error bars: 95 % Wilson interval", labels, values, colours, percent=True)
    _bars(image, right, "Mean game length", "turns", "error bars: 95 % interval",
          [first.policy, second.policy], [first.length_interval(), second.length_interval()],
          [SEAT, BAR], percent=False)
    with output_lock(target.parent), atomic_file(target) as out:
        image.save(out, format="PNG")
    return target
