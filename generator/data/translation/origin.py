"""Where a value of the game's data was written: a YAML line, or a spreadsheet's cell.

A face's error (an unknown inline icon, a missing glyph, a text too long for its box) is
found in a template, but its cause is often a value the template printed: a card's text typed
in a spreadsheet. The loader keeps, for every item, the field paths its values were written
at (``ItemRef``, generator/core/model.py); here a path becomes a location the designer can go
to: ``game.yaml:14: tables.cards[3].name`` or ``cards.xlsx: sheet Roles, row 4, column
power`` (a spreadsheet's rows stand in as ``SheetDoc``, generator/data/tables/spreadsheet.py). The
location is written by generator/core/errors.py's ``location``, as every message writes it.
"""
from __future__ import annotations

import re
from collections.abc import Hashable, Iterator, Mapping
from pathlib import Path
from typing import Any

from generator.core import paths
from generator.core.errors import DataError, DataErrors, location
from generator.core.model import Component, Game, ItemRef

from .i18n_files import collapse

Where = tuple[str, int | None, str]  # (file, line, field), as DataError holds them
MAX_LEAVES = 500  # values of one item compared with a failed text

_ICON = re.compile(r":([A-Za-z][A-Za-z0-9_-]{0,63}):")
_GLYPHS = re.compile(r"has no glyph for '([^']{1,200})'")


def written(doc: Any, path: tuple[Hashable, ...], named: bool = False) -> Where:
    """Where ``path`` of ``doc`` (a YamlDoc, or a SheetDoc standing for a spreadsheet) was
    written: the file and line of a YAML value (and its field path, when ``named``); the
    file and its sheet, row and column (the field its own errors name) for a spreadsheet's
    cell, which has no line."""
    found = doc.error(path, "")
    return found.file, found.line, "" if found.line and not named else found.field


def item_value(game: Game, ref: ItemRef, path: tuple[Hashable, ...],
               item: Mapping[str, Any] | None = None, named: bool = False) -> Where:
    """Where the value at ``path`` of an item (``("power",)``, a product's ``("suit",
    "name")``, a joined row's ``("suit", "name")``: in the table joined) was written."""
    keys = dict(ref.keys)
    joined = _joined_row(game, (item or {}).get(str(path[0]))) if len(path) > 1 else None
    if path and path[0] in keys:
        full = keys[str(path[0])] + tuple(path[1:])
    elif joined is not None:
        full = joined + tuple(path[1:])
    else:
        full = ref.whole + tuple(path)
    return game_value(game, full, named)


def game_value(game: Game, full: tuple[Hashable, ...], named: bool = False) -> Where:
    """Where the value at ``full`` of the game's data (``("tables", "cards", 3, "name")``)
    was written: in the file that holds that table (an included file, a spreadsheet) or the
    game's own."""
    tables = (game.docs or {}).get("tables") or {}
    doc = tables.get(full[1]) if len(full) > 1 and full[0] == "tables" else None
    doc = doc if doc is not None else (game.docs or {}).get("game")
    if doc is None:
        return str(game.source), None, ""
    return written(doc, full, named)


def _joined_row(game: Game, value: Any) -> tuple[Hashable, ...] | None:
    """The table row a joined column's value is a copy of (``suit: {table: suits}``,
    generator/data/tables/loader.py), as ``("tables", name, index)``; None for any other value."""
    if not isinstance(value, Mapping):
        return None
    tables = game.data.get("tables") if isinstance(game.data, Mapping) else None
    for name, rows in (tables.items() if isinstance(tables, Mapping) else ()):
        for index, row in enumerate(rows if isinstance(rows, list) else ()):
            if row == value:
                return ("tables", name, index)
    return None


def _leaves(value: Any, path: tuple[Hashable, ...] = ()) -> Iterator[tuple[tuple[Hashable, ...],
                                                                            str]]:
    """Every text of an item (in its rows, for a product), with its path: the values a
    face's text may have printed."""
    stack: list[tuple[tuple[Hashable, ...], Any]] = [(path, value)]
    count = 0
    while stack and count < MAX_LEAVES:
        at, node = stack.pop()
        count += 1
        if isinstance(node, str):
            yield at, node
        elif isinstance(node, Mapping) and len(at) < 3:
            stack.extend((at + (k,), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list) and len(at) < 3:
            stack.extend((at + (i,), v) for i, v in reversed(list(enumerate(node[:50]))))


def culprit(item: Mapping[str, Any], printed: str, why: str) -> tuple[Hashable, ...] | None:
    """The field of ``item`` whose text a failed text element printed: of the texts found in
    ``printed``, one holding what the message names (the inline icon, the characters without
    a glyph), else the longest; None when the text printed none of the item's values."""
    text = collapse(printed)
    found = [(at, short) for at, value in _leaves(item)
             if (short := collapse(value)) and short in text]
    if not found:
        return None
    named = [f":{m}:" for m in _ICON.findall(why)] + list(
        "".join(_GLYPHS.findall(why)))
    for at, value in found:
        if any(token in value for token in named):
            return at
    return max(found, key=lambda pair: len(pair[1]))[0]


def cell_of(game: Game, comp: Component, index: int, printed: str, why: str) -> str | None:
    """Where the value of item ``index`` of ``comp`` that ``printed`` (a face's text, which
    ``why`` is about) holds was written, as messages say it; None when it holds none."""
    where = _value_of(game, comp, index, printed, why)
    return None if where is None else location(*where)


def _value_of(game: Game, comp: Component, index: int, printed: str, why: str,
              named: bool = False) -> Where | None:
    """Where the value a failed text printed was written: a value of item ``index`` first,
    else a value of the game's tables (a reference card prints rows of a table, not its
    item's); None when the text printed none."""
    if 0 <= index < min(len(comp.sources), len(comp.items)):
        item = comp.items[index].data
        path = culprit(item, printed, why)
        if path is not None:
            return item_value(game, comp.sources[index], path, item, named)
    tables = game.data.get("tables") if isinstance(game.data, Mapping) else None
    path = culprit(tables, printed, why) if isinstance(tables, Mapping) else None
    return None if path is None else game_value(game, ("tables", *path), named)


def at_the_cell(exc: DataError, game: Game, comp: Component, index: int) -> DataError:
    """``exc``, raised drawing item ``index`` of ``comp``, naming the cell (or YAML line) of
    the value its text printed beside the template line; ``exc`` itself when the text printed
    no value of the game (or the error was not about a text). A built-in template's line is
    no place the designer can fix: the value's own line leads, the template named after it."""
    if isinstance(exc, DataErrors) or exc.printed is None:
        return exc
    where = _value_of(game, comp, index, exc.printed, exc.expected, named=True)
    if where is None:
        return exc
    file, line, field = where
    if Path(exc.file).is_relative_to(paths.TEMPLATES) and line is not None:
        found = DataError(file, line, field, f"{exc.expected}; printed by the built-in face "
                                             f"template {Path(exc.file).stem}")
    else:
        found = DataError(exc.file, exc.line, exc.field, f"{exc.expected}; the text comes "
                          f"from {location(file, line, '' if line else field)}")
    found.printed = exc.printed
    return found
