"""What a layout produces: sheets of paper, each a front page and a back page of placed faces
plus page furniture, all in millimetres (page coordinates: from the top-left corner, y down).

A kit PDF is a sequence of sheets: page 2k-1 is the front of sheet k and page 2k its back, so
printing the whole file double-sided puts every back behind its front. The kit manifest and the
PDF are both written from these objects, so they cannot disagree.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.core.model import Size
from generator.core.primitives import Face, Primitive, turn_vector

Box = tuple[float, float, float, float]  # x, y, w, h (page coordinates, y downwards)

CONTENTS = ("contents", "rules", "aid", "pieces", "tile", "blank", "calibration")


@dataclass(frozen=True)
class Placement:
    """A face with its trim's top-left corner at (x, y) before turning, turned ``rotate``
    degrees about its centre, and clipped to ``clip`` (page coordinates: its trim plus the
    bleed it may show, or a board tile's window).

    ``component``, ``label`` and ``side`` name the piece for the manifest; ``trim`` overrides
    the piece's trim box on the page (a board tile is a window on a bigger face)."""

    face: Face
    x: float
    y: float
    clip: Box
    rotate: int = 0
    round: bool = False
    component: str = ""
    label: str = ""
    side: str = "front"
    trim_override: Box | None = None

    def to_page(self, fx: float, fy: float) -> tuple[float, float]:
        """Where the face point (fx, fy) lands on the page."""
        cx, cy = self.face.w / 2, self.face.h / 2
        dx, dy = turn_vector(fx - cx, fy - cy, self.rotate)
        return self.x + cx + dx, self.y + cy + dy

    def face_box_on_page(self, box: Box) -> Box:
        """A box in face coordinates as it lies on the page, after the turn."""
        x, y, w, h = box
        corners = [self.to_page(x + a, y + b) for a in (0, w) for b in (0, h)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    @property
    def trim(self) -> Box:
        if self.trim_override is not None:
            return self.trim_override
        return self.face_box_on_page((0.0, 0.0, self.face.w, self.face.h))


def origin_for(face: Face, region: Box, target: tuple[float, float], rotate: int
               ) -> tuple[float, float]:
    """The (x, y) of a placement that puts the face region ``region`` (face coordinates),
    turned ``rotate`` degrees, with its top-left corner on the page point ``target``."""
    probe = Placement(face, 0.0, 0.0, (0, 0, 0, 0), rotate)
    bx, by, _, _ = probe.face_box_on_page(region)
    return target[0] - bx, target[1] - by


@dataclass(frozen=True)
class Page:
    size: Size
    placements: tuple[Placement, ...]
    furniture: tuple[Primitive, ...]
    bookmark: str | None = None  # the page's own outline title (contents, calibration)
    side: str = "front"  # front | back (of its sheet)
    trim_box: Box | None = None  # for print shops: the finished piece (default: the page)
    bleed_box: Box | None = None
    content: str = "pieces"  # one of CONTENTS: what the manifest says the page holds

    @property
    def pieces(self) -> tuple[Placement, ...]:
        """The placements that are pieces of the game (everything with a component)."""
        return tuple(pl for pl in self.placements if pl.component)


@dataclass(frozen=True)
class OutlineEntry:
    """One PDF bookmark: its title, the page it opens (0-based) and its depth (0: a component,
    the contents, the rules; 1: one page of a component that spans several)."""

    title: str
    page: int
    level: int = 0


@dataclass(frozen=True)
class Sheet:
    """One sheet of paper: its front page and, in a duplex kit, its back page."""

    front: Page
    back: Page | None = None

    @property
    def pages(self) -> tuple[Page, ...]:
        return (self.front,) if self.back is None else (self.front, self.back)


@dataclass(frozen=True)
class Kit:
    """A whole printable document: its sheets in order, and how it is meant to be printed."""

    game: str
    paper_name: str
    paper: Size
    flip: str  # long | short | none (single-sided by design)
    sheets: tuple[Sheet, ...]
    outline: tuple[OutlineEntry, ...] = ()  # the PDF's bookmarks (generator/layout/outline.py)

    @property
    def pages(self) -> list[Page]:
        return [page for sheet in self.sheets for page in sheet.pages]

    @property
    def duplex_safe(self) -> bool:
        """Every sheet has its back page right after its front: printing the whole file
        double-sided with the kit's flip puts every back where it belongs."""
        return self.flip in ("long", "short") and all(s.back is not None for s in self.sheets)


def drawn(pages: Iterable[Page]) -> Iterator[Primitive]:
    """Every primitive the pages draw: each distinct face's once (a deck's shared back is
    placed many times) and the page furniture. What the renderers are given drawings and
    fonts for (generator/data/design/resources.py)."""
    seen: set[int] = set()
    held: list[Face] = []  # keeps each face alive while its id is in ``seen``
    for page in pages:
        for pl in page.placements:
            if id(pl.face) not in seen:
                seen.add(id(pl.face))
                held.append(pl.face)
                yield from pl.face.prims
        yield from page.furniture
