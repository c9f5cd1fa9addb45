"""SVG files as icons (``icon: {name: sword}`` finds ``icons/sword.svg``) and as art
(``image: {path: art/castle.svg}``), drawn as vectors by both renderers.

The file is first read and checked by generator/data/design/svg_scan.py (size, DOCTYPE, external
references, ``<use>`` fan-out...), then parsed by svgelements (pinned 1.9.6: pure Python,
MIT, maintained; it does the hard parts of SVG: relative commands, arcs, smooth curves,
transforms, CSS ``style`` attributes and ``<style>`` class rules, ``<use>``). Every shape is
turned into the renderers' own vocabulary: M/L/C/Z segments (arcs and quadratic curves become
cubic ones) in view-box units, a fill rule (SVG's default nonzero, or evenodd), and paints.

Colours (one drawing serves any palette, as the YAML icons do):

- a shape whose fill is left unset (SVG's default black) or is ``currentColor`` takes the
  icon's ``fill`` ("main"); in art it stays black, as any SVG viewer draws it;
- a shape (or a group) with class ``accent`` takes the icon's ``accent`` colour for whatever
  it paints (fill and stroke); art keeps the colours as drawn;
- any other colour stays as drawn; ``none`` is no paint. ``currentColor`` is the icon's main
  colour unless the SVG sets its own ``color``.

Transparency: ``fill-opacity``, ``stroke-opacity``, a shape's own ``opacity`` and colours
with alpha (``rgba()``, ``#rrggbbaa``) are kept, multiplied into the paint's alpha (a shape's
``opacity`` applies to its fill and its stroke separately, so where its own stroke overlaps
its fill the two blend: close to, not exactly, SVG's group compositing). ``opacity`` below 1 on
a group is refused (its children would have to be composited together first).

Each file version is read once (cached on path, size and modification time).
"""
from __future__ import annotations

import io
import math
import re
from pathlib import Path

from svgelements import (
    SVG,
    Arc,
    Close,
    Color,
    CubicBezier,
    Group,
    Line,
    Move,
    QuadraticBezier,
    Shape,
    Use,
)
from svgelements import Path as SvgPath
from svgelements.svgelements import (
    REGEX_COLOR_HEX,
    REGEX_COLOR_HSL,
    REGEX_COLOR_RGB,
    REGEX_COLOR_RGB_PERCENT,
)

from generator.core import context, memo, paths
from generator.core.errors import DataError
from generator.core.primitives import Segment
from generator.core.vector import IconDef, IconShape
from generator.core.words import said
from generator.data.design.svg_scan import SvgRefused, read_svg

__all__ = ["SvgError", "SvgRefused", "icon_from_svg", "load_art", "parse_d"]

CAPS = ("butt", "round", "square")
JOINS = ("miter", "round")  # bevel, miter-clip and arcs (SVG 2) are drawn as miter
MAX_SEGMENTS = 200_000  # after arcs become cubic curves
MAX_COORD = 1e7  # view-box units; past this a drawing is broken (or hostile)
NAMED = re.compile(r"^[a-zA-Z]+$")
GROUP_ALPHA = ("opacity on a group is not supported: set opacity (or fill-opacity) on "
               "each shape instead")


class SvgError(DataError):
    """A refused SVG icon. ``expected`` names the SVG and its line, so a template drawing
    the icon (which blames its own line and repeats ``expected``) still says which file;
    printed alone (a data row names the icon), the SVG's own file:line leads."""

    def __init__(self, file: Path, line: int | None, why: str, located: str) -> None:
        self.why = why
        super().__init__(file, line, "", located)

    def message(self) -> str:
        return f"{self.file}:{self.line}: {self.why}" if self.line else \
            f"{self.file}: {self.why}"


def icon_from_svg(name: str, file: Path) -> IconDef:
    """An icon from ``icons/<name>.svg``; an SvgError naming the SVG's line when refused."""
    try:
        return _drawing(file, context.version(file), True, name)
    except SvgRefused as exc:
        text = str(exc)
        found = re.match(r"(?: line (\d+))?: ", text[len(show(file)):])
        why = text[len(show(file)) + found.end():] if found else text
        raise SvgError(file, int(found.group(1)) if found and found.group(1) else None, why,
                       text) from None


