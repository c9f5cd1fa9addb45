"""tests/pdfread.py reads what pdfplumber reads. Its text pages (no path painted, no form run
that shows no text) give pdfplumber's characters, text and words; its shape pages (no text
shown) its rectangles, lines and curves: on a page made to need every rule (a form showing no
text itself that runs one that does, a form of paths only, text on the page) and on a page of
a real kit (card faces as forms, their icons as forms inside them)."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
from reportlab.pdfgen.canvas import Canvas

from tests import pdfread


def _nested(target: Path) -> Path:
    c = Canvas(str(target), pagesize=(200, 200), invariant=1)
    c.beginForm("dot")  # paths only: not run for text
    c.circle(5, 5, 3, fill=1)
    c.line(0, 0, 10, 10)
    c.endForm()
    c.beginForm("label")  # text, and a form of paths
    c.setFont("Helvetica", 9)
    c.drawString(2, 2, "inside a form")
    c.doForm("dot")
    c.endForm()
    c.beginForm("frame")  # no text of its own, but runs one that has
    c.rect(0, 0, 50, 20)
    c.doForm("label")
    c.endForm()
    c.setFont("Helvetica", 12)
    c.drawString(20, 150, "on the page")
    for x, form in ((20, "frame"), (120, "dot"), (150, "label")):
        c.saveState()
        c.translate(x, 100)
        c.doForm(form)
        c.restoreState()
    c.rect(10, 10, 100, 30, stroke=1, fill=0)
    c.line(10, 60, 190, 60)
    c.showPage()
    c.save()
    return target


def _read(pdf: Path, page: int) -> tuple[dict, dict]:
    with pdfplumber.open(pdf) as doc:
        full = doc.pages[page - 1]
        want = {"chars": full.chars, "text": full.extract_text(),
                "flow": full.extract_text(use_text_flow=True),
                "words": full.extract_words(extra_attrs=["size", "fontname"]),
                "rects": full.rects, "lines": full.lines, "curves": full.curves}
        want = pdfread.jsonable(want)
    with pdfread.pages(pdf) as texts, pdfread.pages(pdf, pdfread.ShapePage) as shapes:
        text, shape = texts[page - 1], shapes[page - 1]
        slim = pdfread.chars(text)
        got = {"chars": text.chars, "text": text.extract_text(),
               "flow": text.extract_text(use_text_flow=True),
               "words": text.extract_words(extra_attrs=["size", "fontname"]),
               "rects": shape.rects, "lines": shape.lines, "curves": shape.curves}
        assert not (text.rects or text.lines or text.curves) and not shape.chars
        got = pdfread.jsonable(got)
    # The ``chars`` kind: each character's CHAR_KEYS and matrix, as pdfplumber gives them.
    assert slim == [{key: c[key] for key in (*pdfread.CHAR_KEYS, "matrix")}
                    for c in want["chars"]]
    return got, want


def _furniture(pdf: Path, page: int) -> tuple[list[tuple], str]:
    with pdfread.pages(pdf, pdfread.FurniturePage) as found:
        return ([(c["text"], c["x0"], c["top"]) for c in found[page - 1].chars],
                pdfread.furniture_text(found[page - 1]))


def _furniture_shapes(pdf: Path, page: int, got: dict) -> dict:
    """The page's own rectangles and lines: each one of all the page's."""
    with pdfread.pages(pdf, pdfread.FurnitureShapePage) as found:
        own = pdfread.furniture_shapes(found[page - 1])
    for kind in ("rects", "lines"):
        assert all(shape in got[kind] for shape in own[kind])
    return own


def test_a_page_of_nested_forms_reads_as_pdfplumber_reads_it(tmp_path):
    pdf = _nested(tmp_path / "nested.pdf")
    got, want = _read(pdf, 1)
    assert got == want
    assert "inside a form" in got["text"] and "on the page" in got["text"]
    assert got["text"].count("inside a form") == 2  # in the frame, and alone
    assert got["curves"] and got["rects"] and got["lines"]
    chars, text = _furniture(pdf, 1)  # the page's own text: none of its forms'
    assert text == "on the page"
    assert set(chars) <= {(c["text"], c["x0"], c["top"]) for c in got["chars"]}
    own = _furniture_shapes(pdf, 1, got)  # the page's rectangle and line, not the frame's
    assert (len(own["rects"]), len(own["lines"])) == (1, 1)
    assert (len(got["rects"]), len(got["lines"])) == (2, 4)  # the frame's; the dot's, 3 times


def test_a_kit_page_reads_as_pdfplumber_reads_it(kit_a4):
    got, want = _read(kit_a4.pdf, 7)  # the first full sheet of cards, fronts
    assert got == want
    assert "Ace of Spades" in " ".join(got["text"].split())
    assert got["rects"] and got["lines"]
    chars, text = _furniture(kit_a4.pdf, 7)  # the footer, not the cards
    assert "sheet 4 of 11, front · Playing cards" in " ".join(text.split())
    assert "Ace of Spades" not in " ".join(text.split())
    assert chars and set(chars) <= {(c["text"], c["x0"], c["top"]) for c in got["chars"]}
    own = _furniture_shapes(kit_a4.pdf, 7, got)  # cut marks and hairlines, not the cards' art
    assert own["lines"] and own["rects"] and len(own["rects"]) < len(got["rects"])


def test_clips_are_read_in_page_coordinates(tmp_path):
    """``clips``: a rectangle and a circle clipped on the page, under a translation, read back
    as their bounding boxes from the top-left (points), the circle as curved."""
    target = tmp_path / "clips.pdf"
    c = Canvas(str(target), pagesize=(200, 100), invariant=1)
    c.saveState()
    c.translate(10, 0)
    path = c.beginPath()
    path.rect(10, 20, 30, 40)
    c.clipPath(path, stroke=0, fill=0)
    c.restoreState()
    c.saveState()
    path = c.beginPath()
    path.circle(100, 50, 20)
    c.clipPath(path, stroke=0, fill=0)
    c.restoreState()
    c.showPage()
    c.save()
    found = pdfread.clips(next(iter(pdfread.pypdf.PdfReader(target).pages)))
    assert [c["curved"] for c in found] == [False, True]
    assert found[0]["bbox"] == [20, 40, 50, 80]
    assert [round(v, 3) for v in found[1]["bbox"]] == [80, 30, 120, 70]


def test_a_kit_reads_as_pypdf_reads_it(kit_a4):
    """``pypdf_text`` (each font built once per document) gives pypdf's own text: of the
    contents and of a sheet of cards, front and back (each card a form with its fonts), the
    front read again from the same document too."""
    numbers = [0, 6, 7, 6]  # from 0
    reader = pdfread.pypdf.PdfReader(kit_a4.pdf)
    want = [reader.pages[n].extract_text() for n in numbers]
    with pdfread.opened(kit_a4.pdf.read_bytes(), "pypdf_text") as pages:
        got = [pdfread.pypdf_text(pages[n]) for n in numbers]
    assert got == want
    assert "Ace of Spades" in " ".join(got[1].split())
