"""Rich text in template ``text:``: bold, italic, colour, inline icons, hyphenation.

Parsing is property-tested (plain text is itself, escaped markup prints literally); the
drawing is read back from the PDF (pdfplumber's fonts and text, the icon forms drawn) and
from the PNG (pixel colours where the words and icons are), turned text included; the five
built-in kits are checked to lay out every text exactly as the plain layout did.
"""
from __future__ import annotations

import itertools

import pypdf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops

from generator.core import primitives as p
from generator.core.errors import DataError
from generator.core.model import Size
from generator.data import game_ids, load_game
from generator.data.design.resources import load_resources
from generator.data.design.templates import load_template
from generator.data.typefaces import fonts
from generator.expressions import escape_markup
from generator.faces import hyphenate, markup, rich_layout
from generator.faces import template as template_module
from generator.faces.markup import Run, parse
from generator.faces.rich_layout import KEEP_WHOLE, has_list
from generator.faces.text import TextBox
from generator.layout.page import Page, Placement, drawn
from generator.orchestration.drawing import render_parts
from generator.orchestration.options import BuildOptions
from generator.orchestration.preflight.checks import missing_by_font
from generator.render.pdf import write_pdf
from generator.render.png import render_png
from tests.drawing import layout, layout_markup, render_face

FACE = (60.0, 60.0)


def face_of(tmp_path, *elements: str, name: str = "t") -> p.Face:
    body = "elements:\n" + "".join(f"  - {e}\n" for e in elements)
    (tmp_path / f"{name}.yaml").write_text(body, encoding="utf-8")
    return render_face(load_template(name, tmp_path), *FACE, {})


def text_of(face: p.Face) -> p.Text:
    (text,) = [prim for prim in face.prims if isinstance(prim, p.Text)]
    return text


def pdf_of(tmp_path, face: p.Face) -> str:
    page = Page(Size(100, 100), (Placement(face, 10, 10, (10, 10, *FACE)),), ())
    target = tmp_path / "face.pdf"
    write_pdf([page], target, title="t", subject="t",
              resources=load_resources(drawn([page])))
    return str(target)


# -- parsing --------------------------------------------------------------------------------

no_markup = st.text(alphabet=st.characters(blacklist_characters=markup.SPECIAL,
                                           blacklist_categories=("Cs",)), min_size=1)


@given(no_markup)
def test_text_without_markup_characters_is_one_run_of_itself(text):
    assert parse(text) == (Run(text),)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1))
def test_escaped_text_prints_literally(text):
    assert parse(escape_markup(text)) == (Run(text),)


@pytest.mark.parametrize(("text", "runs"), [
    ("**bold** and *it*", (Run("bold", bold=True), Run(" and "), Run("it", italic=True))),
    ("***both***", (Run("both", bold=True, italic=True),)),
    ("[red]hot[/] [#c0392b]x[/] [#0a0]y[/]",
     (Run("hot", colour="#ff0000"), Run(" "), Run("x", colour="#c0392b"), Run(" "),
      Run("y", colour="#00aa00"))),
    ("[teal]a **b**[/]", (Run("a ", colour="#008080"), Run("b", bold=True, colour="#008080"))),
    ("3 :heart: left", (Run("3 "), Run("", icon="heart"), Run(" left"))),
    (r"\*not\* \:heart: \[red]x\[/] a\\b", (Run(r"*not* :heart: [red]x[/] a\b"),)),
])
def test_markup_examples(text, runs):
    assert parse(text) == runs


@pytest.mark.parametrize("text", [
    "5 * 3 * 2", "Crowns*", "a ** b", "**unclosed", "[red]no close", "x [/] y",
    "[optional] words", "[not a colour]", "Date: ______________", "snake_case_name",
    "10:30 to 11:45", "Note: x: y", "ratio 2:1", "a****b", "{{ not jinja here }}",
])
def test_what_is_not_markup_prints_as_written(text):
    assert parse(text) == (Run(text),)


# -- drawing --------------------------------------------------------------------------------

def test_bold_and_italic_words_use_their_fonts_in_the_pdf_and_stay_extractable(
        tmp_path, page_texts, page_chars, page_words):
    face = face_of(tmp_path, 'text: {x: 5, y: 5, w: 50, h: 20, size: 10, '
                             'text: "Plain **strong** and *slanted* words"}')
    text = text_of(face)
    assert [line for _, _, line in text.lines] == ["Plain strong and slanted words"]
    assert {span[3] for span in text.spans} == {"sans", "sans-bold", "sans-italic"}
    pdf = pdf_of(tmp_path, face)
    assert "Plain strong and slanted words" in page_texts(pdf)[0]
    fontname = {}
    for char in page_chars(pdf, 1):
        fontname.setdefault(char["text"], set()).add(char["fontname"].split("+")[-1])
    words = page_words(pdf, 1, extra_attrs=["fontname"])
    by_word = {w["text"]: w["fontname"].split("+")[-1] for w in words}
    assert by_word["strong"] == "AtkinsonHyperlegible-Bold"
    assert by_word["slanted"] == "AtkinsonHyperlegible-Italic"
    assert by_word["Plain"] == by_word["words"] == "AtkinsonHyperlegible-Regular"


