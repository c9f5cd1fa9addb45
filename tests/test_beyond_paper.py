"""Beyond paper (issue 27, item 11): `pnp build --cut-svg` (one SVG of cut lines per sheet
side, generator/layout/cutfile.py) and `pnp tts` (a Tabletop Simulator saved object,
generator/orchestration/exporters/tts.py), driven through the command line as a designer would,
on the starter project of `pnp init` grown with a hostile label, rounded corners, tiles and a board.

The TTS format checked is the one TTS writes and reads (Saves/Saved Objects): ``ObjectStates``;
``DeckCustom`` with ``DeckIDs``, ``CustomDeck`` entries keyed by a number (``FaceURL``,
``BackURL``, ``NumWidth`` <= 10, ``NumHeight`` <= 7, ``BackIsHidden``, ``UniqueBack``) and
``ContainedObjects`` of ``Card`` whose ``CardID`` is ``deck key * 100 + slot``;
``Custom_Token``, ``Custom_Tile`` and ``Custom_Board`` with a ``CustomImage``."""
from __future__ import annotations

import hashlib
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from generator.core.model import Size
from generator.core.primitives import Face
from generator.layout.cutfile import cut_svg, xml_text
from generator.layout.page import Page, Placement
from generator.orchestration.exporters.tts import COLS, PER_SHEET, ROWS
from tests.designer import edit, run

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = 'Dawn & <Dusk> "quoted" \'single\' ]]>'
EXTRA = 60  # cards added to the starter's 18: 78 distinct faces, two deck sheets




@pytest.fixture
def project(in_tmp, capsys) -> Path:
    """The starter, its deck with 3 mm corners and a card named with XML's special
    characters."""
    assert run(capsys, "init", "mygame")[0] == 0
    game = in_tmp / "mygame" / "game.yaml"
    edit(game, "{name: Dawn, suit: sun, value: 1}",
         "{name: " + json.dumps(HOSTILE) + ", suit: sun, value: 1}")
    edit(game, "    size: poker                 # 63.5 x 88.9 mm\n",
         "    size: poker                 # 63.5 x 88.9 mm\n    corner: 3\n")
    return in_tmp / "mygame"


def manifest(folder: Path, name: str = "mygame") -> dict:
    return json.loads((folder / "output" / name / f"{name}.kit.json").read_text("utf-8"))


# -- cut files ------------------------------------------------------------------------------

def test_cut_svg_matches_the_manifest(project, capsys):
    code, _, err = run(capsys, "build", "mygame", "--cut-svg")
    assert code == 0, err
    kit = manifest(project)
    folder = project / "output" / "mygame" / "mygame-cut"
    sides = [p for p in kit["pages"] if p["pieces"]]
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == sorted(
        f"sheet-{p['sheet']:03d}-{p['side']}.svg" for p in sides)
    paper = kit["paper"]
    shapes_seen = {"rect": 0, "circle": 0}
    for page in sides:
        root = ET.parse(folder / f"sheet-{page['sheet']:03d}-{page['side']}.svg").getroot()
        assert root.tag == SVG + "svg"
        assert root.get("width") == f"{paper['w']:g}mm"
        assert root.get("height") == f"{paper['h']:g}mm"
        assert [float(v) for v in root.get("viewBox").split()] == [0, 0, paper["w"], paper["h"]]
        group = root.find(SVG + "g")
        assert group.get("fill") == "none" and float(group.get("stroke-width")) <= 0.05
        shapes = [el for el in group if el.tag in (SVG + "rect", SVG + "circle")]
        assert len(shapes) == len(page["pieces"])  # one shape per piece
        for n, (shape, piece) in enumerate(zip(shapes, page["pieces"], strict=True), start=1):
            x, y, w, h = piece["x"], piece["y"], piece["w"], piece["h"]
            ident = f"s{page['sheet']}-{page['side']}-{n:03d}-{piece['component']}"
            assert shape.get("id") == ident
            assert shape.find(SVG + "title").text == piece["label"]
            if piece["component"] == "tokens":  # shape: round
                assert shape.tag == SVG + "circle"
                got = [float(shape.get(a)) for a in ("cx", "cy", "r")]
                assert got == pytest.approx([x + w / 2, y + h / 2, w / 2], abs=0.011)
            else:
                assert shape.tag == SVG + "rect"
                got = [float(shape.get(a)) for a in ("x", "y", "width", "height")]
                assert got == pytest.approx([x, y, w, h], abs=0.011)
                assert float(shape.get("rx")) == float(shape.get("ry")) == 3.0  # corner: 3
            shapes_seen[shape.tag.removeprefix(SVG)] += 1
    deck = sum(p["component"] == "deck" for page in sides for p in page["pieces"])
    assert deck == 2 * 18  # fronts and their backs
    assert shapes_seen == {"rect": deck, "circle": 18}
    titles = [t.text for f in files for t in ET.parse(f).getroot().iter(SVG + "title")]
    assert HOSTILE in titles  # escaped on the way in, read back whole


