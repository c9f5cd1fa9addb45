"""Tables read from CSV and XLSX files (generator/data/tables/spreadsheet.py): built into real kits,
typed by the data file's ``columns``, and every bad or hostile file refused with an error
naming the file, sheet, row and column."""
from __future__ import annotations

import csv
import io
import os
import zipfile
from pathlib import Path

import openpyxl
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core import paths
from generator.core.errors import DataError
from generator.core.yamlfile import unseen
from generator.data import load_game
from generator.data.tables import spreadsheet
from generator.data.tables.columns import parse_cell, parse_type
from generator.frontends.cli import main
from generator.orchestration.build import build_pdf
from generator.orchestration.options import BuildOptions
from tests.designer import run

MOVING_TARGET = paths.CARD_DATA / "moving-target.yaml"
RANK_HEADER = ["id", "name", "value", "pips", "ace", "court"]


# -- helpers -------------------------------------------------------------------------------

def _original() -> dict:
    return yaml.safe_load(MOVING_TARGET.read_text(encoding="utf-8"))


def _pips_text(pips: list) -> str:
    return "; ".join(f"{x}, {y}" for x, y in pips)


def _moving_target(folder: Path, **refs: str) -> Path:
    """A copy of the Moving Target data file in ``folder`` whose tables named in ``refs``
    are replaced by the given flow mapping (``ranks="{file: ranks.csv}"``)."""
    text = MOVING_TARGET.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    skipping = False
    for line in lines:
        name = line.strip().removesuffix(":")
        if line.startswith("  ") and not line.startswith("   ") and name in refs \
                and line.rstrip().endswith(":") and out and "tables:" in "".join(out):
            out.append(f"  {name}: {refs[name]}\n")
            skipping = True
            continue
        if skipping and (line.startswith("    ") or line.strip().startswith("#")):
            continue
        skipping = False
        out.append(line)
    data_file = folder / "game.yaml"
    data_file.write_text("".join(out), encoding="utf-8")
    return data_file


def _rank_rows() -> list[list[str]]:
    """The 52-card deck's ranks as CSV text cells, bools spelled as designers do."""
    rows = []
    for rank in _original()["tables"]["ranks"]:
        rows.append([rank["id"], rank["name"], str(rank["value"]), _pips_text(rank["pips"]),
                     "TRUE" if rank.get("ace") else "", "yes" if rank.get("court") else "no"])
    return rows


def _write_csv(file: Path, rows: list[list[str]], bom: bool = True) -> Path:
    buffer = io.StringIO(newline="")
    csv.writer(buffer).writerows(rows)
    file.write_text(buffer.getvalue(), encoding="utf-8-sig" if bom else "utf-8", newline="")
    return file


RANK_NAMES = {"J": "Knave", "Q": "Dame", "A": "Ace"}  # the sheet's own names for some ranks


def _deck_workbook(file: Path) -> Path:
    """Suits and ranks on two sheets, with XLSX's own ints and bools; the King's value is a
    formula whose saved value is 13 (a workbook saved by a spreadsheet program)."""
    book = openpyxl.Workbook()
    suits = book.active
    suits.title = "Suits"
    suits.append(["id", "name", "icon", "colour"])
    for suit in _original()["tables"]["suits"]:
        suits.append([suit["id"], suit["name"], suit["icon"], suit["colour"]])
    ranks = book.create_sheet("Ranks")
    ranks.append(RANK_HEADER)
    for rank in _original()["tables"]["ranks"]:
        value = "=12+1" if rank["id"] == "K" else (float(rank["value"]) if rank["id"] == "7"
                                                  else rank["value"])
        ranks.append([rank["id"], RANK_NAMES.get(rank["id"], rank["name"]), value,
                      _pips_text(rank["pips"]) or None,
                      bool(rank.get("ace")), bool(rank.get("court"))])
    book.save(file)
    return _save_formula_value(file, "12+1", "13")


