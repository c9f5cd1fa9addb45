"""Verify never crashes on a data edit: any edit `build` reports, `verify` reports the same way.

Each case drops one row of a table that a kit's worked examples or reference checks draw from
(the friend card the Fløe example needs, a navigation card of the movement examples, a rank,
a Decktet card), in a copy of the game's files: verify prints its findings and exits 1, no
traceback; build refuses with the same failure (exit 2); `build --force` ends in one line.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.core import paths
from generator.data import load_game
from generator.frontends.cli import main

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

# (game, table, words of the row to drop: the first row when empty)
CASES = [("moving-day-boxes", "friend_cards", "{friends: 3, strength: 4, clumsy: false"),
         ("moving-day-boxes", "example_friends", ""), ("moving-day-boxes", "box_tiles", ""),
         ("moving-target", "ranks", ""), ("moving-day", "decktet_cards", ""),
         ("movement-game", "navigation", ""), ("movement-game", "boards", "")]


def copy_without_a_row(game_id: str, table: str, words: str, folder: Path) -> Path:
    """The game's data files in ``folder``, a row of ``table`` deleted where it is written
    (a line ``    - ...`` after ``  <table>:``): the first holding ``words``."""
    game = load_game(game_id)
    data = paths.CARD_DATA
    for source in {game.source, *data.glob(f"{game_id}*.yaml"), *data.glob("decktet*.yaml"),
                   *data.glob("*-reference.yaml")}:
        shutil.copy(source, folder / source.name)
    shutil.copytree(paths.CARD_DATA / "messages", folder / "messages")
    for file in folder.glob("*.yaml"):
        lines = file.read_text(encoding="utf-8").split("\n")
        starts = [i for i, line in enumerate(lines) if line == f"  {table}:"]
        if not starts:
            continue
        row = next(i for i in range(starts[0] + 1, len(lines))
                   if lines[i].startswith("    - ") and words in lines[i])
        end = next(i for i in range(row + 1, len(lines)) if not lines[i].startswith("      "))
        del lines[row:end]
        file.write_text("\n".join(lines), encoding="utf-8")
        return folder / game.source.name
    raise AssertionError(f"{game_id}: no table {table!r} written in its files")


@pytest.mark.parametrize(("game_id", "table", "words"), CASES)
def test_an_edit_build_reports_verify_reports_too(tmp_path, capsys, game_id, table, words):
    data = copy_without_a_row(game_id, table, words, tmp_path)
    verified = main(["verify", str(data)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    build = main(["build", str(data), "--out", str(tmp_path / "out")])
    built_out, built_err = capsys.readouterr()
    assert "Traceback" not in built_out + built_err
    if build == 2 and "[FAIL]" not in built_err:  # a load error: verify gives the same line
        assert verified == 2 and err.strip() == built_err.strip()
    elif build == 2:  # build refused the set: verify must fail, naming the same checks
        assert verified == 1
        refused = re.findall(r"\[FAIL\] (.*?):", built_err)
        assert refused and all(f"[FAIL] {check}:" in out for check in refused), refused
        forced = main(["build", str(data), "--force", "--out", str(tmp_path / "forced")])
        forced_out, forced_err = capsys.readouterr()
        assert forced in (0, 2) and "Traceback" not in forced_out + forced_err
        if forced == 2:
            assert len(forced_err.strip().splitlines()) == 1
    else:
        assert build == 0 and verified in (0, 1)
