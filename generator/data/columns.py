"""Declared column types for data tables, so a bad value fails at the data file's own line.

A data file that has ``tables:`` may declare, per table, the type of each column:

    columns:
      ranks: {id: str, name: str, value: int 1..13, pips: list of point, ace: bool?}

Types: ``str``, ``name`` (an id: lower-case letters, digits, - and _), ``int``, ``number``,
``bool``, ``point`` ([x, y] numbers), ``any``; ``int`` and ``number`` take an inclusive range
``a..b``; ``list of <type>`` (optionally ``, at most N``); ``one of a|b|c``; a trailing
``?`` makes the column optional (missing or null). A row with a column the table does not
declare is an error (a typo), unless the table declares ``"*": any``.

Without this, a bad value (``pips: 3``, ``value: many``) only surfaced where a face template
used it, and the error named the template's line instead of the data's.

A table read from a spreadsheet (generator/data/spreadsheet.py) has text cells (and, in
XLSX, numbers and bools); ``parse_cell`` reads each as its column's type (``7``, ``yes``,
``0.5, 1``, ``a; b``), so the rows reach templates exactly as written YAML rows would.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.core.errors import DataError
from generator.core.yamlfile import YamlDoc

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_RANGE = re.compile(r"^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)$")
BASES = ("str", "name", "int", "number", "bool", "point", "any")
MAX_LIST = 10_000


@dataclass(frozen=True)
class ColumnType:
    base: str
    low: float | None = None
    high: float | None = None
    item: ColumnType | None = None  # for lists
    max_items: int = MAX_LIST
    choices: tuple[str, ...] = ()
    optional: bool = False

    def describe(self) -> str:
        if self.base == "list" and self.item is not None:
            return f"a list of {self.item.describe()} (at most {self.max_items})"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        bounds = f" from {self.low:g} to {self.high:g}" if self.low is not None else ""
        word = {"str": "text", "name": "a name (a-z, 0-9, - and _)", "int": "a whole number",
                "number": "a number", "bool": "true or false", "point": "an [x, y] pair",
                "any": "anything"}[self.base]
        return word + bounds

    def accepts(self, value: Any) -> bool:
        if self.choices:
            return isinstance(value, str) and value in self.choices
        if self.base == "list":
            return (isinstance(value, list) and len(value) <= self.max_items
                    and all(self.item is not None and self.item.accepts(v) for v in value))
        if self.base == "any":
            return True
        if self.base == "bool":
            return isinstance(value, bool)
        if self.base in ("str", "name"):
            return isinstance(value, str) and (self.base == "str" or bool(_NAME.match(value)))
        if self.base == "point":
            return (isinstance(value, list) and len(value) == 2
                    and all(_is_number(v) for v in value))
        if self.base == "int" and not (_is_number(value) and float(value).is_integer()):
            return False
        if not _is_number(value):
            return False
        if self.low is not None and self.high is not None:
            return self.low <= float(value) <= self.high
        return True


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value \
        and abs(value) < 1e12


def parse_type(text: Any) -> ColumnType:
    """A column type from its declaration; ValueError with the reason if it is not one."""
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise ValueError("expected a type such as 'str', 'int 1..13' or 'list of point'")
    spec = text.strip()
    optional = spec.endswith("?")
    spec = spec.rstrip("?").strip()
    if spec.startswith("one of "):
        choices = tuple(c.strip() for c in spec[len("one of "):].split("|") if c.strip())
        if not choices:
            raise ValueError("'one of' needs choices separated by |")
        return ColumnType("str", choices=choices, optional=optional)
    if spec.startswith("list of "):
        rest, _, limit = spec[len("list of "):].partition(", at most ")
        max_items = MAX_LIST
        if limit:
            if not limit.strip().isdigit():
                raise ValueError("expected 'list of <type>, at most N'")
            max_items = min(int(limit), MAX_LIST)
        return ColumnType("list", item=parse_type(rest), max_items=max_items, optional=optional)
    base, _, bounds = spec.partition(" ")
    if base not in BASES:
        raise ValueError(f"unknown type {base!r}; expected one of {', '.join(BASES)}, "
                         "'list of <type>' or 'one of a|b'")
    if not bounds:
        return ColumnType(base, optional=optional)
    match = _RANGE.match(bounds.strip())
    if base not in ("int", "number") or not match:
        raise ValueError("a range is written 'int 1..13' or 'number 0..1'")
    low, high = float(match.group(1)), float(match.group(2))
    if low > high:
        raise ValueError(f"empty range {bounds.strip()}")
    return ColumnType(base, low, high, optional=optional)


def check_tables(doc: YamlDoc, tables: Mapping[str, Any], columns: Any) -> list[DataError]:
    """Every row of every declared table against its column types, each error at its line."""
    if columns is None:
        return []
    if not isinstance(columns, Mapping):
        return [doc.error(("columns",), "expected a mapping of table: {column: type}")]
    errors: list[DataError] = []
    for table, spec in columns.items():
        path: tuple[Hashable, ...] = ("columns", table)
        if table not in tables:
            errors.append(doc.error(path, f"declares columns for a table {table!r} this file "
                                          "does not have"))
            continue
        if not isinstance(spec, Mapping):
            errors.append(doc.error(path, "expected a mapping of column: type"))
            continue
        types: dict[str, ColumnType] = {}
        for column, text in spec.items():
            try:
                types[str(column)] = parse_type(text)
            except ValueError as exc:
                errors.append(doc.error(path + (column,), str(exc)))
        errors += _check_rows(doc, table, tables[table], types)
    return errors


def _check_rows(doc: YamlDoc, table: str, rows: Any, types: dict[str, ColumnType]
                ) -> list[DataError]:
    errors: list[DataError] = []
    open_ended = "*" in types
    for index, row in enumerate(rows if isinstance(rows, list) else []):
        where: tuple[Hashable, ...] = ("tables", table, index)
        if not isinstance(row, Mapping):
            errors.append(doc.error(where, "expected a mapping of column: value"))
            continue
        for column, kind in types.items():
            if column == "*":
                continue
            if column not in row:
                if not kind.optional:
                    errors.append(doc.error(where, f"missing column {column!r} "
                                                   f"({kind.describe()})"))
                continue
            if row[column] is None and kind.optional:
                continue
            if not kind.accepts(row[column]):
                errors.append(doc.error(where + (column,), f"expected {kind.describe()}, got "
                                                           f"{_short(row[column])}"))
        if not open_ended:
            for column in row:
                if column not in types and column != "count":
                    errors.append(doc.error(where + (column,), f"unknown column {column!r}; "
                                            f"{table} has: {', '.join(types)}"))
    return errors


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- cells of a spreadsheet ----------------------------------------------------------------
# A CSV cell is text and an XLSX cell may be text, a number or a bool; ``parse_cell`` turns
# either into a value of the column's type, so a table read from a spreadsheet reaches the
# templates and checks exactly as the same table written in YAML would (``value: 7``, not
# ``value: "7"``, which a comparison such as ``row.value > 5`` would get wrong).

TRUE_WORDS = ("true", "yes", "1")
FALSE_WORDS = ("false", "no", "0")
LIST_SEPARATOR = ";"
_INT_TEXT = re.compile(r"^[+-]?\d{1,15}$")
_NUMBER_TEXT = re.compile(r"^[+-]?(?:\d{1,15}(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$")
_MAX_JSON_DEPTH = 20


class CellError(ValueError):
    """A cell that is not a value of its column's type; the message says what was expected."""


