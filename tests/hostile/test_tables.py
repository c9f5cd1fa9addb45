"""Hostile tables (issue 24): the CSV and XLSX reproductions, each built into ``pnp init``'s
starter project as the deck's card list and ending in one ``error:`` line naming the file
(and sheet, row, cell, column where there is one), exit 2. The ones that cost memory or time
run the command line in a child process capped at 500 MB (tests/hostile/limits.py); no test
here measures seconds.

Every file is made here with csv, openpyxl or zipfile; the large ones are zip archives of a
few kilobytes, or a CSV of blank lines in the test's temporary folder."""
from __future__ import annotations

import codecs
import io
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.errors import DataError
from generator.data import load_game
from generator.data.tables import xlsx_scan
from generator.data.tables.xlsx_scan import (
    MAX_CELL_ELEMENTS,
    MAX_OTHER_ELEMENTS,
    MAX_ROW_CELLS,
    MAX_TEXTS,
    MAX_UNPACKED_BYTES,
)
from generator.frontends import cli
from tests.hostile.limits import one_error_line, pnp_limited

NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
SHARED_STRINGS_TYPE = (b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                       b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>')
SHEET = "xl/worksheets/sheet1.xml"


# -- the starter project, its deck read from a table file -----------------------------------

def starter(tmp_path: Path, ref: str, capsys) -> Path:
    """``pnp init``'s project with its ``cards`` table replaced by ``ref``
    (``{file: cards.csv}``): the deck is generated from that table."""
    folder = tmp_path / "proj"
    assert cli.main(["init", str(folder)]) == 0
    capsys.readouterr()
    data = folder / "game.yaml"
    text, replaced = re.subn(r"  cards:\n(?:    - .*\n)+", f"  cards: {ref}\n",
                             data.read_text(encoding="utf-8"))
    assert replaced == 1
    data.write_text(text, encoding="utf-8")
    return folder


def cards_book() -> openpyxl.Workbook:
    """The starter's 18 cards on a sheet ``Cards`` (name, suit, value)."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append(["name", "suit", "value"])
    for suit in ("sun", "moon", "leaf"):
        for value in range(1, 7):
            sheet.append([f"{suit.title()} {value}", suit, value])
    return book


def rewrite(book: Path, change: Callable[[dict[str, bytes]], None]) -> Path:
    """The workbook's parts changed in place by ``change`` (name -> bytes)."""
    with zipfile.ZipFile(book) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    change(parts)
    with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return book


def saved(folder: Path, book: openpyxl.Workbook,
          change: Callable[[dict[str, bytes]], None] | None = None) -> Path:
    book.save(folder / "cards.xlsx")
    return rewrite(folder / "cards.xlsx", change) if change else folder / "cards.xlsx"


def build_error(folder: Path, tmp_path: Path, capsys) -> str:
    """The one error line of ``pnp build`` (in this process), which must exit 2 and write
    nothing."""
    out = tmp_path / "out"
    code = cli.main(["build", str(folder), "--out", str(out)])
    captured = capsys.readouterr()
    output = captured.out + captured.err
    assert code == 2, output[-2000:]
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, output[-2000:]
    assert not out.exists() or not any(out.rglob("*.pdf"))
    return errors[0].removeprefix("error: ")


def deck(folder: Path) -> list[dict]:
    return load_game(str(folder / "game.yaml")).data["tables"]["cards"]


# -- errors that name the file at fault -----------------------------------------------------

def test_a_header_only_csv_says_the_table_is_empty(tmp_path, capsys):
    """It blamed the deck's ``where:``, which the starter does not have."""
    folder = starter(tmp_path, "{file: cards.csv}", capsys)
    (folder / "cards.csv").write_text("name,suit,value\n", encoding="utf-8")
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.csv: the table cards is empty (no rows); component deck is "
        "generated from its rows")