def load_art(file: str | Path) -> IconDef:
    """Art drawn from an SVG file, colours as drawn: read and checked when a template names
    it (generator/data/design/lookup.py, so its line is blamed), and for the renderers
    (generator/data/design/resources.py), once per version of its content."""
    path = Path(file)
    return _drawing(path, context.version(path), False, path.stem)


@memo.memo
def _drawing(file: Path, version: str | None, recolour: bool, name: str) -> IconDef:
    shown = show(file)
    checked = read_svg(file, shown)
    try:
        # Not reified: a shape keeps its transform, applied once to its segments below.
        doc = SVG.parse(io.StringIO(checked.text), color="currentColor", on_error="raise",
                        reify=False)
    except SvgRefused:
        raise
    except Exception as exc:  # svgelements raises many kinds of errors for broken input
        _path_at_fault(checked.paths, shown)
        reason = str(exc)[:120] or type(exc).__name__
        raise SvgRefused(f"{shown}: the SVG could not be read ({reason})") from None
    if not isinstance(doc, SVG):
        raise SvgRefused(f"{shown}: no <svg> element to draw")
    view_w, view_h = _view(doc, shown)
    shapes: list[IconShape] = []
    _walk(doc, [doc.values], False, recolour, shapes, shown)
    if not any(s.fill != "none" or s.stroke != "none" for s in shapes):
        raise SvgRefused(f"{shown}: draws nothing (no filled or stroked shape)")
    count = sum(len(s.segments) for s in shapes)
    if count > MAX_SEGMENTS:
        raise SvgRefused(f"{shown}: {count:,} path segments; the limit is {MAX_SEGMENTS:,} "
                         "(simplify it: Inkscape Path > Simplify)")
    return IconDef(name, view_w, view_h, tuple(shapes), source=str(file))


def _path_at_fault(paths: tuple[tuple[int, str, str], ...], shown: str) -> None:
    """The SVG library failed without saying where (a bare ValueError): the first path
    whose data it cannot read alone is refused at its line (the scan has refused what is
    not a number: here the numbers do not fit the commands)."""
    for line, tag, d in paths:
        try:
            SvgPath(d)
        except Exception:  # as above: any error of the library is this path's
            raise SvgRefused(f"{shown} line {line}: <{tag}> d could not be read: its numbers "
                             "do not fit its commands (M and L take x y pairs, C three "
                             "pairs, A seven numbers...)") from None


def _view(doc: SVG, shown: str) -> tuple[float, float]:
    """The drawing's size in its own units: the viewBox, scaled to width and height when
    both are given (svgelements maps the viewBox onto them)."""
    attrs = doc.values.get("attributes", {})
    if doc.viewbox is None and not all(
            k in attrs and "%" not in attrs[k] for k in ("width", "height")):
        raise SvgRefused(f"{shown}: the <svg> element needs a viewBox (or a width and a "
                         "height) to give the drawing its size")
    w, h = float(doc.width), float(doc.height)
    if not (0 < w <= MAX_COORD and 0 < h <= MAX_COORD):
        raise SvgRefused(f"{shown}: the drawing's size {w:g} x {h:g} is not usable (its "
                         "viewBox, width and height must be positive)")
    return w, h


def _walk(node: Group, chain: list[dict], accent: bool, recolour: bool,
          out: list[IconShape], shown: str) -> None:
    """Every drawn shape under ``node`` in painting order; ``chain`` holds the ancestors'
    values (for ``inherit``), ``accent`` whether an ancestor has class accent."""
    for child in node:
        values = getattr(child, "values", {})
        classes = str(values.get("attributes", {}).get("class", "")).split()
        is_accent = accent or "accent" in classes
        _check_values(child, values, shown)
        if isinstance(child, Shape):
            shape = _shape(child, chain + [values], is_accent and recolour, recolour, shown)
            if shape is not None:
                out.append(shape)
        elif isinstance(child, (Group, Use)):
            _walk(child, chain + [values], is_accent, recolour, out, shown)


