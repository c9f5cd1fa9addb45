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
"""
from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import DataError
from .yamlfile import YamlDoc

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
