"""Pillow backend: one PNG per face, bleed included, DPI stored in the file.

Pillow does not anti-alias shapes, so a face is drawn at ``supersample`` times the resolution
and reduced. Text uses the same TTF files as the PDF and the line breaks computed by the face
stage; ``Layout.BASIC`` (no kerning) keeps Pillow's line widths close to ReportLab's.

Icons, SVG art and fonts come loaded in the ``Resources`` the caller gives
(generator/core/resources.py): nothing here looks a name up or loads a file.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageColor, ImageDraw

from generator.core import memo
from generator.core import primitives as p
from generator.core.atomic import atomic_file
from generator.core.elements import Handlers
from generator.core.primitives import PT_TO_MM
from generator.core.resources import Resources
from generator.core.vector import IconDef, flatten, paints

from . import png_alpha, png_icons
from . import png_glyphs as glyphs
from . import png_paths as paths
from . import png_shapes as shapes
from .png_picture import picture_tile

MM_PER_INCH = 25.4


@memo.memo(maxsize=256)
def _rgb(value: str) -> tuple[int, int, int]:
    r, g, b = ImageColor.getrgb(value)[:3]
    return (r, g, b)


class PngPainter:
    """Draws primitives given in face millimetres onto a supersampled image."""

    def __init__(self, face: p.Face, dpi: float, supersample: int, bleed: float | None = None,
                 *, resources: Resources, background: Image.Image | None = None) -> None:
        """``background`` (an image of the output size) is painted over instead of white:
        a whole page's furniture goes on top of its placed faces (generator/render/png_page.py).
        Enlarged by whole pixels, it reduces back to itself wherever nothing is painted."""
        self.face = face
        self.resources = resources
        self.scale = dpi / MM_PER_INCH * supersample  # pixels per mm on the big canvas
        self.dpi = dpi
        self.ss = supersample
        self.bleed = b = face.bleed if bleed is None else min(bleed, face.bleed)
        self.size = (round((face.w + 2 * b) * dpi / MM_PER_INCH),
                     round((face.h + 2 * b) * dpi / MM_PER_INCH))
        canvas = (self.size[0] * supersample, self.size[1] * supersample)
        if background is None:
            self.image = Image.new("RGB", canvas, "white")
        else:
            if background.size != self.size:
                raise ValueError(f"a background of {background.size} pixels for a canvas of "
                                 f"{self.size}")
            self.image = background.convert("RGB").resize(canvas, Image.Resampling.NEAREST)
        self.draw = ImageDraw.Draw(self.image)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        b = self.bleed
        return ((x + b) * self.scale, (y + b) * self.scale)

    def px(self, mm: float) -> int:
        return max(1, round(mm * self.scale))

    def stroke_px(self, mm: float) -> float:
        """A stroke's width on the canvas, at least one pixel of the output: PDF viewers
        (PDFium, Acrobat) draw a hairline a pixel wide, not as a faint grey."""
        return max(mm * self.scale, float(self.ss))

    def render(self) -> Image.Image:
        for prim in self.face.prims:
            self.paint(prim)
        return self.image.reduce(self.ss) if self.ss > 1 else self.image

    def paint(self, prim: p.Primitive) -> None:
        """Paint one primitive by its class's handler (``PAINT``)."""
        if png_alpha.translucent(prim):  # painted opaque, then mixed with what was beneath
            png_alpha.paint_translucent(self, prim)
            return
        PAINT.of(prim)(self, prim)  # its class's handler (none: UnknownPrimitive)

    def line(self, pts: list[tuple[float, float]], colour: str, width: float,
             dash: tuple[float, ...] | None) -> None:
        """A polyline in mm stroked as the PDF strokes it (butt caps, miter joins), its dash
        pattern running on across corners."""
        runs = shapes.dash_runs(pts, dash) if dash else [pts]
        for run in runs:
            shapes.stroke(self.draw, [self.pt(x, y) for x, y in run], _rgb(colour),
                          self.stroke_px(width))

    def dashed_rect(self, prim: p.Rect) -> None:
        assert prim.stroke is not None
        self.line(shapes.rect_outline(prim.x, prim.y, prim.x + prim.w, prim.y + prim.h,
                                      prim.radius), prim.stroke, prim.width, prim.dash)

    def text(self, prim: p.Text) -> None:
        # Glyph by glyph at ReportLab's advances (generator/render/png_glyphs.py): Pillow's
        # hinted advances drift from the PDF's along a line.
        # Each run in its own font and colour (one per line for plain text, spans for rich).
        find = self.resources.font
        runs = [(x, base, line, find(name), _rgb(ink) if (ink := fill or prim.fill)
                 else (0, 0, 0)) for x, base, line, name, fill in prim.runs()]
        if not prim.rotate:
            for x, baseline, line, font, fill in runs:
                glyphs.draw_line(self.draw, *self.pt(x, baseline), line, font,
                                 prim.size * font.scale, self.scale, fill)
            self.inline_icons(prim)
            return
        # Turned text: draw on a transparent square centred on the pivot, rotate, composite.
        ox, oy = self.pt(prim.ox, prim.oy)
        reach = max(math.hypot(a - ox, b - oy) for x, base, line, font, _ in runs
                    for a, b in (self.pt(x, base), self.pt(x + glyphs.line_width(
                        font, line, prim.size * font.scale), base)))
        half = math.ceil(reach + prim.size * PT_TO_MM * self.scale * 1.5)
        layer = Image.new("RGBA", (2 * half, 2 * half), (0, 0, 0, 0))
        ld = ImageDraw.Draw(layer)
        for x, baseline, line, font, fill in runs:
            lx, ly = self.pt(x, baseline)
            glyphs.draw_line(ld, lx - ox + half, ly - oy + half, line, font,
                             prim.size * font.scale, self.scale, fill)
        layer = layer.rotate(prim.rotate, resample=Image.Resampling.BICUBIC)
        self.image.paste(layer, (round(ox - half), round(oy - half)), layer)
        self.inline_icons(prim)

    def inline_icons(self, prim: p.Text) -> None:
        """Rich text's icons, already placed (and turned with the text) on the face."""
        for icon in prim.icons:
            self.icon(icon)

    def icon(self, prim: p.Icon) -> None:
        icon = self.resources.icon(prim.name)
        s = min(prim.w / icon.view_w, prim.h / icon.view_h)
        cx, cy = prim.x + prim.w / 2, prim.y + prim.h / 2
        cos, sin = _turn(prim.rotate)

        def to_mm(vx: float, vy: float) -> tuple[float, float]:
            dx, dy = (vx - icon.view_w / 2) * s, (vy - icon.view_h / 2) * s
            # Counter-clockwise on the page (y down), matching the PDF's rotate().
            return cx + dx * cos + dy * sin, cy - dx * sin + dy * cos

        if icon.fits_view_box and icon.outline[0] >= png_icons.TILE_FROM_POINTS \
                and self._icon_tile(prim, icon, s, cos, sin):
            return
        region = None if icon.fits_view_box else self._icon_region(icon, to_mm, s)
        before = self.image.crop(region) if region is not None else None
        for shape in _icon_shapes(icon, prim, s, to_mm):
            self.paint(shape)
        if before is not None and region is not None:
            # The PDF's icon form shows its view box only: what the shapes drew past it, in
            # the region they could reach, is put back as it was.
            left, top = region[0], region[1]
            corners = [(px - left, py - top) for px, py in (
                self.pt(*to_mm(vx, vy)) for vx, vy in
                ((0, 0), (icon.view_w, 0), (icon.view_w, icon.view_h), (0, icon.view_h)))]
            outside = Image.new("L", before.size, 255)
            ImageDraw.Draw(outside).polygon(corners, fill=0)
            self.image.paste(before, (left, top), outside)

    def _icon_tile(self, prim: p.Icon, icon: IconDef, s: float, cos: float, sin: float
                   ) -> bool:
        """Paste the icon from a tile drawn once per icon, size, turn and colours
        (generator/render/png_icons.py); False when it must be drawn here instead (a
        translucent shape mixes with what is beneath it, which a tile does not hold)."""
        centre_x, centre_y = self.pt(prim.x + prim.w / 2, prim.y + prim.h / 2)
        ix, iy = math.floor(centre_x), math.floor(centre_y)
        fx, fy = centre_x - ix, centre_y - iy  # where the centre falls in its pixel
        key = (icon.digest, prim.w, prim.h, prim.rotate, prim.fill, prim.accent, self.scale,
               self.ss, fx, fy)
        found = png_icons.TILES.get(key)
        if found is None:
            scale = self.scale

            def local(vx: float, vy: float) -> tuple[float, float]:  # mm about the centre
                dx, dy = (vx - icon.view_w / 2) * s, (vy - icon.view_h / 2) * s
                return dx * cos + dy * sin, -dx * sin + dy * cos

            shapes_ = _icon_shapes(icon, prim, s, local)
            if any(png_alpha.translucent(shape) for shape in shapes_):
                return False
            corners = [local(vx, vy) for vx, vy in ((0, 0), (icon.view_w, 0),
                                                    (icon.view_w, icon.view_h),
                                                    (0, icon.view_h))]
            # room for strokes past the outline (mitre spikes reach a few widths out)
            pad = max((shape.width for shape in icon.shapes), default=0.0) * 6 * s * scale \
                + 2 * self.ss + 2
            left = math.floor(min(x for x, _ in corners) * scale + fx - pad)
            top = math.floor(min(y for _, y in corners) * scale + fy - pad)
            right = math.ceil(max(x for x, _ in corners) * scale + fx + pad)
            bottom = math.ceil(max(y for _, y in corners) * scale + fy + pad)
            tile = _IconTile(self, (right - left, bottom - top), fx - left, fy - top)
            for shape in shapes_:
                tile.paint(shape)
            found = (tile.image, (left, top))
            png_icons.TILES.put(key, *found)
        image, (left, top) = found
        self.image.paste(image, (ix + left, iy + top), image)
        return True

    def _icon_region(self, icon: IconDef, to_mm: Callable[[float, float], tuple[float, float]],
                     s: float) -> tuple[int, int, int, int] | None:
        """The canvas pixels an icon's shapes may paint (with room for mitre spikes), or None
        when that is nowhere on the canvas."""
        if icon.extent is None:
            return None
        x0, y0, x1, y1 = icon.extent
        pixels = [self.pt(*to_mm(vx, vy)) for vx, vy in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        pad = max((shape.width for shape in icon.shapes), default=0.0) * 2 * s * self.scale \
            + 2 * self.ss
        w, h = self.image.size
        box = (max(0, math.floor(min(x for x, _ in pixels) - pad)),
               max(0, math.floor(min(y for _, y in pixels) - pad)),
               min(w, math.ceil(max(x for x, _ in pixels) + pad)),
               min(h, math.ceil(max(y for _, y in pixels) + pad)))
        return box if box[0] < box[2] and box[1] < box[3] else None


# -- one handler per primitive class (generator/core/elements.py: tests check none is missing)

PAINT: Handlers[Callable[[PngPainter, Any], None]] = Handlers("the PNG renderer")


@PAINT.on(p.Rect)
def _rect(painter: PngPainter, prim: p.Rect) -> None:
    # The PDF's geometry (generator/render/png_shapes.py): stroke centred on the edge.
    box = [*painter.pt(prim.x, prim.y), *painter.pt(prim.x + prim.w, prim.y + prim.h)]
    fill = _rgb(prim.fill) if prim.fill else None
    outline = _rgb(prim.stroke) if prim.stroke and not prim.dash else None
    shapes.rect(painter.draw, box, prim.radius * painter.scale, fill, outline,
                painter.stroke_px(prim.width))
    if prim.stroke and prim.dash:
        painter.dashed_rect(prim)


@PAINT.on(p.Circle)
def _circle(painter: PngPainter, prim: p.Circle) -> None:
    cx, cy = painter.pt(prim.cx, prim.cy)
    shapes.ellipse(painter.draw, cx, cy, prim.r * painter.scale,
                   _rgb(prim.fill) if prim.fill else None,
                   _rgb(prim.stroke) if prim.stroke else None,
                   painter.stroke_px(prim.width))


@PAINT.on(p.Ellipse)
def _ellipse(painter: PngPainter, prim: p.Ellipse) -> None:
    # As the circle (generator/render/png_shapes.py): the fill covers the radii, the stroke
    # is centred on the edge.
    cx, cy = painter.pt(prim.cx, prim.cy)
    rx, ry = prim.rx * painter.scale, prim.ry * painter.scale
    if prim.fill:
        painter.draw.ellipse(shapes.inclusive(cx - rx, cy - ry, cx + rx, cy + ry),
                             fill=_rgb(prim.fill))
    width = painter.stroke_px(prim.width)
    if prim.stroke and prim.width > 0:
        h = width / 2
        painter.draw.ellipse(shapes.inclusive(cx - rx - h, cy - ry - h, cx + rx + h, cy + ry + h),
                             outline=_rgb(prim.stroke), width=max(1, round(width)))


@PAINT.on(p.Line)
def _line(painter: PngPainter, prim: p.Line) -> None:
    if prim.stroke:
        painter.line([(prim.x1, prim.y1), (prim.x2, prim.y2)], prim.stroke, prim.width,
                     prim.dash)


@PAINT.on(p.Path)
def _path(painter: PngPainter, prim: p.Path) -> None:
    d = painter.draw
    polys = [[painter.pt(x, y) for x, y in poly] for poly in flatten(prim.segments)]
    ruled = bool(prim.fill) and paths.needs_rule(polys, prim.rule)
    if ruled and prim.fill:  # holes and overlaps by the fill rule: png_paths.py
        paths.fill_polys(painter.image, polys, _rgb(prim.fill), prim.rule)
    for pts in polys:
        if prim.fill and len(pts) > 2 and not ruled:
            shapes.polygon(d, pts, _rgb(prim.fill))
        if prim.stroke:
            shapes.stroke(d, pts, _rgb(prim.stroke), painter.stroke_px(prim.width))
            if (prim.cap, prim.join) != ("butt", "miter"):  # SVG shapes may say
                paths.stroke_ends(d, pts, _rgb(prim.stroke), painter.stroke_px(prim.width),
                                  prim.cap, prim.join)


PAINT.on(p.Text)(PngPainter.text)
PAINT.on(p.Icon)(PngPainter.icon)
PAINT.on(p.Vector)(paths.paint_vector)


@PAINT.on(p.Image)
def _image(painter: PngPainter, prim: p.Image) -> None:
    x, y = painter.pt(prim.x, prim.y)
    part = None
    if prim.clip is not None:  # keep only the part inside the box (same as the PDF)
        cx, cy = painter.pt(prim.clip[0], prim.clip[1])
        left, top = round(cx - x), round(cy - y)
        part = (left, top, left + painter.px(prim.clip[2]), top + painter.px(prim.clip[3]))
        x, y = cx, cy
    tile = picture_tile(prim.path, (painter.px(prim.w), painter.px(prim.h)), part)
    painter.image.paste(tile, (round(x), round(y)), tile)


def _icon_shapes(icon: IconDef, prim: p.Icon, s: float,
                 to_mm: Callable[[float, float], tuple[float, float]]) -> list[p.Primitive]:
    """An icon's shapes as primitives, placed by ``to_mm`` (view-box units -> millimetres)
    and painted in the icon's colours."""
    made: list[p.Primitive] = []
    for shape in icon.shapes:
        fill, stroke = paints(shape, prim.fill, prim.accent)
        width = shape.width * s
        if shape.circle:
            vx, vy, r = shape.circle
            mx, my = to_mm(vx, vy)
            made.append(p.Circle(mx, my, r * s, fill, stroke, width))
            continue
        segments = tuple((op, tuple(c for pair in zip(args[0::2], args[1::2], strict=True)
                                    for c in to_mm(*pair))) for op, args in shape.segments)
        made.append(p.Path(segments, fill, stroke, width, shape.rule, shape.cap, shape.join))
    return made


class _IconTile(PngPainter):
    """A transparent tile an icon is painted on by the painter's own code, in millimetres
    about the icon's centre, which falls at (ox, oy) pixels of the tile."""

    def __init__(self, outer: PngPainter, size: tuple[int, int], ox: float, oy: float
                 ) -> None:  # the face is not drawn: no canvas of its size
        self.face = outer.face
        self.resources = outer.resources
        self.scale = outer.scale
        self.dpi = outer.dpi
        self.ss = outer.ss
        self.bleed = outer.bleed
        self.size = size
        self.origin = (ox, oy)
        self.image = Image.new("RGBA", size, (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.scale + self.origin[0], y * self.scale + self.origin[1])


def _turn(degrees: int) -> tuple[float, float]:
    exact = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}
    if degrees in exact:
        return exact[degrees]
    rad = math.radians(degrees)
    return math.cos(rad), math.sin(rad)


MAX_CANVAS_PIXELS = 40_000_000  # a board at 3x supersampling would need gigabytes


def supersample_for(w: float, h: float, dpi: float, supersample: int) -> int:
    """The supersampling a canvas of w x h mm at ``dpi`` is drawn at: ``supersample``, less
    while the canvas would pass ``MAX_CANVAS_PIXELS`` (edges get coarser, memory stays
    bounded)."""
    area = w * h * (dpi / MM_PER_INCH) ** 2
    while supersample > 1 and area * supersample ** 2 > MAX_CANVAS_PIXELS:
        supersample -= 1
    return supersample


def render_png(face: p.Face, dpi: float = 300, supersample: int = 3,
               bleed: float | None = None, *, resources: Resources) -> Image.Image:
    """``bleed`` (mm, at most the face's own) sets how much art past the trim is kept;
    ``resources`` holds every icon, SVG picture and font the face draws with
    (generator/data/design/resources.py: ``load_resources(face.prims)``)."""
    b = face.bleed if bleed is None else min(bleed, face.bleed)
    supersample = supersample_for(face.w + 2 * b, face.h + 2 * b, dpi, supersample)
    return PngPainter(face, dpi, supersample, b, resources=resources).render()


def write_png(face: p.Face, target: Path, dpi: int = 300, supersample: int = 3,
              bleed: float | None = None, *, resources: Resources) -> Path:
    """Render and save one face; the DPI goes into the file so print shops read the size."""
    image = render_png(face, dpi, supersample, bleed, resources=resources)
    with atomic_file(target) as out:  # an unpredictable temporary name, renamed when complete
        image.save(out, format="PNG", dpi=(dpi, dpi), compress_level=3)
    return target
