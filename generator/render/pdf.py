"""ReportLab backend: vector PDF with embedded subset TTFs, every distinct face drawn once as a
form XObject (backs, repeated tokens and icons are reused, not redrawn), byte-identical output
(``invariant=1``), bookmarks per component and print-friendly viewer preferences."""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .. import fonts
from ..faces import primitives as p
from ..faces.icons import load_icon
from ..layout.page import Page, Placement
from .atomic import atomic_file


@cache
def colour(value: str) -> Color:
    return HexColor(value)


class PdfRenderer:
    def __init__(self, canvas: Canvas) -> None:
        self.c = canvas
        self.forms: dict[p.Face, str] = {}
        self.icon_forms: dict[tuple[str, str | None, str | None], str] = {}
        self.fonts_set: set[str] = set()

    # -- paint state -------------------------------------------------------------------------
    def paint(self, fill: str | None, stroke: str | None, width: float,
              dash: tuple[float, ...] | None = None) -> tuple[int, int]:
        c = self.c
        if fill:
            c.setFillColor(colour(fill))
        if stroke:
            c.setStrokeColor(colour(stroke))
            c.setLineWidth(width * mm)
            c.setDash([d * mm for d in dash] if dash else [])
        return (1 if fill else 0), (1 if stroke else 0)

    # -- primitives, in a frame whose origin is the top-left corner, y downwards ------------
    def draw(self, prim: p.Primitive) -> None:
        c = self.c
        if isinstance(prim, p.Rect):
            fill, stroke = self.paint(prim.fill, prim.stroke, prim.width, prim.dash)
            if not (fill or stroke):
                return
            y = -(prim.y + prim.h)
            if prim.radius > 0:
                c.roundRect(prim.x * mm, y * mm, prim.w * mm, prim.h * mm, prim.radius * mm,
                            stroke=stroke, fill=fill)
            else:
                c.rect(prim.x * mm, y * mm, prim.w * mm, prim.h * mm, stroke=stroke, fill=fill)
        elif isinstance(prim, p.Circle):
            fill, stroke = self.paint(prim.fill, prim.stroke, prim.width)
            if fill or stroke:
                c.circle(prim.cx * mm, -prim.cy * mm, prim.r * mm, stroke=stroke, fill=fill)
        elif isinstance(prim, p.Line):
            self.paint(None, prim.stroke, prim.width, prim.dash)
            c.line(prim.x1 * mm, -prim.y1 * mm, prim.x2 * mm, -prim.y2 * mm)
        elif isinstance(prim, p.Path):
            fill, stroke = self.paint(prim.fill, prim.stroke, prim.width)
            if fill or stroke:
                c.drawPath(self.path(prim.segments, mm, -mm), stroke=stroke, fill=fill,
                           fillMode=0)
        elif isinstance(prim, p.Text):
            self.text(prim)
        elif isinstance(prim, p.Icon):
            self.icon(prim)
        elif isinstance(prim, p.Image):
            if prim.clip is not None:  # a picture covering its box: only the box shows
                c.saveState()
                cx, cy, cw, ch = prim.clip
                box = c.beginPath()
                box.rect(cx * mm, -(cy + ch) * mm, cw * mm, ch * mm)
                c.clipPath(box, stroke=0, fill=0)
            c.drawImage(prim.path, prim.x * mm, -(prim.y + prim.h) * mm, prim.w * mm,
                        prim.h * mm, mask="auto")
            if prim.clip is not None:
                c.restoreState()

    def path(self, segments: Sequence[p.Segment], sx: float, sy: float):
        path = self.c.beginPath()
        for op, a in segments:
            if op == "M":
                path.moveTo(a[0] * sx, a[1] * sy)
            elif op == "L":
                path.lineTo(a[0] * sx, a[1] * sy)
            elif op == "C":
                path.curveTo(a[0] * sx, a[1] * sy, a[2] * sx, a[3] * sy, a[4] * sx, a[5] * sy)
            else:
                path.close()
        return path

    def text(self, prim: p.Text) -> None:
        c = self.c
        fonts.register(prim.font)
        if prim.rotate:
            c.saveState()
            c.translate(prim.ox * mm, -prim.oy * mm)
            c.rotate(prim.rotate)
            c.translate(-prim.ox * mm, prim.oy * mm)
        if prim.fill:
            c.setFillColor(colour(prim.fill))
        c.setFont(fonts.pdf_name(prim.font), prim.size)
        for x, baseline, line in prim.lines:
            c.drawString(x * mm, -baseline * mm, line)
        if prim.rotate:
            c.restoreState()

    def icon(self, prim: p.Icon) -> None:
        """Place the icon's form: fit the view box into the element box, keep proportions."""
        name = self.icon_forms[(prim.name, prim.fill, prim.accent)]
        icon = load_icon(prim.name)
        scale = min(prim.w / icon.view_w, prim.h / icon.view_h) * mm
        c = self.c
        c.saveState()
        c.translate((prim.x + prim.w / 2) * mm, -(prim.y + prim.h / 2) * mm)
        if prim.rotate:
            c.rotate(prim.rotate)
        c.scale(scale, scale)
        c.translate(-icon.view_w / 2, icon.view_h / 2)
        c.doForm(name)
        c.restoreState()

    # -- forms --------------------------------------------------------------------------------
    def ensure_icon_forms(self, prims: Sequence[p.Primitive]) -> None:
        for prim in prims:
            if not isinstance(prim, p.Icon):
                continue
            key = (prim.name, prim.fill, prim.accent)
            if key in self.icon_forms:
                continue
            icon = load_icon(prim.name)
            name = f"icon{len(self.icon_forms)}"
            self.icon_forms[key] = name
            c = self.c
            c.beginForm(name, lowerx=0, lowery=-icon.view_h, upperx=icon.view_w, uppery=0)
            for shape in icon.shapes:
                fill = {"main": prim.fill, "accent": prim.accent, "none": None}.get(
                    shape.fill, shape.fill)
                stroke = {"main": prim.fill, "accent": prim.accent, "none": None}.get(
                    shape.stroke, shape.stroke)
                f, s = self.paint(fill, stroke, shape.width / mm)
                if not (f or s):
                    continue
                if shape.circle:
                    cx, cy, r = shape.circle
                    c.circle(cx, -cy, r, stroke=s, fill=f)
                else:
                    c.drawPath(self.path(shape.segments, 1, -1), stroke=s, fill=f, fillMode=0)
            c.endForm()

    def face_form(self, face: p.Face) -> str:
        if face in self.forms:
            return self.forms[face]
        self.ensure_icon_forms(face.prims)
        name = f"face{len(self.forms)}"
        self.forms[face] = name
        b = face.bleed
        c = self.c
        c.beginForm(name, lowerx=-b * mm, lowery=-(face.h + b) * mm, upperx=(face.w + b) * mm,
                    uppery=b * mm)
        for prim in face.prims:
            self.draw(prim)
        c.endForm()
        return name

    # -- pages --------------------------------------------------------------------------------
    def place(self, page_h: float, pl: Placement) -> None:
        c = self.c
        name = self.face_form(pl.face)
        c.saveState()
        cx, cy, cw, ch = pl.clip
        clip = c.beginPath()
        if pl.round:
            clip.circle((cx + cw / 2) * mm, (page_h - cy - ch / 2) * mm, min(cw, ch) / 2 * mm)
        else:
            clip.rect(cx * mm, (page_h - cy - ch) * mm, cw * mm, ch * mm)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(pl.x * mm, (page_h - pl.y) * mm)
        if pl.rotate:
            c.translate(pl.face.w / 2 * mm, -pl.face.h / 2 * mm)
            c.rotate(pl.rotate)
            c.translate(-pl.face.w / 2 * mm, pl.face.h / 2 * mm)
        c.doForm(name)
        c.restoreState()

    def page(self, page: Page) -> None:
        c = self.c
        c.setPageSize((page.size.w * mm, page.size.h * mm))
        full = (0.0, 0.0, page.size.w, page.size.h)
        for box, setter in ((page.trim_box, c.setTrimBox), (page.bleed_box, c.setBleedBox)):
            x, y, w, h = box or full
            setter((x * mm, (page.size.h - y - h) * mm, (x + w) * mm, (page.size.h - y) * mm))
        for pl in page.placements:
            self.face_form(pl.face)  # define forms before the page's own drawing starts
        self.ensure_icon_forms(page.furniture)
        if page.bookmark:
            key = f"bm{c.getPageNumber()}"
            c.bookmarkPage(key)
            c.addOutlineEntry(page.bookmark, key, level=0)
        for pl in page.placements:
            self.place(page.size.h, pl)
        c.saveState()
        c.translate(0, page.size.h * mm)
        for prim in page.furniture:
            self.draw(prim)
        c.restoreState()
        c.showPage()


DUPLEX_PREFERENCE = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge",
                     "none": "Simplex"}


def write_pdf(pages: Sequence[Page], target: Path, title: str, subject: str = "",
              duplex: str = "none") -> None:
    """Render pages to ``target`` atomically; same input gives the same bytes.

    ``duplex`` is what the print dialog is asked for: "long" or "short" only for a kit whose
    sheets are duplex-safe (every front followed by its back), "none" (Simplex) otherwise."""
    fonts.register("sans")
    with atomic_file(target) as out:  # written whole, then renamed over the old file
        first = pages[0].size
        canvas = Canvas(out, pagesize=(first.w * mm, first.h * mm), invariant=1,
                        initialFontName=fonts.pdf_name("sans"), initialFontSize=8,
                        pageCompression=1)
        canvas.setTitle(title)
        canvas.setSubject(subject)
        canvas.setCreator("pnp generator")
        canvas.setAuthor("")
        canvas.setViewerPreference("PrintScaling", "None")
        canvas.setViewerPreference("Duplex", DUPLEX_PREFERENCE[duplex])
        canvas.showOutline()
        renderer = PdfRenderer(canvas)
        for page in pages:
            renderer.page(page)
        canvas.save()