def _check_values(node: object, values: dict, shown: str) -> None:
    """What the scan cannot see: properties set by a <style> rule, and group opacity."""
    tag = values.get("attributes", {}).get("tag", type(node).__name__.lower())
    for key in ("clip-path", "mask", "filter", "marker-start", "marker-mid", "marker-end"):
        own = values.get("attributes", {}).get(key)
        if own is not None and own.strip().lower() not in ("", "none"):
            raise SvgRefused(f"{shown}: <{tag}{_ident(values)}> {key}: not supported "
                             "(flatten the drawing to plain filled shapes)")
    for key in ("fill", "stroke"):
        if "url(" in str(values.get(key, "")).lower():
            raise SvgRefused(f"{shown}: <{tag}{_ident(values)}> {key}: gradients and "
                             "patterns are not supported: fill with a flat colour")
    opacity = values.get("attributes", {}).get("opacity")
    if opacity is not None and not isinstance(node, Shape) and \
            _number(opacity, shown, "opacity") < 1:
        raise SvgRefused(f"{shown}: <{tag}{_ident(values)}> opacity {opacity}: {GROUP_ALPHA}")


def _shape(node: Shape, chain: list[dict], accent: bool, recolour: bool,
           shown: str) -> IconShape | None:
    values = chain[-1]
    tag = values.get("attributes", {}).get("tag", "shape")
    where = f"<{tag}{_ident(values)}>"
    own = values.get("attributes", {}).get("opacity", "1")
    fill, fill_alpha = _paint(_inherited(chain, "fill", "currentColor"), accent, recolour,
                              shown, where, _inherited(chain, "fill-opacity", "1"), own)
    stroke, stroke_alpha = _paint(_inherited(chain, "stroke", "none"), accent, recolour,
                                  shown, where, _inherited(chain, "stroke-opacity", "1"), own)
    width = float(node.implicit_stroke_width or 0.0) if stroke != "none" else 0.0
    if not math.isfinite(width) or width <= 0 or width > MAX_COORD:
        stroke, width = "none", 0.0
    if type(node).__name__ == "SimpleLine":
        fill = "none"  # a <line> has no inside
    if fill == "none" and stroke == "none":
        return None
    rule = str(_inherited(chain, "fill-rule", "nonzero")).strip().lower()
    segments = segments_of(node, shown, where)
    if not segments:
        return None
    cap = _inherited(chain, "stroke-linecap", "butt").strip().lower()
    join = _inherited(chain, "stroke-linejoin", "miter").strip().lower()
    return IconShape(segments, None, fill, stroke, width,
                     "evenodd" if rule == "evenodd" else "nonzero", fill_alpha, stroke_alpha,
                     cap if cap in CAPS else "butt", join if join in JOINS else "miter")


def _inherited(chain: list[dict], key: str, default: str) -> str:
    """A property as the shape sees it: svgelements copies each ancestor's values down, so
    only ``inherit`` needs walking up the chain."""
    for values in reversed(chain):
        value = values.get(key)
        if value is None:
            return default
        if str(value).strip().lower() != "inherit":
            return str(value)
    return default


