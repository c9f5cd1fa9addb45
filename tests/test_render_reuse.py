"""Work the renderers remember instead of redoing, and what they must not remember.

generator/faces/template.py remembers the layout of plain text (the same label on every
card), never of text with markup or with characters the font lacks; generator/render/pdf.py
finds a face's form by identity before hashing it, and skips
the opacity reset when nothing is translucent. Each gives the same result as the work it
saves (the kits' bytes are compared with a saved build by tests/test_render_parity.py).
"""
from __future__ import annotations

import io

import pytest
from reportlab.lib.units import mm

from generator.core import primitives as p
from generator.core.resources import Resources
from generator.data.design.lookup import face_inputs
from generator.data.typefaces import fonts
from generator.faces import template
from generator.faces.rich_layout import MarkupError
from generator.faces.text import TextBox
from generator.render.pdf import PdfRenderer
from generator.render.pdf_alpha import Canvas
from tests.drawing import layout_markup


def box(text: str, font: str = "sans") -> TextBox:
    return TextBox(2.0, 3.0, 40.0, 20.0, text, font, 10.0, 6.0)


def test_plain_text_is_laid_out_once_and_as_before():
    first = template._laid_out(box("Draw two cards"), True, "en", "#ffffff", face_inputs())
    again = template._laid_out(box("Draw two cards"), True, "en", "#ffffff", face_inputs())
    assert first is again
    assert first == layout_markup(box("Draw two cards"), True, "en", "#ffffff")
    assert template._plain_layout.cache_info().hits == 1


@pytest.mark.parametrize("changed", [
    dict(text="Draw three cards"), dict(x=5.0), dict(size=9.0), dict(font="condensed")])
def test_any_difference_is_laid_out_anew(changed):
    plain = dict(x=2.0, y=3.0, w=40.0, h=20.0, text="Draw two cards", font="sans", size=10.0,
                 min_size=6.0)
    a = template._laid_out(TextBox(**plain), True, "en", "#ffffff", face_inputs())
    b = template._laid_out(TextBox(**{**plain, **changed}), True, "en", "#ffffff", face_inputs())
    assert b == layout_markup(TextBox(**{**plain, **changed}), True, "en", "#ffffff")
    assert a != b


def test_language_and_hyphenation_are_part_of_the_key():
    text = box("Extraordinarily uncharacteristically incomprehensible")
    narrow = TextBox(0, 0, 22.0, 60.0, text.text, "sans", 12.0, 4.0)
    for lang, hyphenate in (("en", True), ("fr", True), ("en", False)):
        assert template._laid_out(narrow, hyphenate, lang, "#ffffff", face_inputs()) == \
            layout_markup(narrow, hyphenate, lang, "#ffffff")
    assert template._plain_layout.cache_info().currsize == 3


def test_markup_is_never_remembered():
    marked = box("Draw **two** cards :heart:")
    assert template._laid_out(marked, True, "en", "#ffffff", face_inputs()) == \
        layout_markup(marked, True, "en", "#ffffff")
    assert template._plain_layout.cache_info().currsize == 0


def test_a_missing_glyph_is_refused_even_after_pre_flight_drew_it():
    """Pre-flight lays out text whose font lacks a character (and reports it); a build
    refuses the same text: a layout remembered in one must not answer the other."""
    lacking = box("Ask \u2603 now")
    assert fonts.missing_glyphs("sans", lacking.text)
    with fonts.glyphs_reported():
        template._laid_out(lacking, True, "en", "#ffffff", face_inputs())
    with pytest.raises(MarkupError, match="no glyph"):
        template._laid_out(lacking, True, "en", "#ffffff", face_inputs())
    assert template._plain_layout.cache_info().currsize == 0


def test_watch_forgets_remembered_layouts():
    from generator.core import memo

    template._laid_out(box("Draw two cards"), True, "en", "#ffffff", face_inputs())
    memo.forget_all()  # what watch does before each rebuild
    assert template._plain_layout.cache_info().currsize == 0


# -- the PDF writer ------------------------------------------------------------------------

def renderer() -> PdfRenderer:
    return PdfRenderer(Canvas(io.BytesIO(), pagesize=(100 * mm, 100 * mm), invariant=1),
                       Resources())


def face(colour: str = "#112233") -> p.Face:
    return p.Face(20.0, 30.0, 3.175, (p.Rect(0, 0, 20, 30, colour, None, 0.3, 0.0, None),),
                  "card")


def test_a_face_is_one_form_whether_the_same_object_or_an_equal_one():
    r = renderer()
    one, same, other = face(), face(), face("#445566")
    assert one is not same and one == same
    names = [r.face_form(f) for f in (one, one, same, other, same)]
    assert names == ["face0", "face0", "face0", "face1", "face0"]


def test_opacity_is_reset_after_a_translucent_colour_and_only_then():
    r = renderer()
    c = r.c
    r.draw(p.Rect(0, 0, 5, 5, "#ff000080", None, 0.3, 0.0, None))
    assert c._extgstate._d.get("ca") != 1
    r.draw(p.Rect(0, 0, 5, 5, "#00ff00", None, 0.3, 0.0, None))
    assert c._extgstate._d.get("ca", 1) == 1 and c._extgstate._d.get("CA", 1) == 1
    before = list(c._code)
    r.draw(p.Rect(0, 0, 5, 5, "#0000ff", None, 0.3, 0.0, None))
    assert not any(" gs" in line for line in c._code[len(before):])


def test_an_opaque_document_still_says_it_may_hold_transparency():
    """ReportLab raises the PDF version when an opacity is first set (as it always was)."""
    r = renderer()
    r.draw(p.Rect(0, 0, 5, 5, "#00ff00", None, 0.3, 0.0, None))
    r.draw(p.Rect(0, 0, 5, 5, "#0000ff", None, 0.3, 0.0, None))
    assert r.c._doc._pdfVersion >= (1, 4)
