"""The built Moving Target kit, read back with pypdf and pdfplumber."""
from __future__ import annotations

import json
import math
import re

import pypdf
import pytest
import yaml

from generator.core import paths
from generator.layout.manifest import manifest_path
from generator.layout.marks import MARK_LENGTH

MM = 72.0 / 25.4  # points per millimetre
PAGE_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
MARK_WIDTH_MM = 0.18


@pytest.fixture(scope="module")
def card_names():
    data = yaml.safe_load((paths.CARD_DATA / "moving-target.yaml").read_text(encoding="utf-8"))
    tables = data["tables"]
    return [f"{rank['name']} of {suit['name']}"
            for suit in tables["suits"] for rank in tables["ranks"]]


@pytest.fixture(scope="session")
def reader_cache():
    return {}


@pytest.fixture
def reader(kit, reader_cache):
    if kit.path not in reader_cache:
        reader_cache[kit.path] = pypdf.PdfReader(kit.path)
    return reader_cache[kit.path]


@pytest.fixture
def text(kit, reader, pypdf_text):
    """The extracted text of page ``index`` (from 0; pypdf; extraction is slow: conftest's
    ``pypdf_text`` does it once per page and kit content in a test run)."""
    return lambda index: pypdf_text(kit.path, index % len(reader.pages) + 1)


# What each paper's kit holds, sheet by sheet (front footers after "sheet k of n, front · ").
# A4: the grid's tiles lie on the sideways frame whose rows split above row 3 (so one seam,
# not two, crosses the start cell C3); tiles 1 and 2 each leave room for 2 cards below them,
# and the last 3 cards share a sheet with the 3 player aids. Letter: 9 cards a sheet, the
# last 7 on a sheet of their own, the 4 tiles, the aids.
GRID, CARDS, AIDS = "Play grid (5 x 5)", "Playing cards", "Player aids"
SHEETS = {
    "a4": [f"{GRID} tile 1, {CARDS}", f"{GRID} tile 2, {CARDS}", *[CARDS] * 5,
           f"{CARDS}, {AIDS}", f"{GRID} tile 3", f"{GRID} tile 4"],
    "letter": [*[CARDS] * 6, *(f"{GRID} tile {k}" for k in range(1, 5)), AIDS],
}


def _sheets(kit) -> list[str]:
    return SHEETS[kit.opts.paper]


def test_page_count_matches_build_report(kit, reader):
    assert kit.pages == len(reader.pages)
    # the contents sheet (the rules on its back), then each sheet above
    assert kit.pages == 2 * (1 + len(_sheets(kit)))


def test_page_sizes(kit, reader):
    want_w, want_h = PAGE_PT[kit.opts.paper]
    for page in reader.pages:
        box = page.mediabox
        assert float(box.width) == pytest.approx(want_w, abs=0.5)
        assert float(box.height) == pytest.approx(want_h, abs=0.5)


def test_trim_and_bleed_boxes(kit, reader):
    for page in reader.pages:
        assert "/TrimBox" in page and "/BleedBox" in page
        # Sheets are cut by hand: the trim and bleed boxes are the whole sheet.
        assert list(page.trimbox) == pytest.approx(list(page.mediabox), abs=0.01)
        assert list(page.bleedbox) == pytest.approx(list(page.mediabox), abs=0.01)


def _fonts(resources, seen):
    """Every font dictionary reachable from a resource dictionary (forms included)."""
    resources = resources.get_object() if resources is not None else {}
    for font in (resources.get("/Font") or {}).values():
        font = font.get_object()
        if id(font) not in seen:
            seen.add(id(font))
            yield font
    for xobj in (resources.get("/XObject") or {}).values():
        xobj = xobj.get_object()
        if xobj.get("/Subtype") == "/Form" and "/Resources" in xobj:
            yield from _fonts(xobj["/Resources"], seen)


