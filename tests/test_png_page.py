"""Whole kit pages as pictures for the studio (issue 28): generator/render/png_page.py.

The reference is poppler's ``pdftoppm`` reading the PDF the same pages make (CI installs it;
users need not). Measured at 50 dpi on the pages below (supersampling 2): the mean absolute
difference over the page is 0.9 to 4.4 (of 255, per channel; text-heavy rules pages reach
10, from glyph anti-aliasing, and are left out). Over each piece's clip, both pictures
blurred by 2 pixels so anti-aliasing and half-pixel rounding average out: at most 2.9 for a
rectangular piece, 3.4 to 6.8 for a round token (its thick rings are stroked in whole pixels
of the supersampled canvas, png_shapes.ellipse, so each edge may sit half a pixel from
poppler's). Wrongly drawn pieces score far above that: cards turned the wrong way 5.4 to 6.4,
every face 1 mm right and 0.5 mm down 5.3 to 11.5 on cards and 9.3 to 19.6 on tokens (a board
tile, a big plain face, moves its score least: 0.8 to 1.7). Hence the limits: 6 over a page,
4 over a rectangular piece, 8 over a round one.
"""
from __future__ import annotations

import math
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from generator.core import context
from generator.core import primitives as p
from generator.core.model import Size
from generator.core.resources import Resources
from generator.core.vector import IconDef, IconShape
from generator.data.design.resources import load_resources
from generator.data.tables.loader import load_game
from generator.data.translation import i18n
from generator.layout.manifest import manifest
from generator.layout.page import Kit, Page, Placement, Sheet, drawn, origin_for
from generator.orchestration.build import build_kit
from generator.orchestration.options import BuildOptions
from generator.render.pdf import write_pdf
from generator.render.png_page import MAX_DPI, FaceImages, page_pixels, render_page
from tests.needs import need

pytestmark = pytest.mark.slow  # builds whole kits in-process and runs pdftoppm

DPI = 50
PAGE_LIMIT = 6.0  # mean absolute difference over a whole page (see the module's docstring)
PIECE_LIMIT = 4.0  # over one piece's clip, both blurred
ROUND_LIMIT = 8.0  # the same over a round piece


@dataclass(frozen=True)
class Drawn:
    pages: list[Page]
    resources: Resources
    pdf: Path


def _build(game_id: str, folder: Path) -> Drawn:
    """The kit's pages as ``_build`` makes them, and its PDF as ``write_kit`` writes it."""
    with context.building():
        game = load_game(game_id)
        opts = BuildOptions()
        with i18n.session(game, opts.lang):
            pages = build_kit(game, opts).pages
            resources = load_resources(drawn(pages))
            pdf = folder / f"{game_id}.pdf"
            write_pdf(pages, pdf, title=game_id, resources=resources)
    return Drawn(pages, resources, pdf)


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Callable[[str], Drawn]:
    made: dict[str, Drawn] = {}

    def get(game_id: str) -> Drawn:
        if game_id not in made:
            made[game_id] = _build(game_id, tmp_path_factory.mktemp(game_id))
        return made[game_id]
    return get


def pdftoppm(pdf: Path, number: int, dpi: int, folder: Path) -> Image.Image:
    need("poppler")  # skipped without it; under CI=1 a failure
    tool = shutil.which("pdftoppm")
    assert tool is not None
    stem = folder / f"ref-{number}"
    subprocess.run([tool, "-r", str(dpi), "-f", str(number), "-l", str(number), "-singlefile",
                    "-png", str(pdf), str(stem)], check=True)
    with Image.open(stem.with_suffix(".png")) as ref:
        return ref.convert("RGB")


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel (0-255) over the part both cover (poppler rounds
    the page's width up, we to the nearest pixel)."""
    box = (0, 0, min(a.width, b.width), min(a.height, b.height))
    return sum(ImageStat.Stat(ImageChops.difference(a.crop(box), b.crop(box))).mean) / 3


def pixel_box(box: tuple[float, float, float, float], dpi: float) -> tuple[int, int, int, int]:
    k = dpi / 25.4
    x, y, w, h = box
    return (round(x * k), round(y * k), round((x + w) * k), round((y + h) * k))


# moving-target: 3 a board tile and cards turned 90, 4 their backs turned 270, 8 a deck's back
# nine times, 19 a board tile alone; monster-day: 16 round tokens' backs, 17 a tile of the
# village mat (its page 15, the tokens' fronts, shares its sheet with the aids: text-heavy
# pages differ by their text smoothing, the module's docstring says).
PAGES = [("moving-target", 3), ("moving-target", 4), ("moving-target", 8),
         ("moving-target", 19), ("monster-day", 16), ("monster-day", 17)]


@pytest.mark.needs("poppler")  # skipped without it; under CI=1 a failure
@pytest.mark.parametrize(("game_id", "number"), PAGES)
def test_a_page_looks_as_poppler_draws_the_pdf(kit, tmp_path, game_id, number):
    built = kit(game_id)
    page = built.pages[number - 1]
    mine = render_page(page, DPI, resources=built.resources)
    ref = pdftoppm(built.pdf, number, DPI, tmp_path)
    assert mine.size == page_pixels(page, DPI) and mine.mode == "RGB"
    assert abs(mine.width - ref.width) <= 1 and abs(mine.height - ref.height) <= 1
    assert difference(mine, ref) <= PAGE_LIMIT
    assert page.placements
    for pl in page.placements:
        box = pixel_box(pl.clip, DPI)
        ours, theirs = (image.crop(box).filter(ImageFilter.BoxBlur(2)) for image in (mine, ref))
        limit = ROUND_LIMIT if pl.round else PIECE_LIMIT
        assert difference(ours, theirs) <= limit, (pl.component, pl.label, pl.rotate)


def test_the_pages_tested_hold_turned_round_and_tiled_pieces(kit):
    """What the comparison above covers, so a change of the kits cannot empty it quietly."""
    shown = [kit(game_id).pages[number - 1] for game_id, number in PAGES]
    placed = [pl for page in shown for pl in page.placements]
    assert {pl.rotate for pl in placed} >= {0, 90, 270}
    assert any(pl.round for pl in placed)
    assert any(pl.trim_override is not None for pl in placed)  # a board's tile
    assert {page.content for page in shown} >= {"tile", "pieces"}


RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)


