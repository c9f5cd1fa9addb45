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
from generator.data import project
from generator.layout.calibration import calibration_pages
from generator.layout.gutterfold import gutterfold_pages
from generator.layout.kit import Piece
from generator.orchestration.build import BuildOptions
from generator.orchestration.export import export_pngs

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
def test_png_presets_give_exact_pixel_sizes_and_paired_names(request, tmp_path, preset, size,
                                                             game, cards):
    game = request.getfixturevalue("starter") if game == "starter" else game
    folder, count = export_pngs(game, BuildOptions(out_dir=tmp_path / "out"), preset=preset)
    deck = sorted((folder / "deck").glob("*.png"))
    fronts = [f for f in deck if f.stem.endswith("-front")]
    backs = {f.name for f in deck if f.stem.endswith("-back")}
    assert len(fronts) == cards and count >= 2 * cards
    for front in fronts:  # every front has its back under the same name
        assert front.name.replace("-front", "-back") in backs
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


def test_a_png_set_says_how_many_of_each_to_order(tmp_path):
    """13 friend images make 36 cards, 2 snack images 34 snacks: order.csv (and the same rows
    in manifest.json) gives every file with its copies, trim size and pixel size as written."""
    folder, count = export_pngs("moving-day-boxes", BuildOptions(out_dir=tmp_path), dpi=72)
    with (folder / "order.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["file", "component", "label", "copies", "width_mm", "height_mm",
                             "width_px", "height_px"]
    assert len(rows) == count == len(list(folder.rglob("*.png")))
    assert len({row["file"] for row in rows}) == len(rows)  # distinct files, distinct names
    labels = [(r["component"], r["label"]) for r in rows if not r["file"].endswith("-back.png")]
    assert len(set(labels)) == len(labels)  # two different tiles never share a label
    fronts = [row for row in rows if not row["file"].endswith("-back.png")]
    friends = [row for row in fronts if row["component"] == "friends"]
    snacks = [row for row in fronts if row["component"] == "snacks"]
    assert (len(friends), sum(int(r["copies"]) for r in friends)) == (13, 36)
    assert sorted(int(r["copies"]) for r in snacks) == [8, 26]
    for row in rows:
        with Image.open(folder / row["file"]) as image:
            assert image.size == (int(row["width_px"]), int(row["height_px"]))
        # the image is the trim plus the preset's 1/8 in bleed each side, at 72 dpi
        assert int(row["width_px"]) == pytest.approx((float(row["width_mm"]) + 2 * 3.175)
                                                     * 72 / 25.4, abs=1)
    backs = {row["file"]: row for row in rows if row["file"].endswith("-back.png")}
    for front in friends:
        back = backs[front["file"].replace("-front", "-back")]
        assert (back["copies"], back["label"]) == (front["copies"], front["label"])
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["dpi"], manifest["bleed_mm"]) == (72, 3.175)
    assert [r["file"] for r in manifest["files"]] == [r["file"] for r in rows]
