"""Tables read from spreadsheets: designers keep card lists in CSV or Excel files.

Any table of a data file (or of an included file) may name a spreadsheet instead of listing
its rows::

    tables:
      cards: {file: cards.csv}                  # comma-separated, UTF-8 (with or without BOM)
      extras: {file: extras.csv, delimiter: ";"}  # "," (the default), ";" or a tab ("\\t")
      suits: {file: deck.xlsx, sheet: Suits}    # an Excel workbook; its first sheet if no sheet
    columns:
      cards: {name: str, points: int 0..10, wild: bool?, tags: list of name}

- ``file`` is relative to the file that names it and must stay inside the game's folder (no
  absolute paths, no ``..`` or symlink leading out; generator/data/files/resolve.py).
- Row 1 names the columns; every later row that is not blank is a row of the table. Blank
  rows are skipped (never kept: a CSV file's count toward the row limit as they are read);
  a value under a column with no name is an error. A table used to generate pieces must have
  rows (generator/data/tables/loader.py says so, naming the file).
- Cells are typed by the table's ``columns:`` declaration (generator/data/tables/columns.py,
  ``parse_cell``): ``7`` is an int, ``true``/``yes``/``1`` a bool, ``0.5, 1`` a point,
  ``a; b; c`` or a JSON list ``[[0, 0], [1, 1]]`` a list. Without a declaration the cells stay
  text (and an XLSX cell's own numbers and bools stay numbers and bools), except ``count``,
  which is always a whole number of copies.
- An empty cell leaves the column out of the row, as a YAML row that does not mention it;
  a column that is not optional (no ``?``) must be in row 1 and have a value in every row,
  except a list, whose empty cell is an empty list.
- An XLSX formula gives the value the spreadsheet program saved with it (a workbook written
  by a script has none: that cell is an error naming it); an error value (``#DIV/0!``) is an
  error too, and so is a number cell saved with no number (NaN, as scripts save it). Dates
  become ISO text (``2024-05-01``). The workbook is read once (generator/data/tables/xlsx.py); chart
  sheets are never read, and one asked for (or first, when no sheet is named) is an error.

Every problem is a DataError naming the file, the sheet (XLSX), the row as the spreadsheet
shows it (the header is row 1) and the column (by its name in row 1, else its letter):
``deck.xlsx: sheet Cards, row 7, column points: expected a whole number from 0 to 10, got
'ten'``. Rows read this way are reported the same way later (a bad ``count``, a failing
``checks`` entry), through ``SheetDoc``.

The files come from strangers, so reading is bounded: ``MAX_SHEET_BYTES`` on disk,
``MAX_ROWS`` rows, ``MAX_COLUMNS`` columns and ``MAX_CELL_CHARS`` characters a cell, a value
past the last row or column refused (CSV and XLSX alike, never dropped), and so is a cell
holding a control character or a bidirectional override, as in a YAML text; an XLSX file (a zip
archive of XML) is bounded by generator/data/tables/xlsx_scan.py before openpyxl opens it.
"""
from __future__ import annotations

import csv
import io
import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from generator.core.errors import DataError, DataErrors
from generator.core.words import said
from generator.core.yamlfile import YamlDoc, format_path, unseen
from generator.data.files import resolve
from generator.data.tables import xlsx_scan

from .columns import (
    CellError,
    ColumnType,
    cell_text,
    lang_column_problem,
    lang_column_type,
    parse_cell,
    parse_type,
)
from .schema import TableFile

Rows = list[dict[str, Any]]

MAX_SHEET_BYTES = 5 * 1024 * 1024
MAX_ROWS = 5000  # below the header
MAX_COLUMNS = 200
MAX_CELL_CHARS = 10_000
MAX_ERRORS = 25  # bad cells reported at once
COUNT = ColumnType("int", optional=True)  # `count` is a number of copies even when undeclared


