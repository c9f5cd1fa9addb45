"""A data file's ``verify:`` list checked when the game is loaded, before anything runs it.

Every component and table a check names must exist, every expression must compile and a table
product must stay bounded (``MAX_PRODUCT``); a problem is a DataError at the check's line
(exit 2), so a typo never reads as a failed check. The checks themselves run at verify time,
in the rules layer (generator/rules/declarative.py), which reads a check's references with the
helpers here; the syntax is in docs/declarative-checks.md.
"""
from __future__ import annotations

import json
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from generator.core.model import Component
from generator.core.words import said
from generator.expressions import ExpressionError, compile_value

from .schema import CompositionCheck

MAX_PRODUCT = 100_000  # combinations of one ``product`` check


def check_specs(doc: Any, checks: Sequence[CompositionCheck], components: Sequence[Component],
                tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """What the checks name, checked against the loaded game; returns them as plain data."""
    ids = [comp.id for comp in components]
    for index, check in enumerate(checks):
        path = ("verify", index)
        for cid in component_ids(check.component):
            if cid not in ids:
                raise doc.error(path + ("component",), f"unknown component {said(cid)}; "
                                                       f"components: {', '.join(ids)}")
        combos = 1
        for field, table in (check.product or {}).items():
            if table not in tables:
                raise doc.error(path + ("product", field), f"unknown table {said(table)}; tables: "
                                                           f"{', '.join(tables) or 'none'}")
            combos *= len(tables[table])
        if combos > MAX_PRODUCT:
            raise doc.error(path + ("product",), f"this product has {combos} combinations; "
                                                 f"at most {MAX_PRODUCT}")
        for field, domain in (check.complete or {}).items() \
                if isinstance(check.complete, dict) else ():
            if isinstance(domain, str) and domain not in tables:
                raise doc.error(path + ("complete", field),
                                f"unknown table {said(domain)}; tables: "
                                f"{', '.join(tables) or 'none'}")
        for key, ref in field_refs(check):
            if is_expression(ref):
                try:
                    compile_value(ref)
                except ExpressionError as exc:
                    raise doc.error(path + (key,), str(exc)) from None
    return [check.model_dump(by_alias=True, exclude_none=True) for check in checks]


def field_refs(check: CompositionCheck) -> Iterator[tuple[str, str]]:
    """(key, reference) of every field name or expression a check reads."""
    for key in ("per", "unique"):
        value = getattr(check, key)
        for ref in [value] if isinstance(value, str) else (value or []):
            yield key, ref
    if check.total is not None:
        yield "total", check.total
    if isinstance(check.where, str):
        yield "where", check.where
    for field in (check.where or {}) if isinstance(check.where, dict) else ():
        yield "where", field


def component_ids(component: str | list[str]) -> list[str]:
    """The components a check counts: one id or a list of them."""
    return [component] if isinstance(component, str) else list(component)


def is_expression(ref: str) -> bool:
    """A reference is an expression (``"{{ item.x * 2 }}"``), not a field name."""
    return "{{" in ref or "{%" in ref


class NoField(LookupError):
    """A field path a piece's data does not hold; its text names the fields where the path
    stopped (``none`` past a value that is no mapping)."""


def path_value(data: Any, ref: str) -> Any:
    """The value at a (dotted) field name of a piece's data (``rank.value``: the ``value``
    of its ``rank`` row); NoField when it has none. The one walk, for the checks
    (rules/declarative.py) and the deal conditions (data/tables/deal_list.py)."""
    current = data
    for part in ref.split("."):
        if not isinstance(current, Mapping) or part not in current:
            raise NoField(", ".join(map(str, current)) if isinstance(current, Mapping)
                          else "none")
        current = current[part]
    return current


def ident(value: Any) -> Hashable:
    """What a value stands for when grouped or compared: a table row by its ``id`` (or
    ``name``), a list as a tuple, anything else as itself (unhashable: its JSON text)."""
    if isinstance(value, Mapping):
        for key in ("id", "name"):
            if key in value and isinstance(value[key], Hashable):
                return value[key]
        return canon(value)
    if isinstance(value, (list, tuple)):
        return tuple(ident(v) for v in value)
    return value if isinstance(value, Hashable) else canon(value)


def canon(value: Any) -> str:
    """A value as canonical JSON text: equal values, equal texts."""
    return json.dumps(value, sort_keys=True, default=str)
