"""Files a rules engine reads for itself, forced builds and spreadsheet cells (issue 24,
deliver 6 and 7: every error blames the file that is wrong, at its line).

- The movement game's ``movement-examples.yaml`` and ``movement-reference.yaml`` declare their
  shapes (generator/rules/movement_game/files.py) and are checked on load, and against the
  game where only the game can tell (a card that is no navigation card, a token beyond the
  side's, a board the game has not): before, a hostile edit was a TypeError, KeyError or
  AttributeError traceback (31 of 200 seeded mutations of the engine files).
- ``--force`` prints past a failing verify; what the rules examples then read of the game (its
  seats, a token row per side, a card that points somewhere) is one line naming the game's
  file, where a seating of 3 sides for 4 players was an IndexError traceback.
- A spreadsheet cell holding a control character or a bidirectional override is refused as a
  YAML text is (the one check, generator/core/yamlfile.py's ``unseen``), naming the file, the
  sheet, the row and the column.

Each reproduction runs once more in a child process under 500 MB (tests/hostile/limits.py).
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

import openpyxl
import pytest

from generator.core.errors import DataError
from generator.data import load_game
from generator.frontends import cli
from tests.hostile.limits import pnp_limited_each
from tests.hostile.test_blame import BUILTIN_FILE, copy_game
from tests.test_spreadsheets import sheet_game

EXAMPLES, REFERENCE, GAME = "movement-examples.yaml", "movement-reference.yaml", \
    "movement-game.yaml"
SEATS = "seats: {2: [S, N], 4: [S, W, N, E]}"


@dataclass(frozen=True)
class Case:
    """An edit of ``file`` in a copy of the movement game (``old`` replaced by ``new``) and
    what the build says: exit 2, one line naming ``blame`` (the edited file unless given) at
    the line of ``marker`` (the first line from the edit holding it), ``field`` and ``says``."""

    name: str
    file: str
    old: str
    new: str
    marker: str
    field: str
    says: str
    force: bool = False
    blame: str = ""


CASES = [
    # movement-examples.yaml: its shape.
    Case("examples: players missing", EXAMPLES, "players: 4\n", "", "board:", "players",
         "required field is missing"),
    Case("examples: a hand that is a number", EXAMPLES, "hand: [left, forward, backward]",
         "hand: 3.7", "hand: 3.7", "turns[0].hand", "Input should be a valid list"),
    Case("examples: a side that is no side", EXAMPLES, "  - side: S\n", "  - side: Q\n",
         "side: Q", "turns[0].side", "Input should be 'N', 'E', 'S' or 'W'"),
    Case("examples: a token index that is a list", EXAMPLES,
         "{card: forward-right, token: 1, steps: 1}", "{card: forward-right, token: [1, 2], "
         "steps: 1}", "token: [1, 2]", "turns[1].plays[1].token", "valid integer"),
    Case("examples: a token off any board", EXAMPLES, "S: [[6, 4], [8, 5]]",
         "S: [[6, 4], [8, 50]]", "S: [[6, 4]", "tokens.S[1][1]", "less than 40"),
    # ... and what only the game can tell.
    Case("examples: a board the game has not", EXAMPLES, "board: Saltire", "board: Saltyre",
         "board: Saltyre", "board", "expected the name of a board of the game's tables.boards"),
    Case("examples: a card that is no navigation card", EXAMPLES,
         "hand: [left, forward, backward]", "hand: [left, forwards, backward]",
         "hand: [left, forwards", "turns[0].hand[1]",
         "expected a navigation card (left, right, forward"),
    Case("examples: a token beyond the side's", EXAMPLES,
         "plays: [{card: left, token: 0, steps: 1}]", "plays: [{card: left, token: 2, steps: 1}]",
         "token: 2", "turns[0].plays[0].token", "one of S's 2 tokens on the board"),
    Case("examples: a token on a closed square", EXAMPLES, "S: [[6, 4], [8, 5]]",
         "S: [[6, 2], [8, 5]]", "S: [[6, 2]", "tokens.S[0]", "(6, 2) is no open square"),
    Case("examples: a roll the die does not show", EXAMPLES, "roll: 1\n", "roll: 5\n",
         "roll: 5", "turns[0].roll", "1 to 3, got 5"),
    Case("examples: a play the rules forbid", EXAMPLES,
         "plays: [{card: left, token: 0, steps: 1}]", "plays: [{card: left, token: 0, steps: 3}]",
         "steps: 3", "turns[0].plays[0]", "S may not play this"),
    # movement-reference.yaml: its shape (verify reads it, before anything is drawn).
    Case("reference: an arrow that is a number", REFERENCE, "right: [1, 0]", "right: 3.7",
         "right: 3.7", "navigation.arrows.right", "Input should be a valid tuple"),
    Case("reference: a source that is a number", REFERENCE,
         "source: seed lines 95-105 (a standard 52-card deck in place of the navigation cards)",
         "source: 0", "source: 0", "standard_deck.source", "Input should be a valid string"),
    Case("reference: a basis that is none", REFERENCE, "basis: design", "basis: guess",
         "basis: guess", "token_symbols.basis", "'rulebook' or 'design'"),
    Case("reference: a board row with a stranger", REFERENCE, '- "..NN.NN.."', '- "..NN.XN.."',
         "..NN.XN..", "boards.layouts.Saltire.rows[0]", "String should match pattern"),
    Case("reference: a card without its arrow", REFERENCE, "forward-right: [1, -1],", "",
         "navigation:", "navigation", "'arrows' and 'cards' differ in forward-right"),
    # --force past a failing verify: the game's own file, one line.
    Case("forced: 3 sides seating 4 players", GAME, SEATS, "seats: {2: [S, N], 4: [S, W, N]}",
         "seats:", "settings.seats[4]", "S, W, N: expected 4 different sides", force=True),
    Case("forced: a side without tokens", GAME,
         "    - {colour: blue, symbol: triangle, side: W, count: 4}\n", "", "  tokens:\n",
         "tables.tokens", "no row for side W, seated with 4 players", force=True),
    Case("forced: a card pointing nowhere", GAME, "word: LEFT, dx: -1, dy: 0",
         "word: LEFT, dx: 0, dy: 0", "word: LEFT", "tables.navigation[0]",
         "dx 0 and dy 0: a card must point somewhere", force=True),
]


def _setup(case: Case, folder: Path) -> tuple[Path, Path, int]:
    """The edited copy: (data file, file to blame, line of the marker)."""
    data = copy_game("movement-game", folder)
    file = folder / case.file
    text = file.read_text(encoding="utf-8")
    assert text.count(case.old) >= 1, case.old
    start = text.index(case.old)
    text = text.replace(case.old, case.new, 1)
    file.write_text(text, encoding="utf-8")
    at = text.find(case.marker, text.rfind("\n", 0, start) + 1)
    at = at if at >= 0 else text.index(case.marker)  # a field deleted: an earlier line
    return data, folder / (case.blame or case.file), text.count("\n", 0, at) + 1


def _args(case: Case, data: Path, out: Path) -> list[str]:
    return ["build", str(data), "--out", str(out), *(["--force"] if case.force else [])]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_engine_file_is_blamed_at_its_line(case, tmp_path, capsys):
    data, blame, line = _setup(case, tmp_path / "game")
    code = cli.main(_args(case, data, tmp_path / "out"))
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert re.match(rf"error: {re.escape(str(blame))}:{line}: {re.escape(case.field)}: ",
                    err), err
    assert case.says in err, err
    assert not BUILTIN_FILE.search(err)


def test_a_game_verify_cannot_play_fails_verify(tmp_path, capsys):
    """No seating for the 2 players of verify's playouts: a failing finding at the seats
    (before, the playouts raised ValueError, a traceback, even without --force)."""
    data = copy_game("movement-game", tmp_path / "game")
    text = data.read_text(encoding="utf-8")
    data.write_text(text.replace(SEATS, "seats: {4: [S, W, N, E]}"), encoding="utf-8")
    code = cli.main(["build", str(data), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    assert err.startswith(f"error: {data}: movement-game: the set is incomplete or wrong"), err
    line = text[:text.index(SEATS)].count("\n") + 1
    assert f"[FAIL] [rulebook] seats for 2 players: none: expected a seating for 2 players, " \
           f"the game verify plays ({data}:{line})" in err, err


# -- spreadsheet cells ---------------------------------------------------------------------
UNSEEN_CELLS = [
    ("\u202e", "a bidirectional override (U+202E) at character 2 of the text"),
    ("\u2067", "a bidirectional override (U+2067) at character 2 of the text"),
    ("\x1b[31m", "a control character (U+001B) at character 2 of the text"),
    ("\r", "a control character (U+000D) at character 2 of the text"),
]


def _csv(folder: Path, cell: str) -> Path:
    buffer = io.StringIO(newline="")
    csv.writer(buffer).writerows([["name", "kind"], ["Owl", "a"], ["Fox", f"b{cell}xy"]])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.csv").write_text(buffer.getvalue(), encoding="utf-8", newline="")
    return sheet_game(folder, "{file: cards.csv}", columns=False)


def _xlsx(folder: Path, cell: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    book = openpyxl.Workbook()
    book.active.title = "Cards"
    for row in [["name", "kind"], ["Owl", "a"], ["Fox", f"b{cell}xy"]]:
        book.active.append(row)
    book.save(folder / "cards.xlsx")
    return sheet_game(folder, "{file: cards.xlsx}", columns=False)


@pytest.mark.parametrize(("cell", "says"), UNSEEN_CELLS, ids=["RLO", "RLI", "ESC", "CR"])
def test_a_csv_cell_with_an_unseen_character_is_refused(cell, says, tmp_path):
    data = _csv(tmp_path, cell)
    with pytest.raises(DataError) as caught:
        load_game(str(data))
    assert caught.value.message() == (f"{tmp_path}/cards.csv: row 3, column kind: the cell "
                                       f"holds {says}: it would print invisibly or reorder "
                                       "the text around it; remove it")


@pytest.mark.parametrize(("cell", "says"), UNSEEN_CELLS[:2], ids=["RLO", "RLI"])
def test_an_xlsx_cell_with_a_bidirectional_override_is_refused(cell, says, tmp_path):
    """(openpyxl refuses to write a control character into a workbook.)"""
    data = _xlsx(tmp_path, cell)
    with pytest.raises(DataError) as caught:
        load_game(str(data))
    assert caught.value.message().startswith(f"{tmp_path}/cards.xlsx: sheet Cards, row 3, "
                                             f"column kind: the cell holds {says}: ")


def test_a_line_break_in_a_quoted_csv_cell_may_be_crlf(tmp_path):
    """A spreadsheet program writes a cell's line break as CRLF in a Windows CSV file: a line
    break, as a YAML file's, not a lone carriage return."""
    data = _csv(tmp_path, "\r\n")
    game = load_game(str(data))
    assert game.data["tables"]["cards"][1]["kind"] == "b\r\nxy"


