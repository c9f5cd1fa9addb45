"""A PDF read back a page at a time, one kind of extraction per function (``text``,
``furniture_text``, ``words``, ``chars``, ``crop_texts``, ``shapes``, ``furniture_shapes``:
pdfplumber; ``pypdf_text``, ``clips``: pypdf), each giving JSON-able values, so conftest's fixtures
(``page_texts``, ``furniture_texts``, ``page_words``, ``page_chars``, ``crop_texts``,
``page_shapes``, ``pypdf_text``) can run each once per test run for each distinct file
content, page and arguments, and share it between the run's processes.

Reading is the slow part of a test that reads a kit (pdfminer interprets every operator of
every form, at each use). What a kind does not need is left uninterpreted, and nothing else
changes: pdfplumber's own text and word extraction runs on the characters pdfminer makes.

- Text kinds (text, words, chars, crop_texts): no path is painted (a path makes no character), and a
  form XObject that shows no text is not run. A form shows text only between ``BT`` and
  ``ET`` or in a form it runs itself, so a form whose content and sub-forms hold no ``BT``
  makes no character.
- Furniture text: as text, and no form is run at all (a kit draws each piece's face as a form,
  its furniture on the page).
- Shapes (rects, lines): no text is shown (a character makes no path); every form is run, or
  (furniture shapes) none.

``tests/test_pdfread.py`` checks both against pdfplumber's full interpretation, and
``pypdf_text`` against pypdf's own.
"""
from __future__ import annotations

import copy
import io
import json
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pdfplumber
import pypdf
from pdfminer.pdfinterp import PDFContentParser, PDFPageInterpreter
from pdfminer.pdftypes import dict_value, stream_value
from pdfminer.psparser import LIT, PSEOF, PSKeyword, keyword_name, literal_name
from pdfplumber.page import Page, PDFPageAggregatorWithMarkedContent

FORM = LIT("Form")


def _file(pdf: Path | bytes) -> Path | io.BytesIO:
    """A path, or the file's bytes (what was read once, as the file may be replaced)."""
    return io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf


def jsonable(value: Any) -> Any:
    """What the value reads back as from JSON (tuples as lists, pdfminer objects as text)."""
    return json.loads(json.dumps(value, default=str))


class _TextDevice(PDFPageAggregatorWithMarkedContent):
    """pdfplumber's device, painting no paths; it remembers which forms show text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shows_text: dict[int, bool] = {}

    def paint_path(self, *args: Any, **kwargs: Any) -> None:
        pass


class _ShapeDevice(PDFPageAggregatorWithMarkedContent):
    """pdfplumber's device, showing no text."""

    def render_string(self, *args: Any, **kwargs: Any) -> None:
        pass


# Content streams parsed before, by their decoded bytes: a kit places each face's form many
# times, a page is read for its text and again for its shapes, and an A4 and a Letter kit
# share most forms; pdfminer parses a stream's operators again at each use (most of the cost
# of reading a page). The parse is a function of the bytes alone; at most this many bytes of
# streams are kept, the least recently used forgotten first.
_PARSED: OrderedDict[tuple[bytes, ...], list[Any]] = OrderedDict()
_PARSED_BYTES = [0]
PARSED_BUDGET = 4 * 2**20  # ~12 times as much memory once parsed: ~50 MB


