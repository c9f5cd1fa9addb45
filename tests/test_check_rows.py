"""A failed deck check names the data, not only itself: the rows (file, sheet, row) of the
cards it is about, the first ten and then how many more (generator/rules/declarative.py's
``rows``), as a designer who keeps the deck in a CSV or a workbook goes to fix it; ``counts``
says "value 5: 3 cards, 4 expected"; ``complete:`` may list the values that must occur."""
from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook

from generator.core.errors import DataError
from generator.data import load_game
from generator.frontends.cli import main

SUITS = ["red", "blue", "green", "gold"]

GAME = """\
id: trick-game
title: Trick game
credit: made for a test
theme: standard
players: [2, 4]
tables:
  cards: %s
components:
  - id: deck
    kind: card
    name: Cards
    size: poker
    face: playing-card-back
    generate: {table: cards}
  - id: tokens
    kind: token
    name: Tokens
    size: {diameter: 20}
    shape: round
    face: snack-token
    items:
      - {name: Star, value: 2, count: 6}
      - {name: Star, value: 1, count: 12}
verify:
%s"""


def deck() -> list[list[str]]:
    """A 40-card trick-taking deck: four suits of values 1-10, ids c1-c40 (CSV row = id + 1)."""
    return [["id", "name", "value", "suit"]] + [
        [f"c{i}", f"Card {i}", str((i - 1) % 10 + 1), SUITS[(i - 1) // 10]] for i in range(1, 41)]


def project(folder: Path, rows: list[list[str]], checks: str, xlsx: bool = False) -> Path:
    """game.yaml over ``rows``, kept in cards.csv or in the sheet Deck of cards.xlsx."""
    if xlsx:
        book = Workbook()
        sheet = book.active
        assert sheet is not None
        sheet.title = "Deck"
        for row in rows:
            sheet.append([int(v) if v.isdigit() else v for v in row])
        book.save(folder / "cards.xlsx")
        ref = "{file: cards.xlsx, sheet: Deck}"
    else:
        (folder / "cards.csv").write_text("\n".join(",".join(r) for r in rows) + "\n",
                                          encoding="utf-8")
        ref = "{file: cards.csv}"
    file = folder / "game.yaml"
    file.write_text(GAME % (ref, checks), encoding="utf-8")
    return file


def verify_lines(file: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """``verify``'s report lines for the game's checks, by check name (exit 1: a check failed)."""
    assert main(["verify", str(file)]) == 1
    out = capsys.readouterr().out
    found = {}
    for line in out.splitlines():
        if line.startswith("  [") and "[design]" in line:
            name, _, detail = line.split("] ", 2)[2].partition(": ")
            found[name] = detail
    return found


def line_of(file: Path, text: str) -> int:
    return next(n for n, line in enumerate(file.read_text().splitlines(), 1) if text in line)


CHECKS = """\
  - name: ids unique
    component: deck
    unique: id
  - name: value counts
    component: deck
    per: value
    counts: {1: 4, 2: 4, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4, 9: 4, 10: 4}
  - name: nine per suit
    component: deck
    per: suit
    count: 9
  - name: thirty-nine cards
    component: deck
    count: 39
  - name: token values
    component: tokens
    per: value
    counts: {1: 12, 2: 5}
"""


@pytest.mark.parametrize("xlsx", [False, True], ids=["csv", "xlsx"])
def test_failed_checks_name_the_rows_of_the_cards(tmp_path, capsys, xlsx):
    rows = deck()
    rows[5] = ["c2", "Card 5", "1", "red"]  # row 6: a second c2, and a fifth value 1
    file = project(tmp_path, rows, CHECKS, xlsx)
    where = f"{tmp_path}/cards.xlsx: sheet Deck, " if xlsx else f"{tmp_path}/cards.csv: "
    found = verify_lines(file, capsys)
    at = {name: f" ({file}:{line_of(file, f'name: {name}')})" for name in found}
    assert found["ids unique"] == (
        f"expected no two pieces with the same id, found c2 2 times ({where}rows 3, 6)"
        + at["ids unique"])
    assert found["value counts"] == (
        f"value 1: 5 cards, 4 expected ({where}rows 2, 6, 12, 22, 32); "
        f"value 5: 3 cards, 4 expected ({where}rows 16, 26, 36)" + at["value counts"])
    # The first ten rows of each offending value, then how many more.
    suit = [f"{where}rows " + ", ".join(str(r) for r in range(first, first + 10))
            for first in (2, 12, 22, 32)]
    assert found["nine per suit"] == (
        f"expected 9 pieces per suit, found red 10 ({suit[0]}), blue 10 ({suit[1]}), "
        f"green 10 ({suit[2]}), gold 10 ({suit[3]})" + at["nine per suit"])
    assert found["thirty-nine cards"] == (
        f"expected 39 pieces, found 40 ({suit[0]} and 30 more)" + at["thirty-nine cards"])
    # Items written in the game file: their lines, with the copies each makes.
    star = line_of(file, "value: 2")
    assert found["token values"] == (
        f"value 2: 6 pieces, 5 expected ({file}:{star} x6)" + at["token values"])


def test_rows_of_several_files_and_copies(tmp_path, capsys):
    """A check over two components names each piece's own file; a row with ``count: 3`` is
    three copies of one place, named once."""
    rows = deck()
    rows[0].append("count")
    for row in rows[1:]:
        row.append("1")
    rows[3][-1] = "3"  # c3: three copies
    checks = """\
  - name: names unique
    component: [deck, tokens]
    unique: "{{ item.name ~ (item.value if item.name == 'Star' else '') }}"
  - name: ids once
    component: deck
    per: id
    count: 1
"""
    file = project(tmp_path, rows, checks)
    found = verify_lines(file, capsys)
    assert found["ids once"].startswith(
        f"expected 1 piece per id, found c3 3 ({tmp_path}/cards.csv: row 4 x3) (")
    assert found["names unique"].startswith(
        f"expected no two pieces with the same value, found Card 3 3 times "
        f"({tmp_path}/cards.csv: row 4 x3), Star2 6 times ({file}:{line_of(file, 'value: 2')} "
        f"x6), Star1 12 times ({file}:{line_of(file, 'value: 1')} x12) (")


def test_complete_takes_a_list_of_values(tmp_path, capsys):
    checks = """\
  - name: suits listed
    component: deck
    per: suit
    count: 10
    complete: [red, blue, green, gold]
  - name: suits and purple
    component: deck
    per: suit
    count: {min: 1}
    complete: [red, blue, purple, green, gold, white]
  - name: values listed
    component: deck
    per: [suit, value]
    count: 1
    complete: {value: [1, 2, 3, 4, 5, 6, 7, 8, "9"]}
"""
    file = project(tmp_path, deck(), checks)
    found = verify_lines(file, capsys)
    line = line_of(file, "name: suits and purple")
    assert found["suits listed"] == "all the 4 values of suit, 10 pieces each"
    assert found["suits and purple"] == (
        "expected at least 1 pieces per suit, for each of the 6 values of suit, "
        f"missing purple, white ({file}:{line})")
    tens = ", ".join(f"({s}, 10) ({tmp_path}/cards.csv: row {r})"
                     for s, r in zip(SUITS, (11, 21, 31, 41), strict=True))
    assert found["values listed"].startswith(
        "expected 1 piece per (suit, value), for each of the 4 x 9 = 36 combinations of "
        f"(suit, value), found values outside it: {tens} (")


def test_complete_with_values_of_a_column_that_stops_short(tmp_path, capsys):
    """A value listed that no card has is named, the rest of the deck is fine."""
    rows = [row for row in deck() if row[3] != "gold"]
    checks = """\
  - name: four suits
    component: deck
    per: suit
    count: 10
    complete: [red, blue, green, gold]
"""
    found = verify_lines(project(tmp_path, rows, checks), capsys)
    assert found["four suits"].startswith(
        "expected 10 pieces per suit, for each of the 4 values of suit, missing gold (")


@pytest.mark.parametrize(("complete", "expected"), [
    ("[red, red]", "'red' is listed twice"),
    ("[]", "a list of 1-10000 values"),
    ("[[red]]", "a list of plain values"),
    ("{suit: [red, {a: 1}]}", "suit: a list of plain values"),
])
def test_a_bad_complete_list_is_an_error_at_its_line(tmp_path, complete, expected):
    checks = f"""\
  - name: suits
    component: deck
    per: suit
    count: 10
    complete: {complete}
"""
    file = project(tmp_path, deck(), checks)
    with pytest.raises(DataError) as caught:
        load_game(str(file))
    assert caught.value.message().startswith(
        f"{file}:{line_of(file, 'complete:')}: verify[0].complete: ")
    assert expected in caught.value.message()


def test_a_list_for_several_fields_is_refused(tmp_path):
    checks = """\
  - name: pairs
    component: deck
    per: [suit, value]
    count: 1
    complete: [red, blue]
"""
    with pytest.raises(DataError, match="'complete' as a list of values goes with one field "
                                        "in 'per'"):
        load_game(str(project(tmp_path, deck(), checks)))


def test_counts_names_ten_values_then_how_many_more(tmp_path, capsys):
    counts = ", ".join(f"{v}: 5" for v in range(1, 13))
    checks = f"""\
  - name: fives
    component: deck
    per: value
    counts: {{{counts}}}
"""
    detail = verify_lines(project(tmp_path, deck(), checks), capsys)["fives"]
    parts = detail.split("; ")
    assert parts[0] == f"value 1: 4 cards, 5 expected ({tmp_path}/cards.csv: rows 2, 12, 22, 32)"
    assert [p.split(" (")[0] for p in parts[1:10]] == [
        f"value {v}: 4 cards, 5 expected" for v in range(2, 11)]
    assert parts[10].startswith("and 2 more values (")  # 11 and 12: none on a card
