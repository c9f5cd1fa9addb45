"""Declared column types for data tables, so a bad value fails at the data file's own line.

A data file that has ``tables:`` may declare, per table, the type of each column:

    columns:
      ranks: {id: str, name: str, value: int 1..13, pips: list of point, ace: bool?}

Types: ``str``, ``name`` (an id: lower-case letters, digits, - and _), ``int``, ``number``,
``bool``, ``point`` ([x, y] numbers), ``any``; ``int``, ``number`` and ``point`` take an
inclusive range ``a..b`` of values, ``str`` one of lengths (``str 1..80``: never empty);
``list of <type>`` (optionally ``, at most N``); ``one of a|b|c`` (``one of 3|4|6``: whole
numbers); ``<column> of <table>``, a value of that column of a table of the game (``id of
suits``: a reference, looked up once every table is read); a trailing ``?`` makes the
column optional (missing or null). A join, ``{table: suits}`` (``by: name`` to match another
column than ``id``; ``optional: true``), is a reference whose value is replaced, once every
table is read, by the row it names, so a face reads ``item.suit.colour`` (a table joined to
may not join others itself: one level, never a loop). A row with a column the table does not
declare is an error (a typo), unless the table declares ``"*": any``. The same notation types
what a face template reads (its ``fields:``, generator/data/tables/fields.py), with record types of
its own.

Without this, a bad value (``pips: 3``, ``value: many``) only surfaced where a face template
used it, and the error named the template's line instead of the data's.

A table read from a spreadsheet (generator/data/tables/spreadsheet.py) has text cells (and, in
XLSX, numbers and bools); ``parse_cell`` reads each as its column's type (``7``, ``yes``,
``0.5, 1``, ``a; b``), so the rows reach templates exactly as written YAML rows would.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from generator.core.errors import DataError
from generator.core.languages import SOURCE, languages
from generator.core.words import said
from generator.core.yamlfile import YamlDoc

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_RANGE = re.compile(r"^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)$")
# ``id of suits``: a value of column ``id`` of table ``suits`` (a reference to a row).
_REF = re.compile(r"^([A-Za-z0-9_-]{1,64}) of ([A-Za-z0-9_-]{1,64})$")
_INT_CHOICE = re.compile(r"^-?\d{1,15}$")
_LIST_CLAUSE = re.compile(r", at (most|least) (\S*)$")  # "list of str, at least 1, at most 9"
BASES = ("str", "name", "int", "number", "bool", "point", "face", "any")
RANGED = ("int", "number", "str", "point")  # the bases a range ``a..b`` applies to
MAX_LIST = 10_000
MAX_RECORDS = 50  # record types one declaration may name
MAX_UNKNOWN = 5  # undeclared fields of one closed record reported
_WORDS = {"str": "text", "name": "a name (a-z, 0-9, - and _)", "int": "a whole number",
          "number": "a number", "bool": "true or false", "point": "an [x, y] pair",
          "face": "the name of a face template", "any": "anything"}


@dataclass(frozen=True)
class ColumnType:
    """A declared type: a base of ``BASES`` (with an optional range), ``list`` of ``item``,
    ``one of`` its ``choices``, ``ref`` (a value of column ``ref[0]`` of table ``ref[1]``) or
    ``record``, a mapping with declared ``fields`` (face templates' ``fields:``, see
    generator/data/tables/fields.py)."""

    base: str
    low: float | None = None
    high: float | None = None
    item: ColumnType | None = None  # for lists
    max_items: int = MAX_LIST
    min_items: int = 0
    choices: tuple[str | int, ...] = ()
    optional: bool = False
    fields: tuple[tuple[str, ColumnType], ...] = ()  # a record's, in declared order
    name: str = ""  # a record's name
    ref: tuple[str, str] = ("", "")  # (column, table)
    join: bool = False  # a reference replaced by the row it names (``{table: suits}``)
    closed: bool = False  # a record whose undeclared fields are refused (``closed:``)

    def describe(self) -> str:
        if self.base == "list" and self.item is not None:
            least = f"at least {self.min_items}, " if self.min_items else ""
            return f"a list of {self.item.describe()} ({least}at most {self.max_items})"
        if self.choices:
            return "one of " + ", ".join(str(choice) for choice in self.choices)
        if self.base == "record":
            names = ", ".join(name for name, _ in self.fields[:8])
            more = ", ..." if len(self.fields) > 8 else ""
            return f"a {self.name}: a mapping of {names}{more}"
        if self.base == "ref":
            column, table = self.ref
            return f"an {column} of table {table}"
        if self.low is None:
            return _WORDS[self.base]
        if self.base == "str":
            return f"text of {self.low:g} to {self.high:g} characters"
        if self.base == "point":
            return f"an [x, y] pair of numbers from {self.low:g} to {self.high:g}"
        return f"{_WORDS[self.base]} from {self.low:g} to {self.high:g}"

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` has this type (a reference's row is looked up by ``problems``)."""
        if self.choices:
            return _is_choice(value, self.choices)
        if self.base == "list":
            return (isinstance(value, list) and self.min_items <= len(value) <= self.max_items
                    and all(self.item is not None and self.item.accepts(v) for v in value))
        if self.base == "record":
            return isinstance(value, Mapping) and all(
                kind.optional if value.get(name) is None else kind.accepts(value[name])
                for name, kind in self.fields) and not self.unknown(value)
        if self.base == "ref":
            return isinstance(value, (str, int)) and not isinstance(value, bool)
        if self.base == "any":
            return True
        if self.base == "bool":
            return isinstance(value, bool)
        if self.base in ("str", "name", "face"):
            return isinstance(value, str) and (self.base == "str" or bool(_NAME.match(value))) \
                and self._within(len(value))
        if self.base == "point":
            return (isinstance(value, list) and len(value) == 2
                    and all(_is_number(v) and self._within(v) for v in value))
        if self.base == "int" and not (_is_number(value) and float(value).is_integer()):
            return False
        return _is_number(value) and self._within(value)

    def unknown(self, value: Mapping[Any, Any]) -> list[Any]:
        """The keys of ``value`` a closed record does not declare (none for an open one)."""
        if not self.closed:
            return []
        names = {name for name, _ in self.fields}
        return [key for key in value if key not in names]

    def refers(self) -> bool:
        """Whether a value of this type names a row of a table (somewhere inside)."""
        return self.base == "ref" or (self.item is not None and self.item.refers()) or any(
            kind.refers() for _, kind in self.fields)

    def _within(self, number: float) -> bool:
        return self.low is None or self.high is None or self.low <= float(number) <= self.high