def _parsed(streams: list[Any]) -> list[Any] | None:
    """The operands and operators of the streams (read as one, as pdfminer reads them), each
    operator as its ``do_`` method's name; None where the parse fails (pdfminer's own loop
    then runs, failing as it fails)."""
    key = tuple(s.get_data() for s in streams)
    if key in _PARSED:
        _PARSED.move_to_end(key)
        return _PARSED[key]
    found: list[Any] = []
    try:
        parser = PDFContentParser(streams)
        while True:
            try:
                _, obj = parser.nextobject()
            except PSEOF:
                break
            if isinstance(obj, PSKeyword):
                name = keyword_name(obj)
                obj = _Op("do_" + name.replace("*", "_a").replace('"', "_w").replace("'", "_q"))
            found.append(obj)
    except PSEOF:  # no stream at all: an empty page
        pass
    except Exception:  # pdfminer's own loop raises it again, at its place
        return None
    _PARSED[key] = found
    _PARSED_BYTES[0] += sum(map(len, key))
    while _PARSED_BYTES[0] > PARSED_BUDGET and len(_PARSED) > 1:
        _PARSED_BYTES[0] -= sum(map(len, _PARSED.popitem(last=False)[0]))
    return found


class _Op(str):
    """An operator in a parsed stream: its ``do_`` method's name (operands are never str:
    pdfminer gives strings as bytes, names as literals)."""


class _Replaying(PDFPageInterpreter):
    """pdfminer's interpreter, running each content stream's operators from one parse of its
    bytes (``_parsed``) instead of parsing them again at each use. What runs is pdfminer's
    loop (``execute``) step for step: the same circular-reference guard, the same operators
    with the same operands, in order."""

    def execute(self, streams: Sequence[object]) -> None:
        found = [stream_value(s) for s in streams]
        if any(s.objid is None or s.objid in self.parent_stream_ids for s in found):
            return super().execute(streams)  # pdfminer warns and skips these: its own way
        ops = _parsed(found)
        if ops is None:
            return super().execute(streams)
        self.stream_ids.clear()
        self.stream_ids.update(s.objid for s in found)
        for obj in ops:
            if type(obj) is _Op:
                func = getattr(self, obj, None)
                if func is None:
                    continue  # an operator pdfminer does not know (not STRICT): skipped
                nargs = func.__code__.co_argcount - 1
                if nargs:
                    args = self.pop(nargs)
                    if len(args) == nargs:
                        func(*args)
                else:
                    func()
            else:
                self.push(obj)
        return None


class _TextInterpreter(_Replaying):
    """pdfminer's interpreter, running only the forms that can show text."""

    device: _TextDevice

    def _shows_text(self, form: Any) -> bool:
        known = self.device.shows_text
        key = id(form) if form.objid is None else form.objid
        if key not in known:
            known[key] = True  # while it is looked at (a form that runs itself): assume so
            resources = dict_value(form.get("Resources") or {})
            forms = [stream_value(x) for x in dict_value(resources.get("XObject") or {}).values()]
            known[key] = b"BT" in form.get_data() or any(
                f.get("Subtype") is FORM and self._shows_text(f) for f in forms)
        return known[key]

    def do_Do(self, xobjid_arg: Any) -> None:
        found = self.xobjmap.get(literal_name(xobjid_arg))
        if found is not None:
            xobj = stream_value(found)
            if xobj.get("Subtype") is FORM and not self._shows_text(xobj):
                return
        super().do_Do(xobjid_arg)


class _PageInterpreter(_Replaying):
    """pdfminer's interpreter, running no form: what is drawn on the page itself."""

    def do_Do(self, xobjid_arg: Any) -> None:
        found = self.xobjmap.get(literal_name(xobjid_arg))
        if found is None or stream_value(found).get("Subtype") is not FORM:
            super().do_Do(xobjid_arg)


def _page_class(device: type, interpreter: type) -> type[Page]:
    class Partial(Page):
        cached_properties: ClassVar[list[str]] = [*Page.cached_properties, "_partial_layout"]

        @property
        def layout(self) -> Any:
            if not hasattr(self, "_partial_layout"):
                made = device(self.pdf.rsrcmgr, pageno=self.page_number,
                              laparams=self.pdf.laparams)
                interpreter(self.pdf.rsrcmgr, made).process_page(self.page_obj)
                self._partial_layout = made.get_result()
            return self._partial_layout
    return Partial