@dataclass(frozen=True)
class Sheet:
    """The cells of one CSV file or worksheet, by row number (row 1 is the header); a cell is
    None when empty, else text, or a number or bool an XLSX cell holds."""

    shown: Path  # the file as the user named it, for messages
    sheet: str | None
    records: list[tuple[int, list[Any]]]

    def where(self, row: int | None = None, column: str | None = None) -> str:
        """``sheet Cards, row 7, column points``: the field part of an error."""
        parts = [f"sheet {self.sheet}"] if self.sheet else []
        parts += [f"row {row}"] if row is not None else []
        parts += [f"column {column}"] if column is not None else []
        return ", ".join(parts)

    def error(self, row: int | None, column: str | None, expected: str) -> DataError:
        return DataError(self.shown, None, self.where(row, column), expected)


@dataclass(frozen=True)
class SheetDoc(YamlDoc):
    """Stands in for a YamlDoc for a table read from a spreadsheet, so the loader's later
    errors about its rows (``count``, ``icon``, ``checks``) name the sheet, row and column
    instead of a YAML line."""

    sheet: str | None = None
    row_numbers: tuple[int, ...] = ()

    def line_of(self, path: tuple[Hashable, ...]) -> int | None:
        return None

    def error(self, path: tuple[Hashable, ...], expected: str) -> DataError:
        parts = list(path)
        row = column = None
        if len(parts) > 2 and isinstance(parts[2], int) and parts[2] < len(self.row_numbers):
            row = self.row_numbers[parts[2]]
        if len(parts) > 3:
            column = format_path(tuple(parts[3:]))
        return Sheet(self.file, self.sheet, []).error(row, column, expected)


def read_tables(doc: YamlDoc, tables: Mapping[Any, Any], columns: Any, root: Path
                ) -> tuple[dict[str, Rows], dict[str, YamlDoc]]:
    """The tables of one file (a data file or an included one), each with the doc its errors
    point into: a list of rows as written, or the rows of the spreadsheet it names (inside
    ``root``, the game's folder), typed by the file's ``columns``."""
    rows: dict[str, Rows] = {}
    docs: dict[str, YamlDoc] = {}
    for name, value in tables.items():
        if isinstance(value, list):
            rows[str(name)], docs[str(name)] = value, doc
            continue
        path: tuple[Hashable, ...] = ("tables", name)
        if isinstance(value, TableFile):
            ref = value
        else:
            try:
                ref = TableFile.model_validate(value)
            except ValidationError as exc:
                first = exc.errors()[0]
                raise doc.error(path + tuple(first["loc"]),
                                first["msg"].removeprefix("Value error, ")) from None
        types = _declared(columns, name)
        rows[str(name)], docs[str(name)] = read_table(doc, path, ref, root, types)
    return rows, docs


def _declared(columns: Any, table: Any) -> dict[str, ColumnType] | None:
    """The column types ``columns:`` declares for ``table`` (already checked by
    columns.check_tables), or None when it declares none."""
    spec = columns.get(table) if isinstance(columns, Mapping) else None
    if not isinstance(spec, Mapping):
        return None
    return {str(column): parse_type(text) for column, text in spec.items()}


def read_table(doc: YamlDoc, path: tuple[Hashable, ...], ref: TableFile, root: Path,
               types: dict[str, ColumnType] | None) -> tuple[Rows, SheetDoc]:
    """One spreadsheet table: found (confined), read (bounded) and typed."""
    folder = Path(doc.file).parent
    try:
        file = resolve.confined(ref.file, [folder], [root], "table file", (".csv", ".xlsx"))
    except resolve.Refused as exc:
        raise doc.error(path + ("file",), str(exc)) from None
    shown = folder / ref.file
    if ref.file.lower().endswith(".xlsx"):
        sheet = read_xlsx(file, shown, ref.sheet)
    else:
        text = decode_text(read_bytes(file, shown), shown)
        sheet = csv_sheet(text, shown, ref.delimiter or sniff_delimiter(text))
    rows, numbers = typed_rows(sheet, types, str(path[-1]))
    return rows, SheetDoc(shown, {"tables": {path[-1]: rows}}, {}, sheet.sheet, tuple(numbers))


# -- reading -------------------------------------------------------------------------------

