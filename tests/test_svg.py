"""SVG art and SVG icons (generator/data/design/svg.py, svg_scan.py; render/pdf_vector.py,
png_paths.py): full path syntax, holes by the fill rule in both renderers, vectors (not
pictures) in the PDF, fit and clip like raster art, the colour convention, a project's own
icons/*.svg, and hostile files refused with the template's line."""
from __future__ import annotations

import math
import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from generator.core import primitives as p
from generator.core.errors import DataError
from generator.core.model import Size
from generator.data.design.icons import load_icon
from generator.data.design.resources import load_resources
from generator.data.design.svg import parse_d
from generator.data.design.templates import load_template
from generator.data.files import project, resolve
from generator.frontends.cli import main
from generator.layout.page import Page, Placement, drawn
from generator.render.pdf import write_pdf
from generator.render.png import render_png
from tests.drawing import render_face

DPI = 100
BLUE, RED, PAPER = (32, 64, 192), (192, 32, 32), (255, 255, 204)

# A 200 x 100 drawing: on the left a red blob drawn with a relative arc, S and T; on the
# right a blue square with a square hole, its outline relative, moved by a transform, the
# hole wound the other way (nonzero: a hole, as game-icons.net and Inkscape draw them).
HOLE_SVG = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100">
  <path d="M 10 50 a 40 40 0 0 1 80 0 s -10 40 -40 40 t -40 -40 z" fill="#c02020"/>
  <g transform="translate(100 0)">
    <path d="m10 10 h80 v80 h-80 z m20 20 v40 h40 v-40 z" fill="#2040c0"/>
  </g>
