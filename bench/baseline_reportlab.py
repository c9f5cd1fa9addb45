"""The baseline: a plain ReportLab script drawing the same 52 Moving Target cards (fronts and
backs, same sheets, same fonts, same suit shapes, same cut marks) with no framework at all.
It draws every card directly, as a hand-written script would: it imports only PyYAML and
ReportLab (not our package, whose imports would count against the baseline in the
whole-process benchmark), reads the suit shapes from our icon files and the fonts from the
same pinned font package."""
from __future__ import annotations

import importlib.util
import itertools
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

ROOT = Path(__file__).resolve().parent.parent
FONTS = {"sans": "AtkinsonHyperlegible-Regular.ttf", "sans-bold": "AtkinsonHyperlegible-Bold.ttf"}


def _register_fonts() -> None:
    spec = importlib.util.find_spec("fontpkg_atkinson_hyperlegible")
    assert spec and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations))) / "files"
    for key, name in FONTS.items():
        pdfmetrics.registerFont(TTFont(f"plain-{key}", str(folder / name)))


def _font(key: str) -> str:
    return f"plain-{key}"


@dataclass
class _Shape:
    circle: tuple[float, float, float] | None
    segments: list[tuple[str, list[float]]]


@dataclass
class _Icon:
    view_w: float
    view_h: float
    shapes: list[_Shape]


@cache
def load_icon(name: str) -> _Icon:
    """A suit icon from templates/icons/<name>.yaml: circles and absolute M/L/C/Z paths."""
    data = yaml.safe_load((ROOT / "templates" / "icons" / f"{name}.yaml").read_text())
    shapes = []
    for raw in data["shapes"]:
        if "circle" in raw:
            shapes.append(_Shape(tuple(raw["circle"]), []))
            continue
        segments: list[tuple[str, list[float]]] = []
        for op, args in re.findall(r"([MLCZ])([^MLCZ]*)", raw["path"]):
            segments.append((op, [float(v) for v in args.split()]))
        shapes.append(_Shape(None, segments))
    return _Icon(float(data["view"][0]), float(data["view"][1]), shapes)

A4 = (210.0, 297.0)
CARD = (63.5, 88.9)
RED, BLACK, NAVY, PATTERN, GOLD = "#c0162c", "#1b1b1b", "#1f3a5f", "#2d5283", "#e9c46a"


def _cards() -> list[tuple[dict, dict]]:
    data = yaml.safe_load((ROOT / "card_data" / "moving-target.yaml").read_text())
    return list(itertools.product(data["tables"]["suits"], data["tables"]["ranks"]))


def _suit_path(c: Canvas, name: str, x: float, y: float, size: float, turn: bool) -> None:
    """Draw a suit shape directly (no form) with its box's top-left at (x, y) in mm, y up."""
    icon = load_icon(name)
    s = size / icon.view_w * mm
    c.saveState()
    c.translate((x + size / 2) * mm, (y - size / 2) * mm)
    if turn:
        c.rotate(180)
    c.scale(s, s)
    c.translate(-icon.view_w / 2, icon.view_h / 2)
    for shape in icon.shapes:
        if shape.circle:
            cx, cy, r = shape.circle
            c.circle(cx, -cy, r, stroke=0, fill=1)
            continue
        p = c.beginPath()
        for op, a in shape.segments:
            if op == "M":
                p.moveTo(a[0], -a[1])
            elif op == "L":
                p.lineTo(a[0], -a[1])
            elif op == "C":
                p.curveTo(a[0], -a[1], a[2], -a[3], a[4], -a[5])
            else:
                p.close()
        c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