def _paint(raw: str, accent: bool, recolour: bool, shown: str, where: str, opacity: str,
           own_opacity: str) -> tuple[str, float]:
    """The paint token ("main", "accent", "none" or "#rrggbb") and its alpha, 0..1."""
    value = raw.strip()
    low = value.lower()
    alpha = (_clamp(_number(opacity, shown, "opacity"))
             * _clamp(_number(own_opacity, shown, "opacity")))
    if low in ("none", "transparent", "") or alpha <= 0:
        return "none", 1.0
    if accent:
        return "accent", alpha
    if low == "currentcolor":
        return ("main" if recolour else "#000000"), alpha
    if NAMED.match(value):
        from PIL import ImageColor

        if low not in ImageColor.colormap:
            raise SvgRefused(f"{shown}: {where} colour {said(value, 40)} is not a CSS colour name")
    elif not any(r.match(value) for r in (REGEX_COLOR_HEX, REGEX_COLOR_RGB,
                                          REGEX_COLOR_RGB_PERCENT, REGEX_COLOR_HSL)):
        raise SvgRefused(f"{shown}: {where} colour {said(value, 40)} is not a colour we read "
                         "(#rgb, #rrggbb, rgb(), hsl() or a CSS name)")
    colour = Color(value)
    if colour.value is None or colour.alpha == 0:
        return "none", 1.0
    return f"#{colour.red:02x}{colour.green:02x}{colour.blue:02x}", alpha * colour.alpha / 255


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def segments_of(node: Shape | SvgPath, shown: str = "path", where: str = "") \
        -> tuple[Segment, ...]:
    """A shape's outline, its transforms applied, as M/L/C/Z segments (arcs and quadratic
    curves become cubic ones; a subpath drawn on after Z starts with an explicit M)."""
    out: list[Segment] = []
    start: tuple[float, float] | None = None
    closed = False
    for seg in node.segments(transformed=True):
        if isinstance(seg, Move):
            start = _pt(seg.end, shown, where)
            out.append(("M", start))
            closed = False
            continue
        if start is None:
            continue  # drawing before any move: nothing to start from
        if closed:
            out.append(("M", start))
            closed = False
        if isinstance(seg, Close):
            out.append(("Z", ()))
            closed = True
        elif isinstance(seg, Line):
            out.append(("L", _pt(seg.end, shown, where)))
        elif isinstance(seg, CubicBezier):
            out.append(("C", _pt(seg.control1, shown, where) + _pt(seg.control2, shown, where)
                        + _pt(seg.end, shown, where)))
        elif isinstance(seg, QuadraticBezier):
            (x0, y0), (qx, qy) = _pt(seg.start, shown, where), _pt(seg.control, shown, where)
            ex, ey = _pt(seg.end, shown, where)
            out.append(("C", (x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0),
                              ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey)))
        elif isinstance(seg, Arc):
            for cubic in seg.as_cubic_curves():
                out.append(("C", _pt(cubic.control1, shown, where)
                            + _pt(cubic.control2, shown, where) + _pt(cubic.end, shown, where)))
        if len(out) > MAX_SEGMENTS:
            raise SvgRefused(f"{shown}: {where} has more than {MAX_SEGMENTS:,} segments")
    return tuple(out)


def parse_d(d: str) -> tuple[Segment, ...]:
    """An SVG path string (any commands) as M/L/C/Z segments: for tests and tools."""
    return segments_of(SvgPath(d))


def _pt(point: object, shown: str, where: str) -> tuple[float, float]:
    x, y = float(point[0]), float(point[1])  # type: ignore[index]
    if math.isnan(x) or math.isnan(y):  # e.g. scale(1e400): infinity times zero
        raise SvgRefused(f"{shown}: {where} has a coordinate that is not a number (NaN): its "
                         "path data or a transform (its own or a group's) holds numbers too "
                         "large to compute with")
    if not (math.isfinite(x) and math.isfinite(y) and abs(x) <= MAX_COORD
            and abs(y) <= MAX_COORD):
        raise SvgRefused(f"{shown}: {where} has coordinates out of range ({x:g}, {y:g})")
    return (x, y)


def _number(text: object, shown: str, what: str) -> float:
    try:
        value = float(str(text).strip().rstrip("%")) / (100 if "%" in str(text) else 1)
    except ValueError:
        raise SvgRefused(f"{shown}: {what} {said(str(text), 40)} is not a number") from None
    return value if math.isfinite(value) else 1.0


def _ident(values: dict) -> str:
    ident = values.get("attributes", {}).get("id")
    return f" id={said(ident, 40)}" if ident else ""


def show(file: Path) -> str:
    """A file as the user knows it: relative to the working folder or the built-in root."""
    resolved = file.resolve()
    for base in (Path.cwd().resolve(), paths.BUILTIN):
        if resolved.is_relative_to(base):
            return str(resolved.relative_to(base))
    return str(resolved)