</svg>
"""


def mm_px(mm: float) -> int:
    return int(mm / 25.4 * DPI)


def face_pdf(face: p.Face, target: Path) -> Image.Image:
    """The face as a kit draws it (a form on a page of exactly its size), rasterised by
    PDFium at ``DPI``."""
    page = Page(Size(face.w, face.h), (Placement(face, 0, 0, (0, 0, face.w, face.h)),), ())
    write_pdf([page], target, title="t", subject="t",
              resources=load_resources(drawn([page])))
    doc = pdfium.PdfDocument(target.read_bytes())
    try:
        return doc[0].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


@pytest.fixture
def folder(tmp_path):
    """A game folder images may be read from, which is also the project in use (icons/)."""
    resolve.allow_game_folder(tmp_path)
    with project.using(project.Project(tmp_path)):
        yield tmp_path
    resolve.template_file.cache_clear()


def face_from(folder: Path, elements: str, w: float = 60, h: float = 40) -> p.Face:
    (folder / "t.yaml").write_text(
        f"elements:\n  - rect: {{x: 0, y: 0, w: {w}, h: {h}, fill: '#ffffcc'}}\n" + elements,
        encoding="utf-8")
    return render_face(load_template("t", folder), w, h, {})


def both(face: p.Face, folder: Path) -> dict[str, Image.Image]:
    return {"png": render_png(face, dpi=DPI, bleed=0, resources=load_resources(face.prims)),
            "pdf": face_pdf(face, folder / "f.pdf")}


# -- full path syntax, fill rule, vectors ---------------------------------------------------

def test_relative_arcs_smooth_curves_transform_and_a_hole_draw_the_same_in_both(folder):
    (folder / "art.svg").write_text(HOLE_SVG, encoding="utf-8")
    face = face_from(folder, "  - image: {path: art.svg, x: 0, y: 0, w: 60, h: 30}\n")
    (vector,) = [prim for prim in face.prims if isinstance(prim, p.Vector)]
    assert (vector.x, vector.y, vector.w, vector.h) == (0, 0, 60, 30)  # 2:1 in a 2:1 box
    scale = 60 / 200  # mm per SVG unit
    for name, image in both(face, folder).items():
        def at(x: float, y: float, image: Image.Image = image) -> tuple[int, ...]:
            return image.getpixel((mm_px(x * scale), mm_px(y * scale)))
        assert near(at(150, 50), PAPER), f"{name}: the square's hole is filled"
        assert near(at(115, 50), BLUE) and near(at(150, 15), BLUE), name
        assert near(at(50, 30), RED), f"{name}: the arc's half disc"
        assert near(at(50, 75), RED), f"{name}: the S and T curves' lower half"
        assert near(at(12, 85), PAPER), f"{name}: outside the blob"


def test_the_pdf_holds_svg_art_as_vector_paths_in_one_form_not_a_picture(folder):
    (folder / "art.svg").write_text(HOLE_SVG, encoding="utf-8")
    face = face_from(folder, "  - image: {path: art.svg, x: 0, y: 0, w: 60, h: 30}\n"
                             "  - image: {path: art.svg, x: 0, y: 30, w: 20, h: 10}\n")
    face_pdf(face, folder / "f.pdf")
    reader = pypdf.PdfReader(folder / "f.pdf")
    face_form = reader.pages[0]["/Resources"]["/XObject"]["/FormXob.face0"].get_object()
    objects = face_form["/Resources"]["/XObject"]
    kinds = {name: obj.get_object()["/Subtype"] for name, obj in objects.items()}
    assert kinds == {"/FormXob.svg0": "/Form"}  # one form for both uses, no /Image
    content = face_form.get_data()
    assert content.count(b"/FormXob.svg0 Do") == 2
    drawing = objects["/FormXob.svg0"].get_object().get_data()
    assert b" c" in drawing and b"\nf\n" in drawing.replace(b" f\n", b"\nf\n")  # curves, fill
    # Written twice, the same bytes (the kit's PDFs are byte-identical between runs).
    face_pdf(face, folder / "g.pdf")
    assert (folder / "f.pdf").read_bytes() == (folder / "g.pdf").read_bytes()


@pytest.mark.parametrize("rule, hole", [("nonzero", False), ("evenodd", True)])
def test_the_fill_rule_decides_whether_a_same_way_wound_inner_square_is_a_hole(folder, rule,
                                                                               hole):
    (folder / "r.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<path fill-rule="{rule}" fill="#2040c0" d="M0 0H100V100H0Z M30 30H70V70H30Z"/>'
        "</svg>", encoding="utf-8")
    face = face_from(folder, "  - image: {path: r.svg, x: 10, y: 0, w: 40, h: 40}\n")
    for name, image in both(face, folder).items():
        centre = image.getpixel((mm_px(30), mm_px(20)))
        assert near(centre, PAPER if hole else BLUE), f"{name} {rule}: {centre}"
        assert near(image.getpixel((mm_px(12), mm_px(2))), BLUE), name


def test_cover_fills_the_box_and_clips_in_both_renderers(folder):
    (folder / "art.svg").write_text(HOLE_SVG, encoding="utf-8")
    # A 2:1 drawing covering a square box 20 mm wide, the right end kept in view.
    face = face_from(folder, "  - image: {path: art.svg, x: 20, y: 10, w: 20, h: 20, "
                             "fit: cover, focus: [1, 0.5]}\n")
    (vector,) = [prim for prim in face.prims if isinstance(prim, p.Vector)]
    assert vector.clip == (20, 10, 20, 20) and vector.w == pytest.approx(40)
    assert vector.x == pytest.approx(0)
    for name, image in both(face, folder).items():
        assert near(image.getpixel((mm_px(25), mm_px(14))), BLUE), name  # the square
        assert near(image.getpixel((mm_px(30), mm_px(20))), PAPER), name  # its hole
        # The red blob would be at x 2..18 mm: clipped away, the paper shows.
        for x in (5, 10, 15, 19):
            assert near(image.getpixel((mm_px(x), mm_px(20))), PAPER), f"{name} at {x} mm"
        assert near(image.getpixel((mm_px(45), mm_px(20))), PAPER), name


# -- icons: the colour convention -------------------------------------------------------------

ICON_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10">
  <style>.gem { fill: #00ff00 }</style>
  <rect x="0" y="0" width="10" height="10"/>
  <rect x="10" y="0" width="10" height="10" style="fill: currentColor"/>
  <g class="accent"><rect x="20" y="0" width="10" height="10" fill="#123456"/></g>
  <rect x="30" y="0" width="10" height="10" class="gem"/>
</svg>
"""


