"""Translucent colours (#rgba, #rrggbbaa): parsed and normalised (generator/core/colours.py), drawn
blended over what lies beneath in the PDF (fill/stroke opacity, generator/render/pdf.py and
pdf_alpha.py) and in the PNG (generator/render/png_alpha.py), the two agreeing; opaque kits
keep their bytes; pre-flight judges translucent colours as printed over white."""
from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from generator.core import colours
from generator.core import primitives as p
from generator.core.colours import NotAColour, parse_colour
from generator.core.sizes import Size
from generator.data.design.resources import load_resources
from generator.layout.page import Page, Placement, drawn
from generator.orchestration.preflight import colour as cvd
from generator.render.pdf import write_pdf
from generator.render.png import render_png

DPI = 100
PX_PER_MM = DPI / 25.4
TOLERANCE = 3  # levels of 255: rounding of the blend (PDFium and Pillow each round once)
RED_50 = "#ff000080"  # alpha 0x80 = 128/255

BLUE = (0, 0, 255)
WHITE = (255, 255, 255)


def mix(top: tuple[int, int, int], alpha: int, under: tuple[int, int, int]) -> tuple[int, ...]:
    """What a colour at ``alpha`` (0-255) over ``under`` should look like."""
    a = alpha / 255
    return tuple(round(t * a + u * (1 - a)) for t, u in zip(top, under, strict=True))


def close(pixel: tuple[int, ...], want: tuple[int, ...]) -> bool:
    return all(abs(a - b) <= TOLERANCE for a, b in zip(pixel[:3], want, strict=True))


# -- parsing ------------------------------------------------------------------------------------

channel = st.integers(0, 255)
nibble = st.integers(0, 15)


@given(channel, channel, channel, channel, st.booleans())
def test_rrggbbaa_round_trips(r, g, b, a, upper):
    text = f"#{r:02x}{g:02x}{b:02x}{a:02x}"
    parsed = parse_colour(text.upper() if upper else text)
    assert parsed == (f"#{r:02x}{g:02x}{b:02x}" if a == 255 else text)
    assert parse_colour(parsed) == parsed  # normalised: parsing again changes nothing
    assert colours.rgba(parsed) == (r, g, b, a)
    assert colours.is_translucent(parsed) == (a != 255)
    assert colours.alpha(parsed) == pytest.approx(a / 255)


@given(channel, channel, channel)
def test_rrggbb_round_trips(r, g, b):
    text = f"#{r:02x}{g:02x}{b:02x}"
    assert parse_colour(text) == text and parse_colour(text.upper()) == text
    assert colours.rgba(text) == (r, g, b, 255) and not colours.is_translucent(text)


@given(nibble, nibble, nibble, st.one_of(st.none(), nibble))
def test_short_forms_double_each_digit(r, g, b, a):
    short = f"#{r:x}{g:x}{b:x}" + ("" if a is None else f"{a:x}")
    long = f"#{r:x}{r:x}{g:x}{g:x}{b:x}{b:x}" + ("" if a in (None, 15) else f"{a:x}{a:x}")
    assert parse_colour(short) == long
    assert parse_colour(long) == long


@pytest.mark.parametrize("value", ["#12345", "#1234567", "#123456789", "#ggg", "#rrggbbaa",
                                   "rgba(0,0,0,0.5)", "red50", 0xff0000, None])
def test_what_is_not_a_colour_says_what_is(value):
    with pytest.raises(NotAColour, match=r"#rrggbbaa"):
        parse_colour(value)


def test_names_and_opaque_alpha_are_plain_colours():
    assert parse_colour("Teal") == "#008080"
    assert parse_colour("#F00F") == "#ff0000"
    assert parse_colour("#ff000080") == RED_50
    assert colours.over_white(RED_50) == "#ff7f7f"
    assert colours.opaque(RED_50) == "#ff0000"


# -- drawing: the PDF and the PNG blend alike ---------------------------------------------------

def face(*prims: p.Primitive, w: float = 40.0, h: float = 30.0) -> p.Face:
    return p.Face(w, h, 0.0, prims)


def pdf_image(tmp_path: Path, shown: p.Face) -> Image.Image:
    """The face as a one-page PDF (drawn in a form, as every kit face is), rasterised."""
    target = tmp_path / "face.pdf"
    page = Page(Size(shown.w, shown.h), (Placement(shown, 0.0, 0.0, (0, 0, shown.w, shown.h)),),
                ())
    write_pdf([page], target, title="alpha", resources=load_resources(drawn([page])))
    doc = pdfium.PdfDocument(str(target))
    try:
        return doc[0].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def at(image: Image.Image, x_mm: float, y_mm: float) -> tuple[int, ...]:
    return image.getpixel((round(x_mm * PX_PER_MM), round(y_mm * PX_PER_MM)))


BLENDS = face(
    p.Rect(0, 0, 20, 30, fill="#0000ff"),
    p.Rect(10, 5, 20, 20, fill=RED_50),  # half over blue, half over white
    p.Line(2, 28, 38, 28, stroke="#00800066", width=1.5),  # green at 40 % across both
    p.Circle(34, 6, 4, fill="#00000040"),  # a quarter-black disc on white
    p.Rect(25, 20, 12, 6, fill="#ffa500"),  # opaque after the translucent ones: stays opaque
    p.Text(((1.0, 4.5, "Ab"),), "sans-bold", 11.0, fill="#ff000080"),  # on blue
)