def test_a_header_only_sheet_and_an_empty_yaml_table_say_so_too(tmp_path, capsys):
    folder = starter(tmp_path, "{file: cards.xlsx}", capsys)
    book = openpyxl.Workbook()
    book.active.title = "Cards"
    book.active.append(["name", "suit", "value"])
    saved(folder, book)
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.xlsx: sheet Cards: the table cards is empty (no rows); component "
        "deck is generated from its rows")
    data = folder / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("{file: cards.xlsx}", "[]"),
                    encoding="utf-8")
    line = build_error(folder, tmp_path, capsys)
    assert re.fullmatch(rf"{re.escape(str(data))}:\d+: tables\.cards: the table cards is "
                        r"empty \(no rows\); component deck is generated from its rows", line)


def test_a_chart_sheet_first_has_its_own_message(tmp_path, capsys):
    """A chart sheet with no chart of its own made openpyxl fail with "'list' object has no
    attribute 'find'". Chart sheets are never read now: one that would be the table is named
    as a chart, and a workbook whose table sheet is named builds."""
    folder = starter(tmp_path, "{file: cards.xlsx}", capsys)
    book = cards_book()
    book.create_chartsheet("Chart", 0)
    saved(folder, book)
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.xlsx: sheet Chart: is a chart, not a table; with no sheet named the "
        "first is read: name the sheet that holds the table (sheet: Cards)")
    data = folder / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace(
        "{file: cards.xlsx}", "{file: cards.xlsx, sheet: Chart}"), encoding="utf-8")
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.xlsx: sheet Chart: is a chart, not a table")
    data.write_text(data.read_text(encoding="utf-8").replace("sheet: Chart", "sheet: Cards"),
                    encoding="utf-8")
    assert [row["name"] for row in deck(folder)][:2] == ["Sun 1", "Sun 2"]


EMPTY_NUMBER = ("no number: its saved value is empty, as openpyxl saves NaN (not a number) "
                "and infinity")


@pytest.mark.parametrize(("value", "text", "held"), [
    (float("nan"), None, EMPTY_NUMBER),
    (float("inf"), None, EMPTY_NUMBER),
    (None, b"NaN", "'NaN', not a number"),
    (None, b"1e999", "'1e999', not a number"),
], ids=["nan-by-openpyxl", "infinity-by-openpyxl", "nan-text", "overflow"])
def test_a_nan_cell_has_its_own_message(tmp_path, capsys, value, text, held):
    """A NaN cell was "empty" (openpyxl writes it as an empty ``<v/>``) or made the whole
    workbook unreadable (``<v>NaN</v>``); it names its cell and column now."""
    folder = starter(tmp_path, "{file: cards.xlsx}", capsys)
    book = cards_book()
    if value is not None:
        book["Cards"].cell(3, 3, value)

    def saved_text(parts: dict[str, bytes]) -> None:
        sheet, count = re.subn(rb'(<c r="C3" t="n"><v>)\d+(</v>)', rb"\g<1>" + text + rb"\2",
                               parts[SHEET])
        assert count == 1
        parts[SHEET] = sheet

    saved(folder, book, saved_text if text else None)
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.xlsx: sheet Cards, row 3, column value: cell C3 holds {held}; type "
        "a number or clear the cell")


# -- values the limits used to drop silently --------------------------------------------------

def test_a_value_past_the_last_column_is_refused_like_csv(tmp_path, capsys):
    """Column 300 of an XLSX row was dropped silently (a CSV row that long was refused)."""
    folder = starter(tmp_path, "{file: cards.xlsx}", capsys)
    book = cards_book()
    book["Cards"].cell(5, 300, "lost")
    saved(folder, book)
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.xlsx: sheet Cards, row 5: has more than 200 columns (a value in "
        "column KN); a table file may have at most that many")
    (folder / "cards.csv").write_text("name,suit,value\n" + "Sun 1,sun,1" + "," * 297
                                      + "lost\n", encoding="utf-8")
    data = folder / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("cards.xlsx", "cards.csv"),
                    encoding="utf-8")
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.csv: row 2: has more than 200 columns (a value in column KN); a "
        "table file may have at most that many")


