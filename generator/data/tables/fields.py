"""What a face template reads from a game's data, typed, so a bad value is reported at the
data file's line, never at the template's.

A face template draws whatever the data gives it. Without types a rules section's
``h: many`` or a pip at ``[-5, 1]`` failed (or drew wrong) inside the template, and the error
named the template's line, a file the designer never wrote. So a template declares what it
reads, in the notation of table columns (generator/data/tables/columns.py), with record types of
its own:

    fields:
      item: {title: str 1..120, sections: "list of section, at most 30"}
      section: {heading: str 1..120, h: "number 10..280?", diagram: "face?"}

What it may declare (``ROOTS``), each checked where it is written:

- ``item``: each piece's data (its entry of ``items:``, the table row it was made from, the
  ``extra`` of a ``generate``); ``params``: the component's; ``settings``: the game's;
- ``tables``: tables by name, ``{vehicles: list of vehicle}``;
- ``size``: ``{w: ..., h: ...}``, the piece's trim in mm (the smallest it can draw; a
  ``page`` piece is not checked: every paper is large enough);
- ``rules``: a type for the data file's ``rules:`` (``one of movement_game``), for a template
  that draws the worked examples that engine computes;
- ``named_by``: the mapping whose ``face`` field names this template (a rules section naming
  its ``diagram``): a field typed ``face`` makes the template it names read the same data, so
  its declarations are checked too.

Any other key is a record type, but ``closed``: a list of the records (roots among them)
whose undeclared fields are refused, each at its line (``closed: [params, section]``: a
misspelt ``hieght:`` of a rules section would otherwise be left out without a word). An open
record's undeclared fields are left alone (the data may hold more, for labels or checks).
Every built-in template declares everything it reads (tests/hostile/test_blame.py checks); a
project's template may, and gets the same checks.
``check_component`` runs when a game is loaded, on every component.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.core import context, memo
from generator.core.errors import DataError
from generator.core.model import FaceTemplate
from generator.core.words import said
from generator.core.yamlfile import YamlDoc, load_yaml

from .columns import (
    ColumnType,
    DeclarationError,
    Refs,
    named_faces,
    parse_records,
    parse_type,
    problems,
)

ROOTS = ("item", "params", "settings", "tables", "size", "rules", "named_by")
MAX_ERRORS = 50  # per component: the first say which mistake it is
MAX_NAMED = 50  # face templates the data of one component may name (diagrams)


@dataclass(frozen=True)
class Declared:
    """A template's ``fields:``: the type each root it reads must have, and every record
    type it declares (the roots among them)."""

    roots: Mapping[str, ColumnType] = field(default_factory=dict)
    records: Mapping[str, ColumnType] = field(default_factory=dict)


def declared(template: FaceTemplate) -> Declared:
    """``template``'s ``fields:``, parsed once per version of its file; a bad declaration is
    the template's own DataError."""
    return _declared_at(template.file, context.version(template.file))


@memo.memo
def _declared_at(file: Path, version: str | None) -> Declared:
    doc = load_yaml(file)  # parsed already (generator/core/yamlfile.py remembers the text)
    raw = doc.data.get("fields") if isinstance(doc.data, dict) else None
    if raw is None:
        return Declared()
    if not isinstance(raw, Mapping):
        raise doc.error(("fields",), "expected a mapping of what the template reads (item, "
                                     "params, settings, tables, size, rules, named_by) and "
                                     "record types")
    closed = raw.get("closed", [])
    if not isinstance(closed, list) or not all(
            isinstance(name, str) and isinstance(raw.get(name), Mapping) and name != "closed"
            for name in closed):
        raise doc.error(("fields", "closed"), "expected a list of the records declared here "
                                              "whose undeclared fields are refused")
    try:
        records = parse_records({k: v for k, v in raw.items() if k not in ("rules", "closed")},
                                closed)
        rules = parse_type(raw["rules"], records.get) if "rules" in raw else None
    except DeclarationError as exc:
        raise doc.error(("fields", *exc.path), str(exc)) from None
    except ValueError as exc:
        raise doc.error(("fields", "rules"), str(exc)) from None
    roots = {root: records[root] for root in ROOTS if root in records}
    if rules is not None:
        roots["rules"] = rules
    return Declared(roots, records)


@dataclass(frozen=True)
class Source:
    """Where a value was written: a file and the field path of the value in it."""

    doc: YamlDoc
    path: tuple[Hashable, ...]

    def error(self, path: tuple[Hashable, ...], expected: str) -> DataError:
        return self.doc.error(self.path + path, expected)


