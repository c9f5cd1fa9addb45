"""Vector icons of our own, kept as data in templates/icons/<name>.yaml (a project's own
icons/ folder is searched first: generator/data/files/project.py).

An icon file holds a view box and a list of shapes in that box: SVG-style path strings
(absolute M, L, H, V, C, Q, Z) and circles. Each shape is painted with the icon's ``main``
colour, its ``accent`` colour, or not at all, so one drawing serves any palette.
"""
from __future__ import annotations

from pathlib import Path

from generator.core import context, memo
from generator.core.errors import DataError
from generator.core.vector import IconDef, IconShape, parse_path
from generator.core.words import said
from generator.core.yamlfile import YamlDoc, load_yaml
from generator.data.files import resolve

MAX_SHAPES = 500
def _paint(value: object, file: Path, line: int | None, field: str) -> str:
    from generator.core.colours import NotAColour, parse_colour

    if value in ("main", "accent", "none"):
        return str(value)
    try:
        return parse_colour(value)  # any colour a template takes, translucent ones too
    except NotAColour:
        raise DataError(file, line, field, "expected main, accent, none or a colour (#rrggbb, "
                        f"#rrggbbaa, a CSS name), got {said(value, 60)}") from None


def load_icon(name: str, folder: Path | None = None) -> IconDef:
    """Load and check one icon; errors point at the icon file's line. The name is a plain
    name of a file in ``folder`` when given, else of the project's icons/ or the built-in
    ones (generator/data/files/project.py); generator/data/files/resolve.py confines it. The name is
    looked up at every call (the project in use may change); each file version (its content:
    generator/core/context.py) is read once."""
    file = resolve.template_file(name, folder, "icon")
    if file.suffix == ".svg":  # icons/<name>.svg: generator/data/design/svg.py
        from generator.data.design.svg import icon_from_svg

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
    return IconDef(name, view[0], view[1], tuple(shapes), source=str(file))


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
        raise doc.error(where, f"expected {what}, got {said(raw)}"[:200])
    assert isinstance(raw, list)
    return tuple(float(v) for v in raw)
