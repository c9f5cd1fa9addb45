"""A whole laid-out page as a picture, painted by our own Pillow renderer (generator/render/png.py).

Why: the studio (``pnp serve``, issue 28) shows every page of a kit as an image, and users
may not have poppler's ``pdftoppm``; this draws what ``PdfRenderer.page`` (generator/render/
pdf.py) puts on the PDF page, the same way: each placement's face with its bleed, turned
``rotate`` degrees counter-clockwise about the face's centre (``Placement.to_page``), its trim's
top-left corner at (x, y) before the turn, shown only inside its clip (the circle inscribed in
the clip for a round piece; a board tile is a clip window on the board's one big face), in
order, then the page furniture on top. Each primitive has one drawing: faces come whole from
``render_png`` and the furniture is painted by ``PngPainter`` over the placed faces, as a
page-sized face of no bleed.

A face is drawn once per size and reused wherever it is placed: a ``FaceImages`` held by the
caller (the studio keeps one across rebuilds) remembers each distinct face's picture, so a
sheet of 18 copies of one back draws that back once, and a rebuild that makes an equal face
draws nothing new.
"""
from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Hashable

from PIL import Image, ImageDraw

from generator.core import context
from generator.core import primitives as p
from generator.core.primitives import turn_vector
from generator.core.resources import Resources, needs

from ..layout.page import Page, Placement
from .png import MM_PER_INCH, PngPainter, render_png, supersample_for
from .png_shapes import inclusive

SCREEN_SUPERSAMPLE = 2  # a screen shows a page smaller than print: 2x is smooth enough, and
# a quarter of the 3x canvas (render_png's print default) to paint
MAX_SUPERSAMPLE = 4
MIN_DPI = 5.0  # a thumbnail; below this a card is a few pixels
MAX_DPI = 300.0  # print resolution: a preview past it is wasted memory (the PDF is for print)
MAX_PAGE_PIXELS = 25_000_000  # an A3 page at 300 dpi is 17.4 million (52 MB in RGB)
DEFAULT_FACE_PIXELS = 40_000_000  # what a FaceImages keeps by default: 120 MB of RGB
CLIP_OVERSAMPLE = 4  # a round clip's edge is anti-aliased over this many sub-pixels each way

QUARTER_TURNS = {0: None, 90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180,
                 270: Image.Transpose.ROTATE_270}  # Pillow turns counter-clockwise, as the PDF


class FaceImages:
    """Each distinct face's picture, per resolution, kept while it fits ``max_pixels``.

    Keyed by the Face value (a frozen dataclass: equal faces are one drawing, as the PDF's
    forms are), the dpi and supersampling, and what the face draws with that is not in its
    value: the icon drawings, SVG art and fonts of ``resources`` it names, and the content
    of its raster pictures. So an icon or picture edited between two builds draws the face
    again, while a rebuild that changed nothing else reuses every picture.

    Least recently used pictures go first once the pixels held pass ``max_pixels``; a picture
    larger than that on its own is drawn and handed out but not kept. Safe to share between
    threads (two browser tabs): the table is locked, drawing is not (two threads asking for one
    new face at once may both draw it). The pictures handed out are shared: read them, never
    draw on them.
    """

    def __init__(self, max_pixels: int = DEFAULT_FACE_PIXELS) -> None:
        if max_pixels < 0:
            raise ValueError(f"max_pixels must be 0 or more, not {max_pixels}")
        self.max_pixels = max_pixels
        self.renders = 0  # faces drawn (a work meter for tests: never a time)
        self.hits = 0  # pictures handed out again without drawing
        self._images: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._pixels = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._images)

    @property
    def pixels(self) -> int:
        """The pixels of the pictures held now (at most ``max_pixels``)."""
        return self._pixels

    def image(self, face: p.Face, dpi: float, supersample: int, *,
              resources: Resources) -> Image.Image:
        """The face drawn with its whole bleed at ``dpi``: from the table, or drawn now."""
        key = (face, float(dpi), supersample, _drawn_with(face, resources))
        with self._lock:
            found = self._images.get(key)
            if found is not None:
                self._images.move_to_end(key)
                self.hits += 1
                return found
        drawn = render_png(face, dpi, supersample, resources=resources)
        size = drawn.width * drawn.height
        with self._lock:
            self.renders += 1
            if size <= self.max_pixels and key not in self._images:
                self._images[key] = drawn
                self._pixels += size
                while self._pixels > self.max_pixels:
                    _, old = self._images.popitem(last=False)
                    self._pixels -= old.width * old.height
        return drawn

    def clear(self) -> None:
        """Forget every picture (the counters stay)."""
        with self._lock:
            self._images.clear()
            self._pixels = 0


def _drawn_with(face: p.Face, resources: Resources) -> Hashable:
    """What a face's picture depends on beyond the face's value: the loaded drawings and
    fonts it names (``FontUse`` carries its file's content version) and its raster pictures'
    contents (``context.version``, read once per build)."""
    wanted = needs(face.prims)
    return (tuple(resources.icon(name) for name in sorted(wanted.icons)),
            tuple(resources.drawing(name) for name in sorted(wanted.art)),
            tuple(resources.font(name) for name in sorted(wanted.fonts)),
            tuple(sorted({(prim.path, context.version(prim.path)) for prim in face.prims
                          if isinstance(prim, p.Image)}, key=str)))


def page_pixels(page: Page, dpi: float) -> tuple[int, int]:
    """The picture's size in pixels: the page's millimetres at ``dpi``, rounded as
    ``PngPainter`` rounds a face."""
    return (round(page.size.w * dpi / MM_PER_INCH), round(page.size.h * dpi / MM_PER_INCH))