def _save_formula_value(file: Path, formula: str, value: str) -> Path:
    """Give a formula cell the saved value a spreadsheet program would (openpyxl writes none)."""
    with zipfile.ZipFile(file) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    for name, data in parts.items():
        if name.startswith("xl/worksheets/"):
            parts[name] = data.replace(f"<f>{formula}</f><v />".encode(),
                                       f"<f>{formula}</f><v>{value}</v>".encode())
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return file


COLUMNS = ('columns:\n  cards: {name: str, points: int 0..10, wild: "bool?", tags: list of name, '
           'kind: one of a|b}\n')
MINI = """\
id: sheet-game
title: Sheet game
credit: made for a test
rules: moving_target
theme: standard
players: [2, 3]
%stables:
  cards: %s
components:
  - id: deck
    kind: card
    name: Cards
    size: poker
    face: playing-card-back
    generate: {table: cards}
"""


def sheet_game(folder: Path, ref: str = "{file: cards.csv}", columns: bool = True) -> Path:
    text = MINI % (COLUMNS if columns else "", ref)
    data_file = folder / "game.yaml"
    data_file.write_text(text, encoding="utf-8")
    return data_file


CARDS = [["name", "points", "wild", "tags", "kind"],
         ["Owl", "3", "no", "bird; night", "a"],
         ["Fox", "7", "", "", "b"]]


def _error(data_file: Path) -> str:
    with pytest.raises(DataError) as caught:
        load_game(str(data_file))
    return caught.value.message()


# -- built kits ----------------------------------------------------------------------------

@pytest.mark.slow
def test_a_table_from_csv_builds_into_the_kit(tmp_path, page_texts):
    _write_csv(tmp_path / "ranks.csv", [RANK_HEADER, *_rank_rows()])
    data_file = _moving_target(tmp_path, ranks="{file: ranks.csv}")
    pdf, pages = build_pdf(str(data_file), BuildOptions(out_dir=tmp_path / "out"))
    text = "\n".join(page_texts(pdf))
    assert pages > 10
    for name in ("Ace of Spades", "Seven of Hearts", "King of Clubs"):
        assert name in text
    # "no" in the court column is the bool False: a number card gets no court panel (whose
    # caption is the rank's name in capitals), a court card does.
    assert "KING" in text and "SEVEN" not in text


@pytest.mark.slow
def test_tables_from_xlsx_sheets_build_into_the_kit(tmp_path, page_texts):
    _deck_workbook(tmp_path / "deck.xlsx")
    data_file = _moving_target(tmp_path, suits="{file: deck.xlsx, sheet: Suits}",
                               ranks="{file: deck.xlsx, sheet: Ranks}")
    pdf, _ = build_pdf(str(data_file), BuildOptions(out_dir=tmp_path / "out"))
    text = "\n".join(page_texts(pdf))
    for name in ("Knave of Spades", "Dame of Diamonds", "Two of Clubs", "King of Hearts"):
        assert name in text
    assert "Jack of Spades" not in text and "KNAVE" in text


def test_typed_values_reach_templates_and_checks_as_typed(tmp_path):
    _deck_workbook(tmp_path / "deck.xlsx")
    ranks = load_game(str(_moving_target(tmp_path, ranks="{file: deck.xlsx, sheet: Ranks}"))
                      ).data["tables"]["ranks"]
    by_id = {rank["id"]: rank for rank in ranks}
    assert by_id["K"]["value"] == 13 and type(by_id["K"]["value"]) is int  # saved formula
    assert by_id["7"]["value"] == 7 and type(by_id["7"]["value"]) is int  # 7.0 in the cell
    assert by_id["A"]["ace"] is True and by_id["2"]["court"] is False
    assert by_id["A"]["pips"] == [] and by_id["2"]["pips"] == [[0.5, 0], [0.5, 1]]