_BAD = object()


def parse_cell(kind: ColumnType, value: Any) -> Any:
    """A spreadsheet cell as a value of type ``kind``; CellError("expected ..., got ...").

    Text is parsed: ``7`` (int), ``2.5`` (number), ``true``/``yes``/``1`` and
    ``false``/``no``/``0`` in any case (bool), ``0.5, 1`` or ``0.5 1`` (point), items separated
    by ``;`` or a JSON list such as ``[[0, 0], [1, 1]]`` (list of ...), the text itself (str,
    name, one of; surrounding spaces are dropped except for str). Numbers and bools an XLSX
    cell already holds are taken as they are (a whole float such as 7.0 is the int 7). The
    caller handles empty cells (they follow the column's optional rules)."""
    result = _from_cell(kind, value)
    if result is _BAD or not kind.accepts(result):
        raise CellError(f"expected {kind.describe()}{_hint(kind)}, got {_short(value)}")
    return result


def _hint(kind: ColumnType) -> str:
    if kind.base == "list":
        return f" (items separated by '{LIST_SEPARATOR}', or a JSON list)"
    if kind.base == "point":
        return " (written 'x, y')"
    if kind.base == "bool":
        return " (true/false, yes/no or 1/0)"
    return ""


def _from_cell(kind: ColumnType, value: Any) -> Any:
    if kind.base == "any":
        return value
    if kind.base == "list":
        return _list_cell(kind, value)
    if kind.base == "point":
        return _point_cell(value)
    if kind.base in ("int", "number"):
        return _number_cell(value, whole=kind.base == "int")
    if kind.base == "bool":
        return _bool_cell(value)
    # str, name and one of: text; a number or bool an XLSX cell holds is written as text.
    text = value if isinstance(value, str) else cell_text(value)
    return text if kind.base == "str" and not kind.choices else text.strip()


