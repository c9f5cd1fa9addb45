"""Colours as designers write them: ``#rgb``, ``#rrggbb`` or a CSS colour name (``teal``,
``rebeccapurple``), each turned into the ``#rrggbb`` the renderers and pre-flight work with.

The names are the CSS Color Module's, as Pillow (a dependency already) tabulates them, so the
list is neither typed here nor different between the PDF and the PNG renderer. Transparency
(``#rrggbbaa``) is refused with its own message: neither renderer blends yet.
"""
from __future__ import annotations

import re

from PIL import ImageColor

HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
HEX_PATTERN = HEX.pattern  # for the JSON Schema of editors
NAMES: tuple[str, ...] = tuple(sorted(ImageColor.colormap))
EXPECTED = "a colour: #rgb, #rrggbb or a CSS colour name such as teal"


class NotAColour(ValueError):
    """The value is not a colour; the message says what is accepted."""


def parse_colour(value: object) -> str:
    """``value`` as ``#rrggbb`` (lower case), or NotAColour saying what was expected."""
    if not isinstance(value, str):
        raise NotAColour(f"expected {EXPECTED}, got {value!r:.60}")
    text = value.strip()
    if HEX.match(text):
        digits = text[1:].lower()
        return "#" + ("".join(c * 2 for c in digits) if len(digits) == 3 else digits)
    if re.match(r"^#[0-9a-fA-F]{8}$", text):
        raise NotAColour(f"transparent colours ({text}) are not supported yet; use #rrggbb")
    name = text.lower()
    if name in ImageColor.colormap:
        r, g, b = ImageColor.getrgb(name)[:3]
        return f"#{r:02x}{g:02x}{b:02x}"
    raise NotAColour(f"expected {EXPECTED}, got {value!r:.60}")