def test_a_failing_row_check_names_the_csv_row(tmp_path):
    rows = _rank_rows()
    rows[1][3] = "0.5, 0; 0.5, 0.5; 0.5, 1"  # the Two with three pips
    _write_csv(tmp_path / "ranks.csv", [RANK_HEADER, *rows])
    message = _error(_moving_target(tmp_path, ranks="{file: ranks.csv}"))
    assert message == (f"{tmp_path}/ranks.csv: row 3, column pips: a number card shows as "
                       "many pips as its value: the Two needs 2, it has 3")


def test_untyped_tables_keep_text_and_native_values(tmp_path):
    _write_csv(tmp_path / "cards.csv", [["name", "points", "count"], ["Owl", "3", "2"],
                                         ["", "", ""], ["Fox", "", ""]])
    game = load_game(str(sheet_game(tmp_path, columns=False)))
    assert game.data["tables"]["cards"] == [{"name": "Owl", "points": "3", "count": 2},
                                            {"name": "Fox"}]
    assert [item.count for item in game.components[0].items] == [2, 1]
    book = openpyxl.Workbook()
    book.active.append(["name", "points", "wild"])
    book.active.append(["Owl", 3, True])
    book.save(tmp_path / "cards.xlsx")
    game = load_game(str(sheet_game(tmp_path, "{file: cards.xlsx}", columns=False)))
    assert game.data["tables"]["cards"] == [{"name": "Owl", "points": 3, "wild": True}]


def test_declared_columns_type_the_csv(tmp_path):
    _write_csv(tmp_path / "cards.csv", CARDS, bom=False)
    rows = load_game(str(sheet_game(tmp_path))).data["tables"]["cards"]
    assert rows == [{"name": "Owl", "points": 3, "wild": False, "tags": ["bird", "night"],
                     "kind": "a"},
                    {"name": "Fox", "points": 7, "tags": [], "kind": "b"}]


def test_an_included_file_may_name_a_spreadsheet_beside_it(tmp_path):
    (tmp_path / "shared").mkdir()
    _write_csv(tmp_path / "shared" / "cards.csv", CARDS)
    (tmp_path / "shared" / "deck.yaml").write_text(
        COLUMNS + "tables:\n  cards: {file: cards.csv}\n", encoding="utf-8")
    text = (MINI % ("", "[]")).replace("tables:\n  cards: []\n", "include: [shared/deck.yaml]\n")
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    rows = load_game(str(tmp_path / "game.yaml")).data["tables"]["cards"]
    assert rows[0]["points"] == 3 and rows[0]["tags"] == ["bird", "night"]


# -- bad cells -----------------------------------------------------------------------------

BAD_CELLS = [
    (1, "points", "ten", "column points: expected a whole number from 0 to 10, got 'ten'"),
    (1, "points", "11", "column points: expected a whole number from 0 to 10, got '11'"),
    (1, "points", "2.5", "column points: expected a whole number from 0 to 10, got '2.5'"),
    (1, "wild", "maybe", "column wild: expected true or false (true/false, yes/no or 1/0), "
                         "got 'maybe'"),
    (1, "tags", "bird; Night!", "column tags: expected a list of a name (a-z, 0-9, - and _) "
                                "(at most 10000) (items separated by ';', or a JSON list), "
                                "got 'bird; Night!'"),
    (1, "kind", "c", "column kind: expected one of a, b, got 'c'"),
    (1, "name", "", "column name: the cell is empty; expected text"),
]


@pytest.mark.parametrize(("row", "column", "value", "expected"), BAD_CELLS)
def test_a_bad_csv_cell_names_file_row_and_column(tmp_path, row, column, value, expected):
    rows = [list(r) for r in CARDS]
    rows[row][CARDS[0].index(column)] = value
    _write_csv(tmp_path / "cards.csv", rows)
    assert _error(sheet_game(tmp_path)) == f"{tmp_path}/cards.csv: row {row + 1}, {expected}"


