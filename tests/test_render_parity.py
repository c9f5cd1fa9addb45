"""Renderer parity: every distinct face of every component of the five built-in kits, drawn by
the Pillow PNG renderer and by the ReportLab PDF renderer (rasterised by PDFium), must match
piece by piece (issue 13, item 6). The machinery, and what each metric means, is in
tests/parity.py; this module runs it on the kits, on a face per feature of issue 13, and
proves on a real card that it catches what it is meant to catch.

Resolution: 100 dpi (0.254 mm a pixel), the PNG supersampled 3x as the exporter does. Lower
and a 0.3 mm rule is one pixel, where anti-aliasing alone decides everything; higher costs
time (the 269 distinct faces take about 30 s of CPU at 100 dpi, most of it drawing them).

What the two rasterisers do differently, and is no error of ours (so the tolerance must
absorb it): PDFium fills an axis-aligned rectangle out to whole pixels (the PNG gives edge
pixels their true coverage: a 0.8 mm bar comes out up to two pixels heavier in the PDF);
it draws text a little heavier; FreeType hints the PNG's glyph stems onto the pixel grid,
PDFium does not. A 1.2 px rule on a pixel boundary is two mid greys in one picture and a
dark and a light pixel in the other: 70 levels apart in the same place.

Measured on the 269 faces (before the fixes of this item, with the same metric, in brackets):

=========================  ======  ===== (before)  =====  ====== (before)
metric                     bound   median           max
=========================  ======  ===== ========  =====  ====== ========
mean |difference|, levels  10      1.1   (4.2)     6.1    (17.7)
clear region, mm2          1.0     0     (2.6)     0.45   (379)
tint region, mm2           4.0     0     (5.5)     2.3    (552)
faces failing                      0 of 269 (166)
=========================  ======  ===== ========  =====  ====== ========

The mean's worst are text-dense faces (player aids, rules pages: the text weight above); the
clear region's worst a hinted stem on the village board; the tint region's worst a 0.8 mm
bar of an icon drawn with rectangles on a rules page (PDFium's whole-pixel fill).
``clear`` is computed after a 1-pixel box blur at 48 levels: without the blur, at 64 levels,
thin rules' anti-aliasing alone reached 1.2 mm2 (board frames), at 48 levels 6.3 mm2.

Deliberately broken faces (a Moving Target court card, PNG as drawn, PDF broken; the
metric that fails, its value and bound):

- the 36.5 x 64.9 mm framed panel moved right 0.5 mm: clear 31.5 mm2 (1.0), tint 46.8 (4.0);
  moved 0.2 mm: tint 14.8 (4.0); moved 0.1 mm passes (tint 0);
- a 2 mm dot missing: clear 4.5 mm2 (1.0), tint 8.7 (4.0); a 1 mm dot: clear 1.35;
- the panel's colour 30 levels off (one channel): tint 1891 mm2 (4.0); 20 levels passes;
- the "J" (18 pt) moved right 0.5 mm: clear 4.8 mm2; 0.3 mm passes;
- the spade icon turned 90 degrees: clear 2.3 mm2; 180 degrees: clear 2.4 mm2.

The mean bound only catches a face wrong all over (it is 6.1 on the densest correct face):
the regions are the real test. Each failure names the kit, component and piece, the three
values with their bounds and where the worst region is, and saves PNG | PDF | differences
side by side under pytest's temporary folder.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from generator.core import primitives as p
from generator.data import load_game
from generator.orchestration.drawing import faces_key, game_theme, render_faces
from generator.orchestration.options import BuildOptions
from tests import parity

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

KITS = ("moving-target", "monster-day", "moving-day", "moving-day-boxes", "movement-game")
DPI = parity.DEFAULT_DPI
COMPONENTS = [(game, comp.id) for game in KITS for comp in load_game(game).components]


@cache
def kit_faces(game_id: str) -> dict[str, tuple[p.Face, ...]]:
    """Each component's distinct faces (fronts, then backs), as the kit draws them (from the
    face cache when a build of this run drew them: they come back exactly as drawn)."""
    game = load_game(game_id)
    opts = BuildOptions()
    theme = game_theme(game, opts)
    shared = faces_key(game, theme, opts)
    found = {}
    for comp in game.components:
        fronts, backs = render_faces(game, comp, theme, opts, shared)
        found[comp.id] = tuple(dict.fromkeys([*fronts, *(backs or [])]))
    return found


@cache
def faces_pdf(faces: tuple[p.Face, ...]) -> bytes:
    """The faces written into one PDF, a page each (once, as a kit is written)."""
    return parity.faces_pdf(faces, DPI)


@pytest.fixture(scope="session")
def verdict(run_once) -> Callable[[tuple[p.Face, ...], int, str], str | None]:
    """``verdict(faces, index, name)``: None if the two pictures of ``faces[index]`` agree,
    else what differs and where its diff image is; once per test run for each distinct face
    (a face shared by two components or kits is compared once, whichever xdist worker meets
    it first). Its PDF picture is rasterised from one PDF of all ``faces``."""
    def get(faces: tuple[p.Face, ...], index: int, name: str) -> str | None:
        face = faces[index]

        def compare(folder: Path) -> str | None:
            result = parity.compare_face(face, DPI, pdf=(faces_pdf(faces), index))
            if result.ok:
                return None
            target = folder / f"{name}.png"
            return f"{result.describe()}\n    diff image: {result.save_diff(target)}"

        digest = hashlib.sha256(repr(face).encode()).hexdigest()
        return run_once(f"parity/{digest}", compare)[1]
    return get


@pytest.mark.parametrize(("game_id", "component"), COMPONENTS,
                         ids=[f"{g}:{c}" for g, c in COMPONENTS])
def test_png_matches_pdf_for_every_piece(game_id, component, verdict):
    faces = kit_faces(game_id)[component]
    assert faces, f"{game_id}: component {component} draws nothing"
    problems = [found for index in range(len(faces))
                if (found := verdict(faces, index, f"{game_id}-{component}-{index:03d}"))]
    assert not problems, (f"{game_id}: {component}: the PNG and the PDF differ on "
                          f"{len(problems)} of {len(faces)} faces:\n" + "\n".join(problems))


# -- the test of the test: a broken face must fail, on a real card ---------------------------

def _card() -> p.Face:
    """A court card of Moving Target: a framed panel, icons, big and small text."""
    return kit_faces("moving-target")["deck"][10]


def _swap(face: p.Face, index: int, new: p.Primitive | None) -> p.Face:
    prims = list(face.prims)
    if new is None:
        del prims[index]
    else:
        prims[index] = new
    return replace(face, prims=tuple(prims))


def _first(face: p.Face, kind: type, test=lambda prim: True) -> int:
    return next(i for i, prim in enumerate(face.prims) if isinstance(prim, kind) and test(prim))


def test_the_card_used_below_passes_as_drawn():
    assert parity.compare_face(_card(), DPI).ok


def test_a_rectangle_moved_half_a_millimetre_fails():
    card = _card()
    i = _first(card, p.Rect, lambda r: r.stroke and r.w < 50)
    moved = _swap(card, i, replace(card.prims[i], x=card.prims[i].x + 0.5))
    result = parity.compare_face(card, DPI, pdf_face=moved)
    assert not result.ok and result.clear_area > parity.DEFAULT.clear_area, result.describe()


def test_a_missing_two_millimetre_dot_fails():
    card = replace(_card(), prims=(*_card().prims, p.Circle(31.75, 80.0, 1.0, fill="#1b1b1b")))
    result = parity.compare_face(card, DPI, pdf_face=_card())
    assert not result.ok and result.clear_area > parity.DEFAULT.clear_area, result.describe()


def test_a_colour_thirty_levels_off_fails():
    card = _card()
    i = _first(card, p.Rect, lambda r: r.fill and r.fill != "#ffffff")
    rect = card.prims[i]
    r, g, b = (int(rect.fill[k:k + 2], 16) for k in (1, 3, 5))
    tinted = _swap(card, i, replace(rect, fill=f"#{r:02x}{g:02x}{max(0, b - 30):02x}"))
    result = parity.compare_face(card, DPI, pdf_face=tinted)
    assert not result.ok and result.tint_area > parity.DEFAULT.tint_area, result.describe()


def test_a_text_line_shifted_half_a_millimetre_fails():
    card = _card()
    i = _first(card, p.Text, lambda t: t.size >= 7)
    text = card.prims[i]
    shifted = _swap(card, i, replace(text, lines=tuple((x + 0.5, y, s) for x, y, s in text.lines)))
    result = parity.compare_face(card, DPI, pdf_face=shifted)
    assert not result.ok, result.describe()


def test_an_icon_turned_the_wrong_way_fails():
    card = _card()
    i = _first(card, p.Icon)
    turned = _swap(card, i, replace(card.prims[i], rotate=(card.prims[i].rotate + 90) % 360))
    result = parity.compare_face(card, DPI, pdf_face=turned)
    assert not result.ok, result.describe()


# -- the features of issue 13 and the primitives' corners, each on its own face ------------

def _face(*prims: p.Primitive, w: float = 60.0, h: float = 40.0) -> p.Face:
    return p.Face(w, h, 2.0, (p.Rect(-2, -2, w + 4, h + 4, fill="#f4efe1"), *prims), "case")


def _assert_parity(face: p.Face, tmp_path: Path) -> None:
    result = parity.compare_face(face, DPI)
    if not result.ok:
        pytest.fail(f"{result.describe()}\n    diff image: "
                    f"{result.save_diff(tmp_path / 'parity-diff.png')}")


def test_strokes_dashes_joins_and_turned_text_agree(tmp_path):
    zigzag = (("M", (5.0, 30.0)), ("L", (12.0, 22.0)), ("L", (19.0, 30.0)), ("L", (26.0, 21.0)))
    ring = (("M", (40.0, 20.0)), ("L", (55.0, 20.0)), ("L", (55.0, 35.0)), ("L", (40.0, 35.0)),
            ("Z", ()), ("M", (44.0, 24.0)), ("L", (51.0, 24.0)), ("L", (51.0, 31.0)),
            ("L", (44.0, 31.0)), ("Z", ()))
    face = _face(
        p.Rect(3, 3, 30, 14, stroke="#1b1b1b", width=0.6, radius=3, dash=(1.5, 1.0)),
        p.Rect(36, 3, 20, 12, fill="#ffffff", stroke="#a8322a", width=1.2, radius=2),
        p.Line(3, 19, 57, 19, stroke="#1f3a5f", width=0.4, dash=(2.0, 1.0, 0.5, 1.0)),
        p.Path(zigzag, stroke="#1f3a5f", width=1.0),
        p.Path(ring, fill="#1b1b1b"),  # even-odd: the hole stays open
        p.Circle(30, 30, 4, fill="#ffffff", stroke="#1b1b1b", width=0.8),
        p.Text(((22.0, 12.0, "Turned"),), "sans-bold", 9, rotate=90, ox=22.0, oy=10.0),
        p.Text(((40.0, 12.0, "Upside"),), "sans", 7, rotate=180, ox=45.0, oy=10.0),
        p.Icon("spade", 30, 23, 6, 6, rotate=270))
    _assert_parity(face, tmp_path)


def test_a_cropped_photo_agrees(tmp_path):
    from PIL import Image, ImageDraw
    photo = Image.new("RGB", (300, 180), "#4a7db3")
    draw = ImageDraw.Draw(photo)
    draw.rectangle((0, 120, 300, 180), fill="#3f7f3a")
    draw.ellipse((200, 20, 260, 80), fill="#f2d14b")
    draw.rectangle((40, 60, 90, 150), fill="#7a3b2e")
    photo.save(tmp_path / "photo.png")
    cover = p.Image(str(tmp_path / "photo.png"), 2.0, 2.0, 60.0, 36.0, clip=(12.0, 2.0, 30.0, 30.0))
    _assert_parity(_face(cover), tmp_path)


def test_translucent_colours_agree(tmp_path):
    stripes = tuple(p.Rect(x, 0, 3, 40, fill="#1f3a5f") for x in range(0, 60, 6))
    face = _face(*stripes,
                 p.Rect(5, 5, 30, 20, fill="#a8322a80", stroke="#1b1b1b66", width=1.0, radius=2),
                 p.Circle(45, 20, 10, fill="#f2d14bb3"),
                 p.Text(((5.0, 34.0, "Half seen"),), "sans-bold", 12, fill="#ffffff99"))
    _assert_parity(face, tmp_path)


def test_rich_text_runs_and_inline_icons_agree(tmp_path):
    spans = ((3.0, 10.0, "Play a ", "sans", "#1b1b1b"), (13.2, 10.0, "bold", "sans-bold", None),
             (20.5, 10.0, " word in ", "sans", None), (33.0, 10.0, "red", "sans-italic", "#a8322a"),
             (3.0, 16.0, "then score", "condensed", None))
    icon = p.Icon("heart", 40.0, 7.0, 3.5, 3.5, fill="#a8322a")
    text = p.Text(((3.0, 10.0, "Play a bold word in red"), (3.0, 16.0, "then score")), "sans", 9,
                  spans=spans, icons=(icon,))
    _assert_parity(_face(text), tmp_path)


def test_a_project_font_agrees(tmp_path):
    import reportlab

    from generator.data.files import project
    (tmp_path / "fonts").mkdir()
    vera = Path(reportlab.__file__).parent / "fonts" / "VeraBd.ttf"
    (tmp_path / "fonts" / "Vera-Bold.ttf").write_bytes(vera.read_bytes())
    text = p.Text(((3.0, 14.0, "Moving Day: 10 boxes"),), "Vera-Bold", 14)
    try:
        with project.using(project.Project(tmp_path)):
            _assert_parity(_face(text), tmp_path)
    finally:
        project.use(project.Project())
