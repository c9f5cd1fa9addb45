"""Deal conditions typed by their column (generator/data/tables/deal_list.py ``typed_where``): a
designer's 40-card project from a CSV with a boolean column ``fog`` (8 cards true) answers
"no fog card in a hand of 5" as C(32,5)/C(40,5) = 30.6 % however the boolean is written, and
refuses a field no card has or a value no card holds with one line (exit 2) naming the
argument, or the ``deal:`` line of the data file. Every answer says how many cards match."""
from __future__ import annotations

import csv
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.core.errors import DataError
from generator.data import load_game
from generator.data.tables import columns
from generator.frontends.cli import main

C = math.comb
NO_FOG = Fraction(C(32, 5), C(40, 5))
FOG_WORDS = ["true", "yes", "1", "TRUE", "Yes", "true", "True", "YES"]  # the 8 fog cards


def fog_project(folder: Path, deal: list[dict[str, Any]] | None = None,
                sheet: str = "csv", declared: bool = True) -> Path:
    """40 cards in cards.csv (or cards.xlsx, the booleans as the workbook's own): 4 suits of
    ranks 1-10, the 8 cards of rank 1-2 in fog (the boolean written as each reader accepts
    it), the rest not; ``declared``: the columns declared (fog a bool), else left as read."""
    rows: list[list[Any]] = [["name", "suit", "rank", "fog"]]
    fog = iter(FOG_WORDS)
    for suit in ("Red", "Blue", "Green", "Gold"):
        for rank in range(1, 11):
            rows.append([f"{suit} {rank}", suit, str(rank),
                         next(fog) if rank <= 2 else ("no", "false", "0", "FALSE")[rank % 4]])
    if sheet == "xlsx":
        from openpyxl import Workbook

        book = Workbook()
        for row in rows:
            book.active.append(row if row[0] == "name"
                               else [*row[:3], bool(columns.as_bool(row[3]))])
        book.save(folder / "cards.xlsx")
    else:
        with (folder / "cards.csv").open("w", newline="", encoding="utf-8") as out:
            csv.writer(out).writerows(rows)
    game: dict[str, Any] = {
        "id": "foggy", "title": "Foggy", "credit": "made for a test", "theme": "standard",
        "players": [2, 4],
        **({"columns": {"cards": {"name": "str", "suit": "str", "rank": "int 1..10",
                                  "fog": "bool"}}} if declared else {}),
        "tables": {"cards": {"file": f"cards.{sheet}"}},
        "components": [{"id": "deck", "kind": "card", "name": "Cards", "size": "poker",
                        "face": "playing-card-back", "generate": {"table": "cards"}}],
    }
    if deal is not None:
        game["deal"] = deal
    file = folder / "game.yaml"
    file.write_text(yaml.safe_dump(game, sort_keys=False, width=200), encoding="utf-8")
    return file


