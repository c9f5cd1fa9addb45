"""Pre-flight: every kit is clean under ``verify --strict``; a broken template is caught with
the piece, the template line and the measured value."""
from __future__ import annotations

import pytest

from generator.core import primitives as p
from generator.data.design.templates import load_template
from generator.frontends import cli
from generator.orchestration.preflight.checks import (
    edge_distance,
    face_issues,
    furniture_issues,
)
from generator.orchestration.preflight.colour import DEFAULT_THRESHOLD
from tests.drawing import bounds, render_face

CARD = """\
elements:
  - rect: {x: 0, y: 0, w: "{{ W }}", h: "{{ H }}", fill: "#ffffff"}
  - text: {x: 10, y: 10, w: 40, h: 10, text: "{{ item.rank.name }}", size: 9}
  - icon: {name: crown, x: 1, y: 40, w: 8, h: 8}
  - text: {x: 10, y: 60, w: 40, h: 10, text: "tiny print", size: 4, min_size: 4}
  - circle: {cx: 30, cy: 86.9, r: 1, fill: "#000000", info: true}
"""


@pytest.fixture
def broken_face(tmp_path):
    (tmp_path / "broken-card.yaml").write_text(CARD, encoding="utf-8")
    template = load_template("broken-card", tmp_path)
    ctx = {"item": {"rank": {"name": "Queen"}}}
    return render_face(template, 63.5, 88.9, ctx, "Queen of Hearts")


def test_broken_face_names_piece_line_and_value(broken_face):
    issues = list(face_issues(broken_face, "card", False))
    found = {(i.check, i.where.rsplit(":", 1)[1]): i for i in issues}
    icon = found["safe zone", "4"]
    assert icon.piece == "Queen of Hearts" and icon.where.endswith("broken-card.yaml:4")
    assert icon.value == pytest.approx(1.0) and "1.00 mm from the trim" in icon.detail
    assert found["text size", "5"].value == 4.0
    assert found["safe zone", "6"].value == pytest.approx(1.0)  # a pip marked as information
    assert ("safe zone", "3") not in found  # the rank text is 10 mm in
    assert ("safe zone", "2") not in found  # the background is decoration, it may bleed


def test_round_pieces_measure_from_the_circle():
    inner = (7.0, 7.0, 21.0, 21.0)  # a 14 mm square in a 28 mm disc: corners 9.9 mm out
    assert edge_distance(inner, 28, 28, False) == pytest.approx(7.0)
    assert edge_distance(inner, 28, 28, True) == pytest.approx(14 - 7 * 2 ** 0.5)


def test_turned_text_is_measured_where_it_lands():
    text = p.Text(((10.0, 20.0, "MMMMMMMM"),), "sans", 10, "#000000", 90, 10.0, 20.0)
    x0, y0, x1, y1 = bounds(text)
    assert x1 - x0 < 5 and y1 - y0 > 20  # turned: tall and narrow


def test_small_furniture_text_is_flagged():
    tiny = p.Text(((0.0, 5.0, "sheet 1"),), "sans", 4.5)
    ok = p.Text(((0.0, 5.0, "sheet 1"),), "sans", 5.0)
    assert [i.value for i in furniture_issues([tiny, ok], "page 3")] == [4.5]


@pytest.mark.slow
def test_every_kit_is_clean_under_strict(capsys):
    assert cli.main(["verify", "--strict"]) == 0
    out = capsys.readouterr().out
    assert "WARN" not in out and "FAIL" not in out
    assert out.count("colour vision:") >= 7  # every declared colour group shows its figures
    assert "lower bound" in out


@pytest.mark.slow
def test_verify_reports_sheets_beside_bound_and_target(game_file, capsys):
    """The sheets line names the kit's sheets, the area bound and the data's target; a kit
    over its target (here a target lowered to 9) is a warning, a failure under --strict."""
    assert cli.main(["verify", "moving-target"]) == 0
    assert "sheets: 11 of A4 (lower bound 10, target 11)" in capsys.readouterr().out
    file, _ = game_file(("sheets: {a4: 11, letter: 12}", "sheets: {a4: 9, letter: 12}"))
    assert cli.main(["verify", str(file)]) == 0
    out = capsys.readouterr().out
    assert "[WARN] [design] sheets: 11 of A4 (lower bound 10, target 9): 2 over the target" in out
    assert cli.main(["verify", "--strict", str(file)]) == 1
    assert "sheets: 11 of A4" in capsys.readouterr().out
    assert cli.main(["verify", "--strict", "--paper", "letter", str(file)]) == 0
    assert "sheets: 12 of Letter (lower bound 11, target 12)" in capsys.readouterr().out


@pytest.mark.slow
def test_a_kit_without_a_target_says_so(game_file, capsys):
    file, _ = game_file(("sheets: {a4: 11, letter: 12}", "sheets: {letter: 12}"))
    assert cli.main(["verify", "--strict", str(file)]) == 0
    assert "sheets: 11 of A4 (lower bound 10, no target declared for a4)" in (
        capsys.readouterr().out)


@pytest.mark.parametrize(("value", "expected"), [
    ("{a4: 0}", "a sheet target 1-1000 for a4, got 0"),
    ("{a5: 10}", "expected a paper the build offers (a4, letter, a3) as a key, got 'a5'"),
    ("{a4: ten}", "preflight.sheets.a4"),
])
def test_a_bad_sheet_target_is_one_clear_line(game_file, capsys, value, expected):
    file, lines = game_file(("sheets: {a4: 11, letter: 12}", f"sheets: {value}"))
    assert cli.main(["verify", str(file)]) == 2
    err = capsys.readouterr().err
    assert f"{file}:{lines[0]}:" in err and expected in err and "Traceback" not in err


