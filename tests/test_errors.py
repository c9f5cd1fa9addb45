"""Bad input: every error names file, line, field and what was expected; nothing half-written."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from generator.core import paths
from generator.core.atomic import atomic_path
from generator.core.errors import CompositionError, DataError, DataErrors
from generator.core.model import Size
from generator.core.primitives import Face, Image
from generator.data import load_game
from generator.data.design.resources import load_resources
from generator.frontends.cli import main
from generator.layout.page import Page, Placement, drawn
from generator.orchestration.build import build_pdf
from generator.orchestration.options import BuildOptions
from generator.render.pdf import write_pdf

LONG_TIPS = ("to fill the gaps. Avoid unblocking moves when you remove cards.",
             "to fill the gaps. " + "Avoid unblocking moves when you remove cards, and more. " * 60)
LABEL = 'label: "{{ item.rank.name }} of {{ item.suit.name }}"'


def fail(file, tmp_path) -> DataError:
    """Build ``file``; it must fail with a DataError and write nothing."""
    out = tmp_path / "out"
    with pytest.raises(DataError) as info:
        build_pdf(str(file), BuildOptions(out_dir=out))
    assert not out.exists() or not any(out.rglob("*.pdf"))
    return info.value


def line_of(file, text: str) -> int:
    lines = file.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_wrong_type(game_file, tmp_path):
    file, (line,) = game_file(("players: [2, 3]", "players: two"))
    err = fail(file, tmp_path)
    assert (err.file, err.line, err.field) == (str(file), line, "players")
    assert err.message() == f"{file}:{line}: players: Input should be a valid tuple (got 'two')"


def test_wrong_type_inside_a_component(game_file, tmp_path):
    file, (line,) = game_file(("    size: poker\n", "    size: 63\n"))
    err = fail(file, tmp_path)
    assert f"{file}:{line}: components[0].size:" in err.message()
    assert "(got 63)" in err.message()


def test_unknown_face_template(game_file, tmp_path):
    file, (line,) = game_file(("face: playing-card\n", "face: playing-crad\n"))
    err = fail(file, tmp_path)
    assert (err.line, err.field) == (line, "components[0].face")
    assert "no face template 'playing-crad' in templates/faces/" in err.expected
    assert "playing-card," in err.expected  # the known templates are listed


def test_unknown_size_preset(game_file, tmp_path):
    file, (line,) = game_file(("    size: poker\n", "    size: pokr\n"))
    err = fail(file, tmp_path)
    assert err.message().startswith(f"{file}:{line}: components[0].size: unknown size preset")
    assert "expected one of: poker, bridge" in err.expected


def test_missing_required_field(game_file, tmp_path):
    file, _ = game_file(("    name: Playing cards\n", ""))
    err = fail(file, tmp_path)
    assert err.message() == (f"{file}:{line_of(file, '- id: deck')}: components[0].name: "
                             "required field is missing")


def test_misspelt_field(game_file, tmp_path):
    file, (line,) = game_file(("title: Moving Target", "titel: Moving Target"))
    err = fail(file, tmp_path)
    assert isinstance(err, DataErrors)
    messages = err.message().splitlines()
    assert f"{file}:{line}: titel: unknown field (check its spelling)" in messages
    assert any(m.endswith(": title: required field is missing") for m in messages)


def test_several_errors_reported_together(game_file, tmp_path):
    file, lines = game_file(("players: [2, 3]", "players: [3, 2]"),
                            ("kind: card", "kind: cards"))
    messages = fail(file, tmp_path).message().splitlines()
    assert len(messages) == 2
    assert messages[0].startswith(f"{file}:{lines[0]}: players: expected [min, max]")
    assert messages[1].startswith(f"{file}:{lines[1]}: components[0].kind: Input should be")
    assert "'card'" in messages[1] and "(got 'cards')" in messages[1]


def test_bad_yaml_syntax(game_file, tmp_path):
    file, (line,) = game_file(("title: Moving Target", "title: Moving: Target"))
    err = fail(file, tmp_path)
    assert (err.file, err.line, err.field) == (str(file), line, "")
    assert err.message() == (f'{file}:{line}: invalid YAML: a ": " inside a value reads as a '
                             'second key (column 14): put the value in quotes: "Moving: Target"')


def test_expression_with_undefined_name(game_file, tmp_path):
    bad = LABEL.replace("item.suit.name", "suit.name")
    file, (line,) = game_file((LABEL, bad))
    err = fail(file, tmp_path)
    assert (err.file, err.line, err.field) == (str(file), line, "components[0].label")
    assert "'suit' is undefined" in err.expected


def test_text_too_long_names_its_data_line(game_file, tmp_path):
    """A rules text too long for its box is the data's: named at its line of the data file,
    the built-in template that printed it (rules-section, included by rules-page per
    section) named after it; before, the template's line led, a file the designer never
    wrote (issue 35)."""
    file, _ = game_file(LONG_TIPS)
    err = fail(file, tmp_path)
    assert err.file == str(file)
    lines = file.read_text(encoding="utf-8").splitlines()
    long_at = line_of(file, "Avoid unblocking moves when you remove cards, and more.")
    assert err.line == max(n for n, line in enumerate(lines[:long_at], 1)
                           if line.strip().startswith("text:"))  # the section's text
    assert err.field.startswith("components[") and err.field.endswith("].text")
    assert "'The most important task" in err.expected
    assert "does not fit a " in err.expected and "minimum size 7 pt" in err.expected
    assert err.expected.endswith("printed by the built-in face template rules-section")
    assert str(paths.FACES) not in err.message()


def test_unknown_game_id():
    with pytest.raises(DataError, match=r"no such game 'no-such-game' \(known games: .*"
                                        r"moving-target"):
        load_game("no-such-game")


def test_incomplete_deck_is_not_printed(game_file, tmp_path):
    file, _ = game_file(("    - {id: C, name: Clubs, icon: club, colour: suit_clubs}\n", ""))
    out = tmp_path / "out"
    with pytest.raises(CompositionError, match="the set is incomplete or wrong") as info:
        build_pdf(str(file), BuildOptions(out_dir=out))
    assert str(info.value).startswith(f"{file}: ")  # names the data file
    assert not out.exists()
    path, pages = build_pdf(str(file), BuildOptions(out_dir=out, force=True))
    assert path.exists() and pages == 2 * (1 + 5 + 4)  # contents, 39 cards on 5 sheets, 4 tiles


# -- the command line ----------------------------------------------------------------------

def cli(*args):
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)],
                          cwd=paths.ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_cli_bad_file_exits_2_without_traceback(game_file, tmp_path):
    file, (line,) = game_file(("players: [2, 3]", "players: two"))
    result = cli("build", file, "--out", tmp_path / "out")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == (f"error: {file}:{line}: players: Input should be a valid "
                                      "tuple (got 'two')")
    assert not (tmp_path / "out").exists()


def test_cli_failed_build_leaves_good_pdf_untouched(game_file, tmp_path, kit_a4):
    out = tmp_path / "out"
    target = out / "moving-target" / "moving-target.pdf"
    target.parent.mkdir(parents=True)
    shutil.copyfile(kit_a4.path, target)
    before = target.read_bytes()
    file, _ = game_file(LONG_TIPS)  # fails late: while rendering, after load and verify
    result = cli("build", file, "--out", out)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "template rules-section" in result.stderr and "does not fit" in result.stderr
    assert target.read_bytes() == before
    assert [p.name for p in target.parent.iterdir()] == ["moving-target.pdf"]


def test_cli_good_build_matches_in_process_build(tmp_path, kit_a4):
    result = cli("build", "moving-target", "--out", tmp_path)
    assert result.returncode == 0, result.stderr
    target = tmp_path / "moving-target" / "moving-target.pdf"
    assert result.stdout.strip() == f"moving-target: {kit_a4.pages} pages -> {target}"
    assert target.read_bytes() == kit_a4.path.read_bytes()


@pytest.mark.slow
def test_cli_unknown_game_and_composition_failure_exit_2(game_file, tmp_path):
    result = cli("build", "no-such-game", "--out", tmp_path)
    assert result.returncode == 2 and "no such game 'no-such-game'" in result.stderr
    file, _ = game_file(("    - {id: C, name: Clubs, icon: club, colour: suit_clubs}\n", ""))
    result = cli("build", file, "--out", tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "not printing" in result.stderr and "--force" in result.stderr


# -- atomic writes -------------------------------------------------------------------------

def test_atomic_path_keeps_the_old_file_on_failure(tmp_path):
    target = tmp_path / "kit.pdf"
    target.write_bytes(b"good")
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_bytes(b"half")
        raise RuntimeError("renderer crashed")
    assert target.read_bytes() == b"good"
    assert [p.name for p in tmp_path.iterdir()] == ["kit.pdf"]
    with atomic_path(target) as tmp:
        tmp.write_bytes(b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["kit.pdf"]


def test_write_pdf_failing_mid_render_leaves_no_trace(tmp_path):
    target = tmp_path / "kit.pdf"
    target.write_bytes(b"good")
    not_an_image = tmp_path / "picture.png"
    not_an_image.write_text("this is not a PNG")
    face = Face(50, 50, 0, (Image(str(not_an_image), 0, 0, 50, 50),), "bad")
    page = Page(Size(210, 297), (Placement(face, 10, 10, (10, 10, 50, 50)),), ())
    with pytest.raises(Exception):  # noqa: B017 - whatever ReportLab raises
        write_pdf([page], target, title="t", resources=load_resources(drawn([page])))
    assert target.read_bytes() == b"good"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit.pdf", "picture.png"]


def test_thousands_of_problems_list_the_first_fifty_then_count_the_rest():
    errors = [DataError("cards.yaml", 10 + i, f"tables.cards[{i}]", "a mapping") for i in
              range(1000)] + [DataError("other.yaml", 3, "x", "a number")]
    lines = DataErrors(errors).message().splitlines()
    assert len(lines) == 51
    assert lines[0].startswith("cards.yaml:10: tables.cards[0]")
    assert lines[49].startswith("cards.yaml:59: tables.cards[49]")
    assert lines[50] == ("... and 951 more problems in 2 file(s) (fix these first: the rest "
                         "are often the same mistake)")
    assert DataErrors(errors[:50]).message().count("\n") == 49  # fifty: all listed


def test_every_path_in_a_message_is_seen_from_where_the_user_stands(tmp_path, monkeypatch,
                                                                     capsys):
    """A designer in their project's parent folder: the data file and the face template are
    both named as they would type them (before, templates were absolute, data relative)."""
    from generator.core.errors import shown

    monkeypatch.chdir(tmp_path)
    assert main(["init", "g"]) == 0
    face = tmp_path / "g" / "faces" / "card.yaml"
    text = face.read_text(encoding="utf-8")
    face.write_text(text.replace("size: 20, align: center", "size: [20], align: center", 1),
                    encoding="utf-8")
    capsys.readouterr()
    assert main(["build", "g"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: g/faces/card.yaml:"), err
    assert str(tmp_path) not in err
    assert shown(str(tmp_path / "g" / "game.yaml")) == "g/game.yaml"
    assert shown("/elsewhere/game.yaml") == "/elsewhere/game.yaml"
    assert shown("g/game.yaml") == "g/game.yaml"
    assert shown(str(tmp_path)) == str(tmp_path)


# -- issue 35: the vague, named at their file and line ---------------------------------------

def _starter(folder):
    assert main(["init", str(folder)]) == 0
    return folder


SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">\n  <path d="{d}"/>\n</svg>\n'


@pytest.mark.parametrize(("d", "says"), [
    ("M 1 1 L NaN 5 L 3 3 Z", "<path> d: 'NaN' is not a number"),
    ("M 1 1 L 2,inf Z", "<path> d: 'inf' is not a number"),
    ("M 1 1 L 1e999 5 Z", "<path> d: the number 1e999 is too large to compute with"),
    ("M 1 1 L 2 Z", "<path> d could not be read: its numbers do not fit its commands"),
], ids=["nan", "inf", "overflow", "odd-count"])
def test_an_svg_path_that_cannot_be_drawn_is_named_at_its_line(d, says, tmp_path, capsys):
    """Before, each was ``the SVG could not be read (ValueError)``, naming no line (or,
    for NaN in a point list, the point was left out)."""
    project = _starter(tmp_path / "game")
    icon = project / "icons" / "leaf.svg"
    icon.write_text(SVG.format(d=d), encoding="utf-8")
    capsys.readouterr()
    assert main(["build", str(project), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {icon}:2: {says}"), err
    assert len(err.splitlines()) == 1 and "ValueError" not in err, err
    assert not list((tmp_path / "out").rglob("*.pdf"))


@pytest.mark.parametrize("name", ["pic.png", "pic.svg"])
def test_an_image_linked_from_outside_the_project_says_where_it_leads(name, tmp_path, capsys):
    """A picture in the project's art/ that is a link to a file elsewhere: refused, saying
    it leads outside the project folder (before: "not found", with the file right there)."""
    from PIL import Image as Picture

    project = _starter(tmp_path / "game")
    outside = tmp_path / f"elsewhere{name[3:]}"
    if name.endswith(".png"):
        Picture.new("RGB", (8, 8), "red").save(outside)
    else:
        outside.write_text(SVG.format(d="M 1 1 L 5 5 L 1 5 Z"), encoding="utf-8")
    (project / "art").mkdir()
    (project / "art" / name).symlink_to(outside)
    card = project / "faces" / "card.yaml"
    text = card.read_text(encoding="utf-8")
    card.write_text(text + f"  - image: {{path: art/{name}, x: 5, y: 30, w: 20, h: 20}}\n",
                    encoding="utf-8")
    line = text.count("\n") + 1
    capsys.readouterr()
    assert main(["build", str(project), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {card}:{line}: elements["), err
    assert f"image 'art/{name}' is a link leading outside {project}" in err, err
    assert "not found" not in err and len(err.splitlines()) == 1, err