def _deal(capsys: pytest.CaptureFixture[str], file: Path, *args: str) -> tuple[int, str, str]:
    code = main(["deal", str(file), "--players", "4", "--hand", "5", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("word", ["true", "True", "yes", "YES", "1"])
def test_no_fog_card_in_a_hand_of_5_is_30_6_percent(tmp_path, capsys, word):
    assert round(float(NO_FOG), 3) == 0.306
    code, out, err = _deal(capsys, fog_project(tmp_path), "--none", f"fog={word}")
    assert code == 0, err
    assert "a given player's hand has no card where fog = true: 30.6 % [exact]" in out
    assert "8 of 40 cards match" in out


@pytest.mark.slow  # over tests/lanes.py's budget
@pytest.mark.parametrize(("sheet", "declared"), [("csv", False), ("xlsx", False),
                                                ("xlsx", True)])
def test_the_same_column_undeclared_or_from_a_workbook(tmp_path, capsys, sheet, declared):
    """Without ``columns:`` a CSV's booleans stay the words written (true, yes, 1, TRUE...),
    a workbook's are its own booleans: the condition reads them all the same."""
    file = fog_project(tmp_path, sheet=sheet, declared=declared)
    for word in ("true", "Yes", "1"):
        code, out, err = _deal(capsys, file, "--none", f"fog={word}")
        assert code == 0, err
        assert "a given player's hand has no card where fog = true: 30.6 % [exact]; " \
               "8 of 40 cards match" in out
    code, out, err = _deal(capsys, file, "--none", "fog=maybe")
    assert code == 2 and "--none fog=maybe: fog is true or false" in err


def test_at_least_one_fog_card_is_the_complement(tmp_path, capsys):
    code, out, err = _deal(capsys, fog_project(tmp_path), "--at-least", "1", "--where",
                           "fog=yes")
    assert code == 0, err
    assert "a given player holds at least 1 cards where fog = true: 69.4 % [exact]" in out
    assert "8 of 40 cards match" in out
    code, out, err = _deal(capsys, fog_project(tmp_path), "--none", "fog=no")
    assert code == 0 and "32 of 40 cards match" in out
    assert round(100 * C(8, 5) / C(40, 5), 5) == 0.00851
    assert "has no card where fog = false: 0.00851 % [exact]" in out


@pytest.mark.parametrize(("condition", "expected"), [
    ("fogg=true", "--none fogg=true: no card of deck has a field 'fogg' (its fields: "),
    ("fog=maybe", "--none fog=maybe: fog is true or false (true/false, yes/no or 1/0), "
                  "got 'maybe'"),
    ("suit=Purple", "--none suit=Purple: no card of deck has suit = 'Purple' (its cards "
                    "have: Red, Blue, Green, Gold)"),
    ("rank=11", "--none rank=11: no card of deck has rank = 11 (its cards have: 1, 2, "),
    ("rank=ten", "--none rank=ten: rank is a number, got 'ten'"),
    ("{{ item.fogg }}", "--none {{ item.fogg }}: in '{{ item.fogg }}': "),
])
def test_a_field_or_value_no_card_has_is_one_line_exit_2(tmp_path, capsys, condition,
                                                         expected):
    code, out, err = _deal(capsys, fog_project(tmp_path), "--none", condition)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {expected}") and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_numbers_compare_as_numbers(tmp_path, capsys):
    code, out, err = _deal(capsys, fog_project(tmp_path), "--none", "rank=7.0")
    assert code == 0, err
    assert "4 of 40 cards match" in out
    assert f"{100 * float(Fraction(C(36, 5), C(40, 5))):.1f} % [exact]" in out


def test_deal_questions_in_the_data_file_are_typed_and_checked_at_their_line(tmp_path, capsys):
    file = fog_project(tmp_path, [
        {"name": "no fog in 5", "players": 4, "hand": 5, "none": {"fog": "true"}},
        {"name": "no fog in 5, a bool", "players": 4, "hand": 5, "none": {"fog": True}},
    ])
    assert main(["verify", str(file)]) == 0
    out = capsys.readouterr().out
    assert "deal: no fog in 5: 30.6 % [exact]; 8 of 40 cards match" in out
    assert "deal: no fog in 5, a bool: 30.6 % [exact]; 8 of 40 cards match" in out


@pytest.mark.parametrize(("condition", "field", "expected"), [
    ({"fogg": True}, "deal[0].none.fogg", "no card of deck has a field 'fogg'"),
    ({"fog": "maybe"}, "deal[0].none.fog", "fog is true or false"),
    ({"suit": ["Red", "Pink"]}, "deal[0].none.suit", "no card of deck has suit = 'Pink'"),
])
def test_a_bad_condition_in_the_data_file_is_an_error_at_its_line(tmp_path, capsys,
                                                                   condition, field, expected):
    file = fog_project(tmp_path, [{"name": "q", "players": 4, "hand": 5, "none": condition}])
    with pytest.raises(DataError) as caught:
        load_game(str(file))
    error = caught.value
    assert error.field == field and expected in error.expected
    lines = file.read_text(encoding="utf-8").splitlines()
    assert error.line is not None and lines.index("deal:") < error.line
    assert main(["deal", str(file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {file}:{error.line}: {field}:") and err.count("\n") == 1


# -- expect: bounds a figure must keep, failing verify --------------------------------------

FOG_IN_5 = {"players": 4, "hand": 5, "none": {"fog": True}}


@pytest.mark.slow  # over tests/lanes.py's budget
def test_an_expectation_passes_fails_or_is_undecided_by_its_interval(tmp_path, capsys):
    file = fog_project(tmp_path, [
        {"name": "no fog within 40", **FOG_IN_5, "expect": {"max": "40 %"}},
        {"name": "no fog between", **FOG_IN_5, "expect": {"min": "30%", "max": "31 %"}},
    ])
    assert main(["verify", "--strict", str(file)]) == 0
    out = capsys.readouterr().out
    assert "[ok  ] [design] deal: no fog within 40: 30.6 % [exact]; 8 of 40 cards match; " \
           "expected at most 40 %: it is" in out
    assert "deal: no fog between: 30.6 % [exact]; 8 of 40 cards match; expected from 30 % " \
           "to 31 %: it is" in out

    # Exact and past it: a failure at the question's line, verify and verify --strict.
    file = fog_project(tmp_path, [{"name": "rarely fogless", **FOG_IN_5,
                                   "expect": {"max": "30.5 %"}}])
    for strict in ([], ["--strict"]):
        assert main(["verify", *strict, str(file)]) == 1
        out = capsys.readouterr().out
        assert "[FAIL] [design] deal: rarely fogless: 30.6 % [exact]; 8 of 40 cards match; " \
               "expected at most 30.5 %: it is not (" in out
        line = next(n for n, text in enumerate(file.read_text().splitlines(), 1)
                    if "rarely fogless" in text)
        assert f"({file}:{line})" in out

    # A Monte Carlo figure whose interval straddles the bound: a warning (82.2 %, 95 %
    # interval 81.5-83.0 %), which only verify --strict fails; past the whole interval a FAIL.
    anyone = {**FOG_IN_5, "who": "anyone"}
    file = fog_project(tmp_path, [{"name": "someone fogless", **anyone,
                                   "expect": {"min": "82.5 %"}}])
    assert main(["verify", str(file)]) == 0
    out = capsys.readouterr().out
    assert "[WARN] [design] deal: someone fogless: 82.2 % [Monte Carlo" in out
    assert "expected at least 82.5 %: the 95 % interval straddles it (more deals decide)" in out
    assert main(["verify", "--strict", str(file)]) == 1
    capsys.readouterr()
    file = fog_project(tmp_path, [{"name": "someone fogless", **anyone,
                                   "expect": {"min": "90 %"}}])
    assert main(["verify", str(file)]) == 1
    assert "[FAIL] [design] deal: someone fogless: 82.2 %" in capsys.readouterr().out


@pytest.mark.parametrize(("spec", "field", "expected"), [
    ({**FOG_IN_5, "expect": {"max": 40}}, "deal[0].expect.max",
     "expected a percentage from 0 % to 100 % such as 40 %, got 40"),
    ({**FOG_IN_5, "expect": {"max": "140 %"}}, "deal[0].expect.max", "got '140 %'"),
    ({**FOG_IN_5, "expect": {"min": "50 %", "max": "40 %"}}, "deal[0].expect",
     "min 50 % is above max 40 %"),
    ({**FOG_IN_5, "expect": {}}, "deal[0].expect", "give min, max or both"),
    ({"players": 4, "hand": 5, "lengths": "suit", "expect": {"max": "40 %"}}, "deal[0]",
     "'expect' is about one figure"),
    ({"players": 4, "hand": 10, "draws": 1, "none": {"fog": True}}, "deal[0].draws",
     "4 hands of 10 cards and 1 draws need 41 cards; deck has 40"),
    ({"players": 4, "hand": 5, "draws": 3, "void": "suit"}, "deal[0]",
     "'draws' counts cards matching a condition"),
    ({**FOG_IN_5, "draws": 3, "who": "anyone"}, "deal[0]", "leave 'who' out"),
])
def test_a_bad_expectation_or_draw_is_an_error_at_its_line(tmp_path, spec, field, expected):
    file = fog_project(tmp_path, [{"name": "q", **spec}])
    with pytest.raises(DataError) as caught:
        load_game(str(file))
    assert caught.value.field == field and expected in caught.value.expected


# -- draws: the first cards drawn after the deal ------------------------------------------

@pytest.mark.slow  # over tests/lanes.py's budget
def test_at_least_one_fog_card_in_the_first_3_draws(tmp_path, capsys):
    some_fog = 1 - Fraction(C(32, 3), C(40, 3))  # any 3 places of the deck: 49.8 %
    file = fog_project(tmp_path, [
        {"name": "at least one fog card in the first 3 draws", "players": 4, "hand": 5,
         "draws": 3, "at_least": 1, "where": {"fog": "yes"}, "expect": {"min": "45 %"}},
        {"name": "no fog card in the first 3 draws", "players": 4, "hand": 5, "draws": 3,
         "none": {"fog": True}},
    ])
    assert main(["verify", "--strict", str(file)]) == 0
    out = capsys.readouterr().out
    assert f"{100 * float(some_fog):.1f}" == "49.8"
    assert "[ok  ] [design] deal: at least one fog card in the first 3 draws: 49.8 % " \
           "[exact]; 8 of 40 cards match; expected at least 45 %: it is" in out
    assert "deal: no fog card in the first 3 draws: 50.2 % [exact]; 8 of 40 cards match" in out
    code, out, err = _deal(capsys, file, "--at-least", "1", "--where", "fog=true",
                           "--draws", "3")
    assert code == 0, err
    assert "at least 1 cards where fog = true in the first 3 draws after the deal: 49.8 % " \
           "[exact]; 8 of 40 cards match" in out


@pytest.mark.parametrize(("args", "expected"), [
    (["--draws", "3"], "--draws D needs --none CONDITION or --at-least K --where CONDITION"),
    (["--none", "fog=1", "--draws", "0"], "--draws must be a whole number of cards, at least 1"),
    (["--none", "fog=1", "--draws", "21"],
     "4 hands of 5 cards and 21 draws need 41 cards; deck has 40"),
    # past the schema's bound: the option named, one line (was pydantic's four)
    (["--at-least", "99999999999999999999", "--where", "fog=1"],
     "--at-least: Input should be less than or equal to 5000 (got 99999999999999999999)"),
])
def test_bad_draws_are_one_line_exit_2(tmp_path, capsys, args, expected):
    code, out, err = _deal(capsys, fog_project(tmp_path), *args)
    assert code == 2 and out == "" and err.startswith("error: ") and expected in err
    assert err.count("\n") == 1