def check_blends(image: Image.Image) -> None:
    assert close(at(image, 15, 15), mix((255, 0, 0), 128, BLUE))  # red over blue
    assert close(at(image, 25, 10), mix((255, 0, 0), 128, WHITE))  # red over white
    assert close(at(image, 5, 28), mix((0, 128, 0), 0x66, BLUE))  # the line over blue
    assert close(at(image, 34, 28), mix((0, 128, 0), 0x66, WHITE))
    assert close(at(image, 34, 6), mix((0, 0, 0), 0x40, WHITE))
    assert close(at(image, 34, 24), (255, 165, 0))  # opaque, not blended
    assert close(at(image, 5, 15), BLUE)  # untouched


def test_png_blends_translucent_fills_strokes_and_text():
    image = render_png(BLENDS, dpi=DPI, resources=load_resources(BLENDS.prims))
    check_blends(image)
    text = image.crop((0, 0, round(8 * PX_PER_MM), round(5 * PX_PER_MM)))
    # The text's fully covered pixels are the blend, never plain red.
    reds = {px for px in text.get_flattened_data() if px[0] > 100}
    assert reds and all(px[0] <= 128 + TOLERANCE for px in reds)
    assert any(close(px, mix((255, 0, 0), 128, BLUE)) for px in reds)


def test_pdf_blends_translucent_fills_strokes_and_text(tmp_path):
    image = pdf_image(tmp_path, BLENDS)
    check_blends(image)
    text = image.crop((0, 0, round(8 * PX_PER_MM), round(5 * PX_PER_MM)))
    assert any(close(px, mix((255, 0, 0), 128, BLUE)) for px in text.get_flattened_data())
    assert not any(px[0] > 128 + TOLERANCE for px in text.get_flattened_data())


def test_a_translucent_icon_blends_in_both_renderers(tmp_path):
    shown = face(p.Rect(0, 0, 40, 30, fill="#0000ff"),
                 p.Icon("suit-moons", 5, 5, 20, 20, fill=RED_50, accent="#0000ff"))
    png = render_png(shown, dpi=DPI, resources=load_resources(shown.prims))
    pdf = pdf_image(tmp_path, shown)
    want = mix((255, 0, 0), 128, BLUE)
    for image in (png, pdf):
        pixels = list(image.get_flattened_data())
        assert any(close(px, want) for px in pixels)
        assert not any(px[0] > 128 + TOLERANCE for px in pixels)  # nowhere plain red


def test_forms_carry_their_opacity_states_and_opaque_pdfs_have_none(tmp_path):
    translucent = pdf_image(tmp_path, BLENDS)
    assert translucent.size
    data = (tmp_path / "face.pdf").read_bytes()
    assert b"/ExtGState" in data and re.search(rb"/ca \.50196|/ca 0?\.50196", data)
    pdf_image(tmp_path, face(p.Rect(0, 0, 20, 30, fill="#0000ff"),
                             p.Text(((1.0, 4.5, "Ab"),), "sans-bold", 11.0)))
    assert b"/ExtGState" not in (tmp_path / "face.pdf").read_bytes()


# -- where colours are read: templates, themes, icons, pre-flight -------------------------------

def test_templates_themes_and_icons_accept_translucent_colours(tmp_path):
    from generator.data.design.icons import load_icon
    from generator.data.design.templates import load_template
    from generator.data.design.themes import load_theme
    from generator.data.files import project
    from tests.drawing import render_face

    folder = tmp_path / "game"
    for kind in ("faces", "themes", "icons"):
        (folder / kind).mkdir(parents=True)
    (folder / "faces" / "glass.yaml").write_text(
        "elements:\n  - rect: {x: 0, y: 0, w: 5, h: 5, fill: '#f008', stroke: '#00ff0080'}\n"
        "  - text: {x: 0, y: 0, w: 20, h: 5, text: hi, fill: '{{ palette.veil }}'}\n",
        encoding="utf-8")
    (folder / "themes" / "glass.yaml").write_text(
        "extends: standard\npalette:\n  veil: '#00000080'\n", encoding="utf-8")
    (folder / "icons" / "glass.yaml").write_text(
        "view: [10, 10]\nshapes:\n  - {circle: [5, 5, 4], fill: '#ff000080'}\n",
        encoding="utf-8")
    with project.using(project.Project(folder)):
        theme = load_theme("glass")
        assert theme.palette["veil"] == "#00000080"
        drawn = render_face(load_template("glass"), 20, 20, theme.context())
        rect, text = drawn.prims
        assert (rect.fill, rect.stroke, text.fill) == ("#ff000088", "#00ff0080", "#00000080")
        assert load_icon("glass").shapes[0].fill == "#ff000080"


def test_preflight_judges_a_translucent_colour_over_white():
    assert cvd.parse_hex(RED_50) == pytest.approx(cvd.parse_hex("#ff7f7f"), abs=1 / 255)
    assert cvd.parse_hex("#f008") == pytest.approx(cvd.parse_hex("#ff7777"), abs=1 / 255)
    # Half-transparent red and its opaque twin differ; two veils of one colour do not.
    pairs = cvd.closest_pairs({"veil": RED_50, "solid": "#ff0000"})
    assert pairs["normal"].delta_e > 10
