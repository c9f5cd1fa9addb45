"""Vector drawings as the renderers draw them: shapes of path segments or circles in a view
box, each painted with a drawing's main colour, its accent colour, a colour of its own or not
at all.

Icons (generator/data/icons.py) and SVG art (generator/data/svg.py) are loaded into these; both
renderers draw them; ``parse_path`` reads the path strings of icon files and of a face
template's ``path`` elements. Kept on the ground floor because loading makes them and
rendering reads them, and neither may import the other.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from generator.core.colours import parse_colour, rgba
from generator.core.primitives import Segment


@dataclass(frozen=True)
class IconShape:
    """A shape in view-box units; ``circle`` is (cx, cy, r) when the shape is a circle."""

    segments: tuple[Segment, ...]
    circle: tuple[float, float, float] | None
    fill: str  # "main", "accent", "none" or a "#rrggbb" colour
    stroke: str
    width: float
    rule: str = "evenodd"  # fill rule: SVG icons say (default nonzero); YAML icons even-odd
    fill_alpha: float = 1.0  # opacity an SVG shape gives its paint (times the colour's own)
    stroke_alpha: float = 1.0
    cap: str = "butt"  # stroke-linecap of an SVG shape: butt, round or square
    join: str = "miter"  # stroke-linejoin: miter, round or bevel


@dataclass(frozen=True)
class IconDef:
    name: str
    view_w: float
    view_h: float
    shapes: tuple[IconShape, ...]

    @cached_property
    def extent(self) -> tuple[float, float, float, float] | None:
        """(x0, y0, x1, y1) in view-box units that the shapes cover, half of every stroke
        included (a mitre's spike at a corner is not), or None for an icon of no points.
        Computed once per loaded icon (load_icon is cached per file)."""
        xs: list[float] = []
        ys: list[float] = []
        for shape in self.shapes:
            reach = shape.width / 2 if shape.stroke != "none" else 0.0
            if shape.circle:
                cx, cy, r = shape.circle
                sx, sy = [cx - r, cx + r], [cy - r, cy + r]
            else:
                coords = [c for _, args in shape.segments for c in args]
                sx, sy = coords[0::2], coords[1::2]
            if sx:
                xs += [min(sx) - reach, max(sx) + reach]
                ys += [min(sy) - reach, max(sy) + reach]
        return (min(xs), min(ys), max(xs), max(ys)) if xs else None

    @property
    def fits_view_box(self) -> bool:
        """Whether everything the shapes paint lies in the view box (nearly always), so a
        renderer need not cut anything off."""
        box, eps = self.extent, 1e-9
        return box is None or (box[0] >= -eps and box[1] >= -eps
                               and box[2] <= self.view_w + eps and box[3] <= self.view_h + eps)


def paints(shape: IconShape, main: str | None, accent: str | None
           ) -> tuple[str | None, str | None]:
    """The colours a shape is painted with, fill and stroke (None: no paint), given the
    icon's main and accent colours: the one place both renderers resolve them."""
    def one(token: str, alpha: float) -> str | None:
        colour = {"main": main, "accent": accent, "none": None}.get(token, token)
        if colour is None or alpha >= 1:
            return colour
        r, g, b, a = rgba(colour)
        a = round(a * max(0.0, alpha))
        return parse_colour(f"#{r:02x}{g:02x}{b:02x}{a:02x}") if a > 0 else None

    return one(shape.fill, shape.fill_alpha), one(shape.stroke, shape.stroke_alpha)


def flatten(segments: tuple[Segment, ...], steps: int = 16) -> list[list[tuple[float, float]]]:
    """Bezier paths as polylines (one per sub-path), for renderers without curves (Pillow)."""
    polys: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    for op, args in segments:
        if op == "M":
            if len(current) > 1:
                polys.append(current)
            current = [(args[0], args[1])]
        elif op == "L":
            current.append((args[0], args[1]))
        elif op == "C":
            x0, y0 = current[-1]
            x1, y1, x2, y2, x3, y3 = args
            for k in range(1, steps + 1):
                t = k / steps
                u = 1 - t
                a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
                current.append((a * x0 + b * x1 + c * x2 + d * x3,
                                a * y0 + b * y1 + c * y2 + d * y3))
        elif op == "Z" and current:
            current.append(current[0])
    if len(current) > 1:
        polys.append(current)
    return polys


MAX_PATH_TOKENS = 20_000

_TOKEN = re.compile(r"[MLHVCQZmlhvcqz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}


def parse_path(text: str) -> tuple[Segment, ...]:
    """Parse an absolute SVG path string into M/L/C/Z segments (H, V and Q are converted)."""
    tokens = _TOKEN.findall(text)
    if len(tokens) > MAX_PATH_TOKENS:
        raise ValueError(f"more than {MAX_PATH_TOKENS} commands and numbers")
    if "".join(tokens).replace("-", "").replace(".", "") == "" or not tokens:
        raise ValueError("empty path")
    segments: list[Segment] = []
    command = ""
    x = y = start_x = start_y = 0.0
    i = 0
    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            if command.islower():
                raise ValueError(f"relative command {command!r}: use upper-case (absolute)")
            i += 1
            if command == "Z":
                segments.append(("Z", ()))
                x, y = start_x, start_y
                continue
        if not command or command == "Z":
            raise ValueError(f"number {tokens[i]!r} without a command")
        n = _ARITY[command]
        args = tokens[i:i + n]
        if len(args) < n or any(a.isalpha() for a in args):
            raise ValueError(f"command {command} needs {n} numbers")
        nums = [float(a) for a in args]
        i += n
        if command == "M":
            x, y = start_x, start_y = nums
            segments.append(("M", (x, y)))
            command = "L"  # further pairs after M are line-tos, as in SVG
        elif command in ("L", "H", "V"):
            x = nums[0] if command in ("L", "H") else x
            y = nums[-1] if command in ("L", "V") else y
            segments.append(("L", (x, y)))
        elif command == "C":
            segments.append(("C", tuple(nums)))
            x, y = nums[4], nums[5]
        elif command == "Q":
            qx, qy, ex, ey = nums
            segments.append(("C", (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                                   ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey)))
            x, y = ex, ey
    if not segments or segments[0][0] != "M":
        raise ValueError("a path must start with M")
    return tuple(segments)
