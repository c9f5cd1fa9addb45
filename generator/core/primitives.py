"""The drawing vocabulary shared by both renderers. Millimetres, origin top-left, y downwards.

Faces and page furniture (cut marks, footers, rulers) are both lists of these (the
``Primitive`` union), so the PDF and PNG renderers only have to know how to draw these. Each
class says its own geometry: ``extent`` (where its ink lies, for pre-flight, the board
tiler and the PNG's translucent paint; a text's is measured with its font by
generator/faces/ink.py) and ``hides`` (whether it paints over what lies under it). The
template elements that make them are declared in generator/core/elements.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

Colour = str | None  # "#rrggbb" or None for "no paint"
PT_TO_MM = 25.4 / 72.0  # a text's size is in points (a font's em), everything else in mm
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm
HIDING_ALPHA = 0x80  # a fill this opaque or more hides what is under it


def hiding_fill(fill: Colour) -> bool:
    """Whether a fill paints over what lies under it: a colour at least half opaque."""
    if not fill:
        return False
    fill = fill.strip().lower()
    if fill in ("none", "transparent"):
        return False
    alpha = int(fill[7:9], 16) if fill.startswith("#") and len(fill) == 9 else 0xFF
    return alpha >= HIDING_ALPHA


def _box_extent(x: float, y: float, w: float, h: float, pad: float = 0.0) -> Box:
    return (x - pad, y - pad, x + w + pad, y + h + pad)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Colour = None
    stroke: Colour = None
    width: float = 0.3
    radius: float = 0.0
    dash: tuple[float, ...] | None = None

    def extent(self) -> Box | None:
        """Where the ink lies, mm (a stroke reaches half its width outside the edge)."""
        return _box_extent(self.x, self.y, self.w, self.h,
                           self.width / 2 if self.stroke else 0.0)

    def hides(self) -> bool:
        return hiding_fill(self.fill)


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: Colour = None
    stroke: Colour = None
    width: float = 0.3

    def extent(self) -> Box | None:
        r = self.r + (self.width / 2 if self.stroke else 0.0)
        return (self.cx - r, self.cy - r, self.cx + r, self.cy + r)

    def hides(self) -> bool:
        return hiding_fill(self.fill)


@dataclass(frozen=True)
class Ellipse:
    """An ellipse of radii rx (across) and ry (down) about (cx, cy)."""

    cx: float
    cy: float
    rx: float
    ry: float
    fill: Colour = None
    stroke: Colour = None
    width: float = 0.3

    def extent(self) -> Box | None:
        pad = self.width / 2 if self.stroke else 0.0
        return (self.cx - self.rx - pad, self.cy - self.ry - pad, self.cx + self.rx + pad,
                self.cy + self.ry + pad)

    def hides(self) -> bool:
        return hiding_fill(self.fill)


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = "#000000"
    width: float = 0.2
    dash: tuple[float, ...] | None = None

    def extent(self) -> Box | None:
        return (min(self.x1, self.x2), min(self.y1, self.y2), max(self.x1, self.x2),
                max(self.y1, self.y2))

    def hides(self) -> bool:
        return False


Segment = tuple[str, tuple[float, ...]]  # ("M", (x, y)), ("L", ...), ("C", 6 numbers), ("Z", ())


@dataclass(frozen=True)
class Path:
    segments: tuple[Segment, ...]
    fill: Colour = None
    stroke: Colour = None
    width: float = 0.3
    rule: str = "evenodd"  # fill rule, "evenodd" or "nonzero" (SVG shapes say which)
    cap: str = "butt"  # line ends: butt, round or square (SVG's stroke-linecap)
    join: str = "miter"  # corners: miter, round or bevel (SVG's stroke-linejoin)

    def extent(self) -> Box | None:
        """The box of its points (a Bezier curve stays inside its control points)."""
        coords = [c for _, args in self.segments for c in args]
        if not coords:
            return None
        xs, ys = coords[0::2], coords[1::2]
        return (min(xs), min(ys), max(xs), max(ys))

    def hides(self) -> bool:
        return hiding_fill(self.fill)


@dataclass(frozen=True)
class Text:
    """Text already broken into lines: each line is (x of its left end, baseline y, string).

    ``rotate`` turns the whole block about (ox, oy) counter-clockwise, in degrees (0/90/180/270).

    Rich text (generator/faces/rich_layout.py) keeps each line's plain words in ``lines`` (for
    pre-flight and tests) and draws ``spans`` instead: (x, baseline, text, font, fill), each
    in its own font and colour; its inline ``icons`` are already placed on the face (turned
    with the block). Both are empty for text in one font and colour, drawn from ``lines``.
    """

    lines: tuple[tuple[float, float, str], ...]
    font: str
    size: float  # points
    fill: Colour = "#000000"
    rotate: int = 0
    ox: float = 0.0
    oy: float = 0.0
    spans: tuple[tuple[float, float, str, str, Colour], ...] = ()
    icons: tuple[Icon, ...] = ()

    def runs(self) -> tuple[tuple[float, float, str, str, Colour], ...]:
        """What to draw: (x, baseline, text, font, fill), from ``spans`` or ``lines``."""
        if self.spans:
            return self.spans
        return tuple((x, baseline, line, self.font, self.fill) for x, baseline, line in self.lines)

    def extent(self) -> Box | None:
        """None: a text's ink is measured with its fonts (generator/faces/ink.py, text_box)."""
        return None

    def hides(self) -> bool:
        return False


