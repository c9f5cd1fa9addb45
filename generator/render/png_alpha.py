"""Translucent colours (``#rrggbbaa``) in the PNG renderer, drawn as the PDF draws them.

The PDF sets a fill or stroke opacity and the viewer mixes each painted pixel with what lies
beneath: ``out = under * (1 - a) + colour * a``, per sRGB channel (DeviceRGB, no gamma
handling), the fill first and then the stroke, each once for the whole shape (overlapping
parts of one path are not painted twice). Here each translucent part of a primitive (its fill,
its stroke, a text's glyphs) is painted opaque onto the canvas with the renderer's own code,
and the region it touched is then mixed with the same region as it was before, with
``Image.blend`` at the colour's alpha. Pixels the part did not touch are equal in both images,
so they stay as they were; anti-aliased glyph edges blend by coverage times alpha, as the PDF
viewer's do. No second drawing code, so opaque and translucent shapes keep one geometry.

Icons are not handled here: their shapes come back through ``PngPainter.paint`` one by one,
each with its own (possibly translucent) colours, as the PDF's icon form paints them.
"""
from __future__ import annotations

import math
from dataclasses import fields, replace

from PIL import Image

from generator.core import primitives as p
from generator.core.colours import alpha, is_translucent, opaque
from generator.render.png_surface import Surface

Box = tuple[int, int, int, int]


def translucent(prim: p.Primitive) -> bool:
    """Whether a primitive has a translucent fill or stroke of its own."""
    if isinstance(prim, p.Icon):
        return False  # its shapes are painted one by one, each checked on its own
    if isinstance(prim, p.Text):
        return any(is_translucent(colour) for colour in _text_colours(prim))
    return is_translucent(getattr(prim, "fill", None)) or \
        is_translucent(getattr(prim, "stroke", None))


def _text_colours(prim: p.Text) -> list[str]:
    """The colours a text's runs are drawn in, in order of first use (its fill by default)."""
    return list(dict.fromkeys(fill or prim.fill or "#000000" for *_, fill in prim.runs()))


def _text_parts(prim: p.Text) -> list[tuple[p.Primitive, float]]:
    """A text as one opaque part per colour of its runs (rich text may mix colours), then
    its inline icons as they are (their shapes are checked one by one when painted)."""
    found: list[tuple[p.Primitive, float]] = []
    for colour in _text_colours(prim):
        if prim.spans:
            spans = tuple((x, base, text, font, opaque(colour))
                          for x, base, text, font, fill in prim.spans
                          if (fill or prim.fill or "#000000") == colour)
            part = replace(prim, spans=spans, icons=())
        else:
            part = replace(prim, fill=opaque(colour), icons=())
        found.append((part, alpha(colour)))
    return found + [(icon, 1.0) for icon in prim.icons]


def parts(prim: p.Primitive) -> list[tuple[p.Primitive, float]]:
    """The primitive as opaque parts in painting order, each with the alpha to mix it at:
    the fill alone, then the stroke alone (only what the primitive paints)."""
    if isinstance(prim, p.Text):
        return _text_parts(prim)
    names = {f.name for f in fields(prim)}
    fill = getattr(prim, "fill", None)
    stroke = getattr(prim, "stroke", None)
    found: list[tuple[p.Primitive, float]] = []
    if fill:
        change = {"fill": opaque(fill), **({"stroke": None} if "stroke" in names else {})}
        found.append((replace(prim, **change), alpha(fill)))  # type: ignore[arg-type]  # fields checked above
    if stroke:
        change = {"stroke": opaque(stroke), **({"fill": None} if "fill" in names else {})}
        found.append((replace(prim, **change), alpha(stroke)))  # type: ignore[arg-type]  # fields checked above
    return found


def paint_translucent(painter: Surface, prim: p.Primitive) -> None:
    """Paint ``prim`` whose fill or stroke is translucent (``translucent(prim)``)."""
    box = region(painter, prim)
    for part, a in parts(prim):
        if a >= 1.0:
            painter.paint(part)
            continue
        if a <= 0.0:
            continue
        before = painter.image.crop(box)
        painter.paint(part)
        painter.image.paste(Image.blend(before, painter.image.crop(box), a), box[:2])


def region(painter: Surface, prim: p.Primitive) -> Box:
    """The canvas pixels a primitive can touch: its ``extent``, generously padded (a shape's
    stroke, joins and anti-aliasing); the whole canvas for text, whose glyphs may overhang
    their box. Only the pixels painted change when mixed, so a larger box draws the same."""
    width, height = painter.image.size
    whole = (0, 0, width, height)
    if isinstance(prim, p.Text):
        return whole
    extent = prim.extent()  # every other kind says where its ink lies
    if extent is None:
        return whole
    coords = [extent[:2], extent[2:]]
    pad = (getattr(prim, "width", 0.0) or 0.0) * painter.scale * 5 + 4  # miter joins reach far
    xs, ys = zip(*(painter.pt(x, y) for x, y in coords), strict=True)
    x0 = max(0, math.floor(min(xs) - pad))
    y0 = max(0, math.floor(min(ys) - pad))
    x1 = min(width, math.ceil(max(xs) + pad))
    y1 = min(height, math.ceil(max(ys) + pad))
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else whole
