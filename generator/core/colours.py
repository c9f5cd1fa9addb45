"""Colours as designers write them: ``#rgb``, ``#rrggbb``, a CSS colour name (``teal``,
``rebeccapurple``), or translucent ``#rgba`` / ``#rrggbbaa``, each turned into the one
spelling the renderers and pre-flight work with: ``#rrggbb`` for an opaque colour (alpha
``ff`` is dropped, so ``#ff0000ff`` is plain ``#ff0000``), ``#rrggbbaa`` for a translucent
one (lower case).

The names are the CSS Color Module's, as Pillow (a dependency already) tabulates them, so the
list is neither typed here nor different between the PDF and the PNG renderer. A translucent
colour is drawn over what lies beneath it: the PDF sets the fill or stroke opacity (a
transparency group state), the PNG composites a layer (generator/render/png_alpha.py), so the
two agree; pre-flight judges a translucent colour as it looks over white paper.
"""
from __future__ import annotations

import re

from PIL import ImageColor

from generator.core.words import said

HEX = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
HEX_PATTERN = HEX.pattern  # for the JSON Schema of editors
NAMES: tuple[str, ...] = tuple(sorted(ImageColor.colormap))
EXPECTED = ("a colour: #rgb, #rrggbb or a CSS colour name such as teal (translucent: #rgba, "
            "#rrggbbaa)")


class NotAColour(ValueError):
    """The value is not a colour; the message says what is accepted."""


def parse_colour(value: object) -> str:
    """``value`` as ``#rrggbb`` (opaque) or ``#rrggbbaa`` (translucent), lower case; or
    NotAColour saying what was expected."""
    if not isinstance(value, str):
        raise NotAColour(f"expected {EXPECTED}, got {said(value, 60)}")
    text = value.strip()
    if HEX.match(text):
        digits = text[1:].lower()
        if len(digits) <= 4:
            digits = "".join(c * 2 for c in digits)
        if digits[6:] == "ff":
            digits = digits[:6]
        return "#" + digits
    name = text.lower()
    if name in ImageColor.colormap:
        r, g, b = ImageColor.getrgb(name)[:3]
        return f"#{r:02x}{g:02x}{b:02x}"
    raise NotAColour(f"expected {EXPECTED}, got {said(value, 60)}")


def is_translucent(colour: str | None) -> bool:
    """Whether a parsed colour lets what is beneath show through."""
    return colour is not None and len(colour) == 9


def alpha(colour: str) -> float:
    """The opacity of a parsed colour, 0 (invisible) to 1 (opaque)."""
    return int(colour[7:9], 16) / 255 if len(colour) == 9 else 1.0


def opaque(colour: str) -> str:
    """The ``#rrggbb`` of a parsed colour, its opacity dropped."""
    return colour[:7]


def rgba(colour: str) -> tuple[int, int, int, int]:
    """A parsed colour as 0-255 channels, alpha last."""
    a = int(colour[7:9], 16) if len(colour) == 9 else 255
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16), a


def over_white(colour: str) -> str:
    """How a parsed colour looks printed on white paper: ``#rrggbb``, the translucent colour
    mixed with white in proportion to its opacity (as both renderers draw it on a white
    page). Pre-flight judges translucent colours this way."""
    if len(colour) != 9:
        return colour
    r, g, b, a = rgba(colour)
    mix = [round(c * a / 255 + 255 * (1 - a / 255)) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)
