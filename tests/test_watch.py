"""Watch mode: a save rebuilds the kit, a broken save prints an error and the watcher goes on.

The watcher runs in a thread on a copy of a real game in a project folder (its kits written
into the project's own output/ folder, inside the watched tree, so a build retriggering
itself would show). Waits poll with generous deadlines: a busy 2-core machine builds slowly.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.core import paths
from generator.core.errors import DataError
from generator.frontends.cli import main
from generator.frontends.watch import Target, build_with, find_target, ignored, watch
from generator.orchestration.options import BuildOptions

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

DEADLINE = 120.0  # seconds: the first build of a 24-page kit on a slow, busy machine


def source_game() -> Path:
    """The data file of the built-in Moving Target, wherever the games are kept."""
    try:
        from generator.data import game_sources

        return game_sources()["moving-target"]
    except (ImportError, KeyError, DataError):
        return paths.CARD_DATA / "moving-target.yaml"


def make_project(root: Path, game_id: str = "mt-watch") -> Path:
    """A project folder holding a copy of Moving Target under another id."""
    root.mkdir(parents=True)
    text = source_game().read_text(encoding="utf-8")
    text = re.sub(r"(?m)^id: .*$", f"id: {game_id}", text, count=1)
    (root / "game.yaml").write_text(text, encoding="utf-8")
    return root / "game.yaml"


def wait_for(condition: Callable[[], bool], what: str, timeout: float = DEADLINE,
             again: Callable[[], None] | None = None) -> None:
    """Poll ``condition``; ``again`` (if given) repeats the edit every few seconds, in case
    the first save landed before the watcher was listening."""
    start = last = time.monotonic()
    while not condition():
        now = time.monotonic()
        if now - start > timeout:
            raise AssertionError(f"timed out waiting for {what}")
        if again is not None and now - last > 8:
            again()
            last = now
        time.sleep(0.1)


def opening_text(pypdf_text, pdf: Path) -> str:
    """The text of the kit's opening sheet (the contents, headed by the game's title); the
    whole 24 pages take seconds to extract."""
    return "".join(pypdf_text(pdf, page) for page in (1, 2))


def save_like_an_editor(file: Path, text: str) -> None:
    """Write a temporary file beside it and rename it over the original, as editors do."""
    tmp = file.with_name(f".{file.name}.swp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, file)


def test_watch_rebuilds_reports_errors_and_keeps_going(tmp_path: Path, pypdf_text) -> None:
    data = make_project(tmp_path / "proj")
    out = tmp_path / "proj" / "output"
    pdf = out / "mt-watch" / "mt-watch.pdf"
    lines: list[str] = []
    stop = threading.Event()
    target = find_target(str(tmp_path / "proj"))
    assert target.data_file == data.resolve()
    thread = threading.Thread(target=watch, daemon=True, kwargs={
        "targets": [target], "rebuild": build_with(BuildOptions(out_dir=out)),
        "stop_event": stop, "report": lines.append})
    thread.start()
    try:
        def count(prefix: str) -> int:
            return sum(line.startswith(prefix) for line in list(lines))

        wait_for(lambda: count("watching") == 1, "the first build")
        assert count("built mt-watch in ") == 1, lines
        assert "Watchful Target" not in opening_text(pypdf_text, pdf)

        original = data.read_text(encoding="utf-8")
        edited = original.replace("title: Moving Target", "title: Watchful Target", 1)
        assert edited != original

        def edit() -> None:
            data.write_text(edited, encoding="utf-8")

        edit()
        wait_for(lambda: count("rebuilt mt-watch in ") >= 1, "a rebuild after a save",
                 again=edit)
        assert re.search(r"^rebuilt mt-watch in \d+\.\d\d s \(\d+ pages\)$",
                         next(ln for ln in lines if ln.startswith("rebuilt")))
        assert "Watchful Target" in opening_text(pypdf_text, pdf)

        broken = edited.replace("players: [2, 3]", "players: [2, 3", 1)
        assert broken != edited
        save_like_an_editor(data, broken)
        wait_for(lambda: count("error: ") >= 1, "the error of a broken save",
                 again=lambda: save_like_an_editor(data, broken))
        error = next(ln for ln in lines if ln.startswith("error: "))
        assert "game.yaml" in error and "Traceback" not in "\n".join(lines)
        assert thread.is_alive()

        fixed = edited.replace("title: Watchful Target", "title: Mended Target", 1)
        rebuilt = count("rebuilt mt-watch in ")
        save_like_an_editor(data, fixed)
        wait_for(lambda: count("rebuilt mt-watch in ") > rebuilt, "a rebuild after the fix",
                 again=lambda: save_like_an_editor(data, fixed))
        assert "Mended Target" in opening_text(pypdf_text, pdf)
        # The builds' own writes (PDF, manifest, temporary files, lock) and the editor's swap
        # file never triggered anything: every change reported is the data file.
        changed = [ln for ln in lines if ln.startswith("changed: ")]
        assert changed and all(ln == "changed: game.yaml" for ln in changed), lines
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not thread.is_alive(), "the watcher did not stop when asked"


def test_what_concerns_a_game(tmp_path: Path) -> None:
    """In a folder of several games, only this game's files (and what it names) count."""
    folder = tmp_path / "games"
    data = make_project(folder)
    (folder / "other.yaml").write_text("id: other\n", encoding="utf-8")
    (folder / "deck.csv").write_text("name\nA\n", encoding="utf-8")
    text = data.read_text(encoding="utf-8") + "\ninclude_note: deck.csv\n"
    data.write_text(text, encoding="utf-8")
    target = Target(str(data), data)
    assert target.concerns(data)
    assert target.concerns(folder / "deck.csv")  # named by the data file
    assert not target.concerns(folder / "other.yaml")
    assert target.concerns(folder / "faces" / "my-card.yaml")  # the game's own faces/
    assert target.concerns(paths.FACES / "playing-card.yaml")  # built-in templates
    target.outputs.add(folder / "faces" / "out")
    assert not target.concerns(folder / "faces" / "out" / "x.pdf")
    for name in (".game.yaml.pnp-123-abc_9.part", ".lock", "game.yaml~", ".game.yaml.swp",
                 ".#game.yaml"):
        assert ignored(folder / name), name
        assert not target.concerns(folder / "faces" / name)


def test_watch_needs_a_game_and_a_clear_project(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch"]) == 2
    assert "error: watch needs a game id" in capsys.readouterr().err
    folder = tmp_path / "two"
    make_project(folder)
    shutil.copy(folder / "game.yaml", folder / "a.yaml")
    (folder / "game.yaml").rename(folder / "b.yaml")
    assert main(["watch", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "a.yaml, b.yaml" in err
    assert main(["watch", "no-such-game-here"]) == 2
    assert "no such game" in capsys.readouterr().err


def test_ctrl_c_exits_130_without_a_traceback(tmp_path: Path) -> None:
    make_project(tmp_path / "proj")
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "watch", str(tmp_path / "proj"), "--out",
         str(tmp_path / "out")], cwd=paths.ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # blocks until the watcher says it is listening
            if line.startswith("watching"):
                break
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "stopped watching" in err
    assert (tmp_path / "out" / "mt-watch" / "mt-watch.pdf").is_file()