def _pixels(img: Image.Image, colour: tuple[int, int, int], tolerance: int = 60
            ) -> list[tuple[int, int]]:
    rgb = img.convert("RGB")
    w, h = rgb.size
    data = rgb.load()
    return [(x, y) for y in range(h) for x in range(w)
            if sum(abs(a - b) for a, b in zip(data[x, y], colour, strict=True)) < tolerance]


def test_coloured_word_pixels_in_the_png(tmp_path):
    face = face_of(tmp_path, 'text: {x: 5, y: 5, w: 50, h: 12, size: 12, '
                             'text: "black [#d01010]red[/] black"}')
    text = text_of(face)
    (red,) = [s for s in text.spans if s[4] == "#d01010"]
    x0 = red[0]
    x1 = x0 + fonts.text_width_mm("sans", "red", text.size)
    img = render_png(face, dpi=200, bleed=0, resources=load_resources(face.prims))
    scale = 200 / 25.4
    found = _pixels(img, (0xd0, 0x10, 0x10))
    assert len(found) > 30
    xs = [x / scale for x, _ in found]
    ys = [y / scale for _, y in found]
    assert x0 - 0.3 <= min(xs) and max(xs) <= x1 + 0.3  # only the word is red
    assert max(ys) <= red[1] + 0.3  # above its baseline


def test_inline_icon_is_drawn_in_pdf_and_png_at_the_line(tmp_path):
    face = face_of(tmp_path, 'text: {x: 5, y: 5, w: 50, h: 12, size: 12, fill: "#1040c0", '
                             'text: "Weights: the :boxes-kettlebell: boxes"}')
    text = text_of(face)
    (icon,) = text.icons
    assert icon.name == "boxes-kettlebell" and icon.fill == "#1040c0"
    baseline = text.lines[0][1]
    em = text.size * fonts.PT_TO_MM
    # Sized to the line (0.9 em), reaching just below the baseline, between the two words.
    assert icon.h == pytest.approx(0.9 * em, rel=1e-3)
    assert icon.y < baseline < icon.y + icon.h < baseline + 0.25 * em
    the = next(s for s in text.spans if s[2].endswith("the "))
    after = next(s for s in text.spans if s[2].strip() == "boxes")
    assert the[0] + fonts.text_width_mm("sans", the[2], text.size) <= icon.x
    assert icon.x + icon.w <= after[0] + 1e-6
    assert [line for _, _, line in text.lines] == ["Weights: the boxes"]
    # PDF: the icon's form is defined and drawn from the face's form.
    reader = pypdf.PdfReader(pdf_of(tmp_path, face))
    face_form = reader.pages[0]["/Resources"]["/XObject"]["/FormXob.face0"].get_object()
    assert "/FormXob.icon0" in face_form["/Resources"]["/XObject"]
    assert b"/FormXob.icon0 Do" in face_form.get_data()
    # PNG: the text colour fills the icon's box.
    img = render_png(face, dpi=200, bleed=0, resources=load_resources(face.prims))
    scale = 200 / 25.4
    inside = [(x, y) for x, y in _pixels(img, (0x10, 0x40, 0xc0))
              if icon.x * scale <= x <= (icon.x + icon.w) * scale
              and icon.y * scale <= y <= (icon.y + icon.h) * scale]
    assert len(inside) > 0.3 * (icon.w * scale) * (icon.h * scale)


def test_unknown_inline_icon_is_an_error_naming_the_line(tmp_path):
    with pytest.raises(DataError) as info:
        face_of(tmp_path, 'rect: {x: 0, y: 0, w: 1, h: 1}',
                'text: {x: 5, y: 5, w: 50, h: 12, text: "a :hart: b"}')
    assert info.value.line == 3 and "text" in info.value.field
    assert ":hart:" in info.value.expected and "\\:hart:" in info.value.expected


def test_literal_filter_prints_data_as_written(tmp_path):
    face = face_of(tmp_path, 'text: {x: 5, y: 5, w: 50, h: 12, '
                             'text: "{{ \'**x** :heart: [red]y[/]\' | literal }}"}')
    text = text_of(face)
    assert not text.spans and not text.icons
    assert text.lines[0][2] == "**x** :heart: [red]y[/]"