TextPage = _page_class(_TextDevice, _TextInterpreter)
ShapePage = _page_class(_ShapeDevice, _Replaying)
FurniturePage = _page_class(_TextDevice, _PageInterpreter)
FurnitureShapePage = _page_class(_ShapeDevice, _PageInterpreter)


@contextmanager
def pages(pdf: Path | bytes, kind: type[Page] = TextPage) -> Iterator[list[Page]]:
    """The file's pages, each interpreted as ``kind`` needs (TextPage, ShapePage)."""
    with pdfplumber.open(_file(pdf)) as doc:
        yield [kind(doc, p.page_obj, page_number=p.page_number, initial_doctop=p.initial_doctop)
               for p in doc.pages]


@contextmanager
def opened(pdf: Path | bytes, kind: str) -> Iterator[list[Any]]:
    """The file's pages as the extraction ``kind`` reads them."""
    if kind in ("pypdf_text", "clips"):
        yield list(pypdf.PdfReader(_file(pdf)).pages)
    else:
        page = {"shapes": ShapePage, "furniture_text": FurniturePage,
                "furniture_shapes": FurnitureShapePage}.get(kind, TextPage)
        with pages(pdf, page) as found:
            yield found


def page_count(pdf: Path | bytes) -> int:
    return len(pypdf.PdfReader(_file(pdf)).pages)


# -- the kinds of extraction, each of one page (conftest's fixtures) ------------------------

def text(page: Page, **options: Any) -> str:
    """``extract_text(**options)``."""
    return page.extract_text(**options) or ""


def done(page: Any) -> None:
    """Forget what reading ``page`` kept (its interpreted layout), keeping the open file:
    a kit's pages are read one at a time from one open document (its fonts parsed once)."""
    if isinstance(page, Page):
        page.close()


def furniture_text(page: Page) -> str:
    """``extract_text()`` of what is drawn on the page itself, not in a form: a kit page's
    furniture (footer, cut marks' labels, the contents sheet), not its pieces' faces (each
    face is a form)."""
    return page.extract_text() or ""


def words(page: Page, **options: Any) -> list[dict[str, Any]]:
    """``extract_words(**options)``."""
    return jsonable(page.extract_words(**options))


# What tests read of a character: its text, font, size, position and direction (its colours
# and marked-content tags are left out: a kit page has thousands of characters, and carrying
# every attribute through JSON was most of the cost of reading them).
CHAR_KEYS = ("text", "fontname", "size", "upright", "x0", "x1", "top", "bottom", "y0", "y1",
             "doctop")


def chars(page: Page) -> list[dict[str, Any]]:
    """pdfplumber's ``chars``, each with the ``CHAR_KEYS`` and its ``matrix``."""
    return [{**{key: char[key] for key in CHAR_KEYS}, "matrix": list(char["matrix"])}
            for char in page.chars]


def crop_texts(page: Page, boxes: list[list[float]], within: bool = True,
               of_page: bool = False) -> list[str]:
    """The text of each box (x0, top, x1, bottom in points, or with ``of_page`` in fractions
    of the page's width and height): of what lies wholly inside it (``within_bbox``), or of
    what it cuts out (``crop``)."""
    if of_page:
        w, h = float(page.width), float(page.height)
        boxes = [[b[0] * w, b[1] * h, b[2] * w, b[3] * h] for b in boxes]
    return [(page.within_bbox(tuple(b)) if within else page.crop(tuple(b))).extract_text()
            or "" for b in boxes]


def shapes(page: Page) -> dict[str, list[dict[str, Any]]]:
    """pdfplumber's ``rects``, ``lines`` and ``curves`` (a circle is a curve)."""
    return jsonable({"rects": page.rects, "lines": page.lines, "curves": page.curves})


def furniture_shapes(page: Page) -> dict[str, list[dict[str, Any]]]:
    """``shapes`` of what is drawn on the page itself, not in a form (a kit page's cut marks
    and hairlines, not its faces' art)."""
    return shapes(page)


