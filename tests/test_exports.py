"""Print-shop exports, gutterfold sheets, the duplex calibration sheet and progress output."""
from __future__ import annotations

import csv
import io
import json

import pytest
from PIL import Image
from pypdf import PdfReader

from generator.core import primitives as p
from generator.core.progress import Progress, track
from generator.core.sizes import PAPER_SIZES
from generator.data import load_game
from generator.data.files import project
from generator.layout.calibration import calibration_pages
from generator.layout.gutterfold import gutterfold_pages
from generator.layout.kit import Piece
from generator.orchestration.export import export_pngs
from generator.orchestration.options import BuildOptions

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

MM = 72 / 25.4


@pytest.fixture
def starter(tmp_path) -> str:
    """`pnp init`'s starter project: 18 poker cards (and 2 tokens), a PNG set of 21 faces."""
    with project.using(project.Project()):
        project.init_project(tmp_path / "starter")
    return str(tmp_path / "starter" / "game.yaml")


# Moving Target's 52-card deck at the default preset; the print shops' presets on the starter
# project's poker cards (the same sizes, a third of the faces to rasterise at 300 dpi).
@pytest.mark.parametrize(("preset", "size", "game", "cards"), [
    ("tgc", (825, 1125), "starter", 18), ("mpc", (822, 1122), "starter", 18),
    ("default", (825, 1125), "moving-target", 52)])
def test_png_presets_give_exact_pixel_sizes_and_one_back_a_deck(request, tmp_path, preset, size,
                                                                game, cards):
    """One image per distinct face: the deck's fronts and its back once (not once per card),
    and order.csv pairing every front with that back."""
    game = request.getfixturevalue("starter") if game == "starter" else game
    folder, count = export_pngs(game, BuildOptions(out_dir=tmp_path / "out"), preset=preset)
    deck = sorted((folder / "deck").glob("*.png"))
    fronts = [f for f in deck if f.stem.endswith("-front")]
    assert len(fronts) == cards and [f.name for f in deck if "back" in f.name] == ["back.png"]
    assert count == len(list(folder.rglob("*.png")))
    with (folder / "order.csv").open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["component"] == "deck"]
    assert {row["back"] for row in rows} == {"deck/back.png"} and len(rows) == cards
    with Image.open(fronts[0]) as image:
        assert image.size == size
        assert round(image.info["dpi"][0]) == 300


def test_gutterfold_puts_each_back_mirrored_about_the_fold():
    front = p.Face(63.5, 88.9, 3.175, (), "front")
    back = p.Face(63.5, 88.9, 3.175, (), "back")
    pieces = [Piece(front, back, "deck", f"card {i}") for i in range(10)]
    pages = gutterfold_pages([pieces], PAPER_SIZES["a4"], 5.0, "test")
    sheet = pages[0].size
    assert (sheet.w, sheet.h) == (297.0, 210.0)  # turned landscape
    assert len(pages) == 3  # 2 columns x 2 rows per half: 4 cards a sheet
    for page in pages:
        pairs = list(zip(page.placements[::2], page.placements[1::2], strict=True))
        for f, b in pairs:
            assert f.face.label == "front" and b.face.label == "back"
            assert (f.side, b.side) == ("front", "back") and f.label == b.label
            assert f.x + f.face.w <= sheet.w / 2 <= b.x  # fronts left of the fold, backs right
            assert b.x == pytest.approx(sheet.w - f.x - f.face.w) and b.y == f.y


def test_gutterfold_pdf_builds_for_a_whole_deck(kits):
    kit = kits("moving-target", layout="gutterfold")
    target, pages = kit.path, kit.pages
    reader = PdfReader(target)
    assert target.name == "moving-target-gutterfold.pdf" and len(reader.pages) == pages
    widths = {round(float(page.mediabox.width) / MM) for page in reader.pages}
    assert 297 in widths  # the card sheets are landscape A4


@pytest.mark.parametrize("flip", ["long", "short"])
def test_calibration_sheet_has_a_front_and_a_mirrored_back(flip):
    paper = PAPER_SIZES["a4"]
    front, back = calibration_pages(paper, flip)
    assert front.side == "front" and back.side == "back"
    lines = [e for e in front.furniture if isinstance(e, p.Line)]
    verticals = sorted(round(e.x1, 2) for e in lines if e.x1 == e.x2)
    assert verticals == [round(paper.w * k, 2) for k in (0.25, 0.5, 0.75)]
    assert len(back.furniture) > 20  # the scales and their labels