def test_a_row_past_the_last_row_is_refused_even_after_a_gap(tmp_path, capsys):
    """Rows past 5,001 were never read, so a value at row 6,000 vanished; empty formatted
    rows there are fine."""
    folder = starter(tmp_path, "{file: cards.xlsx}", capsys)
    book = cards_book()
    book["Cards"].cell(7000, 1).number_format = "0.00"  # an empty, formatted cell
    saved(folder, book)
    assert len(deck(folder)) == 18
    book["Cards"].cell(6000, 1, "lost")
    saved(folder, book)
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.xlsx: sheet Cards, row 6000: the table has more than 5000 rows "
        "below the header; a table file may have at most that many")


def test_rows_out_of_order_are_refused(tmp_path, capsys):
    """openpyxl skips a row numbered below the one before it: a value lost silently."""
    folder = starter(tmp_path, "{file: cards.xlsx}", capsys)

    def swap(parts: dict[str, bytes]) -> None:
        parts[SHEET] = parts[SHEET].replace(b'<row r="3"', b'<row r="9"', 1)

    saved(folder, cards_book(), swap)
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.xlsx: sheet Cards, row 4: comes after row 9: the rows are out of "
        "order (a workbook written by a script); open and save it in a spreadsheet program")


# -- parts an XML parser would read in another encoding --------------------------------------

DOCTYPE = '<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">]>'


def _encoded(declaration: str, codec: str) -> Callable[[dict[str, bytes]], None]:
    """The sheet part re-encoded, with a DTD a search of the raw bytes would not see."""
    def change(parts: dict[str, bytes]) -> None:
        body = re.sub(r"^<\?xml[^>]*>", "", parts[SHEET].decode("utf-8"))
        parts[SHEET] = (declaration + DOCTYPE + body).encode(codec)
    return change


@pytest.mark.parametrize(("change", "problem"), [
    (_encoded('<?xml version="1.0" encoding="UTF-16"?>', "utf-16"), "is UTF-16 text"),
    (_encoded("", "utf-16-le"), "is UTF-16 text"),  # no byte-order mark: expat still knows
    (_encoded("", "utf-16-be"), "is UTF-16 text"),
    (_encoded('<?xml version="1.0" encoding="cp037"?>', "ascii"),
     "declares the encoding 'cp037'"),
], ids=["utf-16", "utf-16-le-no-bom", "utf-16-be-no-bom", "declared-ebcdic"])
def test_parts_that_are_not_utf8_are_refused(tmp_path, capsys, change, problem):
    """The DTD check searched raw bytes, so a UTF-16 part passed it; a part must be UTF-8
    to the XML parser now, and then the search sees what the parser sees."""
    folder = starter(tmp_path, "{file: cards.xlsx}", capsys)
    saved(folder, cards_book(), change)
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.xlsx: part '{SHEET}' {problem}; spreadsheet programs write UTF-8: "
        "open and save the workbook again")


def test_a_dtd_in_utf8_with_a_byte_order_mark_is_still_found(tmp_path, capsys):
    folder = starter(tmp_path, "{file: cards.xlsx}", capsys)
    saved(folder, cards_book(), _encoded("", "utf-8-sig"))
    assert build_error(folder, tmp_path, capsys) == (
        f"{folder}/cards.xlsx: part '{SHEET}' declares a DTD (<!DOCTYPE or <!ENTITY), which no "
        "spreadsheet program writes; refused")


def test_a_workbook_with_pictures_and_shared_strings_still_reads(tmp_path, capsys):
    """What real workbooks hold passes the checks: shared strings, a UTF-8 byte-order mark
    and a binary part whose second byte is NUL (an EMF picture)."""
    folder = starter(tmp_path, "{file: cards.xlsx}", capsys)

    def shared(parts: dict[str, bytes]) -> None:
        texts: list[bytes] = []

        def to_shared(match: re.Match[bytes]) -> bytes:
            texts.append(match.group(2))
            return b'<c r="%s" t="s"><v>%d</v></c>' % (match.group(1), len(texts) - 1)

        parts[SHEET] = codecs.BOM_UTF8 + re.sub(
            rb'<c r="(\w+)" t="inlineStr"><is><t>([^<]*)</t></is></c>', to_shared, parts[SHEET])
        parts["xl/sharedStrings.xml"] = b"<sst " + NS + b">" + b"".join(
            b"<si><t>%s</t></si>" % text for text in texts) + b"</sst>"
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            b"</Types>", SHARED_STRINGS_TYPE + b"</Types>")
        parts["xl/media/image1.emf"] = b"\x01\x00\x00\x00" + bytes(range(256)) * 40

    saved(folder, cards_book(), shared)
    rows = deck(folder)
    assert len(rows) == 18 and rows[0]["name"] == "Sun 1" and rows[0]["value"] == 1
    assert rows[0]["suit"]["id"] == "sun"  # the starter joins a card to its suit's row