def _embedded(font) -> bool:
    if "/DescendantFonts" in font:
        return all(_embedded(d.get_object()) for d in font["/DescendantFonts"])
    descriptor = font.get("/FontDescriptor")
    if descriptor is None:
        return False  # a standard-14 font: not embedded
    descriptor = descriptor.get_object()
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def test_all_fonts_embedded(reader):
    seen: set[int] = set()
    fonts = [f for page in reader.pages for f in _fonts(page.get("/Resources"), seen)]
    assert fonts, "no fonts found at all"
    names = {str(f.get("/BaseFont")) for f in fonts}
    assert not [f.get("/BaseFont") for f in fonts if not _embedded(f)]
    assert any("AtkinsonHyperlegible" in name for name in names)
    # Subsets carry a six-letter tag: only the glyphs used are embedded.
    assert all(re.match(r"/[A-Z]{6}\+", name) for name in names)


def test_every_card_name_printed_once(kit, text, card_names):
    assert len(card_names) == 52 and len(set(card_names)) == 52
    printed = "\n".join(text(i) for i in range(2, kit.pages))
    for name in card_names:
        assert printed.count(name) == 1, name


def test_bookmarks_point_at_each_component(kit, reader):
    """A top entry per component at its first page; one spanning pages lists each of them,
    fronts and backs (cards have backs; tiles and aids blank ones, not listed)."""
    sheets = _sheets(kit)

    def fronts(name: str) -> list[int]:  # the sheets (from 2) whose fronts carry ``name``
        return [k for k, front in enumerate(sheets, start=2) if name in front]

    top = [(e.title, reader.get_destination_page_number(e)) for e in reader.outline
           if not isinstance(e, list)]
    assert top == [("Contents", 0), ("Rules", 1), (CARDS, 2),
                   (GRID, 2 * fronts(GRID)[0] - 2), (AIDS, 2 * fronts(AIDS)[0] - 2)]
    cards = reader.outline[3]
    assert isinstance(cards, list)
    assert [e.title for e in cards] == [
        f"page {2 * k - 1 + side} (sheet {k}, {('front', 'back')[side]})"
        for k in fronts(CARDS) for side in (0, 1)]
    tiles = reader.outline[5]
    assert [e.title for e in tiles] == [f"page {2 * k - 1} (sheet {k}, front)"
                                        for k in fronts(GRID)]


def test_fronts_and_backs_alternate_with_one_shared_back_form(kit, reader, text):
    sheets = _sheets(kit)
    n = 1 + len(sheets)
    card_backs = []
    for k, front in enumerate(sheets, start=2):
        assert f"sheet {k} of {n}, front · {front}" in text(2 * k - 2)
        if CARDS in front:
            assert f"sheet {k} of {n}, back · backs of {CARDS}, flip on the long edge" in \
                text(2 * k - 1)
            card_backs.append(2 * k - 1)
    # The back is the same for every card: drawn once as a form, reused on every back page.
    back_forms = {tuple(reader.pages[i]["/Resources"]["/XObject"]) for i in card_backs}
    assert len(back_forms) == 1 and len(next(iter(back_forms))) == 1


def test_rules_summary_is_on_the_back_of_the_contents(text):
    rules = text(1)
    assert "Moving Target" in rules
    assert "Never more than 12" in rules and "· rules ·" in rules


CONTENTS = {
    "a4": ["22 pages = 11 sheets",
           "Playing cards: 52 pieces, sheets 2-9 (pages 3-18; fronts and backs)",
           "Play grid (5 x 5): 1 piece, sheets 2-3, 10-11 (pages 3, 5, 19, 21; single-sided",
           "Player aids: 3 pieces, sheet 9 (page 17; single-sided"],
    "letter": ["24 pages = 12 sheets",
               "Playing cards: 52 pieces, sheets 2-7 (pages 3-14; fronts and backs)",
               "Play grid (5 x 5): 1 piece, sheets 8-11 (pages 15, 17, 19, 21; single-sided",
               "Player aids: 3 pieces, sheet 12 (page 23; single-sided"],
}


def test_contents_page_describes_the_kit(kit, text):
    contents = " ".join(text(0).split())
    for claim in CONTENTS[kit.opts.paper]:
        assert claim in contents
    assert "make " not in contents  # no developer commands on paper


def test_metadata_and_print_preferences(reader):
    assert reader.metadata.title == "Moving Target: print-and-play kit"
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge"


