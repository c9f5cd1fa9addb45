"""The drawing vocabulary shared by both renderers. Millimetres, origin top-left, y downwards.

Faces and page furniture (cut marks, footers, rulers) are both lists of these, so the PDF and
PNG renderers only have to know how to draw eight things.
"""
from __future__ import annotations

from dataclasses import dataclass, field

Colour = str | None  # "#rrggbb" or None for "no paint"
PT_TO_MM = 25.4 / 72.0  # a text's size is in points (a font's em), everything else in mm


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


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: Colour = None
    stroke: Colour = None
    width: float = 0.3


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = "#000000"
    width: float = 0.2
    dash: tuple[float, ...] | None = None


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


@dataclass(frozen=True)
class Vector:
    """An SVG picture (generator/data/svg.py), drawn as vectors: its view box stretched over
    (x, y, w, h) and shown only inside that box and ``clip`` (fit, as for Image)."""

    path: str
    x: float
    y: float
    w: float
    h: float
    clip: tuple[float, float, float, float] | None = None


Primitive = Rect | Circle | Line | Path | Text | Icon | Image | Vector


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