def check_resolution(page: Page, dpi: float, supersample: int) -> None:
    """Refuse a resolution that makes no picture or too big a one, in one clear line: the
    dpi may come from a request (the studio's zoom), and memory must stay bounded."""
    if not math.isfinite(dpi) or not MIN_DPI <= dpi <= MAX_DPI:
        raise ValueError(f"a page is drawn at {MIN_DPI:g} to {MAX_DPI:g} dpi, not {dpi}")
    if isinstance(supersample, bool) or not isinstance(supersample, int) \
            or not 1 <= supersample <= MAX_SUPERSAMPLE:
        raise ValueError(f"supersampling is 1 to {MAX_SUPERSAMPLE} times, not {supersample}")
    w, h = page_pixels(page, dpi)
    if w * h > MAX_PAGE_PIXELS:
        raise ValueError(f"a page of {page.size.w:g} x {page.size.h:g} mm at {dpi:g} dpi is "
                         f"{w} x {h} pixels, more than the {MAX_PAGE_PIXELS:,} a page may have;"
                         f" draw it at a lower dpi")


def render_page(page: Page, dpi: float, *, resources: Resources,
                faces: FaceImages | None = None,
                supersample: int = SCREEN_SUPERSAMPLE) -> Image.Image:
    """The whole page as an RGB picture ``page_pixels(page, dpi)`` in size.

    ``resources`` holds every icon, SVG picture and font the page draws with
    (generator/data/design/resources.py: ``load_resources(drawn(pages))``, as for the PDF);
    ``faces`` the pictures of faces already drawn (a new table when None: each distinct face
    on this page is still drawn once). ``supersample``: how finely edges are drawn before
    reduction (``SCREEN_SUPERSAMPLE`` for a screen; the print exports use 3). Raises
    ValueError for a dpi outside ``MIN_DPI``..``MAX_DPI`` or a page past ``MAX_PAGE_PIXELS``,
    and for a placement turned other than a quarter turn (layout makes none)."""
    check_resolution(page, dpi, supersample)
    table = faces if faces is not None else FaceImages()
    out = Image.new("RGB", page_pixels(page, dpi), "white")
    on_page: dict[int, Image.Image] = {}  # by identity: a deck's back is one object, placed 9x
    for pl in page.placements:
        image = on_page.get(id(pl.face))
        if image is None:
            image = on_page[id(pl.face)] = table.image(pl.face, dpi, supersample,
                                                       resources=resources)
        _place(out, pl, image, dpi / MM_PER_INCH)
    if not page.furniture:
        return out
    sheet = p.Face(page.size.w, page.size.h, 0.0, page.furniture)
    fine = supersample_for(page.size.w, page.size.h, dpi, supersample)
    return PngPainter(sheet, dpi, fine, 0.0, resources=resources, background=out).render()


def _place(out: Image.Image, pl: Placement, image: Image.Image, scale: float) -> None:
    """Paste a face's picture (its bleed included) where ``PdfRenderer.place`` draws its form,
    through its clip. ``scale``: pixels per millimetre."""
    if pl.rotate % 360 not in QUARTER_TURNS:
        raise ValueError(f"a placement of {pl.component or 'a page face'} is turned "
                         f"{pl.rotate} degrees; a page is drawn with quarter turns only")
    turn = QUARTER_TURNS[pl.rotate % 360]
    turned = image if turn is None else image.transpose(turn)
    face, b = pl.face, pl.face.bleed
    # The face's centre, from its picture's centre (the picture's size is rounded to whole
    # pixels), turned with it; it lands on the page where to_page puts the face's centre.
    du = (face.w / 2 + b) * scale - image.width / 2
    dv = (face.h / 2 + b) * scale - image.height / 2
    tu, tv = turn_vector(du, dv, pl.rotate)
    cx, cy = (pl.x + face.w / 2) * scale, (pl.y + face.h / 2) * scale
    left = round(cx - tu - turned.width / 2)
    top = round(cy - tv - turned.height / 2)
    x, y, w, h = pl.clip
    x0, y0, x1, y1 = x * scale, y * scale, (x + w) * scale, (y + h) * scale
    # A clip's edge takes whole pixels (those whose centres it holds, as Pillow's fills here,
    # png_shapes.inclusive): neighbouring pieces and a board's tiles meet without a seam,
    # which two half-covered edges blended one over the other would leave.
    box = (max(round(x0), left, 0), max(round(y0), top, 0),
           min(round(x1), left + turned.width, out.width),
           min(round(y1), top + turned.height, out.height))
    if box[0] >= box[2] or box[1] >= box[3]:
        return  # nothing of the face shows through its clip on this page
    shown = turned.crop((box[0] - left, box[1] - top, box[2] - left, box[3] - top))
    if not pl.round:
        out.paste(shown, box[:2])
        return
    # A round piece: the circle inscribed in the clip, as the PDF's clip.circle, its edge
    # anti-aliased (round pieces stand apart: nothing meets it).
    k = CLIP_OVERSAMPLE
    mask = Image.new("L", ((box[2] - box[0]) * k, (box[3] - box[1]) * k), 0)
    r = min(x1 - x0, y1 - y0) / 2 * k
    mx, my = ((x0 + x1) / 2 - box[0]) * k, ((y0 + y1) / 2 - box[1]) * k
    ImageDraw.Draw(mask).ellipse(inclusive(mx - r, my - r, mx + r, my + r), fill=255)
    out.paste(shown, box[:2], mask.reduce(k))
