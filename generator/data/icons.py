"""Vector icons of our own, kept as data in templates/icons/<name>.yaml (a project's own
icons/ folder is searched first: generator/data/project.py).

An icon file holds a view box and a list of shapes in that box: SVG-style path strings
(absolute M, L, H, V, C, Q, Z) and circles. Each shape is painted with the icon's ``main``
colour, its ``accent`` colour, or not at all, so one drawing serves any palette.
"""
from __future__ import annotations

import re
from pathlib import Path

from generator.core import context, memo
from generator.core.errors import DataError
from generator.core.primitives import Segment
from generator.core.vector import IconDef, IconShape
from generator.core.yamlfile import YamlDoc, load_yaml
from generator.data import resolve

MAX_SHAPES = 500
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


def _paint(value: object, file: Path, line: int | None, field: str) -> str:
    from generator.core.colours import NotAColour, parse_colour

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
    ones (generator/data/project.py); generator/data/resolve.py confines it. The name is looked
    up at every call (the project in use may change); each file version (its content:
    generator/core/context.py) is read once."""
    file = resolve.template_file(name, folder, "icon")
    if file.suffix == ".svg":  # icons/<name>.svg: generator/data/svg.py
        from generator.data.svg import icon_from_svg

        return icon_from_svg(name, file)
    return _icon_at(name, file, context.version(file))


@memo.memo
def _icon_at(name: str, file: Path, version: str | None) -> IconDef:
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