def read_bytes(file: Path, shown: Path) -> bytes:
    """The file's bytes, refused above MAX_SHEET_BYTES (checked before and while reading)."""
    limit = MAX_SHEET_BYTES
    too_big = f"is larger than {limit // (1024 * 1024)} MB, the limit for a table file"
    if file.stat().st_size > limit:
        raise DataError(shown, None, "", too_big)
    with open(file, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise DataError(shown, None, "", too_big)
    return data


def decode_text(data: bytes, shown: Path) -> str:
    """UTF-8 text, with or without a byte-order mark; any other encoding is refused, naming
    the line of the first byte that is not UTF-8."""
    save_as = "save it as 'CSV UTF-8' (Excel: File > Save As; LibreOffice: character set " \
              "Unicode (UTF-8))"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DataError(shown, None, "", f"is UTF-16 text; {save_as}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError(shown, line, "", f"is not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                                         f"{save_as}") from None


DELIMITERS = (",", ";", "\t")


def sniff_delimiter(text: str) -> str:
    """The separator of CSV text whose ``delimiter:`` is not given: of ",", ";" and a tab,
    the one that occurs most often, outside quotes, in the first line that is not blank (the
    header), "," on a tie. French or German Excel saves "CSV" with ";" (the comma is their
    decimal sign), so a designer's file reads as they saved it."""
    header = next((line for line in text.splitlines()[:1000] if line.strip()), "")[:100_000]
    counts = dict.fromkeys(DELIMITERS, 0)
    quoted = False
    for char in header:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in counts:
            counts[char] += 1
    best = max(DELIMITERS, key=lambda d: counts[d])  # the first of equals: ","
    return best if counts[best] else ","


def csv_sheet(text: str, shown: Path, delimiter: str = ",") -> Sheet:
    """The records of CSV text that are not blank, each numbered as a spreadsheet shows it (a
    quoted field may span lines, so the number is the record's, not the line's). Every record
    counts toward MAX_ROWS as it is read, blank or not: 5 MB of empty lines are five million
    records, refused at the first past the limit instead of kept."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    sheet = Sheet(shown, None, [])
    number = 0
    try:
        for number, record in enumerate(reader, start=1):
            if number > MAX_ROWS + 1:
                blank = not any(_filled(cell) for cell in record)
                raise _too_many_rows(sheet, number, " (blank rows count too)" if blank else "")
            cells: list[Any] = _trimmed(record)
            _check_extent(sheet, number, len(cells))
            cells = [_checked_text(sheet, number, index, cell) or None
                     for index, cell in enumerate(cells)]
            if any(_filled(cell) for cell in cells):
                sheet.records.append((number, cells))
    except csv.Error as exc:
        raise sheet.error(number + 1, None, f"is not valid CSV ({exc})") from None
    return sheet


def _trimmed(cells: list[Any]) -> list[Any]:
    """The cells without the empty ones at the end of the row."""
    end = len(cells)
    while end and (cells[end - 1] is None or cells[end - 1] == ""):
        end -= 1
    return cells[:end]


def _check_extent(sheet: Sheet, number: int, width: int) -> None:
    """Refuse a row past MAX_ROWS that holds a value (``width``: up to its last filled cell),
    or a value past MAX_COLUMNS."""
    if number > MAX_ROWS + 1 and width:
        raise _too_many_rows(sheet, number)
    if width > MAX_COLUMNS:
        raise sheet.error(number, None, f"has more than {MAX_COLUMNS} columns (a value in "
                                        f"column {_letter(width - 1)}); a table file may have "
                                        "at most that many")


def _too_many_rows(sheet: Sheet, number: int, note: str = "") -> DataError:
    return sheet.error(number, None, f"the table has more than {MAX_ROWS} rows below the "
                                     f"header{note}; a table file may have at most that many")


def _checked_text(sheet: Sheet, number: int, index: int, text: str) -> str:
    if len(text) > MAX_CELL_CHARS:
        raise sheet.error(number, _column(sheet, number, index),
                          f"the cell holds {len(text)} characters; at most {MAX_CELL_CHARS}")
    # As in a YAML text (the one check, generator/core/yamlfile.py): no control character
    # or bidirectional override; a line break inside a quoted CSV cell may be CRLF.
    problem = unseen(text.replace("\r\n", "\n") if "\r" in text else text)
    if problem:
        raise sheet.error(number, _column(sheet, number, index), f"the cell holds {problem}")
    return text


def _column(sheet: Sheet, number: int, index: int) -> str:
    """A column as an error about a cell in row ``number`` names it: by its name in row 1
    (already read), else by its letter."""
    if number > 1 and sheet.records and sheet.records[0][0] == 1:
        header = sheet.records[0][1]
        name = cell_text(header[index]).strip() if index < len(header) and \
            header[index] is not None else ""
        if 0 < len(name) <= 64:
            return name
    return _letter(index)


def _letter(index: int) -> str:
    """Column A, B, ..., Z, AA, ... for a 0-based index, as spreadsheets name columns."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def read_xlsx(file: Path, shown: Path, sheet_name: str | None) -> Sheet:
    """The cells of one worksheet that is not blank, read once (generator/data/tables/xlsx.py) after
    the archive is bounded (generator/data/tables/xlsx_scan.py): a row past MAX_ROWS or a cell past
    MAX_COLUMNS is refused when it holds a value, as in a CSV file, and skipped when empty."""
    read_bytes(file, shown)  # the size on disk
    xlsx_scan.check_zip(file, shown)
    from . import xlsx  # imported here: only games with XLSX tables pay for openpyxl

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns about styles it does not know
            with xlsx.worksheet(file, shown, sheet_name) as (name, rows):
                sheet = Sheet(shown, name, [])
                errors: list[DataError] = []
                last = 0
                for number, cells in rows:
                    if number <= last:
                        raise sheet.error(number, None, f"comes after row {last}: the rows are "
                                          "out of order (a workbook written by a script); "
                                          "open and save it in a spreadsheet program")
                    last = number
                    row = _xlsx_row(sheet, number, cells, errors)
                    if row:
                        sheet.records.append((number, row))
                    if len(errors) >= MAX_ERRORS:
                        break
    except DataError:
        raise
    except Exception as exc:  # openpyxl raises many kinds of errors for broken workbooks
        reason = str(exc) or type(exc).__name__
        raise DataError(shown, None, "", f"is not a readable XLSX file ({reason})") from None
    if errors:
        raise DataErrors(errors)
    return sheet


def _xlsx_row(sheet: Sheet, number: int, cells: list[dict[str, Any]],
              errors: list[DataError]) -> list[Any]:
    """A row's values by column up to its last value (empty: a blank row), its extent
    checked before the list is made."""
    values: dict[int, Any] = {}
    for cell in cells:
        value = _xlsx_value(sheet, number, cell, errors)
        if value is not None:
            values[cell["column"] - 1] = value
    width = max(values, default=-1) + 1
    _check_extent(sheet, number, width)
    row: list[Any] = [None] * width
    for index, value in values.items():
        row[index] = value
    return row


def _xlsx_value(sheet: Sheet, number: int, cell: dict[str, Any],
                errors: list[DataError]) -> Any:
    """A cell's value as text, number or bool (None when empty); errors for error values,
    formulas without a saved value and number cells saved with no number."""
    value = cell["value"]
    if cell["data_type"] == "e" or "nan" in cell or "formula" in cell:
        index = cell["column"] - 1
        ref = f"{_letter(index)}{number}"
        nan = cell.get("nan")
        if cell["data_type"] == "e":
            problem = f"cell {ref} holds the error {value}"
        elif nan == "":
            problem = (f"cell {ref} holds no number: its saved value is empty, as openpyxl "
                       "saves NaN (not a number) and infinity; type a number or clear the cell")
        elif nan is not None:
            problem = f"cell {ref} holds {said(nan, 40)}, not a number; type a number or clear " \
                      "the cell"
        else:
            problem = (f"cell {ref} holds a formula with no saved value (a workbook written by "
                       "a script); open and save it in a spreadsheet program, or type the "
                       "value")
        errors.append(sheet.error(number, _column(sheet, number, index), problem))
        return None
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, datetime) and value.time() == time(0):
        value = value.date()
    if isinstance(value, (date, time)):
        return value.isoformat()
    return _checked_text(sheet, number, cell["column"] - 1, str(value)) or None