@pytest.mark.parametrize(("row", "column", "value", "expected"), BAD_CELLS)
def test_a_bad_xlsx_cell_names_file_sheet_row_and_column(tmp_path, row, column, value,
                                                         expected):
    book = openpyxl.Workbook()
    book.active.title = "Other"
    sheet = book.create_sheet("Cards")
    for index, cells in enumerate(CARDS):
        cells = list(cells)
        if index == row:
            cells[CARDS[0].index(column)] = value or None
        sheet.append(cells)
    book.save(tmp_path / "cards.xlsx")
    message = _error(sheet_game(tmp_path, "{file: cards.xlsx, sheet: Cards}"))
    assert message == f"{tmp_path}/cards.xlsx: sheet Cards, row {row + 1}, {expected}"


def test_xlsx_native_values_are_checked_too(tmp_path):
    book = openpyxl.Workbook()
    book.active.append(CARDS[0])
    book.active.append(["Owl", 12, 2, None, "a"])
    book.active.append([True, 3.5, 1, 2.5, "b"])
    book.save(tmp_path / "cards.xlsx")
    message = _error(sheet_game(tmp_path, "{file: cards.xlsx}"))
    shown = f"{tmp_path}/cards.xlsx: sheet Sheet"
    assert message.splitlines() == [
        f"{shown}, row 2, column points: expected a whole number from 0 to 10, got 12",
        f"{shown}, row 2, column wild: expected true or false (true/false, yes/no or 1/0), "
        "got 2",
        f"{shown}, row 3, column points: expected a whole number from 0 to 10, got 3.5",
        f"{shown}, row 3, column tags: expected a list of a name (a-z, 0-9, - and _) (at "
        "most 10000) (items separated by ';', or a JSON list), got 2.5"]


def test_header_problems_are_named(tmp_path):
    _write_csv(tmp_path / "cards.csv", [["name", "points", "Tags", "kind", "name"],
                                         ["Owl", "3", "x", "a", "Owl", "stray"]])
    lines = _error(sheet_game(tmp_path)).splitlines()
    shown = f"{tmp_path}/cards.csv"
    assert lines == [
        f"{shown}: row 1, column C: unknown column 'Tags'; cards has: name, points, wild, "
        "tags, kind (columns: in the data file)",
        f"{shown}: row 1, column E: column 'name' is named twice",
        f"{shown}: row 1: no column 'tags' (a list of a name (a-z, 0-9, - and _) (at most "
        "10000)); the columns are: name, points, Tags, kind, name"]


def test_a_value_under_no_column_name_is_an_error(tmp_path):
    _write_csv(tmp_path / "cards.csv", [CARDS[0], CARDS[1] + ["stray"]])
    assert _error(sheet_game(tmp_path)) == (f"{tmp_path}/cards.csv: row 2, column F: a value in a "
                                       "column with no name (row 1 names the columns)")


def test_a_bad_count_names_the_row(tmp_path):
    _write_csv(tmp_path / "cards.csv", [["name", "count"], ["Owl", "many"], ["Fox", "5000"]])
    lines = _error(sheet_game(tmp_path, columns=False)).splitlines()
    assert lines == [
        f"{tmp_path}/cards.csv: row 2, column count: expected a whole number, got 'many'"]
    _write_csv(tmp_path / "cards.csv", [["name", "count"], ["Owl", "2"], ["Fox", "5000"]])
    assert _error(sheet_game(tmp_path, columns=False)) == (
        f"{tmp_path}/cards.csv: row 3, column count: expected a whole number of copies from 0 "
        "to 1000, got 5000")