def test_gutterfold_cut_files_hold_only_the_front_half(project, capsys):
    """A gutterfold sheet is folded before it is cut: the backs lie behind the fronts, so the
    cut file holds the front half's shapes, one per front, and nothing past the fold (a
    cutter given both halves cut the folded sheet twice, the second time through nothing)."""
    code, _, err = run(capsys, "build", "mygame", "--cut-svg", "--layout", "gutterfold")
    assert code == 0, err
    kit = json.loads((project / "output" / "mygame" / "mygame-gutterfold.kit.json")
                     .read_text("utf-8"))
    folder = project / "output" / "mygame" / "mygame-gutterfold-cut"
    folded = [p for p in kit["pages"] if any(pc["face"] == "back" for pc in p["pieces"])]
    assert folded
    for page in folded:
        root = ET.parse(folder / f"sheet-{page['sheet']:03d}-front.svg").getroot()
        fold = float(root.get("viewBox").split()[2]) / 2
        shapes = [el for el in root.iter() if el.tag in (SVG + "rect", SVG + "circle")]
        fronts = [pc for pc in page["pieces"] if pc["face"] == "front"]
        assert len(shapes) == len(fronts)
        for shape in shapes:
            right = (float(shape.get("x")) + float(shape.get("width")) if shape.tag == SVG + "rect"
                     else float(shape.get("cx")) + float(shape.get("r")))
            assert right <= fold, shape.get("id")


def test_cut_svg_cuts_dice_nets_along_their_outline(tmp_path, capsys):
    """A die net is cut on its solid outline (the cross of squares with its glue tabs, the
    d4's triangle with its tabs), not round the box the nets share: one path per dice piece,
    one closed loop per die, every corner inside the piece's box and the cut passing the
    tabs' outer corners (a rectangle round the box would cut every tab off)."""
    code, _, err = run(capsys, "build", "moving-day", "--cut-svg", "--out", tmp_path)
    assert code == 0, err
    kit = json.loads((tmp_path / "moving-day" / "moving-day.kit.json").read_text("utf-8"))
    folder = tmp_path / "moving-day" / "moving-day-cut"
    seen = 0
    for page in kit["pages"]:
        for n, pc in enumerate(page["pieces"], start=1):
            if pc["component"] != "dice":
                continue
            root = ET.parse(folder / f"sheet-{page['sheet']:03d}-{page['side']}.svg").getroot()
            ident = f"s{page['sheet']}-{page['side']}-{n:03d}-dice"
            shape = next(el for el in root.iter() if el.get("id") == ident)
            assert shape.tag == SVG + "path"
            loops = [loop.split(" L ") for loop in
                     shape.get("d").removeprefix("M ").removesuffix(" Z").split(" Z M ")]
            assert len(loops) == 4  # 2 d6 and 2 d4 (Tetrahedra)
            assert sorted(len(loop) for loop in loops) == [12, 12, 28, 28]
            for loop in loops:
                for corner in loop:
                    x, y = map(float, corner.split())
                    assert pc["x"] - 0.01 <= x <= pc["x"] + pc["w"] + 0.01
                    assert pc["y"] - 0.01 <= y <= pc["y"] + pc["h"] + 0.01
            seen += 1
    assert seen == 1