def cell_text(value: Any) -> str:
    """A native cell value as the text a spreadsheet shows: 7.0 -> '7', True -> 'true'."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def _number_cell(value: Any, whole: bool) -> Any:
    if isinstance(value, bool):
        return _BAD  # a bool is not a number, as in YAML tables
    if isinstance(value, (int, float)):
        if whole and isinstance(value, float):
            return int(value) if value.is_integer() and abs(value) < 1e15 else _BAD
        return value
    if not isinstance(value, str):
        return _BAD
    text = value.strip()
    if _INT_TEXT.match(text):
        return int(text)
    if whole or not _NUMBER_TEXT.match(text):
        return _BAD
    number = float(text)
    return number if math.isfinite(number) else _BAD


def _bool_cell(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    return _BAD


def _parts(value: list[Any] | str, split: Callable[[str], list[Any]]) -> Any:
    """A list cell's parts: a list as it is, a JSON list written ``[...]``, else ``split``."""
    if isinstance(value, list):
        return value
    text = value.strip()
    return _json_list(text) if text.startswith("[") else split(text)


def _split_list(text: str) -> list[str]:
    items = [part.strip() for part in text.split(LIST_SEPARATOR)] if text else []
    if items and not items[-1]:
        items.pop()  # a trailing separator: "a; b;"
    return items


def _point_cell(value: Any) -> Any:
    if not isinstance(value, (list, str)):
        return _BAD
    parts = _parts(value, lambda text: [p for p in re.split(r"[,\s]+", text) if p])
    if parts is _BAD or len(parts) != 2:
        return _BAD
    numbers = [_number_cell(p, whole=False) for p in parts]
    return _BAD if any(n is _BAD for n in numbers) else numbers


def _list_cell(kind: ColumnType, value: Any) -> Any:
    assert kind.item is not None
    if isinstance(value, (list, str)):
        items = _parts(value, _split_list)
        if items is _BAD:
            return _BAD
    else:
        items = [cell_text(value)]  # a number alone in a list column: a list of one
    if len(items) > kind.max_items:
        return _BAD
    out = [_from_cell(kind.item, item) for item in items]
    return _BAD if any(item is _BAD for item in out) else out


def _json_list(text: str) -> Any:
    """A JSON list (``[[0, 0], [1, 1]]``, ``["a", "b"]``), bounded in depth; _BAD if not."""
    depth = 0
    for char in text:  # json.loads recurses once per level: refuse deep nesting first
        depth += (char == "[") - (char == "]")
        if depth > _MAX_JSON_DEPTH:
            return _BAD
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return _BAD
    return parsed if isinstance(parsed, list) else _BAD