def test_progress_is_quiet_when_not_a_terminal():
    quiet = io.StringIO()
    assert list(track(range(5), "work", 5, stream=quiet)) == [0, 1, 2, 3, 4]
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    bar = Progress("work", 2, stream=shown, enabled=True)
    bar.step()
    bar.step()
    bar.close()
    assert "work [" in shown.getvalue() and "2/2" in shown.getvalue()


def order_rows(folder) -> list[dict[str, str]]:
    with (folder / "order.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_png_set_says_how_many_of_each_to_order(tmp_path):
    """13 friend images make 36 cards, 2 snack images 34 snacks: order.csv (and the same rows
    in manifest.json) gives every piece with its front and back files, its copies, trim size
    and pixel size as written, and the copies add up to the kit's pieces."""
    folder, count = export_pngs("moving-day-boxes", BuildOptions(out_dir=tmp_path), dpi=72)
    rows = order_rows(folder)
    assert list(rows[0]) == ["file", "back", "component", "label", "copies", "width_mm",
                             "height_mm", "width_px", "height_px"]
    written = {p.relative_to(folder).as_posix() for p in folder.rglob("*.png")}
    named = {row["file"] for row in rows} | {row["back"] for row in rows if row["back"]}
    assert named == written and count == len(written)  # every file named, none left over
    labels = [(r["component"], r["label"]) for r in rows]
    assert len(set(labels)) == len(labels)  # two different tiles never share a label
    friends = [row for row in rows if row["component"] == "friends"]
    snacks = [row for row in rows if row["component"] == "snacks"]
    assert (len(friends), sum(int(r["copies"]) for r in friends)) == (13, 36)
    assert sorted(int(r["copies"]) for r in snacks) == [8, 26]
    game = load_game("moving-day-boxes")
    for comp in game.components:
        if comp.kind != "sheet":
            assert sum(int(r["copies"]) for r in rows if r["component"] == comp.id) == comp.total
    aids = [row for row in rows if row["component"] == "aids"]  # four aids, drawn the same
    assert [(r["copies"], r["back"]) for r in aids] == [("4", "")]
    for row in rows:
        with Image.open(folder / row["file"]) as image:
            assert image.size == (int(row["width_px"]), int(row["height_px"]))
        # the image is the trim plus the preset's 1/8 in bleed each side, at 72 dpi
        assert int(row["width_px"]) == pytest.approx((float(row["width_mm"]) + 2 * 3.175)
                                                     * 72 / 25.4, abs=1)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["dpi"], manifest["bleed_mm"]) == (72, 3.175)
    assert [r["file"] for r in manifest["files"]] == [r["file"] for r in rows]


def test_png_set_writes_a_shared_back_once_and_counts_every_card(tmp_path):
    """Moving Target: 52 fronts, one back file, its aid's copies in one file; the copies of
    order.csv add up to each component's pieces."""
    folder, count = export_pngs("moving-target", BuildOptions(out_dir=tmp_path), dpi=72)
    backs = [p for p in folder.rglob("*.png") if "back" in p.name]
    assert [p.relative_to(folder).as_posix() for p in backs] == ["deck/back.png"]
    rows = order_rows(folder)
    game = load_game("moving-target")
    for comp in game.components:
        if comp.kind != "sheet":
            assert sum(int(r["copies"]) for r in rows if r["component"] == comp.id) == comp.total
    assert count == len(list(folder.rglob("*.png"))) == len(rows) + 1  # a front each, one back


def test_png_set_draws_a_face_once_across_components(tmp_path):
    """Magnus (moving-day): three decks share one back (written once, in the first deck's
    folder), and the two player aids, drawn the same, are one file ordered twice."""
    folder, _ = export_pngs("moving-day", BuildOptions(out_dir=tmp_path), dpi=72)
    rows = order_rows(folder)
    backs = {row["back"] for row in rows if row["component"] in ("aces", "extended", "play")}
    assert len(backs) == 1 and len([p for p in folder.rglob("back*.png")]) == 1
    assert [row["copies"] for row in rows if row["component"] == "aid"] == ["2"]
