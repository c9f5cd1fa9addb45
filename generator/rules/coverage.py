"""Does the printed rules summary carry every rule of the game's seed?

A game's data file may hold ``rules_coverage``: the seed's file name, and for each rule of the
seed (its line, the rule quoted or paraphrased) the words of the printed rules pages that carry
it. ``coverage_findings`` checks those words are on the rules pages, so rewording a summary
and dropping a rule fails ``verify`` naming the seed line. Whether every line of the seed is
accounted for (as a rule, or as ``not_rules`` with a reason) is checked by the tests against
the seed texts themselves (tests/test_rules_coverage.py).

In a kit of another language (generator/data/translation/i18n.py) the rules pages print the
translations of those strings, so a rule is checked against its words in that language,
``printed_in: {fr: ...}``, when it gives them; the rules that give none are counted in a note, not
failed.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from generator.core.findings import RULEBOOK, Finding
from generator.core.words import said
from generator.data.translation import i18n

from .base import at

SHOWN = 4  # missing rules named in one finding; the rest are counted


def normalise(text: str) -> str:
    """Compare words, not line breaks or spacing: the page wraps text its own way."""
    return re.sub(r"\s+", " ", text).strip().casefold()


def printed_text(game: Any, translated: Callable[[str], str] | None = None) -> str:
    """Every string of the game's rules pages (its ``kind: rules`` components), normalised;
    each first ``translated`` when given (a kit in another language)."""
    def strings(node: Any) -> Iterator[str]:
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for value in node.values():
                yield from strings(value)
        elif isinstance(node, (list, tuple)):
            for value in node:
                yield from strings(value)

    parts = [translated(text) if translated else text for comp in game.components
             if comp.kind == "rules" for item in comp.items for text in strings(dict(item.data))]
    return normalise(" \n ".join(parts))


def missing(coverage: dict[str, Any], text: str, lang: str = "en"
            ) -> list[tuple[int, dict[str, Any]]]:
    """The seed rules (index, entry) whose printed words (in ``lang``) are not in ``text``;
    in another language than English, only the rules that give their words in it."""
    if lang != "en":
        return [(index, rule) for index, rule in enumerate(coverage["rules"])
                if lang in (rule.get("printed_in") or {})
                and normalise(rule["printed_in"][lang]) not in text]
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
    lang = i18n.lang()
    if lang != i18n.SOURCE:
        return _coverage_in(game, coverage, lang)
    check = f"rules pages carry every rule of the seed ({coverage['seed']})"
    gone = missing(coverage, printed_text(game))
    if not gone:
        return [Finding(check, True, f"{len(coverage['rules'])} rules, each printed",
                        basis=RULEBOOK)]
    return [_gone(game, check, gone, "printed")]


def _gone(game: Any, check: str, gone: list[tuple[int, dict[str, Any]]], field: str,
          lang: str = "") -> Finding:
    def words(rule: dict[str, Any]) -> str:
        return rule["printed_in"][lang] if lang else rule["printed"]

    named = "; ".join(f"seed line {rule['line']} ({said(rule['rule'], 60)}): "
                      f"{said(words(rule), 60)} is not on the rules pages"
                      for _, rule in gone[:SHOWN])
    more = f"; and {len(gone) - SHOWN} more" if len(gone) > SHOWN else ""
    path = ("rules_coverage", "rules", gone[0][0], field) + ((lang,) if lang else ())
    return Finding(check, False, named + more, basis=RULEBOOK, where=at(game, *path))


def _coverage_in(game: Any, coverage: dict[str, Any], lang: str) -> list[Finding]:
    """The rules that give their words in ``lang``, checked on the translated rules pages;
    the others counted in a note (a kit language is no reason to fail a set)."""
    session = i18n.current()
    text = printed_text(game, lambda s: session.lookup(s) or s)
    rules = coverage["rules"]
    given = [rule for rule in rules if lang in (rule.get("printed_in") or {})]
    check = f"rules pages carry every rule of the seed ({coverage['seed']}), in {lang}"
    findings = []
    gone = missing(coverage, text, lang)
    if gone:
        findings.append(_gone(game, check, gone, "printed_in", lang))
    elif given:
        findings.append(Finding(check, True, f"{len(given)} rules, each printed",
                                basis=RULEBOOK))
    if len(given) < len(rules):
        name = i18n.message("language.english_name")
        findings.append(Finding(f"coverage in {lang}", True,
                                f"{len(rules) - len(given)} rules have no {name} printed words "
                                f"(rules_coverage: printed_in: {{{lang}: ...}}), not checked",
                                basis=RULEBOOK))
    return findings