def test_the_readme_says_print_then_cut_registration_marks_are_not_printed():
    """Cricut's and Silhouette's print-then-cut find the sheet by registration marks their own
    software prints; the kit prints none, and the README's cut-file section says so (it told a
    reader to print the PDF and load the file into the cutter, which such a cutter refuses)."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    section = readme.split("### Cut files", 1)[1].split("\n### ", 1)[0]
    flat = " ".join(section.split())
    assert "no registration marks" in flat
    assert "Cricut" in flat and "Silhouette" in flat


def test_cut_svg_is_opt_in_and_corner_is_checked(project, capsys):
    code, _, err = run(capsys, "build", "mygame")
    assert code == 0, err
    assert not (project / "output" / "mygame" / "mygame-cut").exists()
    edit(project / "game.yaml", "    corner: 3\n", "    corner: -1\n")
    code, _, err = run(capsys, "build", "mygame", "--cut-svg")
    assert code == 2 and "corner" in err and "game.yaml" in err and "Traceback" not in err


@given(st.text(max_size=40))
def test_any_label_leaves_the_svg_well_formed(label):
    face = Face(20.0, 30.0, 0.0, (), label)
    page = Page(Size(100.0, 100.0), (Placement(face, 10.0, 10.0, (10, 10, 20, 30),
                                               component="c", label=label),), ())
    root = ET.fromstring(cut_svg(page, 1, {"c": 50.0}))
    rect = root.find(f"{SVG}g/{SVG}rect")
    assert rect.find(SVG + "title").text == (xml_text(label) or "c")
    assert float(rect.get("rx")) == 10.0  # a corner is at most half the shorter side


# -- Tabletop Simulator ---------------------------------------------------------------------

@pytest.fixture
def table_game(project) -> Path:
    """The project with 78 distinct cards (two deck sheets), two-sided tiles and a board."""
    game = project / "game.yaml"
    rows = "".join(f"    - {{name: Extra {i}, suit: leaf, value: {1 + i % 9}}}\n"
                   for i in range(EXTRA))
    edit(game, "    - {name: Forest, suit: leaf, value: 6}\n",
         "    - {name: Forest, suit: leaf, value: 6, count: 2}\n" + rows)
    edit(game, "\n# What a correct set looks like", """  - id: tiles
    kind: tile
    name: Tiles
    size: {w: 30, h: 30}
    face: token
    back: token
    items:
      - {value: 2, count: 3}
      - {value: 3}
  - id: board
    kind: board
    name: Board
    size: {w: 150, h: 100}
    face: token
    assembly: lay it in the middle
    items:
      - {value: 9}

# What a correct set looks like""")
    return project


def saved(folder: Path) -> dict:
    return json.loads((folder / "output" / "mygame" / "tts" / "mygame.json").read_text("utf-8"))


def local(url: str) -> Path:
    parts = urlsplit(url)
    assert parts.scheme == "file" and parts.netloc == ""
    return Path(unquote(parts.path))