# -- typing --------------------------------------------------------------------------------

# A separator as a message names it, and as a data file writes it.
_SEPARATORS = {";": ("';'", "';'"), "\t": ("a tab", "'\\t'"), ",": ("','", "','")}


def _separator_hint(header: Sequence[Any]) -> str:
    """A hint when the header looks separated by another character than the file was read
    with (a ``delimiter:`` that does not match the file)."""
    for char, (name, written) in _SEPARATORS.items():
        if any(char in str(cell or "") for cell in header):
            return (f"; row 1 holds {name}: if the file is separated by {name}, say "
                    f"'delimiter: {written}' (or leave 'delimiter' out: the header's "
                    "separator is found)")
    return ""


def typed_rows(sheet: Sheet, types: dict[str, ColumnType] | None, table: str
               ) -> tuple[Rows, list[int]]:
    """The table's rows as mappings of column: value, typed by ``types`` (None: undeclared),
    and the row number of each; DataErrors naming every bad cell (up to MAX_ERRORS)."""
    header = _header(sheet, types, table)
    errors: list[DataError] = []
    rows: Rows = []
    numbers: list[int] = []
    for number, cells in sheet.records[1:]:
        if not any(_filled(cell) for cell in cells):
            continue  # a blank row
        row: dict[str, Any] = {}
        for index in range(max(len(header), len(cells))):
            cell = cells[index] if index < len(cells) else None
            name = header[index] if index < len(header) else ""
            if not name:
                if _filled(cell):
                    errors.append(sheet.error(number, _letter(index), "a value in a column "
                                              "with no name (row 1 names the columns)"
                                              + _separator_hint(header)))
                continue
            kind = (types or {}).get(name) or (COUNT if name == "count" else None) or (
                lang_column_type(name, types) if "@" in name else None)
            try:
                value = _typed(kind, cell)
            except CellError as exc:
                errors.append(sheet.error(number, name, str(exc)))
                continue
            if value is not _EMPTY:
                row[name] = value
            elif kind is not None and not kind.optional:
                if kind.base == "list":
                    row[name] = []  # an empty cell in a list column: an empty list
                else:
                    errors.append(sheet.error(number, name, f"the cell is empty; expected "
                                                            f"{kind.describe()}"))
        rows.append(row)
        numbers.append(number)
        if len(errors) >= MAX_ERRORS:
            break
    if errors:
        raise DataErrors(errors)
    return rows, numbers


