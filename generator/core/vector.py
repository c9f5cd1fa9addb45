"""Vector drawings as the renderers draw them: shapes of path segments or circles in a view
box, each painted with a drawing's main colour, its accent colour, a colour of its own or not
at all.

Icons (generator/data/design/icons.py) and SVG art (generator/data/design/svg.py) are loaded into
these; both renderers draw them; ``parse_path`` reads the path strings of icon files and of a face
template's ``path`` elements. Kept on the ground floor because loading makes them and
rendering reads them, and neither may import the other.
"""
from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise

from generator.core.colours import parse_colour, rgba
from generator.core.primitives import Segment
from generator.core.words import said


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


# What drawing vector art (an icon, SVG art) takes, in units of the work meter
# (generator/expressions/limits.py; ~0.3 us a unit), beyond the element's own: the PNG
# renderer flattens every curve into points, transforms and strokes them (~1.2 us a point),
# and fills a shape row by row over the edges crossing each row (~0.3 us an edge a row), so
# a drawing's cost grows with its outline and with the size it is drawn at. Weighed at the
# PNG's default resolution (300 dpi drawn 3x supersampled), so one drawing costs the same
# in a PDF build, a PNG build and the studio, on every machine.
POINT_WORK = 4
EDGE_ROW_WORK = 1
REFERENCE_PX_PER_MM = 300 / 25.4 * 3
CURVE_STEPS = 16  # points a flattened cubic curve becomes (``flatten``)


@dataclass(frozen=True)
class IconDef:
    name: str
    view_w: float
    view_h: float
    shapes: tuple[IconShape, ...]
    source: str = field(default="", compare=False)  # the file it was read from, for messages

    @cached_property
    def digest(self) -> str:
        """A digest of what the drawing draws (view box and shapes): renderers key what they
        make of it by this, never by its name (two projects' ``leaf`` differ)."""
        text = repr((self.view_w, self.view_h, self.shapes))
        return hashlib.sha256(text.encode()).hexdigest()

    @cached_property
    def outline(self) -> tuple[int, float]:
        """(points, edge span): the points its outlines flatten into (a curve ``CURVE_STEPS``,
        a circle 64) and how far its filled edges reach across the rows and columns they
        cross, summed, in view-box units (the larger of the two directions: an icon may be
        turned). Computed once per loaded drawing."""
        points = 0
        span_x = span_y = 0.0
        for shape in self.shapes:
            if shape.circle:
                points += 64
                if shape.fill != "none":
                    span_x += 4 * abs(shape.circle[2])
                    span_y += 4 * abs(shape.circle[2])
                continue
            filled = shape.fill != "none"
            x = y = start_x = start_y = 0.0
            for op, args in shape.segments:
                if op == "C":
                    points += CURVE_STEPS
                    # the control polygon bounds the curve's reach
                    xs, ys = (x, *args[0::2]), (y, *args[1::2])
                    reach_x = sum(abs(b - a) for a, b in pairwise(xs))
                    reach_y = sum(abs(b - a) for a, b in pairwise(ys))
                    x, y = args[4], args[5]
                else:
                    points += 1
                    if op == "M":
                        if filled:  # the sub-path before is closed by the filler
                            span_x += abs(start_x - x)
                            span_y += abs(start_y - y)
                        x, y = start_x, start_y = args
                        continue
                    to_x, to_y = (start_x, start_y) if op == "Z" else args
                    reach_x, reach_y = abs(to_x - x), abs(to_y - y)
                    x, y = to_x, to_y
                if filled:
                    span_x += reach_x
                    span_y += reach_y
            if filled:
                span_x += abs(start_x - x)
                span_y += abs(start_y - y)
        return points, max(span_x, span_y)

    def work(self, w: float, h: float) -> int:
        """Units of work drawing it over a box of w x h mm takes (its view box stretched to
        fill the box, or less: an icon keeps its shape): ``POINT_WORK`` a point of its outline
        and ``EDGE_ROW_WORK`` an edge crossing a pixel row at ``REFERENCE_PX_PER_MM``.
        A template's box is at most 10,000 mm a side, so the figure stays finite."""
        points, span = self.outline
        scale = max(abs(w) / self.view_w, abs(h) / self.view_h) if self.view_w > 0 \
            and self.view_h > 0 else 0.0
        rows = span * scale * REFERENCE_PX_PER_MM
        return POINT_WORK * points + EDGE_ROW_WORK * math.ceil(min(rows, 1e15))

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
                raise ValueError(f"relative command {said(command)}: use upper-case (absolute)")
            i += 1
            if command == "Z":
                segments.append(("Z", ()))
                x, y = start_x, start_y
                continue
        if not command or command == "Z":
            raise ValueError(f"number {said(tokens[i])} without a command")
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