# -- memory --------------------------------------------------------------------------------
REPRODUCTIONS = [c.name for c in CASES] + ["no seating for 2", "csv RLO", "xlsx RLO"]


@pytest.mark.slow
def test_reproductions_fit_in_500_mb(tmp_path):
    """Each reproduction, built by the command line in a child limited to 500 MB of address
    space (all in one child, one after another: tests/hostile/limits.py): the same one
    line, exit 2."""
    runs = []
    for index, name in enumerate(REPRODUCTIONS):
        folder = tmp_path / f"r{index}"
        out = folder / "out"
        if name == "csv RLO":
            args = ["build", str(_csv(folder / "game", "\u202e")), "--out", str(out)]
        elif name == "xlsx RLO":
            args = ["build", str(_xlsx(folder / "game", "\u202e")), "--out", str(out)]
        elif name == "no seating for 2":
            data = copy_game("movement-game", folder / "game")
            data.write_text(data.read_text(encoding="utf-8").replace(
                SEATS, "seats: {4: [S, W, N, E]}"), encoding="utf-8")
            args = ["build", str(data), "--out", str(out)]
        else:
            case = next(c for c in CASES if c.name == name)
            data, _, _ = _setup(case, folder / "game")
            args = _args(case, data, out)
        runs.append((name, folder, args))
    done = pnp_limited_each([r[2] for r in runs], env={"PNP_CACHE": "1"})  # the run's cache
    for (name, folder, _), result in zip(runs, done, strict=True):
        assert result.returncode == 2, (name, result.stderr[-2000:])
        assert "Traceback" not in result.stderr, (name, result.stderr[-2000:])
        assert result.stderr.startswith(f"error: {folder}/game/"), (name, result.stderr[-2000:])
        if name != "no seating for 2":  # a failing verify prints its findings below
            assert len(result.stderr.strip().splitlines()) == 1, (name, result.stderr)


def test_a_builtin_engine_named_over_other_data_says_what_it_reads(in_tmp, capsys):
    """``rules: moving_target`` in a starter project (suits and values, no ranks): one line
    at the ``rules:`` line naming what the engine reads and what is missing, exit 2, where it
    was a KeyError traceback (issue 35)."""
    from generator.data.files import project
    from tests.designer import run

    project.init_project(in_tmp / "g")
    data = in_tmp / "g" / "game.yaml"
    text = data.read_text(encoding="utf-8")
    data.write_text(text.replace("players:", "rules: moving_target\nplayers:", 1), "utf-8")
    line = data.read_text(encoding="utf-8").splitlines().index("rules: moving_target") + 1
    for command in ("build", "verify"):
        code, _, err = run(capsys, command, "g")
        assert code == 2 and "Traceback" not in err, err
        assert re.search(rf"game\.yaml:{line}: rules: moving_target reads a component 'deck'.*"
                         r"card 1 of the deck has no rank", err), err
