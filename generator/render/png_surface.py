"""What the PNG helpers (png_alpha, png_paths) need of the painter that calls them.

generator/render/png.py's PngPainter satisfies it; the helpers type against this Protocol
instead of importing png.py, so the imports go one way (png -> helpers -> this).
"""
from __future__ import annotations

from typing import Protocol

from PIL import Image

from generator.core import primitives as p
from generator.core.resources import Resources


class Surface(Protocol):
    """A supersampled image being painted, in face millimetres."""

    image: Image.Image
    scale: float  # pixels per millimetre on the (supersampled) image
    resources: Resources  # the loaded drawings and fonts: generator/core/resources.py

    def pt(self, x: float, y: float) -> tuple[float, float]:
        """A face point in millimetres -> pixels on the image."""
        ...

    def paint(self, prim: p.Primitive) -> None:
        """Draw one primitive onto the image."""
        ...
