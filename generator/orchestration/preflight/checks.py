"""Pre-flight: will the kit print right? Checks on rendered faces and pages, not on the data.

- game information (text, icons, pips: primitives whose origin says ``info``) closer than
  ``SAFE_MM`` to a trim edge of a card, tile or token: a cut that drifts (home cutting drifts
  1-2 mm) would clip it;
- face text under ``MIN_FACE_PT`` at print size, page furniture under ``MIN_FURNITURE_PT``;
- a glyph missing from its font (it would print as an empty box);
- raster art under ``MIN_DPI`` at the size it is printed (SVG art, a ``Vector``, is drawn
  as vectors: sharp at any size, never a resolution finding);
- game information covered by decoration drawn above it: a filled shape (at least half
  opaque) or a picture, not itself information, overlapping its ink by ``MIN_OVERLAP_MM``
  both ways (a fog band drawn over a corner index). Information over information (a mark
  built of several shapes) and shapes only outlined are left alone.

Each finding names the piece, the face template's file and line, and the measured value.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image as PILImage

from generator.core import primitives as p
from generator.core.errors import location
from generator.core.words import said
from generator.data.typefaces import fonts
from generator.faces.ink import SAFE_MM, Box, bounds

MIN_FACE_PT = 6.0
MIN_FURNITURE_PT = 5.0
MIN_DPI = 300.0
MIN_OVERLAP_MM = 0.5  # an overlap thinner than this either way is a touch, not a cover
MAX_COVER_PAIRS = 50_000  # (information, cover) pairs compared on one face
CUT_KINDS = ("card", "tile", "token", "aid")  # pieces cut out on their trim


@dataclass(frozen=True)
class Issue:
    """One pre-flight problem: what, on which piece, where it was drawn, the measured value."""

    check: str
    piece: str
    where: str  # "templates/faces/x.yaml:12" or "page 3"
    detail: str
    value: float = 0.0  # the measured value (smaller is worse)
    cell: str = ""  # where the data value the problem is about was written (a sheet's cell)

    def key(self) -> tuple[str, str]:
        return (self.check, self.where)


def missing_by_font(prim: p.Text) -> list[tuple[str, str]]:
    """(font, characters it has no glyph for) of each font the text is drawn in."""
    found: dict[str, set[str]] = {}
    for _, _, line, font, _ in prim.runs():
        found.setdefault(font, set()).update(fonts.missing_glyphs(font, line))
    return [(font, "".join(sorted(chars))) for font, chars in found.items() if chars]


def edge_distance(box: Box, w: float, h: float, round_: bool) -> float:
    """How far inside the trim a box lies (negative: it crosses the trim)."""
    x0, y0, x1, y1 = box
    if not round_:
        return min(x0, y0, w - x1, h - y1)
    r = w / 2
    far = max(math.hypot(cx - r, cy - r) for cx in (x0, x1) for cy in (y0, y1))
    return r - far


def _where(face: p.Face, index: int) -> str:
    line = face.origins[index].line if index < len(face.origins) else None
    file = _short(face.template)
    return location(file, line)


def _short(path: str) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path


Cell = Callable[[str, str], "str | None"]  # (a text drawn, the problem) -> its data's cell


def face_issues(face: p.Face, kind: str, round_: bool, cell: Cell | None = None
                ) -> Iterator[Issue]:
    """Every pre-flight problem of one rendered face; ``cell`` names the data value a text
    with a problem printed (a spreadsheet's cell), for a face drawn from an item."""
    piece = face.label or "?"
    covers = _Covers(face)
    for index, prim in enumerate(face.prims):
        info = face.origins[index].info if index < len(face.origins) else isinstance(
            prim, (p.Text, p.Icon))
        check = KIND_CHECKS.get(type(prim))  # what only some kinds are checked for
        if check is not None:
            yield from check(prim, piece, _where(face, index), cell)
        if not info:
            continue
        box = bounds(prim, fonts.book())
        if box is None:
            continue
        if kind in CUT_KINDS:
            distance = edge_distance(box, face.w, face.h, round_)
            if distance < SAFE_MM - 1e-6:
                yield Issue("safe zone", piece, _where(face, index),
                            f"{type(prim).__name__.lower()} {distance:.2f} mm from the trim "
                            f"(needs {SAFE_MM:g} mm)", distance)
        yield from covers.of(index, box, piece)


class _Covers:
    """The decoration of a face that hides what lies under it (found once per face), and
    which of it covers a piece of information drawn earlier. At most ``MAX_COVER_PAIRS``
    (information, cover) pairs are compared per face: a face of thousands of filled shapes
    is art, and its check stops there, the same on every machine."""

    def __init__(self, face: p.Face) -> None:
        self.face = face
        self.pairs = 0
        self.hiders: list[tuple[int, Box]] = []
        for index, prim in enumerate(face.prims):
            info = index < len(face.origins) and face.origins[index].info
            if not info and prim.hides():  # information over information is one drawing
                box = bounds(prim, fonts.book())
                if box is not None:
                    self.hiders.append((index, box))

    def of(self, index: int, box: Box, piece: str) -> Iterator[Issue]:
        """Information (primitive ``index``, its ink ``box``) hidden by what is drawn after
        it: the first cover found (one is enough to fix)."""
        for above, other in self.hiders:
            if above <= index:
                continue
            self.pairs += 1
            if self.pairs > MAX_COVER_PAIRS:
                return
            w = min(box[2], other[2]) - max(box[0], other[0])
            h = min(box[3], other[3]) - max(box[1], other[1])
            if w >= MIN_OVERLAP_MM and h >= MIN_OVERLAP_MM:
                what = type(self.face.prims[index]).__name__.lower()
                yield Issue("overlap", piece, _where(self.face, index),
                            f"{what} covered ({w:.1f} x {h:.1f} mm) by a "
                            f"{type(self.face.prims[above]).__name__.lower()} drawn above it "
                            f"at {_where(self.face, above)}", -w * h)
                return


def _text_issues(prim: p.Text, piece: str, where: str, cell: Cell | None) -> Iterator[Issue]:
    """A face text's size at print and the glyphs its fonts lack."""
    if prim.size < MIN_FACE_PT - 1e-6:
        yield Issue("text size", piece, where,
                    f"{prim.size:g} pt text (needs {MIN_FACE_PT:g} pt at print size)", prim.size)
    for font, missing in missing_by_font(prim):
        detail = f"font {fonts.describe(font)} has no glyph for {said(missing)}"
        printed = " ".join(run[2] for run in prim.runs())
        yield Issue("glyph", piece, where, detail,
                    cell=(cell(printed, detail) or "") if cell is not None else "")


def _image_issue(prim: p.Image, piece: str, where: str, cell: Cell | None = None
                 ) -> Iterator[Issue]:
    try:
        with PILImage.open(prim.path) as image:
            px_w, px_h = image.size
    except OSError:
        yield Issue("art", piece, where, f"cannot read image {prim.path}")
        return
    dpi = min(px_w / (prim.w / 25.4), px_h / (prim.h / 25.4))
    if dpi < MIN_DPI:
        yield Issue("art resolution", piece, where,
                    f"{dpi:.0f} dpi at print size (needs {MIN_DPI:g})", dpi)


# The checks only some kinds have, by primitive class. Every kind is checked for where its
# ink lies and what it hides by its own ``extent`` and ``hides`` (generator/core/
# primitives.py; tests/test_elements.py checks each class has both).
KindCheck = Callable[[Any, str, str, "Cell | None"], Iterator[Issue]]
KIND_CHECKS: dict[type, KindCheck] = {p.Text: _text_issues, p.Image: _image_issue}


def furniture_issues(prims: Iterable[p.Primitive], where: str) -> Iterator[Issue]:
    """Page furniture (footers, rulers, contents text): readable size and real glyphs."""
    for prim in prims:
        if not isinstance(prim, p.Text):
            continue
        if prim.size < MIN_FURNITURE_PT - 1e-6:
            yield Issue("text size", "page furniture", where,
                        f"{prim.size:g} pt text (needs {MIN_FURNITURE_PT:g} pt)", prim.size)
        for font, missing in missing_by_font(prim):
            yield Issue("glyph", "page furniture", where,
                        f"font {fonts.describe(font)} has no glyph for {said(missing)}")