def test_formula_without_a_saved_value_and_error_cells_name_the_cell(tmp_path):
    book = openpyxl.Workbook()
    book.active.title = "Cards"
    book.active.append(CARDS[0])
    book.active.append(["Owl", "=1+1", None, None, "a"])
    book.active.append(["Fox", "#DIV/0!", None, None, "b"])
    book.save(tmp_path / "cards.xlsx")
    lines = _error(sheet_game(tmp_path, "{file: cards.xlsx}")).splitlines()
    shown = f"{tmp_path}/cards.xlsx: sheet Cards"
    assert lines == [
        f"{shown}, row 2, column points: cell B2 holds a formula with no saved value (a "
        "workbook written by a script); open and save it in a spreadsheet program, or type "
        "the value",
        f"{shown}, row 3, column points: cell B3 holds the error #DIV/0!"]
    _save_formula_value(tmp_path / "cards.xlsx", "1+1", "2")
    with pytest.raises(DataError, match="#DIV/0!"):
        load_game(str(tmp_path / "game.yaml"))


def test_a_missing_sheet_lists_the_sheets(tmp_path):
    _deck_workbook(tmp_path / "deck.xlsx")
    assert _error(sheet_game(tmp_path, "{file: deck.xlsx, sheet: Cards}")) == (
        f"{tmp_path}/deck.xlsx: sheet: no sheet 'Cards'; the workbook has: Suits, Ranks")


@pytest.mark.parametrize(("ref", "expected"), [
    ("{file: cards.xls}", "a table file is a .csv or .xlsx file"),
    ("{file: cards.csv, sheet: Cards}", "'sheet' is for .xlsx files"),
    ("{file: cards.xlsx, delimiter: ';'}", "'delimiter' is for .csv files"),
    ("{file: cards.csv, delimiter: '|'}", "Input should be ','"),
    ("{path: cards.csv}", "tables.cards"),
])
def test_a_bad_table_reference_names_the_yaml_line(tmp_path, ref, expected):
    _write_csv(tmp_path / "cards.csv", CARDS)
    message = _error(sheet_game(tmp_path, ref))
    assert message.startswith(f"{tmp_path}/game.yaml:10: tables.cards")
    assert expected in message


def test_cli_reports_a_bad_cell_with_exit_2_and_no_traceback(tmp_path, monkeypatch, capsys):
    """The command line in this process (an exception would fail the test where a child
    prints a traceback)."""
    rows = [list(r) for r in CARDS]
    rows[2][1] = "ten"
    _write_csv(tmp_path / "cards.csv", rows)
    data_file = sheet_game(tmp_path)
    monkeypatch.chdir(paths.ROOT)
    code, _, err = run(capsys, "build", data_file, "--out", tmp_path / "out")
    assert code == 2
    assert "Traceback" not in err
    assert (f"{tmp_path}/cards.csv: row 3, column points: expected a whole number from 0 to "
            "10, got 'ten'") in err


# -- hostile files -------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "expected"), [
    ("../cards.csv", "is outside"),
    ("/etc/passwd.csv", "is absolute"),
    ("link.csv", "is a link leading outside"),
    ("missing.csv", "not found"),
])
def test_table_files_stay_in_the_game_folder(tmp_path, name, expected):
    game = tmp_path / "game"
    game.mkdir()
    _write_csv(tmp_path / "cards.csv", CARDS)
    os.symlink(tmp_path / "cards.csv", game / "link.csv")
    message = _error(sheet_game(game, f"{{file: '{name}'}}"))
    assert message.startswith(f"{game}/game.yaml:10: tables.cards.file: table file")
    assert expected in message


def test_oversize_files_are_refused(tmp_path):
    big = tmp_path / "cards.csv"
    big.write_bytes(b"name\n" + b"x" * (spreadsheet.MAX_SHEET_BYTES + 1))
    assert _error(sheet_game(tmp_path)) == (f"{big}: is larger than 5 MB, the limit for a table "
                                       "file")