def test_icon_colours_unset_and_currentcolor_take_fill_accent_class_takes_accent(folder):
    (folder / "icons").mkdir()
    (folder / "icons" / "gems.svg").write_text(ICON_SVG, encoding="utf-8")
    icon = load_icon("gems")
    assert [s.fill for s in icon.shapes] == ["main", "main", "accent", "#00ff00"]
    assert (icon.view_w, icon.view_h) == (40, 10)
    face = face_from(folder, "  - icon: {name: gems, x: 10, y: 10, w: 40, h: 10, "
                             "fill: '#c02020', accent: '#2040c0'}\n")
    for name, image in both(face, folder).items():
        colours = [image.getpixel((mm_px(10 + 5 + 10 * k), mm_px(15))) for k in range(4)]
        expected = [RED, RED, BLUE, (0, 255, 0)]
        assert all(near(c, e) for c, e in zip(colours, expected, strict=True)), \
            f"{name}: {colours}"


@pytest.mark.parametrize("rotate", [0, 90])
def test_an_icon_drawing_past_its_view_box_is_cut_to_it_in_both_renderers(folder, rotate):
    """The PDF's icon form shows its view box only (a browser cuts an SVG to its viewport
    too); the PNG drew the overflow, so the two renderers disagreed."""
    (folder / "icons").mkdir()
    (folder / "icons" / "spill.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<rect x="-4" y="-4" width="18" height="18"/></svg>', encoding="utf-8")
    spill = load_icon("spill")
    assert spill.extent == (-4, -4, 14, 14) and not spill.fits_view_box
    face = face_from(folder, "  - icon: {name: spill, x: 20, y: 10, w: 20, h: 20, "
                             f"fill: '#c02020', rotate: {rotate}}}\n")
    for name, image in both(face, folder).items():
        assert near(image.getpixel((mm_px(30), mm_px(20))), RED), (name, "centre")
        for x, y in ((17, 20), (30, 7), (43, 20), (30, 33)):  # 3 mm past each side
            assert near(image.getpixel((mm_px(x), mm_px(y))), PAPER), (name, x, y)


def test_svg_art_keeps_its_colours_black_where_unset(folder):
    (folder / "gems.svg").write_text(ICON_SVG, encoding="utf-8")
    face = face_from(folder, "  - image: {path: gems.svg, x: 10, y: 10, w: 40, h: 10}\n")
    image = render_png(face, dpi=DPI, bleed=0, resources=load_resources(face.prims))
    colours = [image.getpixel((mm_px(10 + 5 + 10 * k), mm_px(15))) for k in range(4)]
    expected = [(0, 0, 0), (0, 0, 0), (0x12, 0x34, 0x56), (0, 255, 0)]
    assert all(near(c, e, 8) for c, e in zip(colours, expected, strict=True)), colours


def test_translucent_shapes_blend_alike_and_group_opacity_is_refused(folder):
    (folder / "icons").mkdir()
    (folder / "icons" / "veil.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<rect width="10" height="10" fill="#0000ff" fill-opacity="0.5"/></svg>',
        encoding="utf-8")
    face = face_from(folder, "  - icon: {name: veil, x: 10, y: 10, w: 20, h: 20}\n")
    for name, image in both(face, folder).items():
        # Half blue over the pale yellow paper.
        assert near(image.getpixel((mm_px(20), mm_px(20))), (128, 128, 230), 12), name
    (folder / "icons" / "veil.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><g opacity="0.5">'
        '<rect width="10" height="10"/></g></svg>', encoding="utf-8")
    with pytest.raises(DataError, match=r"t\.yaml:3: .*opacity on a group"):
        face_from(folder, "  - icon: {name: veil, x: 10, y: 10, w: 20, h: 20}\n")


def test_round_line_ends_and_use_of_defs_draw_in_both(folder):
    (folder / "icons").mkdir()
    (folder / "icons" / "dash.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10" fill="none" '
        'stroke="currentColor" stroke-width="4" stroke-linecap="round">'
        '<defs><path id="bar" d="M5 5H20"/></defs><use href="#bar"/>'
        '<use href="#bar" transform="translate(15 0)" stroke-linecap="butt"/></svg>',
        encoding="utf-8")
    face = face_from(folder, "  - icon: {name: dash, x: 10, y: 10, w: 40, h: 10, "
                             "fill: '#2040c0'}\n")
    for name, image in both(face, folder).items():
        # A round end reaches half the width (2 mm) past x = 5; a butt end stops at 35.
        assert near(image.getpixel((mm_px(10 + 3.6), mm_px(15))), BLUE), name
        assert near(image.getpixel((mm_px(10 + 36.4), mm_px(15))), PAPER), name
        assert near(image.getpixel((mm_px(10 + 27), mm_px(15))), BLUE), name


@pytest.mark.parametrize("body, message", [
    ('<linearGradient id="g"/><path d="M0 0h9v9z" fill="url(#g)"/>', "gradients"),
    ('<style>.x{fill:url(#g)}</style><path class="x" d="M0 0h9v9z"/>', "gradients"),
    ('<path d="M0 0h9v9z" clip-path="url(#c)"/>', "clip-path"),
    ('<path d="M0 0h9v9z" style="mask: url(#m)"/>', "masks are not supported"),
    ('<g filter="url(#f)"><path d="M0 0h9v9z"/></g>', "filters"),
    ('<svg viewBox="0 0 1 1"><path d="M0 0h1v1z"/></svg>', "nested <svg>"),
    ('<symbol id="s"><path d="M0 0h9v9z"/></symbol><use href="#s"/>', "<use> of a <symbol>"),
    ('<script>alert(1)</script>', "scripts are not allowed"),
    ('<image href="#x"/>', "pictures or documents inside an SVG"),
    ('<style>@import url(evil.css);</style><path d="M0 0h9v9z"/>', "@import"),
    ('<path d="M0 0h9v9z" fill="rgb(1 2 3)"/>', "not a colour we read"),
    ('<path d="M0 0h9v9z" fill="redd"/>', "not a CSS colour name"),
    ('<g opacity="0.5"><path d="M0 0h9v9z"/></g>', "opacity on a group"),
    ('<path d="M0 0h1e30v9z"/>', "coordinates out of range"),
    # Bounded before the SVG library's regular expressions (quadratic on such garbage) see it.
    ("<style>" + "/* " * 5000 + '</style><path d="M0 0h9v9z"/>', "comment in the <style>"),
    ('<g transform="' + "translate(" * 200 + '"><path d="M0 0h9v9z"/></g>', "at most 1,000"),
])
def test_content_we_cannot_draw_faithfully_is_refused_with_a_reason(folder, body, message):
    (folder / "x.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">'
                                  + body + "</svg>", encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(message)):
        face_from(folder, "  - image: {path: x.svg, x: 0, y: 0, w: 9, h: 9}\n")


def test_an_svg_without_a_size_is_refused(folder):
    (folder / "x.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h9v9z"/>'
                                  "</svg>", encoding="utf-8")
    with pytest.raises(DataError, match="needs a viewBox"):
        face_from(folder, "  - image: {path: x.svg, x: 0, y: 0, w: 9, h: 9}\n")


# -- a project's own icons/*.svg, and hostile files through the command line ----------------

SWORD = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <path d="M0 0h512v512H0z" fill="none"/>
  <path d="M256 32l40 300h-80zM176 332h160v30H176zM240 362h32v100h-32z"/>
  <circle class="accent" cx="256" cy="480" r="24"/>
</svg>
"""


@pytest.fixture
def mygame(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["init", "mygame"]) == 0
    capsys.readouterr()
    yield tmp_path / "mygame"
    project.use(project.Project())


def build(capsys, folder: Path) -> tuple[int, str]:
    code = main(["build", str(folder)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_projects_own_svg_icon_builds_into_its_kit(mygame, capsys):
    (mygame / "icons" / "sword.svg").write_text(SWORD, encoding="utf-8")
    game = mygame / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "icon: suit-moons", "icon: sword"), encoding="utf-8")
    code, out = build(capsys, mygame)
    assert code == 0, out
    pdf = next((mygame / "output").rglob("mygame.pdf"))
    reader = pypdf.PdfReader(pdf)
    forms = set()
    for page in reader.pages:
        for obj in page["/Resources"].get("/XObject", {}).values():
            inner = obj.get_object()["/Resources"].get("/XObject", {})
            forms |= {str(n) for n in inner}
    assert forms and not any("Im" in n for n in forms)


HOSTILE = {
    "entity bomb": ('<?xml version="1.0"?>\n<!DOCTYPE svg [\n <!ENTITY a "aaaaaaaaaa">\n'
                    ' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n'
                    ' <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n'
                    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><desc>&c;</desc>'
                    '<path d="M0 0h9v9z"/></svg>', "line 2: a DOCTYPE declaration is not allowed"),
    "external href": ('<svg xmlns="http://www.w3.org/2000/svg" '
                      'xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 9 9">\n'
                      '<use xlink:href="file:///etc/passwd#x"/></svg>',
                      "line 2: <use> refers to 'file:///etc/passwd#x'"),
    "3 MB": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><!--'
             + "x" * (3 * 1024 * 1024) + '--><path d="M0 0h9v9z"/></svg>',
             "the limit for an SVG is 2 MB"),
    "text": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">\n<path d="M0 0h9v9z"/>\n'
             '<text x="1" y="5">Hi</text></svg>', "line 3: <text>: text is not drawn"),
    "use of itself": ('<svg xmlns="http://www.w3.org/2000/svg" '
                      'xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 9 9">\n'
                      '<g id="g"><path d="M0 0h9v9z"/><use xlink:href="#g"/></g></svg>',
                      "refers to an element that contains it"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_svg_is_a_clear_error_naming_the_template_line_exit_2(mygame, capsys, case):
    content, message = HOSTILE[case]
    (mygame / "art").mkdir()
    (mygame / "art" / "pic.svg").write_text(content, encoding="utf-8")
    card = mygame / "faces" / "card.yaml"
    card.write_text(card.read_text(encoding="utf-8")
                    + "  - image: {path: art/pic.svg, x: 5, y: 5, w: 20, h: 20}\n",
                    encoding="utf-8")
    line = len(card.read_text(encoding="utf-8").splitlines())
    code, out = build(capsys, mygame)
    assert code == 2, out
    assert "Traceback" not in out
    assert re.search(rf"card\.yaml:{line}: elements\[\d+\]\.image\.path: .*pic\.svg", out), out
    assert message in out, out


def test_a_hostile_svg_icon_named_by_a_data_row_names_the_svgs_line(mygame, capsys):
    content, _ = HOSTILE["text"]
    (mygame / "icons" / "sun.yaml").unlink()
    (mygame / "icons" / "sun.svg").write_text(content, encoding="utf-8")
    code, out = build(capsys, mygame)  # the suits table names it: icon: sun
    assert code == 2 and "Traceback" not in out, out
    assert re.search(r"icons/sun\.svg:3: <text>: text is not drawn", out), out


def test_an_icon_both_yaml_and_svg_is_ambiguous(mygame, capsys):
    (mygame / "icons" / "sun.svg").write_text(SWORD, encoding="utf-8")
    code, out = build(capsys, mygame)
    assert code == 2 and "both sun.yaml and sun.svg" in out, out


# -- path syntax: relative and absolute forms are the same path ------------------------------

coords = st.integers(-200, 200)


@st.composite
def commands(draw):
    """A path as (command, absolute numbers) pairs; arcs with their flags and radii."""
    out = [("M", (draw(coords), draw(coords)))]
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from("LHVCSQTAZM"))
        if kind in "LMT":
            out.append((kind, (draw(coords), draw(coords))))
        elif kind in "HV":
            out.append((kind, (draw(coords),)))
        elif kind == "C":
            out.append((kind, tuple(draw(coords) for _ in range(6))))
        elif kind in "SQ":
            out.append((kind, tuple(draw(coords) for _ in range(4))))
        elif kind == "A":
            out.append((kind, (draw(st.integers(5, 300)), draw(st.integers(5, 300)),
                               draw(st.integers(0, 90)), draw(st.integers(0, 1)),
                               draw(st.integers(0, 1)), draw(coords), draw(coords))))
        else:
            out.append(("Z", ()))
    return out


def as_text(path: list[tuple[str, tuple[int, ...]]], relative: bool) -> str:
    """The path written with absolute commands, or every command relative (lower case)."""
    parts = []
    x = y = sx = sy = 0
    for kind, nums in path:
        if not relative:
            parts.append(kind + " " + " ".join(map(str, nums)))
        else:
            if kind in "HV":
                rel = (nums[0] - (x if kind == "H" else y),)
            elif kind == "A":
                rel = (*nums[:5], nums[5] - x, nums[6] - y)
            else:
                rel = tuple(v - (x if i % 2 == 0 else y) for i, v in enumerate(nums))
            parts.append(kind.lower() + " " + " ".join(map(str, rel)))
        if kind == "Z":
            x, y = sx, sy
        elif kind == "H":
            x = nums[0]
        elif kind == "V":
            y = nums[0]
        elif nums:
            x, y = nums[-2], nums[-1]
        if kind == "M":
            sx, sy = x, y
    return " ".join(parts)


@settings(max_examples=150, deadline=None)
@given(commands())
def test_relative_and_absolute_commands_give_the_same_segments(path):
    absolute = parse_d(as_text(path, relative=False))
    relative = parse_d(as_text(path, relative=True))
    assert [op for op, _ in absolute] == [op for op, _ in relative]
    for (_, a), (_, b) in zip(absolute, relative, strict=True):
        assert all(math.isclose(u, v, abs_tol=1e-6) for u, v in zip(a, b, strict=True))
    assert all(op in "MLCZ" for op, _ in absolute)


def test_parse_d_turns_arcs_and_quadratics_into_cubics_through_the_same_points():
    segments = parse_d("M0 0 A10 10 0 0 1 20 0 Q30 10 40 0 T60 0")
    assert [op for op, _ in segments] == ["M"] + ["C"] * (len(segments) - 1)
    assert segments[-1][1][-2:] == pytest.approx((60, 0))
    ends = [args[-2:] for _, args in segments]
    assert any(e == pytest.approx((20, 0)) for e in ends)  # the arc ends where it should
    # The half circle's top: the curve through (10, -10) (y down: the sweep goes up).
    top = min(args[-1] for _, args in segments[1:] if args[-2] <= 20 + 1e-9)
    assert top == pytest.approx(-10, abs=1e-6)


def test_png_and_pdf_of_svg_art_agree_by_the_parity_measure(folder):
    parity = pytest.importorskip("tests.parity")
    (folder / "art.svg").write_text(HOLE_SVG, encoding="utf-8")
    face = face_from(folder, "  - image: {path: art.svg, x: 0, y: 0, w: 60, h: 30}\n"
                             "  - image: {path: art.svg, x: 5, y: 30, w: 20, h: 20, fit: cover}\n",
                     h=50)
    result = parity.compare_face(face)
    assert result.ok, result.describe()


def test_a_png_named_file_that_is_svg_says_to_name_it_svg(folder):
    (folder / "art.png").write_bytes(HOLE_SVG.encode())
    with pytest.raises(DataError, match=r"name it \.svg"):
        face_from(folder, "  - image: {path: art.png, x: 0, y: 0, w: 60, h: 30}\n")