# -- hyphenation ------------------------------------------------------------------------------

def test_long_word_in_a_narrow_box_is_hyphenated(tmp_path, page_texts):
    face = face_of(tmp_path, 'text: {x: 5, y: 5, w: 14, h: 30, size: 9, '
                             'text: "Hyphenation makes understanding easier"}')
    text = text_of(face)
    lines = [line for _, _, line in text.lines]
    assert text.size == 9  # not shrunk: the words broke instead
    assert lines == ["Hyphena-", "tion", "makes", "under-", "standing", "easier"]
    for line, following in itertools.pairwise(lines):
        if line.endswith("-"):
            word = line[:-1] + following.split()[0]
            assert len(word) >= hyphenate.MIN_LETTERS
            assert len(line) - 1 >= hyphenate.LEFT and len(following) >= hyphenate.RIGHT
    assert "Hyphena-\ntion" in page_texts(pdf_of(tmp_path, face))[0]


def test_hyphenation_off_shrinks_instead(tmp_path):
    face = face_of(tmp_path, 'text: {x: 5, y: 5, w: 14, h: 30, size: 9, hyphenate: false, '
                             'text: "Hyphenation makes understanding easier"}')
    text = text_of(face)
    assert text.size < 9 and not any(line.endswith("-") for _, _, line in text.lines)


def test_words_are_kept_whole_when_shrinking_costs_little():
    box = TextBox(0, 0, 18.6, 20, "Hyphenation", "sans", 10, 6)  # 19.6 mm wide at 10 pt
    whole = layout(box)
    assert whole.size < 10 and whole.size >= KEEP_WHOLE * 10  # a small shrink...
    assert layout_markup(box) == whole  # ...is preferred to a broken word


def test_words_that_fit_are_never_broken():
    box = TextBox(0, 0, 40, 40, "a narrow column of ordinary words wrapping " * 3, "sans", 9, 6)
    assert layout_markup(box) == layout(box)


def test_breaks_follow_the_rule():
    assert hyphenate.breaks("short", "en_GB") == ()  # under MIN_LETTERS
    assert hyphenate.breaks("face-down", "en_GB") == ((5, False),)  # after its own hyphen
    for at, hyphen in hyphenate.breaks("understanding", "en_GB"):
        assert hyphen and at >= hyphenate.LEFT and len("understanding") - at >= hyphenate.RIGHT
    assert hyphenate.language(None) == "en_GB" and hyphenate.language("en") == "en_GB"
    assert hyphenate.language("fr") == "fr" and hyphenate.language("x!") is None
    assert hyphenate.breaks("déménagement", "fr")  # French kits hyphenate in French


# -- fitting ----------------------------------------------------------------------------------

def test_markup_text_shrinks_to_fit_counting_bold_widths_and_icons():
    words = "one two three four five six seven eight nine ten eleven twelve"
    plain = layout(TextBox(0, 0, 30, 12, words, "sans", 12, 6))
    bold = layout_markup(TextBox(0, 0, 30, 12, f"**{words}**", "sans", 12, 6))
    icons = layout_markup(TextBox(0, 0, 30, 12, words.replace(" ", " :heart: "), "sans", 12, 6))
    assert plain.size < 12 and bold.size <= plain.size and icons.size < plain.size
    for text in (bold, icons):
        line_h = text.size * fonts.PT_TO_MM * 1.18
        assert len(text.lines) * line_h <= 12 + 1e-6
        right = max(x + fonts.text_width_mm(f, s, text.size) for x, _, s, f, _ in text.spans)
        right = max([right] + [i.x + i.w for i in text.icons])
        assert right <= 30 + 1e-3


def test_markup_that_cannot_fit_names_the_box_and_the_words_without_markup(tmp_path):
    with pytest.raises(DataError) as info:
        face_of(tmp_path, 'text: {x: 5, y: 5, w: 20, h: 5, size: 10, min_size: 8, '
                          'text: "**Far** too many [red]words[/] :heart: for this little box '
                          'to hold"}')
    message = info.value.expected
    assert info.value.line == 2 and info.value.field.endswith("text")
    assert "20 x 5 mm box" in message and "minimum size 8 pt" in message
    assert "text 'Far too many words for this little bo...'" in message


