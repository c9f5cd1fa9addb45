"""Vector icons of our own, kept as data in templates/icons/<name>.yaml (a project's own
icons/ folder is searched first: generator/project.py).

An icon file holds a view box and a list of shapes in that box: SVG-style path strings
(absolute M, L, H, V, C, Q, Z) and circles. Each shape is painted with the icon's ``main``
colour, its ``accent`` colour, or not at all, so one drawing serves any palette.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from .. import resolve
from ..data.yamlfile import YamlDoc, load_yaml
from ..errors import DataError
from .primitives import Segment

MAX_SHAPES = 500
MAX_PATH_TOKENS = 20_000

_TOKEN = re.compile(r"[MLHVCQZmlhvcqz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}


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
        from ..colours import parse_colour, rgba

        r, g, b, a = rgba(colour)
        a = round(a * max(0.0, alpha))
        return parse_colour(f"#{r:02x}{g:02x}{b:02x}{a:02x}") if a > 0 else None

    return one(shape.fill, shape.fill_alpha), one(shape.stroke, shape.stroke_alpha)


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


def _paint(value: object, file: Path, line: int | None, field: str) -> str:
    from ..colours import NotAColour, parse_colour

    if value in ("main", "accent", "none"):
        return str(value)
    try:
        return parse_colour(value)  # any colour a template takes, translucent ones too
    except NotAColour:
        raise DataError(file, line, field, "expected main, accent, none or a colour (#rrggbb, "
                        f"#rrggbbaa, a CSS name), got {value!r:.60}") from None


def load_icon(name: str, folder: Path | None = None) -> IconDef:
    """Load and check one icon; errors point at the icon file's line. The name is a plain
    name of a file in ``folder`` when given, else of the project's icons/ or the built-in
    ones (generator/project.py); generator/resolve.py confines it. The name is looked up at
    every call (the project in use may change); each file version is read once."""
    file = resolve.template_file(name, folder, "icon")
    if file.suffix == ".svg":  # icons/<name>.svg: generator/faces/svg.py
        from .svg import icon_from_svg

        return icon_from_svg(name, file)
    st = file.stat()
    return _icon_at(name, file, st.st_size, st.st_mtime_ns)


@cache
def _icon_at(name: str, file: Path, size: int, mtime_ns: int) -> IconDef:
    doc = load_yaml(file)
    if not isinstance(doc.data, dict):
        raise doc.error((), "expected a mapping with 'view' and 'shapes'")
    data = doc.data
    view = _numbers(doc, ("view",), data.get("view", [100, 100]), 2, positive=True)
    raw_shapes = data.get("shapes") or []
    if not isinstance(raw_shapes, list) or len(raw_shapes) > MAX_SHAPES:
        raise doc.error(("shapes",), f"expected a list of at most {MAX_SHAPES} shapes")
    shapes = []
    for index, raw in enumerate(raw_shapes):
        where = ("shapes", index)
        line = doc.line_of(where)
        if not isinstance(raw, dict):
            raise doc.error(where, "expected a mapping with 'path' or 'circle'")
        fill = _paint(raw.get("fill", "main"), doc.file, line, f"shapes[{index}].fill")
        stroke = _paint(raw.get("stroke", "none"), doc.file, line, f"shapes[{index}].stroke")
        (width,) = _numbers(doc, where + ("width",), [raw.get("width", 2.0)], 1)
        if "circle" in raw:
            cx, cy, r = _numbers(doc, where + ("circle",), raw["circle"], 3)
            shapes.append(IconShape((), (cx, cy, r), fill, stroke, width))
        elif "path" in raw:
            if not isinstance(raw["path"], str):
                raise doc.error(where + ("path",), "expected a path string (M, L, C, Q, Z...)")
            try:
                segments = parse_path(raw["path"])
            except ValueError as exc:
                raise doc.error(where + ("path",), f"bad path: {exc}") from None
            shapes.append(IconShape(segments, None, fill, stroke, width))
        else:
            raise doc.error(where, "expected 'path' or 'circle'")
    if not shapes:
        raise doc.error(("shapes",), "an icon needs at least one shape")
    return IconDef(name, view[0], view[1], tuple(shapes))


load_icon.cache_clear = _icon_at.cache_clear  # type: ignore[attr-defined]


def _numbers(doc: YamlDoc, where: tuple[str | int, ...], raw: object, n: int,
             positive: bool = False) -> tuple[float, ...]:
    """``n`` finite numbers (within +/-10000; above zero if ``positive``) or a DataError."""
    ok = isinstance(raw, list) and len(raw) == n and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= 10_000
        and (v > 0 if positive else True) for v in raw)
    if not ok:
        kind = "positive numbers" if positive else "numbers"
        what = f"{n} {kind} within 10000" if n > 1 else "a number within +/-10000"
        raise doc.error(where, f"expected {what}, got {raw!r}"[:200])
    assert isinstance(raw, list)
    return tuple(float(v) for v in raw)


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