def _is_choice(value: Any, choices: tuple[str | int, ...]) -> bool:
    """``one of 3|4|6`` takes the whole numbers 3, 4 and 6 and ``one of a|b`` the texts: a
    text "6" is not the number 6 (a template comparing it with 6 would be wrong)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return False
    return any(type(value) is type(choice) and value == choice for choice in choices)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value \
        and abs(value) < 1e12


Records = Callable[[str], "ColumnType | None"]


JOIN_KEYS = ("table", "by", "optional")


def parse_join(spec: Mapping[Any, Any]) -> ColumnType:
    """``{table: suits}`` (``by: name``, ``optional: true``): a join to the row named."""
    unknown = [str(key) for key in spec if key not in JOIN_KEYS]
    if unknown:
        raise ValueError(f"a join is {{table: T}} with optional 'by' and 'optional'; unknown "
                         f"{', '.join(unknown)}")
    table, by = spec.get("table"), spec.get("by", "id")
    for what, value in (("table", table), ("by", by)):
        if not isinstance(value, str) or not re.match(r"^[A-Za-z0-9_-]{1,64}$", value):
            named = "table" if what == "table" else "column"
            raise ValueError(f"a join's '{what}' is a {named}'s name, got {said(value)}")
    optional = spec.get("optional", False)
    if not isinstance(optional, bool):
        raise ValueError("a join's 'optional' is true or false")
    assert isinstance(table, str) and isinstance(by, str)
    return ColumnType("ref", ref=(by, table), optional=optional, join=True)


def parse_type(text: Any, records: Records | None = None) -> ColumnType:
    """A column type from its declaration; ValueError with the reason if it is not one.
    ``records`` gives the record types a face template's ``fields:`` declares, by name."""
    if isinstance(text, Mapping) and records is None:
        return parse_join(text)
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise ValueError("expected a type such as 'str', 'int 1..13' or 'list of point'")
    spec = text.strip()
    optional = spec.endswith("?")
    spec = spec.rstrip("?").strip()
    if spec.startswith("one of "):
        choices = tuple(int(c) if _INT_CHOICE.match(c) else c
                        for c in (c.strip() for c in spec[len("one of "):].split("|")) if c)
        if not choices:
            raise ValueError("'one of' needs choices separated by |")
        return ColumnType("str", choices=choices, optional=optional)
    if spec.startswith("list of "):
        rest, limits = spec[len("list of "):], {"most": MAX_LIST, "least": 0}
        while clause := _LIST_CLAUSE.search(rest):
            if not clause.group(2).isdigit():
                raise ValueError("expected 'list of <type>, at most N' (or 'at least N')")
            limits[clause.group(1)] = min(int(clause.group(2)), MAX_LIST)
            rest = rest[:clause.start()]
        if limits["least"] > limits["most"]:
            raise ValueError(f"at least {limits['least']} is more than at most "
                             f"{limits['most']}")
        return ColumnType("list", item=parse_type(rest, records), max_items=limits["most"],
                          min_items=limits["least"], optional=optional)
    ref = _REF.match(spec)
    if ref:
        return ColumnType("ref", ref=(ref.group(1), ref.group(2)), optional=optional)
    base, _, bounds = spec.partition(" ")
    record = records(base) if records is not None and base not in BASES else None
    if record is not None and not bounds:
        return replace(record, optional=optional)
    if base not in BASES:
        raise ValueError(f"unknown type {said(base)}; expected one of {', '.join(BASES)}, "
                         "'list of <type>', 'one of a|b' or '<column> of <table>'"
                         + (" or a record declared here" if records is not None else ""))
    if not bounds:
        return ColumnType(base, optional=optional)
    match = _RANGE.match(bounds.strip())
    if base not in RANGED or not match:
        raise ValueError("a range is written 'int 1..13', 'number 0..1', 'point 0..1' or "
                         "'str 1..80' (characters)")
    low, high = float(match.group(1)), float(match.group(2))
    if low > high:
        raise ValueError(f"empty range {bounds.strip()}")
    if base == "str" and (low < 0 or not low.is_integer() or not high.is_integer()):
        raise ValueError("a text's range is whole numbers of characters, like 'str 1..80'")
    return ColumnType(base, low, high, optional=optional)