def test_too_many_rows_or_columns_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(spreadsheet, "MAX_ROWS", 5)
    _write_csv(tmp_path / "cards.csv", [["name"]] + [[f"c{i}"] for i in range(6)])
    assert _error(sheet_game(tmp_path, columns=False)) == (
        f"{tmp_path}/cards.csv: row 7: the table has more than 5 rows below the header; a "
        "table file may have at most that many")
    book = openpyxl.Workbook()
    for i in range(7):
        book.active.append([f"c{i}"])
    book.save(tmp_path / "cards.xlsx")
    assert "sheet Sheet, row 7: the table has more than 5 rows" in _error(
        sheet_game(tmp_path, "{file: cards.xlsx}", columns=False))
    _write_csv(tmp_path / "cards.csv", [[f"c{i}" for i in range(201)]])
    assert _error(sheet_game(tmp_path, columns=False)) == (
        f"{tmp_path}/cards.csv: row 1: has more than 200 columns (a value in column GS); a "
        "table file may have at most that many")


def test_huge_and_binary_cells_are_refused(tmp_path):
    _write_csv(tmp_path / "cards.csv", [["name"], ["x" * 20_000]])
    assert _error(sheet_game(tmp_path, columns=False)) == (
        f"{tmp_path}/cards.csv: row 2, column name: the cell holds 20000 characters; at most "
        "10000")
    _write_csv(tmp_path / "cards.csv", [["name"], ["x" * 200_000]])
    assert _error(sheet_game(tmp_path, columns=False)).startswith(
        f"{tmp_path}/cards.csv: row 2: is not valid CSV (field larger than field limit")
    (tmp_path / "cards.csv").write_bytes(b"name\nO\x00wl\n")
    assert "row 2, column name: the cell holds a NUL (U+0000) at character 2" in _error(
        sheet_game(tmp_path, columns=False))


def test_encodings_other_than_utf8_are_refused(tmp_path):
    (tmp_path / "cards.csv").write_bytes("name\nOwl\nCaf\u00e9\n".encode("latin-1"))
    assert _error(sheet_game(tmp_path, columns=False)) == (
        f"{tmp_path}/cards.csv:3: is not UTF-8 text (byte 0xe9); save it as 'CSV UTF-8' "
        "(Excel: File > Save As; LibreOffice: character set Unicode (UTF-8))")
    (tmp_path / "cards.csv").write_bytes("name\nOwl\n".encode("utf-16"))
    assert "cards.csv: is UTF-16 text; save it as 'CSV UTF-8'" in _error(
        sheet_game(tmp_path, columns=False))
    (tmp_path / "cards.csv").write_bytes("\ufeffname;points\nCaf\u00e9;3\n".encode())
    rows = load_game(str(sheet_game(tmp_path, "{file: cards.csv, delimiter: ';'}", columns=False))
                     ).data["tables"]["cards"]
    assert rows == [{"name": "Caf\u00e9", "points": "3"}]


def test_an_xlsx_zip_bomb_is_refused_before_parsing(tmp_path):
    bomb = tmp_path / "cards.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (30 * 1024 * 1024))
    assert bomb.stat().st_size < 100_000
    assert _error(sheet_game(tmp_path, "{file: cards.xlsx}")) == (
        f"{bomb}: unpacks to 30 MB; at most 25 MB (a zip bomb?)")


