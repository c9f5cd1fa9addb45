"""An SVG file from a stranger, read and checked before any SVG library sees it.

SVG is XML, and XML can do harm when parsed naively: a DOCTYPE may declare entities that
expand a kilobyte into gigabytes ("billion laughs") or read local files and URLs (XXE); a
``<use>`` may refer to its own ancestor (endless recursion) or fan out into millions of copies;
an ``<image>``, a ``href`` or a CSS ``@import`` may name files and URLs. So the file is read
here first with expat (the parser Python ships, driven event by event) and refused, with the
SVG's own line, when it

- is larger than ``MAX_BYTES``, compressed (``.svgz``) or not UTF-8 text;
- holds a DOCTYPE or ENTITY declaration (refused when the declaration *starts*, before any
  entity is defined or expanded);
- nests deeper than ``MAX_DEPTH``, or has more than ``MAX_ELEMENTS`` elements or
  ``MAX_NUMBERS`` path and point numbers once every ``<use>`` is expanded (counted here, so
  a ``<use>`` fan-out is refused before it is built), or a ``<use>`` refers to itself.
  Counted as svgelements expands: a ``<use>`` copies any element with that ``id``, of any
  namespace (an ``<f:g>`` and the SVG shapes inside it), following ``href`` before
  ``xlink:href``;
- refers to anything outside itself: ``<image>``, ``<foreignObject>``, a ``href`` that is
  not ``#id``, ``@import`` or ``url(...)`` of anything but ``#id``; or holds a ``<script>``;
- holds content we cannot draw faithfully: ``<text>`` (convert it to paths), nested
  ``<svg>``, ``<use>`` of a ``<symbol>``, and elements painted with gradients or patterns,
  clipped, masked, filtered or given markers (those are refused where used, not where
  defined: Inkscape leaves unused gradients in ``<defs>``).

What passes goes on to generator/data/design/svg.py (svgelements) as checked text.
"""
from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn
from xml.parsers import expat

from generator.core.words import said

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64
MAX_ELEMENTS = 20_000  # after <use> expansion
MAX_NUMBERS = 400_000  # numbers in path data and point lists, after <use> expansion
MAX_ATTRIBUTE = 4_000  # characters in any attribute but path data and points...
MAX_TRANSFORM = 1_000  # ...and in a transform (the SVG library's parsers are quadratic on
MAX_STYLE = 32_000  # garbage: bounded, they stay fast), in all <style> text,
MAX_CSS_RUN = 1_000  # and between two braces of it

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
TEXT = ("text", "tspan", "textPath", "flowRoot", "flowPara", "flowRegion", "flowSpan")
EMBEDDED = ("image", "foreignObject", "feImage", "iframe", "video", "audio", "canvas")
# Painted with, clipped by...: refused where an element uses them (see ``_uses``).
PAINT_PROPERTIES = {
    "clip-path": "clipping paths are not supported: apply the clip (Inkscape: Object > Clip > "
                 "Release, then Path > Intersection)",
    "mask": "masks are not supported: flatten the drawing to plain shapes",
    "filter": "filters (blur, shadow...) are not supported: remove the filter",
    "marker-start": "markers are not supported: convert them to paths (Inkscape: Path > "
                    "Stroke to Path)",
    "marker-mid": "markers are not supported: convert them to paths (Inkscape: Path > "
                  "Stroke to Path)",
    "marker-end": "markers are not supported: convert them to paths (Inkscape: Path > "
                  "Stroke to Path)",
    "marker": "markers are not supported: convert them to paths",
}
GRADIENT = ("gradients and patterns are not supported: fill with a flat colour (main, "
            "accent or any colour)")
TEXT_HELP = ("text is not drawn from SVG files: convert it to paths (Inkscape: Path > Object "
             "to Path; Illustrator: Type > Create Outlines)")
_NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[Zz]")
_NOT_PATH = re.compile(r"[^MmLlHhVvCcSsQqTtAaZz0-9.eE+\-\s,]")
_NOT_POINTS = re.compile(r"[^0-9.eE+\-\s,]")
# A number that may be too large for a float: written with an exponent, or 300 digits long.
_EXPONENT = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)[eE][-+]?\d+|\d{300,}")
_STYLE_PROP = re.compile(r"([a-zA-Z-]+)\s*:\s*([^;]*)")
_URL = re.compile(r"url\(\s*['\"]?([^'\")]*)", re.IGNORECASE)


