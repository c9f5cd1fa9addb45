"""How a picture fills its box: ``stretch`` (to the box, changing its shape), ``contain`` (as
large as fits, its shape kept, the rest of the box empty) or ``cover`` (the box filled, its
shape kept, the overflow cropped). ``focus`` (fractions of the picture, 0..1 each way) picks
which part stays in view when cropping, and where a contained picture sits in its box.

Pure geometry in millimetres, shared by the PDF and the PNG renderer, so both crop the same.
"""
from __future__ import annotations

FITS = ("contain", "cover", "stretch")
Box = tuple[float, float, float, float]  # x, y, w, h


def fit_box(box: Box, pixels: tuple[float, float], fit: str = "contain",
            focus: tuple[float, float] = (0.5, 0.5)) -> tuple[Box, Box | None]:
    """The rectangle the whole picture is drawn in, and the clip (the box) when it overflows.

    The picture's focus point lands on the box's same relative point as far as the picture
    allows: a focus of (0, 0) keeps the top-left corner in view."""
    x, y, w, h = box
    pw, ph = pixels
    if fit == "stretch" or pw <= 0 or ph <= 0 or w <= 0 or h <= 0:
        return box, None
    grow = max(w / pw, h / ph) if fit == "cover" else min(w / pw, h / ph)
    dw, dh = pw * grow, ph * grow
    fx, fy = (min(1.0, max(0.0, f)) for f in focus)
    drawn = (x + (w - dw) * fx, y + (h - dh) * fy, dw, dh)
    overflows = dw > w + 1e-9 or dh > h + 1e-9
    return drawn, (box if overflows else None)