def test_tts_saved_object_follows_the_format(table_game, capsys):
    code, out, err = run(capsys, "tts", "mygame", "--force")
    assert code == 0, err
    assert "tts/mygame.json" in out
    assert run(capsys, "build", "mygame", "--force")[0] == 0
    fronts: dict[str, int] = {}
    for page in manifest(table_game)["pages"]:
        for piece in page["pieces"]:
            if piece["face"] == "front":
                fronts[piece["component"]] = fronts.get(piece["component"], 0) + 1
    data = saved(table_game)
    folder = table_game / "output" / "mygame" / "tts"
    objects = data["ObjectStates"]
    by_name: dict[str, list[dict]] = {}
    for obj in objects:
        by_name.setdefault(obj["Name"], []).append(obj)
    assert sorted(by_name) == ["Bag", "Custom_Board", "Custom_Tile", "DeckCustom"]
    for bag in by_name.pop("Bag"):  # a token face's copies, in one bag
        held = bag["ContainedObjects"]
        assert len(held) > 1 and bag["Bag"] == {"Order": 0}
        assert len({o["CustomImage"]["ImageURL"] for o in held}) == 1
        for obj in held:
            by_name.setdefault(obj["Name"], []).append(obj)

    (deck,) = by_name["DeckCustom"]
    cards = deck["ContainedObjects"]
    assert len(cards) == len(deck["DeckIDs"]) == fronts["deck"] == 18 + EXTRA + 1
    assert deck["DeckIDs"] == [card["CardID"] for card in cards]
    assert sorted(deck["CustomDeck"]) == ["1", "2"]  # 78 distinct faces: 69 + 9
    assert {card["Name"] for card in cards} == {"Card"}
    assert HOSTILE in {card["Nickname"] for card in cards}
    assert len({card["CardID"] for card in cards}) == 18 + EXTRA  # Forest twice, one id
    with Image.open(local(deck["CustomDeck"]["1"]["BackURL"])) as back:
        face_px = back.size
    assert face_px == (round(63.5 / 25.4 * 150), round(88.9 / 25.4 * 150))
    for key, entry in deck["CustomDeck"].items():
        cols, rows = entry["NumWidth"], entry["NumHeight"]
        assert 1 <= cols <= COLS and 1 <= rows <= ROWS
        assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
        with Image.open(local(entry["FaceURL"])) as sheet:
            assert sheet.size == (cols * face_px[0], rows * face_px[1])
        slots = [c["CardID"] % 100 for c in cards if c["CardID"] // 100 == int(key)]
        assert max(slots) < cols * rows - 1 <= PER_SHEET  # the last slot stays the hidden card's
        for card in cards:
            if card["CardID"] // 100 == int(key):
                assert card["CustomDeck"] == {key: entry}
    assert [deck["CustomDeck"][k]["NumWidth"] * deck["CustomDeck"][k]["NumHeight"]
            for k in ("1", "2")] == [70, 10]

    assert len(by_name["Custom_Token"]) == fronts["tokens"] == 18
    for token in by_name["Custom_Token"]:
        with Image.open(local(token["CustomImage"]["ImageURL"])) as image:
            assert image.mode == "RGBA" and image.getpixel((0, 0))[3] == 0  # cut round
        assert "CustomToken" in token["CustomImage"]
    assert len(by_name["Custom_Tile"]) == fronts["tiles"] == 4
    for tile in by_name["Custom_Tile"]:
        image = tile["CustomImage"]
        assert image["CustomTile"]["Type"] == 0
        assert local(image["ImageSecondaryURL"]).name.endswith("-back.png")
    (board,) = by_name["Custom_Board"]
    with Image.open(local(board["CustomImage"]["ImageURL"])) as image:
        assert image.size == (round(150 / 25.4 * 150), round(100 / 25.4 * 150))

    held = [o for bag in objects for o in bag.get("ContainedObjects", [])]
    guids = [o["GUID"] for o in [*objects, *held]]
    assert len(set(guids)) == len(guids) and all(
        len(g) == 6 and int(g, 16) >= 0 for g in guids)
    urls = {u for o in objects for u in _urls(o)}
    for url in urls:
        assert local(url).is_file() and local(url).is_relative_to(folder.resolve())
    written = {p for p in folder.rglob("*") if p.is_file()}
    assert {local(u) for u in urls} | {folder.resolve() / "mygame.json"} == {
        p.resolve() for p in written}  # nothing else is left in the folder


def _urls(obj: dict) -> list[str]:
    found = []
    for key, value in obj.items():
        if key.endswith("URL") and value:
            found.append(value)
        elif isinstance(value, dict):
            found += _urls(value)
        elif isinstance(value, list):
            found += [u for v in value if isinstance(v, dict) for u in _urls(v)]
    return found


def _digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_tts_same_input_same_bytes_and_hosted_urls(project, capsys):
    folder = project / "output" / "mygame" / "tts"
    assert run(capsys, "tts", "mygame")[0] == 0
    first = _digest(folder)
    assert run(capsys, "tts", "mygame")[0] == 0
    assert _digest(folder) == first
    code, _, err = run(capsys, "tts", "mygame", "--base-url", "https://example.org/kits/my game")
    assert code == 2 and "--base-url" in err  # a space: refused
    code, _, err = run(capsys, "tts", "mygame", "--base-url", "https://example.org/kits/mine")
    assert code == 0, err
    urls = _urls({"all": saved(project)["ObjectStates"]})
    assert urls and all(u.startswith("https://example.org/kits/mine/") for u in urls)
    for url in urls:
        assert (folder / unquote(url.removeprefix("https://example.org/kits/mine/"))).is_file()
    assert math.isclose(len(_digest(folder)), len(first))


@pytest.mark.parametrize("url", ["ftp://example.org/x", "javascript:alert(1)", "https://",
                                 "file:///etc/", "https://example.org/x?a=1",
                                 "https://example.org/#top", "//example.org/x", "",
                                 "https://exa mple.org/", "http://example.org/\x00"])
def test_tts_refuses_an_unsafe_base_url(project, capsys, url):
    code, out, err = run(capsys, "tts", "mygame", "--base-url", url)
    assert code == 2, (out, err)
    assert err.startswith("error: --base-url") and "Traceback" not in err
    assert not (project / "output" / "mygame" / "tts").exists()  # nothing half-written


def test_bounds_stop_a_huge_export_before_it_is_written(project, capsys, monkeypatch):
    """A stranger's kit past the caps (images for TTS, sheet sides for cut files) is refused
    with one line, before any image is drawn or any file written."""
    from generator.orchestration import output
    from generator.orchestration.exporters import tts

    monkeypatch.setattr(tts, "MAX_IMAGES", 10)
    code, _, err = run(capsys, "tts", "mygame")
    assert code == 2 and "more than 10 images" in err and "Traceback" not in err
    assert not (project / "output" / "mygame" / "tts").exists()
    monkeypatch.setattr(output, "MAX_CUT_FILES", 2)
    code, _, err = run(capsys, "build", "mygame", "--cut-svg")
    assert code == 2 and "at most 2" in err and "Traceback" not in err
    assert not (project / "output" / "mygame" / "mygame.pdf").exists()