@pytest.mark.slow
def test_verify_strict_fails_on_a_broken_template(tmp_path, game_file, capsys):
    """An icon 1 mm from the trim and 4 pt text: a warning by default, a failure with
    --strict, naming the piece and the template's line."""
    (tmp_path / "faces").mkdir()
    (tmp_path / "faces" / "broken-card.yaml").write_text(CARD, encoding="utf-8")  # the project's
    file, _ = game_file(("    face: playing-card\n", "    face: broken-card\n"))
    assert cli.main(["verify", str(file)]) == 0
    assert "WARN" in capsys.readouterr().out
    assert cli.main(["verify", "--strict", str(file)]) == 1
    out = capsys.readouterr().out
    assert "broken-card.yaml:4: icon 1.00 mm from the trim (needs 3 mm) on Ace of Spades" in out
    assert "broken-card.yaml:5: 4 pt text" in out


@pytest.mark.slow
def test_close_colours_without_second_cue_warn(monkeypatch, game_file, capsys):
    file, _ = game_file(("      second_cue: every suit has its own symbol in both corner "
                         "indices and the pips\n", ""))
    assert cli.main(["verify", "--strict", str(file)]) == 1
    out = capsys.readouterr().out
    assert "pre-flight colour vision: suits" in out
    assert f"needs {DEFAULT_THRESHOLD:g}) and no second cue" in out


def test_low_resolution_art_and_missing_glyphs_are_flagged(tmp_path):
    from PIL import Image

    art = tmp_path / "photo.png"
    Image.new("RGB", (100, 100), "#336699").save(art)
    face = p.Face(63.5, 88.9, 3.175, (
        p.Image(str(art), 10, 10, 25.4, 25.4),  # 100 px over an inch: 100 dpi
        p.Image(str(art), 10, 40, 5.08, 5.08),  # 500 dpi: fine
        p.Text(((10.0, 70.0, "snow ☃"),), "sans", 9),
    ), "Photo card", (p.Origin(3, False), p.Origin(4, False), p.Origin(5, True)), "t.yaml")
    issues = list(face_issues(face, "card", False))
    art_issues = [i for i in issues if i.check == "art resolution"]
    assert [(i.where, round(i.value)) for i in art_issues] == [("t.yaml:3", 100)]
    glyphs = [i for i in issues if i.check == "glyph"]
    assert [i.where for i in glyphs] == ["t.yaml:5"] and "☃" in glyphs[0].detail


OVERLAPS = """\
elements:
  - rect: {x: 0, y: 0, w: "{{ W }}", h: "{{ H }}", fill: "#ffffff"}
  - text: {x: 5, y: 5, w: 12, h: 10, text: "7", size: 20}
  - icon: {name: crown, x: 30, y: 30, w: 8, h: 8}
  - text: {x: 10, y: 60, w: 40, h: 10, text: "under a veil", size: 9}
  - rect: {x: 0, y: 8, w: "{{ W }}", h: 6, fill: "#3355aa"}
  - rect: {x: 28, y: 28, w: 12, h: 12, stroke: "#000000"}
  - rect: {x: 5, y: 58, w: 50, h: 14, fill: "#ffffff40"}
  - circle: {cx: 34, cy: 34, r: 2, fill: "#000000", info: true}
"""


def test_information_covered_by_decoration_drawn_above_it_warns(tmp_path):
    """A band painted over the corner index hides it; an outline, a translucent veil and a
    pip drawn on the icon (information on information) do not."""
    (tmp_path / "veiled.yaml").write_text(OVERLAPS, encoding="utf-8")
    face = render_face(load_template("veiled", tmp_path), 63.5, 88.9, {}, "Seven of Fog")
    covered = [i for i in face_issues(face, "card", False) if i.check == "overlap"]
    assert len(covered) == 1, covered
    issue = covered[0]
    assert issue.piece == "Seven of Fog" and issue.where.endswith("veiled.yaml:3")
    assert "a rect drawn above it at" in issue.detail and issue.detail.endswith("veiled.yaml:6")


def test_a_designer_sees_the_overlap_in_verify(tmp_path, capsys):
    """`pnp init`, a fog band added over the corner value: `pnp verify` warns naming both
    lines and the cards (exit 0), `--strict` fails, the build still prints."""
    assert cli.main(["init", str(tmp_path / "fog")]) == 0
    face = tmp_path / "fog" / "faces" / "card.yaml"
    text = face.read_text(encoding="utf-8")
    band = '  - rect: {x: 0, y: 8, w: "{{ W }}", h: 5, fill: "#888888"}\n'
    face.write_text(text + band, encoding="utf-8")
    band_line = len(text.splitlines()) + 1
    value_line = next(n for n, line in enumerate(text.splitlines(), 1)
                      if "text: \"{{ item.value }}\"" in line)
    capsys.readouterr()
    assert cli.main(["verify", str(tmp_path / "fog")]) == 0
    out = capsys.readouterr().out
    warned = [line for line in out.splitlines() if "pre-flight overlap" in line]
    assert len(warned) == 1, out
    assert f"faces/card.yaml:{value_line}: text covered" in warned[0]
    assert "drawn above it at " in warned[0] and warned[0].split(" on ")[0].endswith(
        f"faces/card.yaml:{band_line}")
    assert "Dawn" in warned[0]
    assert cli.main(["verify", str(tmp_path / "fog"), "--strict"]) == 1