def test_an_xlsx_with_a_dtd_or_that_is_no_zip_is_refused(tmp_path):
    book = tmp_path / "cards.xlsx"
    openpyxl.Workbook().save(book)
    with zipfile.ZipFile(book) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    parts["xl/sharedStrings.xml"] = (b'<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "aaaa">'
                                     b']><sst>&a;</sst>')
    with zipfile.ZipFile(book, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    assert _error(sheet_game(tmp_path, "{file: cards.xlsx}")) == (
        f"{book}: part 'xl/sharedStrings.xml' declares a DTD (<!DOCTYPE or <!ENTITY), which "
        "no spreadsheet program writes; refused")
    book.write_text("name,points\n", encoding="utf-8")
    assert _error(sheet_game(tmp_path, "{file: cards.xlsx}")).startswith(
        f"{book}: is not a readable XLSX file (File is not a zip file)")


# -- cell parsers (property tests) ---------------------------------------------------------

@given(st.integers(min_value=-10**12 + 1, max_value=10**12 - 1), st.sampled_from(["", " ", "+"]))
def test_ints_round_trip_through_text(number, pad):
    text = f"{pad}{number}" if number >= 0 else str(number)
    assert parse_cell(parse_type("int"), text) == number
    assert type(parse_cell(parse_type("number"), text)) is int


@given(st.booleans(), st.sampled_from([("true", "false"), ("TRUE", "FALSE"), ("Yes", "No"),
                                       ("1", "0")]))
def test_bools_round_trip_through_text(value, words):
    assert parse_cell(parse_type("bool"), words[0] if value else words[1]) is value


@given(st.lists(st.integers(min_value=0, max_value=10), max_size=20))
def test_lists_round_trip_through_text(numbers):
    kind = parse_type("list of int 0..10")
    assert parse_cell(kind, "; ".join(map(str, numbers))) == numbers
    assert parse_cell(kind, str(numbers)) == numbers  # the JSON form


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@given(st.lists(st.tuples(finite, finite), max_size=10))
def test_points_round_trip_through_text(points):
    kind = parse_type("list of point")
    assert parse_cell(kind, _pips_text(points)) == [list(p) for p in points]


names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1,
                max_size=12).filter(lambda s: s[0] not in "-_")
texts = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=40).filter(
    lambda s: s.strip() and unseen(s) is None)  # a bidi override is refused (its own test)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(texts, st.integers(0, 1000), st.booleans(), st.lists(names,
                                                                               max_size=5)),
                min_size=1, max_size=15))
def test_tables_round_trip_through_csv(rows):
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(["text", "number", "flag", "tags"])
    for text, number, flag, tags in rows:
        writer.writerow([text, number, "true" if flag else "false", "; ".join(tags)])
    sheet = spreadsheet.csv_sheet(buffer.getvalue(), Path("cards.csv"))
    types = {"text": parse_type("str"), "number": parse_type("int"),
             "flag": parse_type("bool"), "tags": parse_type("list of name")}
    typed, numbers = spreadsheet.typed_rows(sheet, types, "cards")
    assert typed == [{"text": text, "number": number, "flag": flag, "tags": tags}
                     for text, number, flag, tags in rows]
    assert numbers == list(range(2, len(rows) + 2))


@pytest.mark.parametrize(("header", "expected"), [
    ("name,points", ","), ("name;points", ";"), ("name\tpoints", "\t"), ("name", ","),
    ('"a;b",points', ","), ('name;"x,y";points', ";"), ("\n\nname;points", ";"),
    ("a,b;c,d", ","), ("a;b,c;d", ";"),
])
def test_the_separator_is_sniffed_from_the_header(header, expected):
    assert spreadsheet.sniff_delimiter(header + "\nOwl;3\n") == expected
    assert spreadsheet.sniff_delimiter("") == spreadsheet.sniff_delimiter("\n\n") == ","


def test_a_semicolon_csv_as_french_excel_saves_it_reads_without_a_delimiter_line(tmp_path,
                                                                                  capsys):
    """What French Excel writes as "CSV (separator: semicolon)": read as saved, decimal
    commas kept inside their cells; `delimiter:` still wins when given."""
    (tmp_path / "cards.csv").write_bytes("\ufeffname;points;note\r\nCaf\u00e9;3;1,5 m\r\n"
                                         .encode())
    rows = load_game(str(sheet_game(tmp_path, columns=False))).data["tables"]["cards"]
    assert rows == [{"name": "Caf\u00e9", "points": "3", "note": "1,5 m"}]
    wrong = sheet_game(tmp_path, "{file: cards.csv, delimiter: ','}", columns=False)
    assert main(["verify", str(wrong)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        f"error: {tmp_path}/cards.csv: row 2, column B: a value in a column with no name (row 1 "
        "names the columns); row 1 holds ';': if the file is separated by ';', say "
        "'delimiter: ';'' (or leave 'delimiter' out: the header's separator is found)"), err
