"""Pictures keep their shape: ``contain`` fits them inside the box, ``cover`` fills the box
and crops around ``focus``, ``stretch`` does what it says. Geometry property-tested; the PNG
renderer checked on a real picture (a circle stays a circle); the PDF clips to the box."""
from __future__ import annotations

import pypdf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from generator.core import primitives as p
from generator.core.fit import fit_box
from generator.core.model import Size
from generator.data.design.resources import load_resources
from generator.data.design.templates import load_template
from generator.layout.page import Page, Placement, drawn
from generator.render.pdf import write_pdf
from generator.render.png import render_png
from tests.drawing import render_face

sizes = st.floats(1, 500)
pixels = st.integers(1, 5000)
focus = st.tuples(st.floats(0, 1), st.floats(0, 1))


@given(sizes, sizes, pixels, pixels, focus)
def test_contain_keeps_the_shape_inside_the_box(w, h, pw, ph, f):
    (x, y, dw, dh), clip = fit_box((0, 0, w, h), (pw, ph), "contain", f)
    assert clip is None
    assert dw / dh == pytest.approx(pw / ph, rel=1e-6)
    assert x >= -1e-6 and x + dw <= w + 1e-6 and y >= -1e-6 and y + dh <= h + 1e-6
    assert dw == pytest.approx(w, rel=1e-6) or dh == pytest.approx(h, rel=1e-6)


@given(sizes, sizes, pixels, pixels, focus)
def test_cover_fills_the_box_and_crops_around_the_focus(w, h, pw, ph, f):
    (x, y, dw, dh), clip = fit_box((0, 0, w, h), (pw, ph), "cover", f)
    assert dw / dh == pytest.approx(pw / ph, rel=1e-6)
    assert x <= 1e-6 and x + dw >= w - 1e-6 and y <= 1e-6 and y + dh >= h - 1e-6
    # The focus point of the picture is where the box's same relative point is, or as near
    # as the picture's edges allow: it is always inside the box.
    fx, fy = x + f[0] * dw, y + f[1] * dh
    assert -1e-6 <= fx <= w + 1e-6 and -1e-6 <= fy <= h + 1e-6
    assert (clip is None) == (dw <= w + 1e-9 and dh <= h + 1e-9)


def test_stretch_is_the_box():
    assert fit_box((1, 2, 30, 40), (400, 300), "stretch") == ((1, 2, 30, 40), None)


@pytest.fixture
def circle_art(tmp_path, monkeypatch):
    """A 400 x 300 picture of a black circle on white, in a game folder the resolver allows."""
    from generator.data.files import resolve

    art = tmp_path / "circle.png"
    img = Image.new("RGB", (400, 300), "white")
    ImageDraw.Draw(img).ellipse((50, 0, 350, 300), fill="black")
    img.save(art, dpi=(300, 300))
    resolve.allow_game_folder(tmp_path)
    return tmp_path


def face_with(tmp_path, fit: str) -> p.Face:
    (tmp_path / "t.yaml").write_text(
        "elements:\n"
        f"  - image: {{path: circle.png, x: 0, y: 0, w: 51.5, h: 35, fit: {fit}}}\n",
        encoding="utf-8")
    return render_face(load_template("t", tmp_path), 51.5, 35, {})


def png_of(face: p.Face) -> Image.Image:
    return render_png(face, dpi=150, bleed=0, resources=load_resources(face.prims))


def dark_box(img: Image.Image) -> tuple[int, int]:
    """Width and height of the dark pixels' bounding box."""
    mask = img.convert("L").point(lambda v: 255 if v < 128 else 0)
    left, top, right, bottom = mask.getbbox()
    return right - left, bottom - top


def test_contain_draws_a_circle_as_a_circle_and_stretch_does_not(circle_art):
    w, h = dark_box(png_of(face_with(circle_art, "contain")))
    assert w == pytest.approx(h, rel=0.03)
    w, h = dark_box(png_of(face_with(circle_art, "stretch")))
    # A 4:3 picture stretched into a 51.5 x 35 mm box: the circle grows 10 % wider than tall.
    assert w / h == pytest.approx((51.5 / 400) / (35 / 300), rel=0.03)


def test_cover_crops_to_the_box_in_the_png_and_clips_in_the_pdf(circle_art, tmp_path):
    face = face_with(circle_art, "cover")
    (image,) = face.prims
    assert image.clip == (0, 0, 51.5, 35) and image.w == pytest.approx(51.5)
    assert image.h == pytest.approx(51.5 * 300 / 400) and image.y < 0
    png = png_of(face)
    _, h = dark_box(png)
    assert h >= png.size[1] - 2  # the circle is cut at top and bottom
    # The PDF draws the picture inside a clipping path of the box.
    page = Page(Size(100, 100), (Placement(face, 10, 10, (10, 10, 51.5, 35)),), ())
    target = tmp_path / "cover.pdf"
    write_pdf([page], target, title="t", subject="t",
              resources=load_resources(drawn([page])))
    form = pypdf.PdfReader(target).pages[0]["/Resources"]["/XObject"]["/FormXob.face0"]
    content = form.get_object().get_data()
    assert b"re W* n" in content  # the box, as a clipping path, before the picture