# pypdf builds a font (its ToUnicode map parsed, its widths) from the font's dictionary at
# each use of each form that shows it: most of the cost of a kit page's text. The font is a
# function of the dictionary, which the reader resolves to the same object at each use; so
# each is built once per document (``pypdf_text``) and each use gets its own copy (pypdf
# sets a copy's space width).
_FONT_FROM_RESOURCE = pypdf.generic._font.Font.from_font_resource
_fonts: list[dict[int, tuple[Any, Any]]] = []


def _font_from_resource(pdf_font_dict: Any) -> Any:
    if not _fonts:
        return _FONT_FROM_RESOURCE(pdf_font_dict)
    known = _fonts[-1]
    if id(pdf_font_dict) not in known:  # the dictionary is kept: its id stays its own
        known[id(pdf_font_dict)] = (pdf_font_dict, _FONT_FROM_RESOURCE(pdf_font_dict))
    return copy.copy(known[id(pdf_font_dict)][1])


pypdf.generic._font.Font.from_font_resource = _font_from_resource  # type: ignore[method-assign]


def pypdf_text(page: pypdf.PageObject) -> str:
    """The text as pypdf extracts it (its fonts built once per document)."""
    known = page.pdf.__dict__.setdefault("_pdfread_fonts", {}) if page.pdf else {}
    _fonts.append(known)
    try:
        return page.extract_text()
    finally:
        _fonts.pop()


def clips(page: pypdf.PageObject) -> list[dict[str, Any]]:
    """The clipping paths the page sets itself (outside any form: a kit clips each face it
    places to the art it may show), in order: each path's bounding box (x0, top, x1, bottom in
    points from the top-left, as pdfplumber's) and whether it has curves (a circle) or is a
    rectangle. pdfplumber reports what is drawn, never what a clip cuts away."""
    ops = pypdf.generic.ContentStream(page.get_contents(), page.pdf).operations
    height = float(page.mediabox.height)
    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack: list[tuple[float, ...]] = []
    points: list[tuple[float, float]] = []
    curved = False
    found: list[dict[str, Any]] = []

    def at(x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = ctm
        return (a * x + c * y + e, b * x + d * y + f)
    for operands, op in ops:
        name = op.decode() if isinstance(op, bytes) else str(op)
        vals = [float(v) for v in operands if isinstance(v, (int, float))]
        if name == "q":
            stack.append(ctm)
        elif name == "Q":
            ctm = stack.pop() if stack else ctm
        elif name == "cm":
            a, b, c, d, e, f = vals
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
                   e * A + f * C + E, e * B + f * D + F)
        elif name == "re":
            x, y, w, h = vals
            points += [at(x, y), at(x + w, y + h)]
        elif name in ("m", "l"):
            points.append(at(*vals[:2]))
        elif name in ("c", "v", "y"):
            curved = True
            points += [at(vals[i], vals[i + 1]) for i in range(0, len(vals) - 1, 2)]
        elif name in ("W", "W*") and points:
            xs, ys = [pt[0] for pt in points], [pt[1] for pt in points]
            found.append({"bbox": [min(xs), height - max(ys), max(xs), height - min(ys)],
                          "curved": curved})
        if name in ("n", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*"):
            points, curved = [], False
    return found


def pdf_fonts(pdf: Path) -> set[str]:
    """The BaseFont of every font in the pages' resources, forms (faces) included."""
    found: set[str] = set()

    def walk(resources) -> None:
        resources = resources.get_object() if resources is not None else {}
        for ref in (resources.get("/Font") or {}).values():
            found.add(str(ref.get_object()["/BaseFont"]))
        for ref in (resources.get("/XObject") or {}).values():
            xobject = ref.get_object()
            if "/Resources" in xobject:
                walk(xobject["/Resources"])

    for page in pypdf.PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    return found