# -- turned text ------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("angle", [90, 180, 270])
def test_turned_rich_text_is_the_upright_drawing_turned(tmp_path, angle):
    """A square box centred on a square face: the turned PNG is the upright PNG turned."""
    element = ('text: {{x: 10, y: 10, w: 40, h: 40, size: 11, rotate: {}, '
               'text: "**Bold** [#c01010]red :heart: words[/] and *more*"}}')
    upright_face = face_of(tmp_path, element.format(0), name="a")
    upright = render_png(upright_face, dpi=150, bleed=0,
                         resources=load_resources(upright_face.prims))
    face = face_of(tmp_path, element.format(angle), name="b")
    turned = render_png(face, dpi=150, bleed=0, resources=load_resources(face.prims))
    expected = upright.rotate(angle)
    diff = ImageChops.difference(turned.convert("L"), expected.convert("L"))
    mean = sum(i * n for i, n in enumerate(diff.histogram())) / (diff.width * diff.height)
    assert mean < 0.6  # 0.25 measured; an icon left unturned gives 0.97
    (icon,) = text_of(face).icons
    assert icon.rotate == angle
    # The PDF draws the same: its red ink (words and heart) where the PNG has it.
    import pypdfium2

    pdf = pypdfium2.PdfDocument(pdf_of(tmp_path, face))
    bitmap = pdf[0].render(scale=150 / 72).to_pil()
    pdf_red = _pixels(bitmap, (0xc0, 0x10, 0x10), 90)
    png_red = _pixels(turned, (0xc0, 0x10, 0x10), 90)
    scale = 150 / 25.4
    centre = [sum(c) / len(c) for c in zip(*png_red, strict=True)]
    pdf_centre = [sum(c) / len(c) - 10 * scale for c in zip(*pdf_red, strict=True)]
    assert pdf_centre == pytest.approx(centre, abs=0.5 * scale)


# -- pre-flight and the kits ------------------------------------------------------------------

def test_preflight_checks_each_span_in_its_own_font():
    text = p.Text(((0, 5, "x ♠ y"),), "sans", 10,
                  spans=((0, 5, "x ", "sans", "#000000"), (3, 5, "♠", "symbol", "#000000"),
                         (6, 5, " ♠ y", "sans", "#000000")))
    assert fonts.missing_glyphs("sans", "♠") and not fonts.missing_glyphs("symbol", "♠")
    assert missing_by_font(text) == [("sans", "♠")]


@pytest.mark.slow
def test_built_in_kits_lay_out_every_text_as_before(monkeypatch):
    """Every text element of the five kits but their lists gives the very Text the plain
    layout gives (no icons, no hyphen; spans only where the plain zero is drawn): the rich
    path changes nothing it need not. Lists (tests/test_text_lists.py) take the rich path."""
    seen: list[tuple[TextBox, p.Text]] = []

    def recording(box, *args):
        made = rich_layout.layout_markup(box, *args)
        seen.append((box, made))
        return made

    monkeypatch.setattr(template_module, "layout_markup", recording)
    monkeypatch.setenv("PNP_CACHE", "0")  # every face drawn now, none from the face cache
    template_module._plain_layout.cache_clear()  # nor laid out by an earlier test's memo
    for game_id in game_ids():
        render_parts(load_game(game_id), BuildOptions())
    assert len(seen) > 500
    changed = [box.text[:60] for box, made in seen
               if made != layout(box) and not (box.align == "left" and has_list(box.text))]
    assert not changed
    assert any(box.align == "left" and has_list(box.text) for box, _ in seen)


def test_a_glyph_missing_from_the_bold_font_only_is_refused_naming_that_font(tmp_path):
    # DejaVu Sans has the mathematical sans-serif letters; its bold file does not.
    face_of(tmp_path, 'text: {x: 5, y: 5, w: 50, h: 12, font: symbol, text: "a 𝖠"}')
    with pytest.raises(DataError) as info:
        face_of(tmp_path, 'text: {x: 5, y: 5, w: 50, h: 12, font: symbol, text: "a **𝖠**"}',
                name="bold")
    assert "font symbol-bold" in info.value.expected and "𝖠" in info.value.expected


@pytest.mark.parametrize("text", ["light the lamp and score [orange]3\u00a0points[/] now",
                                  "light the lamp and score 3\u00a0points now",
                                  "Poids\u00a0: les petits cartons de tes cartons intacts"])
@pytest.mark.parametrize("width", [18.0, 22.0, 26.0, 30.0, 34.0])
def test_a_no_break_space_never_ends_a_line(text, width):
    """U+00A0 joins its neighbours (French "Poids : 1", "3 points") in plain, marked-up and
    hyphenated layouts alike: the joined pair is never split across two lines."""
    placed = layout_markup(TextBox(0, 0, width, 60, text, "sans", 9, 9))
    lines = [line for _, _, line in placed.lines]
    joined = "3\u00a0points" if "3" in text else "Poids\u00a0:"
    assert any(joined in line for line in lines), lines
    assert not any(line.endswith(("3", "Poids")) for line in lines), lines