_EMPTY = object()


def _filled(cell: Any) -> bool:
    return cell is not None and not (isinstance(cell, str) and not cell.strip())


def _typed(kind: ColumnType | None, cell: Any) -> Any:
    if not _filled(cell):
        return _EMPTY
    if kind is None or kind.base == "any":
        return cell  # undeclared: the text, or the number or bool an XLSX cell holds
    return parse_cell(kind, cell)


def _header(sheet: Sheet, types: dict[str, ColumnType] | None, table: str) -> list[str]:
    """Row 1: the column names ("" where a cell is empty), checked against ``types``."""
    if not sheet.records or sheet.records[0][0] != 1 or not sheet.records[0][1]:
        raise sheet.error(1, None, "is empty; row 1 names the table's columns")
    errors: list[DataError] = []
    header: list[str] = []
    for index, cell in enumerate(sheet.records[0][1]):
        name = "" if cell is None else cell_text(cell).strip()
        if len(name) > 64:
            errors.append(sheet.error(1, _letter(index), "a column name has at most 64 "
                                                         "characters"))
        elif name and name in header:
            errors.append(sheet.error(1, _letter(index), f"column {said(name)} is named twice"))
        elif "@" in name and (types is None or name not in types):
            problem = lang_column_problem(name, types)  # power@fr: the French of power
            if problem is not None:
                errors.append(sheet.error(1, _letter(index), problem))
        elif name and types is not None and "*" not in types and name not in types \
                and name != "count":
            errors.append(sheet.error(1, _letter(index), f"unknown column {said(name)}; {table} "
                                      f"has: {', '.join(types)} (columns: in the data file)"))
        header.append(name)
    for name, kind in (types or {}).items():
        if name != "*" and name not in header and not kind.optional:
            errors.append(sheet.error(1, None, f"no column {said(name)} ({kind.describe()}); the "
                                               f"columns are: {', '.join(filter(None, header))}"))
    if errors:
        raise DataErrors(errors)
    return header
