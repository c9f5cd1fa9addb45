"""Cut files: one SVG per printed sheet side holding pieces, with the cut line of every piece at
true size, for laser cutters and die-cutting machines (Cricut, Silhouette, a laser's software).

Written from the same ``Kit`` the PDF and its manifest (``manifest.py``) are: each piece's box
is the manifest's ``x, y, w, h`` (its trim on the page, in mm from the top-left corner), so
the cut lies on the printed trim. A round piece (``shape: round``) is a ``<circle>`` on its
trim's inscribed circle; a die net (``kind: die``) a ``<path>`` along its nets' outline
(``net_outline``); any other piece a ``<rect>`` with the component's ``corner`` radius
(``rx``/``ry``, at most half its shorter side). One shape per
piece, no fill, a hairline stroke; its ``id`` names the page, the piece's number on it and its
component, its ``<title>`` the piece's label (a stranger's text: ElementTree escapes it, so
``<``, ``&`` or a quote in a label cannot break the file).

Millimetres throughout: the root's ``width``/``height`` are the paper's in ``mm`` and its
``viewBox`` the same numbers, so one user unit is one millimetre whatever the program's DPI.

Pure geometry and text: pages in, bytes out; the caller writes them (orchestration/output.py).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping

from generator.core import primitives as p
from generator.core.primitives import Face

from .page import Kit, Page, Placement

SVG_NS = "http://www.w3.org/2000/svg"
HAIRLINE = 0.025  # mm: 0.001 in, what laser software takes for a vector cut (a hairline)
CUT_COLOUR = "#ff0000"  # the colour cutters' software maps to "cut" by default
MAX_CUT_FILES = 2000  # sheet sides holding pieces: far past any kit, a bound on a stranger's


# What XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE/U+FFFF): ElementTree
# would write them as they are and leave a file no program reads. Compiled at first use (a
# class this wide costs 3 ms to compile, in every build, most of which write no cut file).
_NOT_XML = "[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"

_ONE_LINE = str.maketrans("\t\n\r", "   ")


def xml_text(text: str) -> str:
    """A stranger's text as XML can hold it, on one line: each character XML forbids becomes
    U+FFFD, a line break or tab a space (a parser reads ``\\r`` back as ``\\n``); the markup
    characters ``<``, ``&`` and quotes are escaped by ElementTree itself."""
    return re.sub(_NOT_XML, "\ufffd", text).translate(_ONE_LINE)


def _n(value: float) -> str:
    """A length as written: mm to 0.01 (the manifest's rounding), no trailing zeros."""
    return f"{round(value + 0.0, 2):g}"


def cut_pages(kit: Kit) -> list[tuple[int, Page]]:
    """The sheet sides that hold pieces, each with its sheet's number (from 1)."""
    return [(s, page) for s, sheet in enumerate(kit.sheets, start=1) for page in sheet.pages
            if page.pieces]


Point = tuple[float, float]


def _outline_shapes(face: Face) -> list[list[Point]]:
    """The closed outlined shapes a face draws (stroked rectangles, straight-sided
    polygons), each as its corners in face mm."""
    out: list[list[Point]] = []
    for prim in face.prims:
        if isinstance(prim, p.Rect) and prim.stroke is not None and not prim.radius:
            x, y, w, h = prim.x, prim.y, prim.w, prim.h
            out.append([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
        elif isinstance(prim, p.Path) and prim.stroke is not None:
            ops = [op for op, _ in prim.segments]
            if ops and ops[0] == "M" and ops[-1] == "Z" and set(ops[1:-1]) == {"L"}:
                out.append([(v[0], v[1]) for op, v in prim.segments if op != "Z"])
    return out


def net_outline(face: Face) -> list[list[Point]]:
    """The outline of the die nets a face draws, as closed loops of face mm: a net's faces
    (squares, triangles) and glue tabs meet edge to edge, so its outline is every edge
    that only one of them draws; an inner (fold) edge is drawn by the two it joins."""
    def key(pt: Point) -> Point:
        return (round(pt[0], 4) + 0.0, round(pt[1], 4) + 0.0)

    drawn: Counter[frozenset[Point]] = Counter()
    for corners in _outline_shapes(face):
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            if key(a) != key(b):
                drawn[frozenset((key(a), key(b)))] += 1
    links: dict[Point, list[Point]] = {}
    for edge, times in sorted(drawn.items(), key=lambda kv: sorted(kv[0])):
        if times == 1:
            a, b = sorted(edge)
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
    loops: list[list[Point]] = []
    while links:
        start = min(links)
        loop, here, before = [start], start, None
        while True:
            ahead = [pt for pt in links.get(here, []) if pt != before] or links.get(here, [])
            if not ahead:
                break
            step = ahead[0]
            links[here].remove(step)
            links[step].remove(here)
            for pt in (here, step):
                if not links[pt]:
                    del links[pt]
            before, here = here, step
            if here == start:
                break
            loop.append(here)
        if len(loop) > 2:
            loops.append(loop)
    return loops


def _net_path(pl: Placement) -> str:
    """A die net piece's outline as SVG path data, in page mm (after the piece's turn)."""
    parts = []
    for loop in net_outline(pl.face):
        pts = [pl.to_page(x, y) for x, y in loop]
        parts.append("M " + " L ".join(f"{_n(x)} {_n(y)}" for x, y in pts) + " Z")
    return " ".join(parts)


def cut_svg(page: Page, sheet: int, corners: Mapping[str, float],
            nets: Collection[str] = ()) -> bytes:
    """One sheet side's cut file. ``corners``: each component's corner radius (mm; a
    component not in it has square corners); ``nets``: the components of die nets, cut
    along the outline of their nets (``net_outline``), not round their box."""
    import xml.etree.ElementTree as ET  # here: most builds write no cut file

    w, h = page.size.w, page.size.h
    root = ET.Element("svg", {"xmlns": SVG_NS, "version": "1.1",
                              "width": f"{_n(w)}mm", "height": f"{_n(h)}mm",
                              "viewBox": f"0 0 {_n(w)} {_n(h)}"})
    ET.SubElement(root, "title").text = f"sheet {sheet} {page.side}: cut lines"
    group = ET.SubElement(root, "g", {"id": f"cut-{sheet}-{page.side}", "fill": "none",
                                      "stroke": CUT_COLOUR, "stroke-width": f"{HAIRLINE:g}"})
    # A gutterfold page holds backs beside their fronts: folded, the back half lies behind
    # the front, so the cutter cuts the front half's shapes only (through both layers).
    for number, pl in enumerate((pl for pl in page.pieces if pl.side == page.side), start=1):
        x, y, pw, ph = pl.trim
        ident = f"s{sheet}-{page.side}-{number:03d}-{pl.component}"
        outline = _net_path(pl) if pl.component in nets else ""
        if outline:
            shape = ET.SubElement(group, "path", {"id": ident, "d": outline})
        elif pl.round:
            shape = ET.SubElement(group, "circle", {
                "id": ident, "cx": _n(x + pw / 2), "cy": _n(y + ph / 2),
                "r": _n(min(pw, ph) / 2)})
        else:
            attrs = {"id": ident, "x": _n(x), "y": _n(y), "width": _n(pw), "height": _n(ph)}
            radius = min(corners.get(pl.component, 0.0), pw / 2, ph / 2)
            if radius > 0:
                attrs |= {"rx": _n(radius), "ry": _n(radius)}
            shape = ET.SubElement(group, "rect", attrs)
        ET.SubElement(shape, "title").text = xml_text(pl.label or pl.component)
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def cut_name(sheet: int, side: str) -> str:
    return f"sheet-{sheet:03d}-{side}.svg"