class DeclarationError(ValueError):
    """A bad record declaration, at ``path`` (record name, field) of the declaring mapping."""

    def __init__(self, path: tuple[Hashable, ...], message: str) -> None:
        super().__init__(message)
        self.path = path


def parse_records(spec: Mapping[Any, Any], closed: Iterable[str] = ()) -> dict[str, ColumnType]:
    """Record types by name from a mapping ``name: {field: type}`` (a face template's
    ``fields:``); a field's type may name another record (``list of section``), in any order,
    never itself (directly or not); the records named in ``closed`` refuse undeclared
    fields. DeclarationError names the bad entry."""
    closed = frozenset(closed)
    if len(spec) > MAX_RECORDS:
        raise DeclarationError((), f"{len(spec)} records; at most {MAX_RECORDS}")
    done: dict[str, ColumnType] = {}
    busy: list[str] = []

    def record(name: str) -> ColumnType | None:
        if name in done or name not in spec:
            return done.get(name)
        if name in busy:
            raise DeclarationError((busy[-1],), f"records contain each other in a loop: "
                                                f"{' -> '.join(busy + [name])}")
        fields = spec[name]
        if not isinstance(fields, Mapping):
            raise DeclarationError((name,), "expected a mapping of field: type")
        busy.append(name)
        parsed: list[tuple[str, ColumnType]] = []
        for field, text in fields.items():
            if not isinstance(field, str) or not field or len(field) > 64:
                raise DeclarationError((name, field), "expected a field name")
            try:
                parsed.append((field, parse_type(text, record)))
            except DeclarationError:
                raise
            except ValueError as exc:
                raise DeclarationError((name, field), str(exc)) from None
        busy.pop()
        done[name] = ColumnType("record", fields=tuple(parsed), name=name,
                                closed=name in closed)
        return done[name]

    for name in spec:
        if not isinstance(name, str) or not _NAME.match(name) or name in BASES \
                or name in ("list", "one", "record", "ref"):
            raise DeclarationError((name,), "expected a record name (a-z, 0-9, - and _) that "
                                            "is not a type's own")
        record(name)
    return done