def _short_marks(lines):
    """Black lines of the cut-mark width, in mm from the top-left corner."""
    out = []
    for line in lines:
        if abs(line["linewidth"] / MM - MARK_WIDTH_MM) > 0.01:
            continue
        x1, y1, x2, y2 = (line[k] / MM for k in ("x0", "top", "x1", "bottom"))
        if math.hypot(x2 - x1, y2 - y1) <= MARK_LENGTH + 0.1:
            out.append((x1, y1, x2, y2))
    return out


def _distinct(values, tolerance: float = 0.05) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > tolerance:
            out.append(v)
    return out


@pytest.mark.parametrize("page_index", [2, 3, 12])  # a front, its back, the last front
def test_cut_marks_sit_on_the_trim_lines_outside_the_pieces(kit, reader, page_shapes,
                                                            page_index):
    """Two marks per trim line (one beyond each end) extend the manifest's trim lines, off
    every piece, at least 0.8 mm of each inside the 5 mm band every home printer prints and
    none nearer the edge than 3 mm; backs have none."""
    data = json.loads(manifest_path(kit.path).read_text(encoding="utf-8"))
    page = data["pages"][page_index]
    found = _short_marks(page_shapes(kit.path, page_index + 1)["lines"])
    box = reader.pages[page_index].mediabox
    paper_w, paper_h = float(box.width) / MM, float(box.height) / MM
    if page["side"] == "back":
        assert found == []
        return
    pieces = page["pieces"]
    xs = _distinct(v for pc in pieces for v in (pc["x"], pc["x"] + pc["w"]))
    ys = _distinct(v for pc in pieces for v in (pc["y"], pc["y"] + pc["h"]))
    if len(pieces) == 9:  # one 3 x 3 block: a mark at each end of each of its 8 lines
        assert len(found) == 2 * (len(xs) + len(ys))
    for x1, y1, x2, y2 in found:
        if abs(x1 - x2) < 0.01:
            assert min(abs(x1 - x) for x in xs) < 0.1
        else:
            assert abs(y1 - y2) < 0.01 and min(abs(y1 - y) for y in ys) < 0.1
        # starting 5 mm in; one across the bleed that the band leaves short runs on to 3 mm
        assert min(x1, x2, y1, y2) >= 3 - 0.01
        assert max(x1, x2) <= paper_w - 3 + 0.01 and max(y1, y2) <= paper_h - 3 + 0.01
        printed = (min(max(x1, x2), paper_w - 5) - max(min(x1, x2), 5)
                   + min(max(y1, y2), paper_h - 5) - max(min(y1, y2), 5))
        assert printed >= 0.8 - 0.01
        for pc in pieces:  # never on a piece (a mark may cross its bleed, cut away with it)
            inside_x = pc["x"] < min(x1, x2) + 0.01 and max(x1, x2) - 0.01 < pc["x"] + pc["w"]
            inside_y = pc["y"] < min(y1, y2) + 0.01 and max(y1, y2) - 0.01 < pc["y"] + pc["h"]
            assert not (inside_x and inside_y)


def test_rebuild_is_byte_identical(kit_a4, build_kit):
    again = build_kit(paper="a4")
    assert again.path != kit_a4.path
    assert again.path.read_bytes() == kit_a4.path.read_bytes()


def test_short_edge_flip_changes_the_duplex_preference(kits, kit_a4, pypdf_text):
    short = kits(paper="a4", flip="short")
    reader = pypdf.PdfReader(short.path)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"
    assert "flip on the short edge" in pypdf_text(short.path, 4)
    assert short.path.read_bytes() != kit_a4.path.read_bytes()


def test_single_layout_has_trim_box_inside_bleed(kits):
    single = kits(paper="a4", layout="single", bleed=3.0)
    assert single.path.name == "moving-target-single.pdf"
    reader = pypdf.PdfReader(single.path)
    card = reader.pages[0]  # print shops get the pieces only
    assert float(card.mediabox.width) == pytest.approx((63.5 + 6) * MM, abs=0.01)
    trim, bleed = [float(v) for v in card.trimbox], [float(v) for v in card.bleedbox]
    assert trim == pytest.approx([3 * MM, 3 * MM, 66.5 * MM, 91.9 * MM], abs=0.01)
    assert bleed == pytest.approx([float(v) for v in card.mediabox], abs=0.01)
