"""Watch that shows the work (issue 27, item 6): while a check fails (halfway through adding a
suit), ``pnp watch`` still rebuilds, with NOT VERIFIED on every page and the failing checks
printed; a plain ``pnp build`` still refuses (exit 2), and no normal build carries the mark.
Editor lock and temporary files are never a reason to rebuild (one predicate: ``ignored``).

Driven as a designer would: ``pnp init``, then the watcher of the command line
(``build_with``, what ``pnp watch`` runs) in a thread on the project, the card list edited."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from generator.frontends.cli import main
from generator.frontends.watch import build_with, find_target, ignored, run_build, watch
from generator.orchestration.options import BuildOptions

FOREST = "    - {name: Forest, suit: leaf, value: 6}\n"
DEADLINE = 120.0  # seconds, on a busy 2-core machine


@pytest.fixture
def mygame(in_tmp, capsys) -> Path:
    assert main(["init", "mygame"]) == 0
    capsys.readouterr()
    return in_tmp / "mygame"


def halfway(folder: Path) -> None:
    """The leaf suit one card short: checks of the starter fail (18 cards, 6 per suit...)."""
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert text.count(FOREST) == 1
    game.write_text(text.replace(FOREST, ""), encoding="utf-8")


def marks(page_chars, pdf: Path, pages: int) -> list[str]:
    """Each page's text in the mark's font (the font of its big letters; the text extracted
    whole would interleave the mark with the art under it), spaces left out: what a page
    marked NOT VERIFIED says in it, or "" on a page without big letters."""
    found = []
    for number in range(1, pages + 1):
        chars = page_chars(pdf, number)
        big = {c["fontname"] for c in chars if c["size"] >= 30}
        found.append("".join(c["text"] for c in chars if c["fontname"] in big).replace(" ", ""))
    return found


def watch_build(folder: Path, **options) -> tuple[list[str], Path]:
    """One build as ``pnp watch`` makes it: the lines it prints and the PDF."""
    lines: list[str] = []
    opts = BuildOptions(out_dir=folder / "output", **options)
    assert run_build(find_target(str(folder)), build_with(opts), lines.append, first=True)
    pdf = Path(lines[0].rsplit(" -> ", 1)[1])
    return lines, pdf


@pytest.mark.parametrize("name", [
    ".~lock.cards.xlsx#", ".~lock.game.yaml#", "~$cards.xlsx", ".game.yaml.swp", ".game.yaml.swo",
    "game.yaml~", "4913", "#game.yaml#", ".#game.yaml", ".game.yaml.pnp-12-ab_c.part"])
def test_editor_lock_and_temporary_files_are_ignored(tmp_path, name):
    assert ignored(tmp_path / "mygame" / name)
    target_like = tmp_path / "mygame" / "faces" / name
    assert ignored(target_like)


@pytest.mark.parametrize("name", ["game.yaml", "cards.xlsx", "deck.csv", "4913.yaml",
                                  "lock.yaml", "notes#1.yaml", "sun.svg"])
def test_the_designers_own_files_are_not_ignored(tmp_path, name):
    assert not ignored(tmp_path / "mygame" / name)


@pytest.mark.slow
def test_a_failing_check_builds_marked_on_every_page_and_says_which(mygame, page_texts,
                                                                    page_chars, capsys):
    halfway(mygame)
    lines, pdf = watch_build(mygame)
    assert lines[0].startswith("built mygame in ")
    failing = len(lines) - 1
    assert all(line.startswith("  [FAIL]") for line in lines[1:]) and failing >= 2
    assert f"NOT VERIFIED: {failing} checks fail" in lines[0]
    assert any("18 cards in the deck" in line for line in lines[1:])
    assert any("each suit appears 6 times" in line for line in lines[1:])
    assert len(page_texts(pdf)) == 8
    for number, text in enumerate(marks(page_chars, pdf, 8), 1):
        assert (f"NOTVERIFIED{failing}checksfail:adraft,notforprinting(pnpverifysayswhich)"
                in text), number
    # A plain build still refuses the set, and leaves the draft alone.
    before = pdf.read_bytes()
    assert main(["build", str(mygame)]) == 2
    err = capsys.readouterr().err
    assert "the set is incomplete or wrong" in err and "18 cards in the deck" in err
    assert pdf.read_bytes() == before


@pytest.mark.slow
def test_the_mark_is_in_the_kits_language_on_every_page(mygame, page_texts, page_chars):
    halfway(mygame)
    _, pdf = watch_build(mygame, lang="fr", layout="gutterfold")
    texts = marks(page_chars, pdf, len(page_texts(pdf)))
    assert texts and all("NONVÉRIFIÉ" in text and "vérificationséchouent:unbrouillon" in text
                         for text in texts)
    assert not any("NOTVERIFIED" in text for text in texts)


@pytest.mark.slow
def test_a_normal_build_never_carries_the_mark(mygame, page_texts, page_chars, tmp_path):
    """Checks passing, watch's build is the plain build, byte for byte; neither is marked."""
    lines, pdf = watch_build(mygame)
    assert "NOT VERIFIED" not in "\n".join(lines) and len(lines) == 1
    assert not any("NOT VERIFIED" in text or "VÉRIFIÉ" in text for text in page_texts(pdf))
    assert marks(page_chars, pdf, 8) == [""] * 8
    watched = pdf.read_bytes()
    assert main(["build", str(mygame), "--out", str(tmp_path / "plain")]) == 0
    assert (tmp_path / "plain" / "mygame" / "mygame.pdf").read_bytes() == watched
    # --force prints a failing set as asked, unmarked.
    halfway(mygame)
    assert main(["build", str(mygame), "--force", "--out", str(tmp_path / "forced")]) == 0
    forced = tmp_path / "forced" / "mygame" / "mygame.pdf"
    assert not any("NOT VERIFIED" in text for text in page_texts(forced))


