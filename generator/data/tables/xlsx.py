"""One worksheet of an XLSX file, read once with openpyxl (read-only mode).

generator/data/tables/spreadsheet.py turns what this yields into a table; this module is only the
part that knows openpyxl, imported when a game names an XLSX file (only those games pay for
the import), after generator/data/tables/xlsx_scan.py has bounded the archive.

Why not just ``load_workbook``: its read-only cells lose three things a table needs.

- Whether a cell holds a formula: a cell's value is either the value saved with its formula
  (``data_only=True``) or the formula, never both, so telling "a formula with no saved value"
  from an empty cell took a second load of the whole workbook, shared strings and all
  (49 s for a million of them). Here the one parse notes it.
- A number cell whose saved text is no number (``<v>NaN</v>``) makes openpyxl raise with no
  cell named; an empty one (``<v/>``, how openpyxl itself saves NaN and infinity) reads as an
  empty cell. Here both come out as ``nan`` (the text saved), for a message of their own.
- The cells of a row are padded to the sheet's width and cut at the last column asked for, so
  a value past the column limit vanished silently. Here each cell comes with its column.

So the workbook is read by openpyxl's own reader and the sheet by openpyxl's own sheet parser
(the one its read-only sheets use, built the way they build it), each extended where noted;
every value (shared strings, dates, booleans, error values) is still openpyxl's. And a chart
sheet is never read: openpyxl fails on some (``'list' object has no attribute 'find'`` for one
with no chart of its own), and none holds a table.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from openpyxl.chartsheet import Chartsheet
from openpyxl.packaging.relationship import Relationship
from openpyxl.reader.excel import ExcelReader
from openpyxl.worksheet._reader import WorkSheetParser
from openpyxl.xml.constants import SHEET_MAIN_NS

from generator.core.errors import DataError
from generator.core.words import said

VALUE = f"{{{SHEET_MAIN_NS}}}v"
FORMULA = f"{{{SHEET_MAIN_NS}}}f"
Cell = dict[str, Any]  # openpyxl's: row, column, value, data_type, style_id; ours below
Rows = Iterator[tuple[int, list[Cell]]]


@contextmanager
def worksheet(file: Path, shown: Path, wanted: str | None) -> Iterator[tuple[str, Rows]]:
    """The name of the sheet ``wanted`` (None: the first) and its rows as the file holds
    them (row number, cells), each cell with its column; DataError naming the sheet if there
    is none such or it is a chart. openpyxl's own errors pass through."""
    reader = _Reader(file)
    try:
        reader.read()
        name, target = _chosen(reader, shown, wanted)
        book = reader.wb
        with reader.archive.open(target) as source:
            parser = _Cells(source, reader.shared_strings, data_only=True, epoch=book.epoch,
                            # as openpyxl's read-only sheets make their parser
                            date_formats=book._date_formats,  # type: ignore[attr-defined]
                            timedelta_formats=book._timedelta_formats)  # type: ignore[attr-defined]
            yield name, parser.parse()
    finally:
        reader.archive.close()


class _Reader(ExcelReader):
    """openpyxl's workbook reader, read-only, values as saved, that notes chart sheets
    instead of reading them."""

    def __init__(self, file: Path) -> None:
        super().__init__(file, read_only=True, data_only=True, keep_links=False)
        self.charts: list[str] = []

    def read_chartsheet(self, sheet: Chartsheet, rel: Relationship) -> None:
        # ``sheet`` is the workbook's entry for the sheet (a ChildSheet; the stub says not)
        self.charts.append(sheet.name)  # type: ignore[attr-defined]


def _chosen(reader: _Reader, shown: Path, wanted: str | None) -> tuple[str, str]:
    """The sheet's name and part: ``wanted``, or the first sheet of the workbook."""
    sheets = [(sheet.name, rel.target) for sheet, rel in reader.parser.find_sheets()
              if rel.target in reader.valid_files]  # the sheets openpyxl reads, in order
    names = [name for name, _ in sheets]
    if not sheets:
        raise DataError(shown, None, "", "has no sheets")
    if wanted is not None and wanted not in names:
        raise DataError(shown, None, "sheet", f"no sheet {said(wanted)}; the workbook has: "
                                              f"{', '.join(names)}")
    name, target = sheets[names.index(wanted)] if wanted is not None else sheets[0]
    if name in reader.charts:
        worksheets = [n for n in names if n not in reader.charts]
        hint = ("" if wanted is not None else
                "; with no sheet named the first is read: name the sheet that holds the table"
                + (f" (sheet: {worksheets[0]})" if worksheets else ""))
        raise DataError(shown, None, f"sheet {name}", f"is a chart, not a table{hint}")
    return name, target


class _Cells(WorkSheetParser):
    """openpyxl's sheet parser (values as saved); a cell with no value of its own also tells
    whether it holds a formula (``formula: True``), and a number cell whose saved text is no
    number gives that text as ``nan`` (``''`` for an empty ``<v/>``, else ``'NaN'``,
    ``'1e999'``...) with the value None."""

    def parse_cell(self, element: Any) -> Cell:
        column = self.col_counter
        try:
            cell: Cell = super().parse_cell(element)
        except ValueError:  # openpyxl's int() or float() of a number cell's saved text
            saved = element.find(VALUE)
            if saved is None or element.get("t", "n") != "n":
                raise
            text, saved.text = saved.text or "", None
            self.col_counter = column  # as it was: parse the cell again, without its value
            cell = super().parse_cell(element)  # a bad cell reference raises again
            cell["nan"] = text
            return cell
        value = cell["value"]
        if value is None:
            if element.find(FORMULA) is not None:
                cell["formula"] = True
            elif element.get("t", "n") == "n" and element.find(VALUE) is not None:
                cell["nan"] = ""  # <v/>: how openpyxl saves NaN and infinity
        elif type(value) is float and not math.isfinite(value):
            cell["nan"], cell["value"] = element.findtext(VALUE), None
        return cell