@dataclass(frozen=True)
class ItemSource:
    """Where an item's values were written: ``whole`` for the item itself (its entry of
    ``items:``, or the table row it is), ``keys`` for a top-level field written elsewhere
    (a row of another table in a ``product``, the ``extra`` of a ``generate``)."""

    whole: Source
    keys: Mapping[str, Source] = field(default_factory=dict)

    def error(self, path: tuple[Hashable, ...], expected: str) -> DataError:
        if path and path[0] in self.keys:
            return self.keys[str(path[0])].error(path[1:], expected)
        return self.whole.error(path, expected)


Given = tuple[Any, Source]  # a value of the data and where it was written


@dataclass(frozen=True)
class Component:
    """What one component's templates may read, each with where it was written: the items,
    params, settings, the data file's ``rules:``, the trim ``size`` (None for a page), the
    tables, and ``face``, the component's ``face:`` line (for a table the game lacks)."""

    items: Sequence[Mapping[str, Any]]
    sources: Sequence[ItemSource]
    params: Given
    settings: Given
    rules: Given
    size: Given | None
    tables: Mapping[str, Any]
    table_docs: Mapping[str, YamlDoc]
    face: Source


Namer = tuple[Mapping[str, Any], "ItemSource | Source", tuple[Hashable, ...], str]
Find = Callable[[str], "list[FaceTemplate] | str"]


def check_component(templates: Iterable[FaceTemplate], comp: Component, find: Find
                    ) -> list[DataError]:
    """Everything ``templates`` (a component's face and back, with what they include by a
    fixed name) read of ``comp``, against what they declare, and so on for the templates
    its data names in ``face`` fields (``find(name)``: such a template and those it
    includes, or why there is none, reported at the naming field). Each problem is
    reported at the line its value was written."""
    check = _Check(comp)
    queue = list(templates)
    seen = {t.name for t in queue}
    while queue and not check.full():
        template = queue.pop(0)
        decl = declared(template)
        for root, kind in decl.roots.items():
            check.root(template.name, root, kind)
        item = decl.roots.get("item")
        for name, namers in check.named(item).items():
            check.namers.setdefault(name, []).extend(namers)
            if name in seen or len(seen) >= MAX_NAMED:
                continue
            seen.add(name)
            found = find(name)
            if isinstance(found, str):
                _, where, path, key = namers[0]
                check.add(where.error(path + (key,), found))
            else:
                queue += found
    return check.errors()


class _Check:
    """The problems found so far in one component, once each, at most MAX_ERRORS."""

    def __init__(self, comp: Component) -> None:
        self.comp = comp
        self.refs = Refs(comp.tables)
        self.found: dict[tuple[str, int | None, str], DataError] = {}
        # The mappings naming a face template, by its name: (mapping, where its item was
        # written, its path in the item, the naming field).
        self.namers: dict[str, list[Namer]] = {}

    def full(self) -> bool:
        return len(self.found) >= MAX_ERRORS

    def errors(self) -> list[DataError]:
        return list(self.found.values())

    def add(self, error: DataError) -> None:
        if not self.full():
            self.found.setdefault((error.file, error.line, error.field), error)

    def value(self, template: str, kind: ColumnType, value: Any,
              where: ItemSource | Source, path: tuple[Hashable, ...] = ()) -> None:
        why = f" (the face template {template} reads it)"
        if value is None:
            if not kind.optional:
                self.add(where.error(path, f"missing; expected {kind.describe()}{why}"))
            return
        for at, problem in problems(kind, value, path, self.refs):
            self.add(where.error(at, problem + why))

    def root(self, template: str, root: str, kind: ColumnType) -> None:
        comp = self.comp
        if root == "item":
            for item, source in zip(comp.items, comp.sources, strict=True):
                self.value(template, kind, item, source)
        elif root == "named_by":
            for mapping, where, path, _ in self.namers.get(template, []):
                self.value(template, kind, mapping, where, path)
        elif root == "tables":
            for name, table in kind.fields:
                if name not in comp.tables:
                    if not table.optional:
                        self.add(comp.face.error((), f"the face template {template} reads a "
                                                     f"table {said(name)} ({table.describe()}); "
                                                     "this game has none"))
                    continue
                doc = comp.table_docs.get(name, comp.face.doc)
                self.value(template, table, comp.tables[name], Source(doc, ("tables", name)))
        else:
            given = {"params": comp.params, "settings": comp.settings, "rules": comp.rules,
                     "size": comp.size}[root]
            if given is not None:  # a page's size: any paper is large enough
                self.value(template, kind, *given)

    def named(self, item: ColumnType | None) -> dict[str, list[Namer]]:
        """The face templates the items name in ``face`` fields, each with its namers."""
        found: dict[str, list[Namer]] = {}
        if item is None:
            return found
        for value, where in zip(self.comp.items, self.comp.sources, strict=True):
            for path, mapping, key, name in named_faces(item, value):
                found.setdefault(name, []).append((mapping, where, path, key))
        return found