class Refs:
    """The values of the tables a reference (``id of suits``) may name, each column's set
    made once."""

    def __init__(self, tables: Mapping[str, Any]) -> None:
        self.tables = tables
        self.sets: dict[tuple[str, str], frozenset[str] | None] = {}

    def values(self, column: str, table: str) -> frozenset[str] | None:
        """The column's values as text (a spreadsheet's "7" matches a YAML 7), or None when
        the game has no such table."""
        key = (column, table)
        if key not in self.sets:
            rows = self.tables.get(table)
            self.sets[key] = None if not isinstance(rows, list) else frozenset(
                cell_text(row[column]) for row in rows
                if isinstance(row, Mapping) and isinstance(row.get(column), (str, int)))
        return self.sets[key]


Problem = tuple[tuple[Hashable, ...], str]


def named_faces(kind: ColumnType, value: Any, path: tuple[Hashable, ...] = ()
                ) -> Iterator[tuple[tuple[Hashable, ...], Mapping[str, Any], str, str]]:
    """The face templates ``value`` names in fields typed ``face`` (a rules section's
    ``diagram``), each with the mapping that names it: (path of the mapping, mapping, its
    field, the name). Values of the wrong type are left to ``problems``."""
    if kind.base == "record" and isinstance(value, Mapping):
        for name, field in kind.fields:
            each = value.get(name)
            if field.base == "face" and isinstance(each, str):
                yield path, value, name, each
            elif each is not None:
                yield from named_faces(field, each, path + (name,))
    elif kind.base == "list" and kind.item is not None and isinstance(value, list):
        for index, each in enumerate(value[:kind.max_items]):
            yield from named_faces(kind.item, each, path + (index,))


def problems(kind: ColumnType, value: Any, path: tuple[Hashable, ...] = (),
             refs: Refs | None = None) -> Iterator[Problem]:
    """What is wrong with ``value`` as ``kind``, each at the deepest field path it can be
    pinned to (a list's item, a record's field); references are looked up in ``refs`` (not
    at all without). A record's undeclared fields are left alone (a template reads those it
    declares, the data may hold more) unless the record is closed: then each is refused, as
    a misspelt optional field would otherwise be silently left out."""
    if kind.base == "record":
        if not isinstance(value, Mapping):
            yield path, f"expected {kind.describe()}, got {said(value)}"
            return
        for key in kind.unknown(value)[:MAX_UNKNOWN]:
            names = ", ".join(name for name, _ in kind.fields)
            yield path + (key,), f"unknown field (check its spelling): expected one of {names}"
        for name, field in kind.fields:
            if value.get(name) is None:
                if not field.optional:
                    yield path + (name,), (f"expected {field.describe()}, got nothing" if name
                                           in value else f"missing; expected {field.describe()}")
                continue
            yield from problems(field, value[name], path + (name,), refs)
    elif kind.base == "list" and kind.item is not None and isinstance(value, list) \
            and kind.min_items <= len(value) <= kind.max_items \
            and (kind.item.base in ("record", "list", "ref") or not kind.accepts(value)):
        for index, each in enumerate(value):
            yield from problems(kind.item, each, path + (index,), refs)
    elif not kind.accepts(value):
        yield path, f"expected {kind.describe()}, got {said(value)}"
    elif kind.base == "ref" and refs is not None:
        column, table = kind.ref
        known = refs.values(column, table)
        if known is None:
            yield path, f"expected {kind.describe()}, but the game has no table {said(table)}"
        elif cell_text(value) not in known:
            shown = ", ".join(sorted(known)[:12]) + (", ..." if len(known) > 12 else "")
            yield path, f"expected {kind.describe()} ({shown or 'none'}), got {said(value)}"