# -- small files, large costs: in a child process capped at 500 MB ---------------------------

def _blank_lines(folder: Path) -> str:
    """5 MB of blank lines: each was kept (953 MB) before being skipped."""
    (folder / "cards.csv").write_bytes(b"name,suit,value\n" + b"\n" * (5 * 2**20 - 100))
    return ("cards.csv: row 5002: the table has more than 5000 rows below the header (blank "
            "rows count too); a table file may have at most that many")


def _workbook(folder: Path, change: Callable[[dict[str, bytes]], None]) -> None:
    saved(folder, cards_book(), change)
    size = (folder / "cards.xlsx").stat().st_size
    assert size < 300_000, size  # small on disk


def _shared_strings(folder: Path) -> str:
    """A million shared strings in a 50 KB file: 49 s, reading the workbook twice."""
    def change(parts: dict[str, bytes]) -> None:
        parts["xl/sharedStrings.xml"] = (b"<sst " + NS + b">" + b"<si><t>x</t></si>"
                                         * 1_000_000 + b"</sst>")
        parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
            b"</Types>", SHARED_STRINGS_TYPE + b"</Types>")
    _workbook(folder, change)
    return (f"cards.xlsx: holds more than {MAX_TEXTS} texts (shared or inline strings); keep "
            "the table in a smaller workbook, or save it as CSV")


def _one_wide_row(folder: Path) -> str:
    """One row of a million empty cells: openpyxl builds a row whole before yielding it."""
    def change(parts: dict[str, bytes]) -> None:
        parts[SHEET] = parts[SHEET].replace(
            b"</sheetData>", b'<row r="30">' + b"<c/>" * 1_000_000 + b"</row></sheetData>")
    _workbook(folder, change)
    return (f"cards.xlsx: part '{SHEET}' has a row of more than {MAX_ROW_CELLS} cells, more "
            "than a spreadsheet program writes; refused")


def _cells(folder: Path) -> str:
    """A million cells (two million elements) in 5,000 rows, each row under the column
    limit."""
    def change(parts: dict[str, bytes]) -> None:
        rows = b"".join(b'<row r="%d">' % number + b"<c><v>1</v></c>" * 199 + b"</row>"
                        for number in range(20, 5020))
        parts[SHEET] = parts[SHEET].replace(b"</sheetData>", rows + b"</sheetData>")
    _workbook(folder, change)
    return (f"cards.xlsx: holds more than {MAX_CELL_ELEMENTS} XML elements of cells; keep the "
            "table in a smaller workbook, or save it as CSV")


def _styles(folder: Path) -> str:
    """A million fonts in the styles, which openpyxl reads whatever the sheet (about 20 us
    and 1 KB each)."""
    def change(parts: dict[str, bytes]) -> None:
        styles, count = re.subn(rb"<fonts count=\"\d+\">", b"<fonts>" + b"<font><b/></font>"
                                * 1_000_000, parts["xl/styles.xml"], count=1)
        assert count == 1
        parts["xl/styles.xml"] = styles
    _workbook(folder, change)
    return (f"cards.xlsx: holds more than {MAX_OTHER_ELEMENTS} XML elements besides cells "
            "(styles, rich-text runs, names...); keep the table in a smaller workbook, or save "
            "it as CSV")


@pytest.mark.slow
@pytest.mark.parametrize(("table", "make"), [
    ("cards.csv", _blank_lines),
    ("cards.xlsx", _shared_strings),
    ("cards.xlsx", _one_wide_row),
    ("cards.xlsx", _cells),
    ("cards.xlsx", _styles),
], ids=["blank-csv-lines", "million-shared-strings", "million-cell-row", "cells",
        "million-fonts"])
