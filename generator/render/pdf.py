"""ReportLab backend: vector PDF with embedded subset TTFs, every distinct face drawn once as a
form XObject (backs, repeated tokens and icons are reused, not redrawn), byte-identical output
(``invariant=1``), bookmarks per component and print-friendly viewer preferences.

Icons, SVG art and fonts come loaded in the ``Resources`` the caller gives
(generator/core/resources.py): nothing here looks a name up or loads a file."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.core import memo
from generator.core import primitives as p
from generator.core.atomic import atomic_file
from generator.core.elements import Handlers
from generator.core.resources import BASE_FONT, Resources

from ..layout.page import OutlineEntry, Page, Placement
from . import pdf_vector as vectors
from .pdf_alpha import Canvas as AlphaCanvas  # forms keep their opacity (#rrggbbaa) states
from .pdf_picture import pdf_picture


@memo.memo
def colour(value: str) -> Color:
    """A parsed colour (generator/core/colours.py). A translucent ``#rrggbbaa`` carries its alpha,
    which ReportLab's setFillColor / setStrokeColor turn into the fill or stroke opacity (an
    ExtGState, emitted only when the opacity changes: opaque kits keep their bytes)."""
    return HexColor(value, hasAlpha=len(value) == 9)


class PdfRenderer:
    def __init__(self, canvas: Canvas, resources: Resources) -> None:
        self.c = canvas
        self.resources = resources
        self.forms: dict[p.Face, str] = {}
        # The same Face object is placed many times (a deck's shared back, a card's copies):
        # looked up by identity first, since hashing a face hashes every primitive in it.
        # The face is kept with its name, so its id cannot be reused while it is here.
        self.forms_by_id: dict[int, tuple[p.Face, str]] = {}
        self.icon_forms: dict[tuple[str, str | None, str | None], str] = {}
        self.transparency_noted = False  # setFillAlpha has told the document (PDF 1.4)
        self.vector_forms: dict[str, str] = {}  # SVG art, by file: generator/render/pdf_vector.py
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

    def opaque(self) -> None:
        """Back to opaque: a translucent colour (#rrggbbaa) applies to its own primitive only;
        a picture, or a form (an icon) whose drawing starts from opaque, sets no opacity of
        its own. Writes nothing unless the opacity was changed.

        Once the document has been told (ReportLab then asks for PDF 1.4), a call while both
        opacities are already 1 does nothing at all, so it is skipped: this runs before every
        primitive."""
        c = self.c
        if self.transparency_noted:
            state = getattr(getattr(c, "_extgstate", None), "_d", None)
            if type(state) is dict and state.get("ca", 1) == 1 and state.get("CA", 1) == 1:
                return
        c.setFillAlpha(1)
        c.setStrokeAlpha(1)
        self.transparency_noted = True

    # -- primitives, in a frame whose origin is the top-left corner, y downwards ------------
    def draw(self, prim: p.Primitive) -> None:
        """Draw one primitive by its class's handler (``DRAW``; none: UnknownPrimitive)."""
        self.opaque()
        DRAW.of(prim)(self, prim)

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
        if prim.rotate:
            c.saveState()
            c.translate(prim.ox * mm, -prim.oy * mm)
            c.rotate(prim.rotate)
            c.translate(-prim.ox * mm, prim.oy * mm)
        if prim.fill:
            c.setFillColor(colour(prim.fill))
        c.setFont(self.resources.font(prim.font).pdf_name, prim.size)
        for x, baseline, line in prim.lines if not prim.spans else ():
            c.drawString(x * mm, -baseline * mm, line)
        for x, baseline, line, font, fill in prim.spans:  # rich text: each in its own style
            if ink := fill or prim.fill:  # a span without a colour has the text's, as in the PNG
                c.setFillColor(colour(ink))
            use = self.resources.font(font)
            c.setFont(use.pdf_name, prim.size * use.scale)
            c.drawString(x * mm, -baseline * mm, line)
        if prim.rotate:
            c.restoreState()
        for icon in prim.icons:  # inline icons, already placed (and turned) on the face
            self.icon(icon)

    def icon(self, prim: p.Icon) -> None:
        """Place the icon's form: fit the view box into the element box, keep proportions."""
        name = self.icon_forms[(prim.name, prim.fill, prim.accent)]
        icon = self.resources.icon(prim.name)
        view_w, view_h = icon.view_w, icon.view_h
        scale = min(prim.w / view_w, prim.h / view_h) * mm
        c = self.c
        self.opaque()  # an inline icon may follow translucent words
        c.saveState()
        c.translate((prim.x + prim.w / 2) * mm, -(prim.y + prim.h / 2) * mm)
        if prim.rotate:
            c.rotate(prim.rotate)
        c.scale(scale, scale)
        c.translate(-view_w / 2, view_h / 2)
        c.doForm(name)
        c.restoreState()

    # -- forms --------------------------------------------------------------------------------
    def ensure_icon_forms(self, prims: Sequence[p.Primitive]) -> None:
        inline = [icon for prim in prims if isinstance(prim, p.Text) for icon in prim.icons]
        for prim in [*prims, *inline]:
            if isinstance(prim, p.Vector):
                vectors.ensure_vector_form(self, prim)
            if not isinstance(prim, p.Icon):
                continue
            key = (prim.name, prim.fill, prim.accent)
            if key in self.icon_forms:
                continue
            icon = self.resources.icon(prim.name)
            name = f"icon{len(self.icon_forms)}"
            self.icon_forms[key] = name
            c = self.c
            c.beginForm(name, lowerx=0, lowery=-icon.view_h, upperx=icon.view_w, uppery=0)  # type: ignore[arg-type]  # stub: ints; takes floats
            vectors.draw_shapes(self, icon.shapes, prim.fill, prim.accent)
            c.endForm()

    def face_form(self, face: p.Face) -> str:
        seen = self.forms_by_id.get(id(face))
        if seen is not None and seen[0] is face:
            return seen[1]
        name = self.forms.get(face)  # an equal face drawn before: the same form
        if name is not None:
            self.forms_by_id[id(face)] = (face, name)
            return name
        self.ensure_icon_forms(face.prims)
        name = f"face{len(self.forms)}"
        self.forms[face] = name
        self.forms_by_id[id(face)] = (face, name)
        b = face.bleed
        c = self.c
        c.beginForm(name, lowerx=-b * mm, lowery=-(face.h + b) * mm, upperx=(face.w + b) * mm,  # type: ignore[arg-type]  # stub: ints; takes floats
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
        for pl in page.placements:
            self.place(page.size.h, pl)
        c.saveState()
        c.translate(0, page.size.h * mm)
        for prim in page.furniture:
            self.draw(prim)
        c.restoreState()
        c.showPage()


# -- one handler per primitive class (generator/core/elements.py: tests check none is missing)

DRAW: Handlers[Callable[[PdfRenderer, Any], None]] = Handlers("the PDF renderer")


@DRAW.on(p.Rect)
def _rect(r: PdfRenderer, prim: p.Rect) -> None:
    fill, stroke = r.paint(prim.fill, prim.stroke, prim.width, prim.dash)
    if not (fill or stroke):
        return
    y = -(prim.y + prim.h)
    if prim.radius > 0:
        r.c.roundRect(prim.x * mm, y * mm, prim.w * mm, prim.h * mm, prim.radius * mm,
                      stroke=stroke, fill=fill)
    else:
        r.c.rect(prim.x * mm, y * mm, prim.w * mm, prim.h * mm, stroke=stroke, fill=fill)


@DRAW.on(p.Circle)
def _circle(r: PdfRenderer, prim: p.Circle) -> None:
    fill, stroke = r.paint(prim.fill, prim.stroke, prim.width)
    if fill or stroke:
        r.c.circle(prim.cx * mm, -prim.cy * mm, prim.r * mm, stroke=stroke, fill=fill)


@DRAW.on(p.Ellipse)
def _ellipse(r: PdfRenderer, prim: p.Ellipse) -> None:
    fill, stroke = r.paint(prim.fill, prim.stroke, prim.width)
    if fill or stroke:
        r.c.ellipse((prim.cx - prim.rx) * mm, -(prim.cy - prim.ry) * mm,
                    (prim.cx + prim.rx) * mm, -(prim.cy + prim.ry) * mm, stroke=stroke, fill=fill)


@DRAW.on(p.Line)
def _line(r: PdfRenderer, prim: p.Line) -> None:
    r.paint(None, prim.stroke, prim.width, prim.dash)
    r.c.line(prim.x1 * mm, -prim.y1 * mm, prim.x2 * mm, -prim.y2 * mm)


@DRAW.on(p.Path)
def _path(r: PdfRenderer, prim: p.Path) -> None:
    fill, stroke = r.paint(prim.fill, prim.stroke, prim.width)
    if fill or stroke:
        r.c.drawPath(r.path(prim.segments, mm, -mm), stroke=stroke, fill=fill,
                     fillMode=vectors.FILL_MODE[prim.rule])


DRAW.on(p.Text)(PdfRenderer.text)
DRAW.on(p.Icon)(PdfRenderer.icon)
DRAW.on(p.Vector)(vectors.draw_vector)


@DRAW.on(p.Image)
def _image(r: PdfRenderer, prim: p.Image) -> None:
    c = r.c
    if prim.clip is not None:  # a picture covering its box: only the box shows
        c.saveState()
        cx, cy, cw, ch = prim.clip
        box = c.beginPath()
        box.rect(cx * mm, -(cy + ch) * mm, cw * mm, ch * mm)
        c.clipPath(box, stroke=0, fill=0)
    c.drawImage(pdf_picture(prim.path), prim.x * mm, -(prim.y + prim.h) * mm,
                prim.w * mm, prim.h * mm, mask="auto")
    if prim.clip is not None:
        c.restoreState()


DUPLEX_PREFERENCE = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge",
                     "none": "Simplex"}


def write_pdf(pages: Sequence[Page], target: Path, title: str, subject: str = "",
              duplex: str = "none", lang: str | None = None, *, resources: Resources,
              outline: Sequence[OutlineEntry] = ()) -> None:
    """Render pages to ``target`` atomically; same input gives the same bytes.

    ``resources`` holds every icon, SVG picture and font the pages draw with, and the base
    font (generator/data/design/resources.py: ``load_resources(drawn(pages))``).

    ``lang`` (the kit language, e.g. "fr") goes into the document catalogue (/Lang), so
    screen readers and hyphenating viewers read the kit in its own language.

    ``duplex`` is what the print dialog is asked for: "long" or "short" only for a kit whose
    sheets are duplex-safe (every front followed by its back), "none" (Simplex) otherwise."""
    with atomic_file(target) as out:  # written whole, then renamed over the old file
        first = pages[0].size
        canvas = AlphaCanvas(out, pagesize=(first.w * mm, first.h * mm), invariant=1,
                        # a font name (ReportLab's stub says float)
                        initialFontName=resources.font(BASE_FONT).pdf_name,  # type: ignore[arg-type]
                        initialFontSize=8, pageCompression=1, lang=lang)
        canvas.setTitle(title)
        canvas.setSubject(subject)
        canvas.setCreator("pnp generator")
        canvas.setAuthor("")
        canvas.setViewerPreference("PrintScaling", "None")
        canvas.setViewerPreference("Duplex", DUPLEX_PREFERENCE[duplex])
        canvas.showOutline()
        renderer = PdfRenderer(canvas, resources)
        for index, page in enumerate(pages):
            # ReportLab names an outline entry by its destination's key, so each entry has
            # its own, marked on its page; the entries are added in outline order at the end.
            for key, entry in enumerate(outline):
                if entry.page == index:
                    canvas.bookmarkPage(f"o{key}")
            renderer.page(page)
        for key, entry in enumerate(outline):
            canvas.addOutlineEntry(entry.title, f"o{key}", level=entry.level,
                                   closed=entry.level == 0 or None)
        canvas.save()