# -- translated columns: ``power@fr`` beside ``power`` --------------------------------------

def lang_column(name: str) -> tuple[str, str] | None:
    """``power@fr`` -> ("power", "fr"): the French of column ``power``; None for a column
    that is not a translation (no ``@``)."""
    base, at, code = name.rpartition("@")
    return (base, code) if at and base else None


def lang_column_problem(name: str, types: Mapping[str, ColumnType] | None = None
                        ) -> str | None:
    """Why ``name``, a column holding ``@``, is not a translated column of a table whose
    declared ``types`` (None: undeclared) are given: the code after ``@`` must be a kit
    language other than English (templates/messages/<code>.yaml), and the column before it
    one the table declares."""
    split = lang_column(name)
    if split is None:
        return (f"column {said(name)}: a translated column is named <column>@<language>, as "
                "power@fr")
    base, code = split
    offered = [lang for lang in languages() if lang != SOURCE]
    if code not in offered:
        english = " (the English is the column itself)" if code == SOURCE else ""
        return (f"column {said(name)}: no kit language {said(code)}{english}; translated "
                f"columns may be in: {', '.join(offered) or 'none'} "
                "(templates/messages/<code>.yaml)")
    if types is not None and "*" not in types and base not in types:
        return (f"column {said(name)} translates a column {said(base)} the table does not "
                f"have; it has: {', '.join(types)}")
    return None


def lang_column_type(name: str, types: Mapping[str, ColumnType] | None) -> ColumnType | None:
    """The type of translated column ``name``: its base column's, optional (an empty cell
    prints the English)."""
    split = lang_column(name)
    kind = (types or {}).get(split[0]) if split is not None else None
    return replace(kind, optional=True) if kind is not None else None


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
            errors.append(doc.error(path, f"declares columns for a table {said(table)} this file "
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
                # still a declared column: its rows are not each "an unknown column" too
                types[str(column)] = ColumnType("any", optional=True)
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
                    errors.append(doc.error(where, f"missing column {said(column)} "
                                                   f"({kind.describe()})"))
                continue
            if row[column] is None and kind.optional:
                continue
            errors += [doc.error(path, problem)
                       for path, problem in problems(kind, row[column], where + (column,))]
        for column in row:
            if isinstance(column, str) and "@" in column and column not in types:
                problem = lang_column_problem(column, types)
                translated = lang_column_type(column, types)
                if problem is not None:
                    errors.append(doc.error(where + (column,), problem))
                elif translated is not None and row[column] is not None:
                    errors += [doc.error(path, problem) for path, problem
                               in problems(translated, row[column], where + (column,))]
        if not open_ended:
            for column in row:
                if column not in types and column != "count" and not (
                        isinstance(column, str) and "@" in column):
                    errors.append(doc.error(where + (column,), f"unknown column {said(column)}; "
                                            f"{table} has: {', '.join(types)}"))
    return errors



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
        raise CellError(f"expected {kind.describe()}{_hint(kind)}, got {said(value)}")
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
    if kind.base == "record":
        return _BAD  # a mapping is never one cell
    # str, name, one of and a reference: text; a number or bool an XLSX cell holds is
    # written as text. A choice written as a whole number (one of 3|4|6) is that number.
    text = value if isinstance(value, str) else cell_text(value)
    if kind.choices and _INT_TEXT.match(text.strip()) and int(text) in kind.choices:
        return int(text)
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
    found = as_bool(value)
    return _BAD if found is None else found


def as_bool(value: Any) -> bool | None:
    """A boolean as a spreadsheet cell may hold it (a bool, 1 or 0, ``true``/``yes``/``1``
    or ``false``/``no``/``0`` in any case), else None: the one reading of a boolean, for the
    readers and for a condition typed against a boolean column (data/tables/deal_list.py)."""
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
    return None


def as_number(value: Any) -> int | float | None:
    """A number as a spreadsheet cell may hold it (a number, or text such as ``7`` or
    ``2.5``), else None (a bool is no number): the readers' reading, for a condition typed
    against a number column (data/tables/deal_list.py)."""
    found = _number_cell(value, whole=False)
    return None if found is _BAD else found


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
