"""Does the printed rules summary carry every rule of the game's seed?

A game's data file may hold ``rules_coverage``: the seed's file name, and for each rule of the
seed (its line, the rule quoted or paraphrased) the words of the printed rules pages that carry
it. ``coverage_findings`` checks those words are on the rules pages, so rewording a summary
and dropping a rule fails ``verify`` naming the seed line. Whether every line of the seed is
accounted for (as a rule, or as ``not_rules`` with a reason) is checked by the tests against
the seed texts themselves (tests/test_rules_coverage.py).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from .base import RULEBOOK, Finding, at

SHOWN = 4  # missing rules named in one finding; the rest are counted


def normalise(text: str) -> str:
    """Compare words, not line breaks or spacing: the page wraps text its own way."""
    return re.sub(r"\s+", " ", text).strip().casefold()


def printed_text(game: Any) -> str:
    """Every string of the game's rules pages (its ``kind: rules`` components), normalised."""
    def strings(node: Any) -> Iterator[str]:
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for value in node.values():
                yield from strings(value)
        elif isinstance(node, (list, tuple)):
            for value in node:
                yield from strings(value)

    parts = [text for comp in game.components if comp.kind == "rules"
             for item in comp.items for text in strings(dict(item.data))]
    return normalise(" \n ".join(parts))


def missing(coverage: dict[str, Any], text: str) -> list[tuple[int, dict[str, Any]]]:
    """The seed rules (index, entry) whose printed words are not in ``text``."""
    return [(index, rule) for index, rule in enumerate(coverage["rules"])
            if normalise(rule["printed"]) not in text]


def lines_of(entries: Iterable[dict[str, Any]]) -> set[int]:
    """The seed lines a list of entries names (ranges expanded)."""
    found: set[int] = set()
    for entry in entries:
        first, _, last = str(entry["line"]).partition("-")
        found.update(range(int(first), int(last or first) + 1))
    return found


def coverage_findings(game: Any) -> list[Finding]:
    """One finding: every seed rule of the data's coverage table is on the rules pages."""
    coverage = game.data.get("rules_coverage")
    if not coverage:
        return []
    check = f"rules pages carry every rule of the seed ({coverage['seed']})"
    gone = missing(coverage, printed_text(game))
    if not gone:
        return [Finding(check, True, f"{len(coverage['rules'])} rules, each printed",
                        basis=RULEBOOK)]
    named = "; ".join(f"seed line {rule['line']} ({rule['rule'][:60]!r}): "
                      f"{rule['printed'][:60]!r} is not on the rules pages"
                      for _, rule in gone[:SHOWN])
    more = f"; and {len(gone) - SHOWN} more" if len(gone) > SHOWN else ""
    return [Finding(check, False, named + more, basis=RULEBOOK,
                    where=at(game, "rules_coverage", "rules", gone[0][0], "printed"))]