def marked_face(w: float = 30.0, h: float = 20.0, bleed: float = 3.0) -> p.Face:
    """Red over its trim and bleed, its top-left quarter blue: a turn shows where it went."""
    return p.Face(w, h, bleed, (p.Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, "#ff0000"),
                                p.Rect(0, 0, w / 2, h / 2, "#0000ff")), "marked")


def at(image: Image.Image, x_mm: float, y_mm: float, dpi: float) -> tuple[int, int, int]:
    """The pixel whose area holds the page point (x, y) in mm."""
    k = dpi / 25.4
    value = image.getpixel((math.floor(x_mm * k), math.floor(y_mm * k)))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
@pytest.mark.parametrize("round_", [False, True])
def test_a_face_lands_in_its_manifest_box_turned_and_clipped(rotate, round_):
    face = marked_face()
    x, y = origin_for(face, (0, 0, face.w, face.h), (40.0, 50.0), rotate)
    probe = Placement(face, x, y, (0, 0, 0, 0), rotate)
    clip = probe.trim  # cut at the trim: the bleed must not show
    pl = Placement(face, x, y, clip, rotate, round_, "tokens", "marked")
    page = Page(Size(120, 110), (pl,), ())
    kit = Kit("test", "custom", page.size, "none", (Sheet(page),))
    (piece,) = manifest(kit)["pages"][0]["pieces"]
    assert (piece["x"], piece["y"], piece["rotation"]) == (40.0, 50.0, rotate)
    dpi = 100.0
    image = render_page(page, dpi, resources=Resources())
    left, top, w, h = piece["x"], piece["y"], piece["w"], piece["h"]
    inset = 0.6  # mm: past the pixel on the edge
    # The blue quarter lands where to_page takes the face's top-left quarter.
    assert at(image, *pl.to_page(face.w / 4, face.h / 4), dpi) == BLUE
    assert at(image, *pl.to_page(3 * face.w / 4, 3 * face.h / 4), dpi) == RED
    for outside in ((left - inset, top + h / 2), (left + w + inset, top + h / 2),
                    (left + w / 2, top - inset), (left + w / 2, top + h + inset)):
        assert at(image, *outside, dpi) == WHITE  # the bleed is clipped away
    corners = [(left + inset, top + inset), (left + w - inset, top + inset),
               (left + inset, top + h - inset), (left + w - inset, top + h - inset)]
    if round_:  # the circle inscribed in the clip: the box's corners stay white
        assert all(at(image, *corner, dpi) == WHITE for corner in corners)
        r = min(w, h) / 2 - inset
        assert at(image, left + w / 2 + r, top + h / 2, dpi) in (RED, BLUE)
    else:
        assert all(at(image, *corner, dpi) in (RED, BLUE) for corner in corners)


def test_a_board_shows_through_its_tiles_windows_and_is_drawn_once():
    """Two tiles of one board on a page: each a window (its clip) on the same big face."""
    board = p.Face(80.0, 40.0, 0.0, (p.Rect(0, 0, 40, 40, "#ff0000"),
                                     p.Rect(40, 0, 40, 40, "#0000ff")), "board")
    tiles = []
    for k, (region, target) in enumerate((((0.0, 0.0, 40.0, 40.0), (10.0, 10.0)),
                                          ((40.0, 0.0, 40.0, 40.0), (10.0, 60.0)))):
        x, y = origin_for(board, region, target, 0)
        tiles.append(Placement(board, x, y, (*target, 40.0, 40.0), 0, False, "board",
                               f"tile {k + 1}", trim_override=(*target, 40.0, 40.0)))
    page = Page(Size(60, 110), tuple(tiles), ())
    faces = FaceImages()
    image = render_page(page, 100, resources=Resources(), faces=faces)
    assert at(image, 30, 30, 100) == RED  # the board's left half, in the first window
    assert at(image, 30, 80, 100) == BLUE  # its right half, in the second
    assert at(image, 55, 30, 100) == WHITE and at(image, 5, 80, 100) == WHITE
    assert faces.renders == 1


