"""Nothing written through a shipped link, nothing written before a refusal, and what the tool
writes safe to open (issue 35, deliver 4 and the CSV and font parts of 5).

Each case is a stranger's project built by hand in a temporary folder and run through the
command line as a designer would: the exit code, the one line said, and the files that must
(or must not) be there afterwards.
"""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from generator.core.csvout import csv_text, neutral
from generator.data.typefaces import fonts
from tests.designer import edit, run
from tests.pdfread import pdf_fonts

GAME = "mygame"


@pytest.fixture
def project(in_tmp, capsys) -> Path:
    """The starter project (``pnp init mygame``), the test standing in the folder above it."""
    assert run(capsys, "init", GAME)[0] == 0
    return in_tmp / GAME


def one_line(err: str) -> str:
    """The single ``error:`` line said, asserting it is one line and no traceback."""
    lines = err.strip().splitlines()
    assert "Traceback" not in err
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    return lines[0]


def listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


# -- schemas/ entered, never followed -------------------------------------------------------

@pytest.mark.parametrize("dangling", [False, True], ids=["to-a-folder", "dangling"])
def test_pnp_schema_never_writes_through_a_shipped_schemas_link(project, tmp_path, capsys,
                                                                 monkeypatch, dangling):
    elsewhere = tmp_path / "elsewhere"
    if not dangling:
        elsewhere.mkdir()
        (elsewhere / "game.schema.json").write_text("precious", encoding="utf-8")
    shutil.rmtree(project / "schemas")
    (project / "schemas").symlink_to(elsewhere)
    monkeypatch.chdir(project)
    code, out, err = run(capsys, "schema")
    assert code == 2 and out == ""
    line = one_line(err)
    assert "schemas is a symbolic link" in line
    if dangling:
        assert not os.path.lexists(elsewhere)
    else:
        assert listing(elsewhere) == ["game.schema.json"]
        assert (elsewhere / "game.schema.json").read_text(encoding="utf-8") == "precious"
    assert (project / "schemas").is_symlink()


def test_pnp_schema_still_writes_a_real_folder_and_a_linked_root(project, tmp_path, capsys,
                                                                 monkeypatch):
    """The folder the user names is theirs, and followed: only what lies below it is
    entered. A fresh ``schemas/`` is made."""
    shutil.rmtree(project / "schemas")
    monkeypatch.chdir(project)
    assert run(capsys, "schema")[0] == 0
    assert (project / "schemas" / "game.schema.json").is_file()
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "via").symlink_to(real)
    assert run(capsys, "schema", "--out", tmp_path / "via" / "s")[0] == 0
    assert (real / "s" / "face.schema.json").is_file()


# -- --cut-svg refused before any file -------------------------------------------------------

