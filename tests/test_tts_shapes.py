"""The Tabletop Simulator export draws every piece at its printed size and shape (issue 36, 6).

TTS draws a custom card on its own card mesh whatever the image (a poker card's shape at scale
1, a square for square sheet slots), so a card's drawn size is that mesh times the object's
scale on each axis; a tile (``Stretch`` off), token, board or PDF page takes its image's (or
page's) aspect and is ``scaleX`` inches wide. This model, read from the saved JSON and the
written images alone, must give every object the trim size the kit manifest prints it at."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from PIL import Image
from pypdf import PdfReader

from generator.data import load_game
from tests.designer import run

MM_PER_INCH = 25.4
CARD = (63.5, 88.9)


def local(url: str) -> Path:
    return Path(unquote(urlsplit(url).path))


def everything(objects: list[dict]) -> list[dict]:
    """Every object on the table and inside decks and bags."""
    found = []
    for obj in objects:
        found.append(obj)
        found += everything(obj.get("ContainedObjects", []))
    return found


def drawn_mm(obj: dict) -> tuple[float, float]:
    """The size TTS draws ``obj`` at, in mm (see the module's docstring)."""
    sx, sz = obj["Transform"]["scaleX"], obj["Transform"]["scaleZ"]
    if obj["Name"] in ("Card", "DeckCustom"):
        entry = next(iter(obj["CustomDeck"].values()))
        with Image.open(local(entry["FaceURL"])) as sheet:
            cell = (sheet.width / entry["NumWidth"], sheet.height / entry["NumHeight"])
        base = (CARD[0], CARD[0]) if abs(cell[1] / cell[0] - 1) < 0.01 else CARD
        return base[0] * sx, base[1] * sz
    assert sx == sz, obj["Name"]  # the others keep their image's aspect: one scale
    if obj["Name"] == "Custom_PDF":
        box = PdfReader(local(obj["CustomPDF"]["PDFUrl"])).pages[0].mediabox
        aspect = float(box.height) / float(box.width)
    else:
        with Image.open(local(obj["CustomImage"]["ImageURL"])) as image:
            aspect = image.height / image.width
        if obj["Name"] == "Custom_Tile" and obj["CustomImage"]["CustomTile"]["Stretch"]:
            aspect = 1.0  # stretched to a symmetrical tile
    return sx * MM_PER_INCH, sx * MM_PER_INCH * aspect


def printed_sizes(kit_json: Path) -> dict[str, tuple[float, float]]:
    """Each component's trim size as the kit manifest places it (a turned piece turned back)."""
    sizes: dict[str, tuple[float, float]] = {}
    for page in json.loads(kit_json.read_text(encoding="utf-8"))["pages"]:
        if page["content"] == "tile":  # a board's part: its glue strip included
            continue
        for piece in page["pieces"]:
            w, h = piece["w"], piece["h"]
            sizes[piece["component"]] = (h, w) if piece["rotation"] % 180 else (w, h)
    return sizes


@pytest.mark.parametrize("game", ["moving-day-boxes", "movement-game"])
def test_every_tts_object_is_drawn_at_its_printed_size(game, kits, tmp_path, capsys):
    """Fløe's scooters (56 x 162 mm), trucks (120 x 98) and score pad (190 x 72) were cards
    scaled evenly, drawn at a poker card's shape; now each object's drawn size is its printed
    size within 1 %, boards at their data's size."""
    code, _, err = run(capsys, "tts", game, "--dpi", "72", "--out", str(tmp_path))
    assert code == 0, err
    saved = json.loads((tmp_path / game / "tts" / f"{game}.json").read_text(encoding="utf-8"))
    built = kits(game)
    sizes = printed_sizes(built.path.with_name(f"{game}.kit.json"))
    components = {comp.name: comp for comp in load_game(game).components}
    checked = set()
    for obj in everything(saved["ObjectStates"]):
        if obj["Name"] in ("Bag", "Custom_PDF"):
            continue
        comp = components[obj["Description"]]
        want = sizes.get(comp.id, (comp.size.w, comp.size.h))
        w, h = drawn_mm(obj)
        assert (h / w) == pytest.approx(want[1] / want[0], rel=0.01), (comp.id, w, h, want)
        assert (w, h) == pytest.approx(want, rel=0.01), (comp.id, w, h, want)
        checked.add(comp.id)
    if game == "moving-day-boxes":
        assert {"vehicle-scooter", "vehicle-truck", "score-pad", "snacks"} <= checked
    else:
        assert "board-lattice" in checked


@pytest.mark.slow  # over tests/lanes.py's budget
def test_tts_decks_bags_rules_and_dpi(tmp_path, capsys):
    """No one-row deck sheet, a token face's copies in one bag, the rules as a Custom_PDF of
    the rules pages, and --dpi setting the images' resolution."""
    code, _, err = run(capsys, "tts", "moving-day-boxes", "--dpi", "72", "--out", str(tmp_path))
    assert code == 0, err
    folder = tmp_path / "moving-day-boxes" / "tts"
    objects = json.loads((folder / "moving-day-boxes.json").read_text("utf-8"))["ObjectStates"]
    for obj in everything(objects):
        for entry in obj.get("CustomDeck", {}).values():
            assert entry["NumHeight"] >= 2, obj["Nickname"]
    friends = next(o for o in objects if o["Description"] == "Friend cards")
    with Image.open(local(friends["CustomDeck"]["1"]["BackURL"])) as back:
        assert back.size == (round(63.5 / 25.4 * 72), round(88.9 / 25.4 * 72))
    bags = [o for o in objects if o["Name"] == "Bag"]
    assert sorted(len(b["ContainedObjects"]) for b in bags) == [8, 26]  # the two snack faces
    for bag in bags:
        assert len({o["CustomImage"]["ImageURL"] for o in bag["ContainedObjects"]}) == 1
    (rules,) = [o for o in objects if o["Name"] == "Custom_PDF"]
    pdf = rules["CustomPDF"]
    assert (pdf["PDFPage"], pdf["PDFPassword"]) == (0, "")
    pages = PdfReader(local(pdf["PDFUrl"])).pages
    assert len(pages) == 2 and "friends" in (pages[0].extract_text() or "").lower()
    code, _, err = run(capsys, "tts", "moving-day-boxes", "--dpi", "20", "--out", str(tmp_path))
    assert code == 2 and "--dpi" in err and "Traceback" not in err