def test_small_files_with_large_costs_fail_within_500_mb(tmp_path, capsys, table, make):
    folder = starter(tmp_path, f"{{file: {table}}}", capsys)
    expected = make(folder)
    result = pnp_limited(["build", folder, "--out", tmp_path / "out"])
    assert result.returncode == 2, result.stderr[-2000:]
    assert one_error_line(result) == f"error: {folder}/{expected}"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


def test_the_reproductions_fit_the_unpacked_limit():
    """Each archive above is refused for what it holds, not for its unpacked size."""
    assert len(b"<si><t>x</t></si>") * 1_000_000 < MAX_UNPACKED_BYTES
    assert len(b"<font><b/></font>") * 1_000_000 < MAX_UNPACKED_BYTES
    assert len(b'<row r="5019">' + b"<c><v>1</v></c>" * 199 + b"</row>") * 5000 \
        < MAX_UNPACKED_BYTES


# -- the scanner counts what a parser builds --------------------------------------------------

NAMES = ["row", "c", "v", "f", "is", "t", "si", "x:c", "x:row", "x:si", "sheetData", "font",
         "b", "col", "cols", "r", "x:r", "c2", "rows"]
texts = st.text(alphabet="ab >/&<\"'\n", max_size=6)
attributes = st.dictionaries(st.sampled_from(["r", "s", "t"]), texts, max_size=2)
trees = st.recursive(
    st.tuples(st.sampled_from(NAMES), attributes, texts),
    lambda inner: st.tuples(st.sampled_from(NAMES), attributes,
                            st.lists(st.one_of(texts, inner), max_size=6)),
    max_leaves=80)


def _xml(tree) -> str:
    if isinstance(tree, str):
        return escape(tree)
    name, attrs, content = tree
    opened = name + "".join(f" {key}={quoteattr(value)}" for key, value in attrs.items())
    inner = "".join(map(_xml, content)) if isinstance(content, list) else escape(content)
    return f"<{opened}>{inner}</{name}>" if inner else f"<{opened}/>"


def _parsed_counts(document: bytes) -> tuple[int, int, int, int]:
    """What expat builds: cell elements, other elements, texts, and the most ``c`` elements
    met between two ``row`` starts."""
    counts = {"cell": 0, "other": 0, "text": 0, "row": 0, "widest": 0}

    def start(name: str, attrs: dict) -> None:
        local = name.rpartition(":")[2]
        counts["cell" if local in ("row", "c", "v", "f", "is", "t", "si") else "other"] += 1
        counts["text"] += local in ("si", "is")
        counts["row"] = 0 if local == "row" else counts["row"] + (local == "c")
        counts["widest"] = max(counts["widest"], counts["row"])

    parser = expat.ParserCreate()
    parser.StartElementHandler = start
    parser.Parse(document, True)
    return counts["cell"], counts["other"], counts["text"], counts["widest"]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(trees, max_size=4), st.integers(1, 80), st.sampled_from(["", "\ufeff"]))
def test_the_scan_counts_what_the_parser_builds_across_chunks(forest, chunk, bom):
    """Any split of a part into chunks counts the same elements expat builds (attribute
    values and text with '>', '/' and escaped '<' included)."""
    document = (bom + '<root xmlns:x="urn:x">' + "".join(map(_xml, forest))
                + "</root>").encode("utf-8")
    cells, other, texts_, widest = _parsed_counts(document)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(xlsx_scan, "CHUNK", chunk)
        patch.setattr(xlsx_scan, "MAX_ROW_CELLS", widest)
        markup = xlsx_scan.Markup(Path("t.xlsx"))
        markup.scan("part.xml", io.BytesIO(document))
        assert (markup.cell_elements, markup.other_elements, markup.texts) == (
            cells, other, texts_)
        if widest:
            patch.setattr(xlsx_scan, "MAX_ROW_CELLS", widest - 1)
            with pytest.raises(DataError, match="has a row of more than"):
                xlsx_scan.Markup(Path("t.xlsx")).scan("part.xml", io.BytesIO(document))