def test_a_linked_cut_folder_is_refused_before_the_pdf_is_written(project, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    kit = project / "output" / GAME
    kit.mkdir(parents=True)
    (kit / f"{GAME}-cut").symlink_to(elsewhere)
    code, _, err = run(capsys, "build", GAME, "--cut-svg")
    assert code == 2
    assert f"{GAME}-cut is a symbolic link" in one_line(err)
    assert listing(kit) == [f"{GAME}-cut"]  # no PDF, manifest, calibration sheet or litter
    assert listing(elsewhere) == []


# -- a planted lock ----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_planted_lock_is_named_with_exit_2(project, capsys, kind):
    kit = project / "output" / GAME
    kit.mkdir(parents=True)
    lock = kit / ".lock"
    if kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.mkdir()
    code, _, err = run(capsys, "build", GAME)
    assert code == 2
    line = one_line(err)
    assert str(lock) in line
    assert ("a named pipe (FIFO)" if kind == "fifo" else "a folder") in line
    assert listing(kit) == [".lock"]  # left as it was: not ours to remove; nothing written
    assert lock.is_fifo() if kind == "fifo" else lock.is_dir()


# -- eject never replaces a link ------------------------------------------------------------

@pytest.mark.parametrize("dangling", [False, True], ids=["to-a-file", "dangling"])
def test_eject_never_replaces_a_link(project, tmp_path, capsys, dangling):
    victim = tmp_path / "victim.yaml"
    if not dangling:
        victim.write_text("precious", encoding="utf-8")
    link = project / "faces" / "rules-page.yaml"
    link.symlink_to(victim)
    code, _, err = run(capsys, "eject", "face", "rules-page", project)
    assert code == 2
    assert "faces/rules-page.yaml is already in the project" in one_line(err)
    assert link.is_symlink() and os.readlink(link) == str(victim)
    if dangling:
        assert not os.path.lexists(victim)
    else:
        assert victim.read_text(encoding="utf-8") == "precious"


def test_eject_never_writes_through_a_faces_link(project, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(project / "faces")
    (project / "faces").symlink_to(elsewhere)
    code, _, err = run(capsys, "eject", "face", "rules-page", project)
    assert code == 2 and "faces" in one_line(err)
    assert listing(elsewhere) == []


# -- CSV cells a spreadsheet would evaluate ----------------------------------------------------

FORMULAS = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tTab", "\rReturn"]


def test_every_cell_starting_like_a_formula_is_neutralised():
    assert [neutral(v) for v in FORMULAS] == ["'" + v for v in FORMULAS]
    assert [neutral(v) for v in ["Dawn", "1", "", None, "a=b", " =x"]] == [
        "Dawn", "1", "", "", "a=b", " =x"]
    text = csv_text(("label", "n"), [{"label": v, "n": 1} for v in FORMULAS])
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["label", "n"]
    assert [r[0] for r in rows[1:]] == ["'" + v for v in FORMULAS]


def test_order_csv_holds_no_live_formula(project, capsys):
    game = project / "game.yaml"
    names = ["=HYPERLINK(\"http://x\")", "+1", "-1", "@SUM(A1)"]
    for old, new in zip(["Dawn", "Morning", "Noon", "Afternoon"], names, strict=True):
        edit(game, "{name: " + old + ",", "{name: " + json.dumps(new) + ",")
    code, _, err = run(capsys, "png", GAME, "--dpi", "72", "--jobs", "1")
    assert code == 0, err
    order = next((project / "output" / GAME).rglob("order.csv"))
    with order.open(encoding="utf-8", newline="") as handle:
        labels = [row["label"] for row in csv.DictReader(handle)]
    for name in names:
        assert "'" + name in labels
    assert not any(label.startswith(("=", "+", "-", "@")) for label in labels)


# -- two fonts of one PostScript name ------------------------------------------------------------


def test_a_copy_of_a_built_in_font_under_two_names_builds(project, capsys):
    """``fonts/Title.ttf`` a copy of the built-in Atkinson Hyperlegible (``sans``), and the
    same file again as ``fonts/Other.ttf``; the theme uses all three: two distinct fonts in
    the PDF (the copy's name tagged with its hash), not a ReportLab traceback."""
    atkinson = fonts.font_files()["sans"]
    (project / "fonts").mkdir()
    shutil.copy(atkinson, project / "fonts" / "Title.ttf")
    shutil.copy(atkinson, project / "fonts" / "Other.ttf")
    with (project / "themes" / "starter.yaml").open("a", encoding="utf-8") as theme:
        theme.write("fonts:\n  title: Title\n  body: Other\n  index: sans\n")
    code, _, err = run(capsys, "build", GAME)
    assert code == 0, err
    names = {name.split("+", 1)[1] for name in pdf_fonts(project / "output" / GAME
                                                          / f"{GAME}.pdf")}
    atkinsons = sorted(n for n in names if n.startswith("AtkinsonHyperlegible-Regular"))
    assert len(atkinsons) == 2, names
    assert atkinsons[0] == "AtkinsonHyperlegible-Regular"
    assert len(atkinsons[1]) == len(atkinsons[0]) + 1 + fonts.PDF_TAG
