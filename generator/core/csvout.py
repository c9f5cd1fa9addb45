"""CSV files the tool writes (``order.csv`` beside a PNG export), safe to open in a spreadsheet.

A cell's text comes from a stranger's project (a card named ``=HYPERLINK("http://…")``,
``@SUM(A1)`` or ``-2+3``): a spreadsheet opening the file would take it for a formula and run
it (CSV injection). Every cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return is written with a ``'`` before it, as OWASP's CSV-injection guidance says: spreadsheets
show the text as it was and evaluate nothing; the ``csv`` module quotes what needs quoting
(separators, quotes, line breaks). The file's rows are also kept, unaltered, in the JSON
manifest beside it for programs.

Every CSV writer of the tool goes through ``csv_text``: the one place the rule is kept.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutral(value: object) -> str:
    """One cell's text as written: ``'`` before a text a spreadsheet would evaluate."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(fields: Sequence[str], rows: Iterable[Mapping[str, object]]) -> str:
    """A header of ``fields`` and one line per row (``\\n`` line ends), every cell
    neutralised (``neutral``). A row lacking a field has an empty cell there."""
    text = io.StringIO()
    plain = csv.writer(text, lineterminator="\n")
    # The csv module quotes a cell holding a line break of its line terminator only: a row
    # with a carriage return in a cell is written with every cell quoted, so a reader takes
    # the return for text, not for the end of the row.
    quoted = csv.writer(text, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for cells in [[neutral(name) for name in fields],
                  *([neutral(row.get(name)) for name in fields] for row in rows)]:
        (quoted if any("\r" in cell for cell in cells) else plain).writerow(cells)
    return text.getvalue()
