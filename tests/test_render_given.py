"""The renderers draw what they are given and look nothing up (issue 23, item 6).

generator/core/resources.py: the orchestration loads every icon, SVG drawing and font a kit's
primitives name (generator/data/design/resources.py) and hands them to the renderer with the pages.
Here a page is rendered from a made-up ``Resources``: an icon and a picture that exist in no
folder, a font registered under a name no project has. Any look-up would fail; the picture
and the PDF come out of what was given alone.
"""
from __future__ import annotations

from pathlib import Path

import grimp
import pypdf
import pytest
import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.core import primitives as p
from generator.core.model import Size
from generator.core.resources import FontUse, MissingResource, Needs, Resources, needs
from generator.core.vector import IconDef, IconShape
from generator.data.design.resources import load_resources
from generator.layout.page import Page, Placement, drawn
from generator.render.pdf import write_pdf
from generator.render.png import render_png

VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
SQUARE = IconDef("nowhere-square", 10.0, 10.0, (IconShape(
    (("M", (0.0, 0.0)), ("L", (10.0, 0.0)), ("L", (10.0, 10.0)), ("L", (0.0, 10.0)),
     ("Z", ())), None, "main", "none", 0.0),))
ART = "/no/such/folder/art.svg"


@pytest.fixture
def given() -> Resources:
    pdfmetrics.registerFont(TTFont("given-vera", str(VERA)))
    vera = FontUse("given-vera", VERA)
    return Resources(icons={"nowhere-square": SQUARE}, art={ART: SQUARE},
                     fonts={"made-up-font": vera, "sans": vera})


def face() -> p.Face:
    return p.Face(40.0, 30.0, 0.0, (
        p.Rect(0, 0, 40, 30, "#ffffff"),
        p.Icon("nowhere-square", 2, 2, 10, 10, fill="#ff0000"),
        p.Vector(ART, 20, 2, 10, 10),
        p.Text(((2.0, 25.0, "Given"),), "made-up-font", 12.0),
    ), "given")


def test_a_page_renders_from_the_resources_it_is_given_alone(tmp_path, given, pypdf_text):
    shown = face()
    page = Page(Size(40, 30), (Placement(shown, 0, 0, (0, 0, 40, 30)),), ())
    target = tmp_path / "given.pdf"
    write_pdf([page], target, title="given", resources=given)
    reader = pypdf.PdfReader(target)
    assert pypdf_text(target, 1).strip() == "Given"
    form = reader.pages[0]["/Resources"]["/XObject"]["/FormXob.face0"].get_object()
    assert {"/FormXob.icon0", "/FormXob.svg0"} <= set(form["/Resources"]["/XObject"])
    assert any(b"Vera" in str(font.get_object()["/BaseFont"]).encode()
               for font in form["/Resources"]["/Font"].values())

    image = render_png(shown, dpi=100, resources=given)
    red = [px for px in image.get_flattened_data() if px == (255, 0, 0)]
    black = [px for px in image.get_flattened_data() if px == (0, 0, 0)]
    assert len(red) > 100 and len(black) > 100  # the icon in red, the art in black


def test_a_name_the_renderer_was_not_given_is_a_clear_error(tmp_path, given):
    lacking = Resources(icons={}, art=given.art, fonts=given.fonts)
    with pytest.raises(MissingResource, match="not given the icon 'nowhere-square'"):
        render_png(face(), dpi=50, resources=lacking)


def test_needs_finds_every_name_text_icons_and_art_draw_with():
    rich = p.Text(((0.0, 5.0, "a b"),), "sans", 10.0,
                  spans=((0.0, 5.0, "a", "sans-bold", None), (4.0, 5.0, "b", "symbol", None)),
                  icons=(p.Icon("heart", 8, 2, 3, 3),))
    found = needs([rich, p.Icon("spade", 0, 0, 5, 5), p.Vector("art/x.svg", 0, 0, 5, 5),
                   p.Rect(0, 0, 1, 1)])
    assert found == Needs(frozenset({"heart", "spade"}), frozenset({"art/x.svg"}),
                          frozenset({"sans", "sans-bold", "symbol"}))


def test_a_kit_s_resources_are_loaded_from_its_pages_once():
    card = p.Face(20.0, 20.0, 0.0, (p.Icon("suit-moons", 0, 0, 5, 5),
                                     p.Text(((0.0, 5.0, "x"),), "condensed", 8.0)))
    page = Page(Size(50, 50), (Placement(card, 0, 0, (0, 0, 20, 20)),
                               Placement(card, 25, 0, (25, 0, 20, 20))),
                (p.Text(((0.0, 45.0, "footer"),), "sans-italic", 6.0),))
    loaded = load_resources(drawn([page]))
    assert set(loaded.icons) == {"suit-moons"}
    assert set(loaded.fonts) == {"condensed", "sans-italic", "sans"}  # sans: the PDF's own
    assert loaded.icon("suit-moons").view_w > 0
    assert pdfmetrics.getFont(loaded.font("condensed").pdf_name)  # registered for the PDF
    assert sum(1 for _ in drawn([page])) == 3  # the face placed twice is walked once


def test_render_imports_nothing_that_loads_or_looks_up():
    """The import-linter contract of pyproject.toml, held on its own: no chain of imports
    leads from generator.render to the data layer (or the faces that call it)."""
    graph = grimp.build_graph("generator", include_external_packages=False)
    for lower in ("generator.data", "generator.faces", "generator.expressions"):
        assert not graph.chain_exists("generator.render", lower, as_packages=True), lower