class SvgRefused(ValueError):
    """An SVG that may not be used; the message says where in it and why."""


Fail = Callable[[str], SvgRefused]  # makes the refusal, naming the line being read


@dataclass
class _Node:
    tag: str
    line: int
    weight: int  # 1 + numbers in its path data or points
    children: list[_Node] = field(default_factory=list)
    use: str | None = None  # the id a <use> refers to


@dataclass(frozen=True)
class Checked:
    """An SVG that passed: its text (the root given ``fill="currentColor"`` when it sets no
    fill of its own, so that shapes left to SVG's default black can be told apart from
    shapes painted black on purpose) and how many elements it has, expanded."""

    text: str
    elements: int
    # Each path's data with its line and tag: where the SVG library failed, if it does.
    paths: tuple[tuple[int, str, str], ...] = ()


def read_svg(file: Path, shown: str) -> Checked:
    """Read and check ``file`` (``shown`` is how messages name it)."""
    try:
        st = os.stat(file)
    except OSError as exc:
        raise SvgRefused(f"{shown}: cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        raise SvgRefused(f"{shown} is not a regular file")
    if st.st_size > MAX_BYTES:
        raise SvgRefused(f"{shown} is {st.st_size / 1048576:.1f} MB; the limit for an SVG is "
                         f"{MAX_BYTES // 1048576} MB (simplify it, or export a PNG)")
    with open(file, "rb") as fh:
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise SvgRefused(f"{shown} is larger than {MAX_BYTES // 1048576} MB")
    if data[:2] == b"\x1f\x8b":
        raise SvgRefused(f"{shown} is compressed (.svgz): save it as plain SVG")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SvgRefused(f"{shown} line {line}: not UTF-8 text (save the SVG as UTF-8)") from None
    return _scan(data, shown)


def _scan(data: bytes, shown: str) -> Checked:
    parser = expat.ParserCreate(encoding="utf-8", namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    root: list[_Node] = []
    stack: list[_Node] = []
    ids: dict[str, _Node] = {}
    root_tag: list[tuple[int, bool]] = []  # byte index of the root's start tag, has a fill
    style_text: list[str] = []
    in_style = [False]
    paths: list[tuple[int, str, str]] = []

    def fail(why: str) -> SvgRefused:
        return SvgRefused(f"{shown} line {parser.CurrentLineNumber}: {why}")

    def doctype(*_args: object) -> None:
        raise fail("a DOCTYPE declaration is not allowed in an SVG (it can define entities "
                   "that expand without bound or read other files); remove the <!DOCTYPE> "
                   "line")

    def entity(*_args: object) -> NoReturn:
        raise fail("ENTITY declarations are not allowed in an SVG")

    def start(name: str, attrs: dict[str, str]) -> None:
        ns, _, local = name.rpartition(" ")
        line = parser.CurrentLineNumber
        if len(stack) >= MAX_DEPTH:
            raise fail(f"elements nest more than {MAX_DEPTH} deep")
        svg = ns in ("", SVG_NS)
        weight = 1
        for key in ("d", "points"):
            if svg and key in attrs:
                weight += len(_NUMBER.findall(attrs[key].encode("utf-8")))
                _check_numbers(local, key, attrs[key], fail)
                if key == "d":
                    paths.append((line, local, attrs[key]))
        node = _Node(local if svg else f"{{{ns[:60]}}}{local[:60]}", line, weight)
        if not stack and not root:
            if not (svg and local == "svg"):
                raise fail(f"the root element is <{local}>, not <svg>: not an SVG file")
            root.append(node)
            root_tag.append((parser.CurrentByteIndex, "fill" in attrs))
        elif not stack:
            raise fail("more than one root element")
        else:
            stack[-1].children.append(node)
        stack.append(node)
        _check_element(node.tag, svg, attrs, node, ids, stack, fail)
        in_style[0] = svg and local == "style"

    def end(_name: str) -> None:
        stack.pop()
        in_style[0] = False

    def chars(text: str) -> None:
        if in_style[0]:
            style_text.append(text)

    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.ExternalEntityRefHandler = entity
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise SvgRefused(f"{shown} line {exc.lineno}: not well-formed XML "
                         f"({expat.ErrorString(exc.code)})") from None
    if not root:
        raise SvgRefused(f"{shown}: no <svg> element")
    _check_css("".join(style_text), shown)
    count = _expanded(root[0], ids, shown)
    start_index, has_fill = root_tag[0]
    if not has_fill:  # shapes left unpainted take the icon's main colour (see svg.py)
        head = re.match(rb"<[^\s/>]+", data[start_index:])
        assert head is not None
        cut = start_index + head.end()
        data = data[:cut] + b' fill="currentColor"' + data[cut:]
    return Checked(data.decode("utf-8"), count, tuple(paths))


def _check_numbers(tag: str, key: str, value: str, fail: Fail) -> None:
    """Path data (``d``) and point lists hold numbers (and, in path data, the commands):
    ``NaN``, ``inf`` or a number too large for a float is refused at its line, not left
    to the SVG library (which fails without saying where, or leaves the point out)."""
    odd = (_NOT_PATH if key == "d" else _NOT_POINTS).search(value)
    if odd is not None:
        start = max(value.rfind(sep, 0, odd.start()) for sep in " ,\t\n") + 1
        word = re.match(r"[^\s,]{1,40}", value[start:])
        shown = word.group() if word else odd.group()
        raise fail(f"<{tag}> {key}: {said(shown)} is not a number" + (
            " (path data holds numbers and the commands M, L, H, V, C, S, Q, T, A and Z)"
            if key == "d" else ""))
    for number in _EXPONENT.findall(value):  # a large finite one is svg.py's to judge
        if not math.isfinite(float(number)):
            raise fail(f"<{tag}> {key}: the number {number[:40]} is too large to compute "
                       "with")


def _check_css(css: str, shown: str) -> None:
    """Plain CSS rules only (``selector { property: value; ... }``), bounded, referring to
    nothing outside: the SVG library reads them with regular expressions that are slow on
    unclosed comments and braces."""
    if not css.strip():
        return
    if len(css) > MAX_STYLE:
        raise SvgRefused(f"{shown}: the <style> text is {len(css):,} characters; at most "
                         f"{MAX_STYLE:,}")
    if "@import" in css.lower():
        raise SvgRefused(f"{shown}: a <style> imports another file (@import); put the styles "
                         "in the SVG itself")
    for target in _URL.findall(css):
        if not target.startswith("#"):
            raise SvgRefused(f"{shown}: a <style> refers to {said(target, 60)} outside the SVG")
    last = css.rfind("/*")
    if last >= 0 and "*/" not in css[last + 2:]:
        raise SvgRefused(f"{shown}: a comment in the <style> is not closed (*/)")
    depth = run = 0
    for ch in re.sub(r"/\*[\s\S]*?\*/", "", css):
        if ch in "{}":
            if (ch == "{") == bool(depth):
                raise SvgRefused(f"{shown}: the <style> is not plain CSS rules (selector "
                                 "{ property: value }): nested or unmatched braces")
            depth, run = (1 if ch == "{" else 0), 0
        else:
            run += 1
            if run > MAX_CSS_RUN:
                raise SvgRefused(f"{shown}: the <style> has a selector or a rule longer than "
                                 f"{MAX_CSS_RUN:,} characters")
    if depth:
        raise SvgRefused(f"{shown}: the <style> has a rule not closed by }}")


def _check_element(tag: str, svg: bool, attrs: dict[str, str], node: _Node,
                   ids: dict[str, _Node], stack: list[_Node], fail: Fail) -> None:
    """Refuse an element that reads outside the file or that we cannot draw faithfully.

    An element of another namespace (``<f:g>``, Inkscape's ``<sodipodi:namedview>``) is
    checked too, as svgelements reads it: it draws nothing itself, but its ``id`` is one a
    ``<use>`` may copy (with the SVG shapes inside it, which svgelements draws), and its
    attributes (transform, style, paints) pass down to those shapes. Its tag means nothing
    to svgelements, so only the SVG tags below are refused by name, and only an SVG ``<use>``
    refers to anything."""
    if svg:
        if tag in TEXT:
            raise fail(f"<{tag}>: {TEXT_HELP}")
        if tag in EMBEDDED:
            raise fail(f"<{tag}>: pictures or documents inside an SVG are not supported "
                       "(draw them as paths, or place a PNG with its own image: element)")
        if tag == "script":
            raise fail("<script>: scripts are not allowed in an SVG")
        if tag == "svg" and len(stack) > 1:
            raise fail("a nested <svg> element is not supported: ungroup it into the outer "
                       "one")
    for key, value in attrs.items():
        local = key.rpartition(" ")[2]
        limit = MAX_TRANSFORM if local == "transform" else MAX_ATTRIBUTE
        if len(value) > limit and local not in ("d", "points"):
            raise fail(f"<{tag}> {local} is {len(value):,} characters long; at most {limit:,}")
        if svg and local == "href" and key in ("href", f"{XLINK_NS} href") and (
                not value.startswith("#") or len(value) < 2):
            raise fail(f"<{tag}> refers to {said(value, 60)}: an SVG may only refer to its "
                       "own elements (href=\"#id\"), not to other files or URLs")
    if svg and tag == "use":  # svgelements follows href before xlink:href
        target = attrs.get("href", attrs.get(f"{XLINK_NS} href"))
        if target is not None:
            node.use = target[1:]
    if "id" in attrs:  # any element's, the last of a repeated id: as svgelements finds them
        ids[attrs["id"]] = node
    props = {k: v for k, v in attrs.items() if " " not in k}
    props.update((k.strip(), v.strip()) for k, v in _STYLE_PROP.findall(attrs.get("style", "")))
    if len(props.get("transform", "")) > MAX_TRANSFORM:
        raise fail(f"<{tag}> transform is longer than {MAX_TRANSFORM:,} characters")
    _check_paint(tag, props, fail)


def _check_paint(tag: str, props: dict[str, str], fail: Fail) -> None:
    for key, value in props.items():
        low = value.strip().lower()
        if key in PAINT_PROPERTIES and low not in ("", "none"):
            raise fail(f"<{tag}> {key}: {PAINT_PROPERTIES[key]}")
        if "url(" in low and key in ("fill", "stroke"):
            raise fail(f"<{tag}> {key}: {value[:60]}: {GRADIENT}")
        if "url(" in low and not all(t.startswith("#") for t in _URL.findall(value)):
            raise fail(f"<{tag}> {key} refers to something outside the SVG")


def _expanded(root: _Node, ids: dict[str, _Node], shown: str) -> int:
    """Elements once every ``<use>`` is copied in, as the SVG library will build them;
    refused past the limits, when copies nest deeper than ``MAX_DEPTH``, or when a ``<use>``
    contains itself.

    Each element is sized once (a memo): its expanded count, numbers and height. The height
    is kept so that an element met again deeper down (a second ``<use>`` of it) is measured
    at its new depth: whether a file passes never depends on which copy comes first."""
    memo: dict[int, tuple[int, int, int]] = {}
    active: set[int] = set()  # the chain being expanded: its length is the depth

    def size(node: _Node, depth: int) -> tuple[int, int, int]:
        """``depth``: the node's own, the root's being 1."""
        key = id(node)
        if key in active:
            raise SvgRefused(f"{shown} line {node.line}: a <use> refers to an element that "
                             "contains it (endless repetition)")
        if key not in memo:
            if depth > MAX_DEPTH:
                deep(node)
            active.add(key)
            count, numbers, height = 1, node.weight - 1, 1
            parts = list(node.children)
            if node.use is not None and node.use in ids:
                target = ids[node.use]
                if target.tag == "symbol":
                    raise SvgRefused(f"{shown} line {node.line}: <use> of a <symbol> is not "
                                     "supported: use a group (<g>) instead")
                parts.append(target)
            for child in parts:
                c, n, h = size(child, depth + 1)
                count, numbers, height = count + c, numbers + n, max(height, h + 1)
                if count > MAX_ELEMENTS:
                    raise SvgRefused(f"{shown}: more than {MAX_ELEMENTS:,} elements once "
                                     "every <use> is expanded; simplify the drawing")
                if numbers > MAX_NUMBERS:
                    raise SvgRefused(f"{shown}: more than {MAX_NUMBERS:,} path numbers once "
                                     "every <use> is expanded; simplify the drawing "
                                     "(Inkscape: Path > Simplify)")
            active.discard(key)
            memo[key] = (count, numbers, height)
        if depth + memo[key][2] - 1 > MAX_DEPTH:
            deep(node)
        return memo[key]

    def deep(node: _Node) -> NoReturn:
        raise SvgRefused(f"{shown} line {node.line}: elements and <use> copies nest more "
                         f"than {MAX_DEPTH} deep")

    return size(root, 1)[0]