def test_each_distinct_face_is_drawn_once_and_an_equal_one_never_again(kit):
    built = kit("moving-target")
    backs = built.pages[7]  # a deck's back, nine times
    assert len(backs.placements) == 9 and len({pl.face for pl in backs.placements}) == 1
    faces = FaceImages()
    render_page(backs, DPI, resources=built.resources, faces=faces)
    assert faces.renders == 1
    fronts = built.pages[6]  # nine cards, nine faces
    render_page(fronts, DPI, resources=built.resources, faces=faces)
    assert faces.renders == 1 + len({pl.face for pl in fronts.placements}) == 10
    # A rebuild makes equal faces, new objects: none is drawn again.
    rebuilt = replace(backs, placements=tuple(
        replace(pl, face=replace(pl.face)) for pl in backs.placements))
    assert rebuilt.placements[0].face is not backs.placements[0].face
    again = render_page(rebuilt, DPI, resources=built.resources, faces=faces)
    assert faces.renders == 10
    assert again.tobytes() == render_page(backs, DPI, resources=built.resources).tobytes()
    # Another resolution is another picture.
    render_page(backs, 72, resources=built.resources, faces=faces)
    assert faces.renders == 11


SQUARE = IconDef("square", 10.0, 10.0, (IconShape(
    (("M", (0.0, 0.0)), ("L", (10.0, 0.0)), ("L", (10.0, 10.0)), ("L", (0.0, 10.0)),
     ("Z", ())), None, "main", "none", 0.0),))
DOT = IconDef("square", 10.0, 10.0, (IconShape((), (5.0, 5.0, 2.0), "main", "none", 0.0),))


def test_a_face_is_drawn_again_when_an_icon_it_names_is_drawn_otherwise():
    """An edited icon file gives an equal Face (it names the icon) but another picture."""
    face = p.Face(20.0, 20.0, 0.0, (p.Icon("square", 0, 0, 20, 20, fill="#0000ff"),))
    page = Page(Size(20, 20), (Placement(face, 0, 0, (0, 0, 20, 20)),), ())
    faces = FaceImages()
    first = render_page(page, 100, resources=Resources(icons={"square": SQUARE}), faces=faces)
    second = render_page(page, 100, resources=Resources(icons={"square": DOT}), faces=faces)
    assert faces.renders == 2
    assert at(first, 2, 2, 100) == BLUE and at(second, 2, 2, 100) == WHITE
    render_page(page, 100, resources=Resources(icons={"square": SQUARE}), faces=faces)
    assert faces.renders == 2  # the first picture is still held


def test_the_face_table_keeps_within_its_pixel_budget():
    one = marked_face(20.0, 20.0, 0.0)
    size = page_pixels(Page(Size(20, 20), (), ()), 100)
    budget = size[0] * size[1] * 2  # room for two faces' pictures
    faces = FaceImages(max_pixels=budget)
    shown = [replace(one, label=str(k), prims=(*one.prims, p.Rect(k, k, 1, 1, "#00ff00")))
             for k in range(4)]
    for face in shown:
        faces.image(face, 100, 2, resources=Resources())
        assert faces.pixels <= budget
    assert faces.renders == 4 and len(faces) == 2
    faces.image(shown[3], 100, 2, resources=Resources())  # the newest is held
    faces.image(shown[0], 100, 2, resources=Resources())  # the oldest went first
    assert (faces.renders, faces.hits) == (5, 1)
    tiny = FaceImages(max_pixels=10)  # a picture larger than the whole budget is not kept
    tiny.image(one, 100, 2, resources=Resources())
    assert len(tiny) == 0 and tiny.pixels == 0


@pytest.mark.parametrize("dpi", [0, -50, 2, MAX_DPI + 1, 10_000, math.nan, math.inf])
def test_a_resolution_out_of_range_is_refused_in_one_line(dpi):
    page = Page(Size(210, 297), (), ())
    with pytest.raises(ValueError, match=r"^a page is drawn at 5 to 300 dpi, not "):
        render_page(page, dpi, resources=Resources())


def test_a_page_too_big_to_draw_is_refused_before_any_memory_is_taken():
    huge = Page(Size(2000, 2000), (), ())  # 23622 pixels square at 300 dpi
    with pytest.raises(ValueError, match="more than the 25,000,000 a page may have"):
        render_page(huge, 300, resources=Resources())


@pytest.mark.parametrize("supersample", [0, 9, 2.5, True])
def test_a_supersampling_out_of_range_is_refused(supersample):
    with pytest.raises(ValueError, match=f"^supersampling is 1 to 4 times, not {supersample}$"):
        render_page(Page(Size(10, 10), (), ()), 50, resources=Resources(),
                    supersample=supersample)