@dataclass(frozen=True)
class Icon:
    """A named vector icon from templates/icons/, fitted into the box, turned about its centre."""

    name: str
    x: float
    y: float
    w: float
    h: float
    fill: Colour = "#000000"
    accent: Colour = "#ffffff"
    rotate: int = 0

    def extent(self) -> Box | None:
        """Its box, turned with it about its centre."""
        x, y, w, h = self.x, self.y, self.w, self.h
        if self.rotate in (90, 270):
            x, y, w, h = x + w / 2 - h / 2, y + h / 2 - w / 2, h, w
        return _box_extent(x, y, w, h)

    def hides(self) -> bool:
        return False


@dataclass(frozen=True)
class Image:
    """A picture drawn whole in (x, y, w, h), shown only inside ``clip`` when given (a picture
    that covers its box; generator/core/fit.py computes both)."""

    path: str
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None

    def extent(self) -> Box | None:
        """Its box, or the part of it shown (``clip``)."""
        return _box_extent(*(self.clip or (self.x, self.y, self.w, self.h)))

    def hides(self) -> bool:
        return True  # a picture paints its whole box


@dataclass(frozen=True)
class Vector:
    """An SVG picture (generator/data/design/svg.py), drawn as vectors: its view box stretched over
    (x, y, w, h) and shown only inside that box and ``clip`` (fit, as for Image)."""

    path: str
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None

    def extent(self) -> Box | None:
        """Its box, or the part of it shown (``clip``)."""
        return _box_extent(*(self.clip or (self.x, self.y, self.w, self.h)))

    def hides(self) -> bool:
        return True  # a picture paints its whole box


Primitive = Rect | Circle | Ellipse | Line | Path | Text | Icon | Image | Vector


@dataclass(frozen=True)
class Origin:
    """Where a primitive came from, for pre-flight findings: the template line, and whether
    it carries game information (text, icons, pips) that must stay out of the cutting
    tolerance, or is decoration (backgrounds, frames) that may run to the trim and beyond."""

    line: int | None
    info: bool


@dataclass(frozen=True)
class Face:
    """One rendered face: trim size, the bleed its art extends to, and its primitives.

    ``origins`` runs parallel to ``prims``; it and ``template`` (the face template's file) are
    left out of equality, so identical drawings still share one PDF form."""

    w: float
    h: float
    bleed: float
    prims: tuple[Primitive, ...]
    label: str = ""
    origins: tuple[Origin, ...] = field(default=(), compare=False)
    template: str = field(default="", compare=False)


PARTS_PER_PRIMITIVE = 2  # a path segment or a line of text holds about half a primitive's memory
WEIGHED = ("primitives (shapes, texts, icons and images; a path or text counts one more "
           "per two of its segments or lines)")  # what the limits count, in messages


def weight(prim: Primitive) -> int:
    """What a primitive counts against the primitive limits (generator/expressions/limits.py):
    one, plus one per two of the parts it holds (a path's segments; a text's lines, spans and
    inline icons). Why: a limit on plain counts let a face hold 10,000 paths of 2,400
    segments each (about 900 MB); weighed, the limits bound memory whatever is drawn."""
    if isinstance(prim, Path):
        parts = len(prim.segments)
    elif isinstance(prim, Text):
        parts = len(prim.lines) + len(prim.spans) + len(prim.icons)
    else:
        return 1
    return 1 + parts // PARTS_PER_PRIMITIVE


def face_weight(face: Face) -> int:
    """The primitive weight of one face (``weight`` summed)."""
    return sum(map(weight, face.prims))


def turn_vector(dx: float, dy: float, rotate: int) -> tuple[float, float]:
    """A face vector turned ``rotate`` degrees counter-clockwise as seen on the page (y down):
    the PDF's ``rotate`` and ours agree."""
    r = rotate % 360
    if r == 90:
        return dy, -dx
    if r == 180:
        return -dx, -dy
    if r == 270:
        return -dy, dx
    return dx, dy