def _front(c: Canvas, x: float, top: float, suit: dict, rank: dict) -> None:
    w, h = CARD
    ink = RED if suit["id"] in "HD" else BLACK
    c.setFillColor(HexColor("#ffffff"))
    c.rect(x * mm, (top - h) * mm, w * mm, h * mm, stroke=0, fill=1)
    c.setFillColor(HexColor(ink))
    c.setFont(_font("sans-bold"), 19)
    c.drawCentredString((x + 7.2) * mm, (top - 9.5) * mm, rank["id"])
    _suit_path(c, suit["icon"], x + 3.7, top - 11.2, 7, False)
    c.saveState()
    c.translate((x + w - 7.2) * mm, (top - h + 9.5) * mm)
    c.rotate(180)
    c.drawCentredString(0, 0, rank["id"])
    c.restoreState()
    _suit_path(c, suit["icon"], x + w - 10.7, top - h + 18.2, 7, True)
    px0, pw, py0, ph, pip = w * 0.27, w * 0.46, h * 0.16, h * 0.68, w * 0.16
    for px, py in rank["pips"]:
        _suit_path(c, suit["icon"], x + px0 + px * pw - pip / 2, top - py0 - py * ph + pip / 2,
                   pip, py > 0.5)
    if rank.get("ace"):
        _suit_path(c, suit["icon"], x + w / 2 - 15, top - h / 2 + 15, 30, False)
    if rank.get("court"):
        c.setFillColor(HexColor("#f4efe1"))
        c.setStrokeColor(HexColor(ink))
        c.roundRect((x + 13.5) * mm, (top - h + 12) * mm, (w - 27) * mm, (h - 24) * mm, 2.5 * mm,
                    stroke=1, fill=1)
        c.setFillColor(HexColor(ink))
        c.setFont(_font("sans-bold"), 64)
        c.drawCentredString((x + w / 2) * mm, (top - h / 2 - 8) * mm, rank["id"])
    c.setFillColor(HexColor("#6b6b6b"))
    c.setFont(_font("sans"), 6.5)
    c.drawCentredString((x + w / 2) * mm, (top - h + 3.6) * mm, f"{rank['name']} of {suit['name']}")


def _back(c: Canvas, x: float, top: float) -> None:
    w, h = CARD
    c.setFillColor(HexColor(NAVY))
    c.rect(x * mm, (top - h) * mm, w * mm, h * mm, stroke=0, fill=1)
    c.setFillColor(HexColor(PATTERN))
    step = 7.0
    for row in range(-1, int(h / step) + 2):
        for col in range(-1, int(w / step) + 2):
            cx = x + w / 2 + (col - int(w / step) / 2) * step
            cy = top - h / 2 - (row - int(h / step) / 2) * step
            p = c.beginPath()
            p.moveTo(cx * mm, (cy + step * 0.42) * mm)
            p.lineTo((cx + step * 0.42) * mm, cy * mm)
            p.lineTo(cx * mm, (cy - step * 0.42) * mm)
            p.lineTo((cx - step * 0.42) * mm, cy * mm)
            p.close()
            c.drawPath(p, stroke=0, fill=1)
    c.setStrokeColor(HexColor(GOLD))
    c.roundRect((x + 5) * mm, (top - h + 5) * mm, (w - 10) * mm, (h - 10) * mm, 3 * mm)
    c.setFillColor(HexColor(GOLD))
    c.setFont(_font("sans-bold"), 16)
    c.drawCentredString((x + w / 2) * mm, (top - h / 2) * mm, "MOVING TARGET")


def build(target: Path) -> int:
    """Write the deck as 3 x 3 sheets with back pages and cut marks; returns the page count."""
    _register_fonts()
    cards = _cards()
    c = Canvas(str(target), pagesize=(A4[0] * mm, A4[1] * mm), invariant=1,
               initialFontName=_font("sans"))
    left, top = (A4[0] - 3 * CARD[0]) / 2, (A4[1] - 3 * CARD[1]) / 2
    pages = 0
    for start in range(0, len(cards), 9):
        chunk = cards[start:start + 9]
        for side in ("front", "back"):
            for slot, (suit, rank) in enumerate(chunk):
                row, col = divmod(slot, 3)
                col = col if side == "front" else 2 - col
                x, y = left + col * CARD[0], A4[1] - top - row * CARD[1]
                if side == "front":
                    _front(c, x, y, suit, rank)
                else:
                    _back(c, x, y)
            c.setStrokeColor(HexColor("#000000"))
            c.setLineWidth(0.18 * mm)
            for k in range(4):
                x = left + k * CARD[0]
                c.line(x * mm, (A4[1] - top + 0.5) * mm, x * mm, (A4[1] - top + 4) * mm)
                y = top + k * CARD[1]
                c.line((left - 0.5) * mm, (A4[1] - y) * mm, (left - 4) * mm, (A4[1] - y) * mm)
            c.showPage()
            pages += 1
    c.save()
    return pages


if __name__ == "__main__":
    print(build(Path("/tmp/baseline.pdf")), "pages")
