"""What a layout produces: pages of placed faces plus page furniture, all in millimetres."""
from __future__ import annotations

from dataclasses import dataclass

from ..faces.primitives import Face, Primitive
from ..model import Size

Box = tuple[float, float, float, float]  # x, y, w, h (page coordinates, y downwards)


@dataclass(frozen=True)
class Placement:
    """A face with its trim's top-left corner at (x, y), turned ``rotate`` degrees about its
    centre, and clipped to ``clip`` (its trim or bleed box, or a tile window)."""

    face: Face
    x: float
    y: float
    clip: Box
    rotate: int = 0
    round: bool = False

    @property
    def trim(self) -> Box:
        return (self.x, self.y, self.face.w, self.face.h)


@dataclass(frozen=True)
class Page:
    size: Size
    placements: tuple[Placement, ...]
    furniture: tuple[Primitive, ...]
    bookmark: str | None = None
    side: str = "front"  # front | back | single
    trim_box: Box | None = None  # for print shops: the finished piece (default: the page)
    bleed_box: Box | None = None