@pytest.mark.slow
def test_watch_rebuilds_halfway_through_a_suit_then_clears_the_mark(mygame, page_chars):
    """The watcher on the project: a save that breaks a check rebuilds, marked; the save
    that completes the suit rebuilds unmarked."""
    lines: list[str] = []
    stop = threading.Event()
    opts = BuildOptions(out_dir=mygame / "output")
    thread = threading.Thread(target=watch, daemon=True, kwargs={
        "targets": [find_target(str(mygame))], "rebuild": build_with(opts),
        "stop_event": stop, "report": lines.append})
    game = mygame / "game.yaml"
    whole = game.read_text(encoding="utf-8")

    def wait_for(prefix: str, count: int, save: str) -> None:
        start = last = time.monotonic()
        while sum(line.startswith(prefix) for line in list(lines)) < count:
            assert time.monotonic() - start < DEADLINE, f"no {prefix!r}: {lines}"
            if save and time.monotonic() - last > 8:  # saved before the watcher listened?
                game.write_text(save, encoding="utf-8")
                last = time.monotonic()
            time.sleep(0.1)

    thread.start()
    try:
        wait_for("watching", 1, "")
        assert lines[0].startswith("built mygame in ") and "NOT VERIFIED" not in lines[0]
        short = whole.replace(FOREST, "")
        game.write_text(short, encoding="utf-8")
        wait_for("rebuilt mygame in ", 1, short)
        marked = next(line for line in lines if line.startswith("rebuilt"))
        assert "NOT VERIFIED: " in marked and " checks fail" in marked
        pdf = mygame / "output" / "mygame" / "mygame.pdf"
        assert all("NOTVERIFIED" in m for m in marks(page_chars, pdf, 8))
        game.write_text(whole, encoding="utf-8")
        wait_for("rebuilt mygame in ", 2, whole)
        cleared = [line for line in lines if line.startswith("rebuilt")][-1]
        assert "NOT VERIFIED" not in cleared
    finally:
        stop.set()
        thread.join(timeout=30)
