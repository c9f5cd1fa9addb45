"""Verify checks content, not only counts: the printed Decktet against a reference card list.

The faces are drawn from the ``decktet_cards`` table (card_data/decktet.yaml). The reference,
``card_data/decktet-reference.yaml``, is a separate transcription of the Decktet's 45 cards
(name, rank, kind, suits, types) from ../shared/reference/components.md §1.2, which was
cross-checked against seven independent encodings. Comparing the cards the kit prints with it
card by card means a swapped suit, a wrong rank, a changed type or a missing card fails verify
naming the card; counting invariants alone (three cards per rank...) miss a swap of two suits.

The same file holds the four tokens of Moving Day / Monster Day as the seeds state them (die
face, what each counts, points, and each theme's names), checked against the token table and
the theme's labels. Findings say where each expectation comes from: ``RULEBOOK`` (the card list
or the seed) or ``DESIGN`` (this kit's own choices).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from generator.core import memo, paths
from generator.core.findings import DESIGN, RULEBOOK, Finding
from generator.core.model import Game
from generator.core.words import said
from generator.core.yamlfile import YamlDoc, load_yaml

from ..base import PrintedKit, at, expect_equal
from .engine import build_rules

REFERENCE = "decktet-reference.yaml"  # in the built-in card_data/, found at each use
FIELDS = ("kind", "rank", "suits", "types")
SHOWN = 4  # cards named in one finding; the rest are counted


@memo.memo
def reference() -> YamlDoc:
    return load_yaml(paths.CARD_DATA / REFERENCE)


def _norm(field: str, value: Any) -> Any:
    """Suits and types compare as sets: the order on a card gives no priority."""
    return sorted(value or []) if field in ("suits", "types") else value


def compare_cards(printed: Sequence[Mapping[str, Any]], ref: Sequence[Mapping[str, Any]],
                  where: Any = lambda name: "") -> list[Finding]:
    """One finding per field (and for missing or extra cards), naming each card that differs."""
    source = reference().data.get("source", str(paths.CARD_DATA / REFERENCE))
    by_name = {row["name"]: row for row in printed}
    expected = {row["name"]: row for row in ref}
    findings = []

    def finding(check: str, bad: list[str], ok_detail: str) -> Finding:
        if not bad:
            return Finding(check, True, ok_detail, basis=RULEBOOK)
        more = f"; and {len(bad) - SHOWN} more" if len(bad) > SHOWN else ""
        return Finding(check, False, "; ".join(bad[:SHOWN]) + more, basis=RULEBOOK,
                       where=where(bad[0].split(":")[0]))

    missing = [f"{name}: not printed" for name in expected if name not in by_name]
    findings.append(finding(f"every card of the reference list is printed ({source})", missing,
                            f"{len(expected)} cards"))
    extra = [f"{name}: not in the reference list" for name in by_name if name not in expected]
    findings.append(finding("no printed card outside the reference list", extra, "none"))
    for field in FIELDS:
        bad = [f"{name}: {field} {by_name[name].get(field)} printed, the reference says "
               f"{row.get(field)}" for name, row in expected.items()
               if name in by_name and _norm(field, by_name[name].get(field))
               != _norm(field, row.get(field))]
        findings.append(finding(f"printed card {field} match the reference", bad,
                                f"{len(expected) - len(missing)} cards"))
    return findings


def verify_decktet(rows: list[Mapping[str, Any]]) -> list[Finding]:
    """The Decktet's own invariants, from the card table (components.md §1.3)."""
    basic = [r for r in rows if r["deck"] == "basic"]
    extended = [r for r in rows if r["deck"] == "extended"]
    numerals = [r for r in basic if r["kind"] == "numeral"]
    suits = sorted({s for r in rows for s in r["suits"]})
    findings = [
        expect_equal("basic deck", len(basic), 36, basis=RULEBOOK),
        expect_equal("extended cards", len(extended), 9, basis=RULEBOOK),
        expect_equal("unique names", len({r["name"] for r in rows}), len(rows), basis=RULEBOOK),
        expect_equal("suits", len(suits), 6, basis=RULEBOOK),
        expect_equal("Aces, one per suit", sorted(s for r in basic if r["kind"] == "ace"
                                                  for s in r["suits"]), suits, basis=RULEBOOK),
        expect_equal("Crowns, one per suit", sorted(s for r in basic if r["kind"] == "crown"
                                                    for s in r["suits"]), suits,
                     basis=RULEBOOK),
    ]
    per_rank = Counter(r.get("rank") for r in numerals)
    findings.append(Finding("3 cards at each rank 2-9",
                            all(per_rank[k] == 3 for k in range(2, 10)) and len(per_rank) == 8,
                            ", ".join(f"{k}:{per_rank[k]}" for k in range(2, 10)),
                            basis=RULEBOOK))
    bad = [k for k in range(2, 10)
           if sorted(s for r in numerals if r.get("rank") == k for s in r["suits"]) != suits]
    findings.append(Finding("each suit once per rank 2-9", not bad,
                            "ok" if not bad else f"ranks {bad} repeat or miss a suit",
                            basis=RULEBOOK))
    types = Counter(t for r in basic for t in r["types"])
    for kind in ("personality", "location", "event"):
        findings.append(expect_equal(f"{kind} cards in the basic deck", types[kind], 11,
                                     basis=RULEBOOK))
    for kind in ("pawn", "court"):
        per_suit = Counter(s for r in extended if r["kind"] == kind for s in r["suits"])
        findings.append(Finding(f"each suit on 2 {kind.title()}s",
                                sorted(per_suit) == suits and set(per_suit.values()) == {2},
                                str(dict(per_suit)), basis=RULEBOOK))
    findings.append(expect_equal("one Excuse", sum(r["kind"] == "excuse" for r in extended), 1,
                                 basis=RULEBOOK))
    return findings


def token_findings(game: Game, kit: PrintedKit) -> list[Finding]:
    """The printed tokens (die face -> counts -> points) and the names of the theme they are
    printed with, against the seeds as the reference file restates them."""
    ref = reference().data
    expected = {t["die"]: t for t in ref["tokens"]}
    table = {t["die"]: t for t in game.data["tables"]["moving_day_tokens"]}
    by_id = {c.id: c for c in game.components}
    printed = {t["die"]: t for t in by_id["tokens"].expanded()} if "tokens" in by_id else {}
    where = at(game, "tables", "moving_day_tokens")
    findings = [expect_equal("tokens printed, one per die face 1-4", sorted(printed),
                             sorted(expected), where=where, basis=RULEBOOK)]
    for field in ("counts", "points"):
        bad = [f"die {die}: {printed[die].get(field)} printed, the seed says {row[field]}"
               for die, row in expected.items() if die in printed
               and printed[die].get(field) != row[field]]
        bad += [f"die {die}: the rules table says {table[die].get(field)}"
                for die, row in expected.items() if die in table
                and table[die].get(field) != row[field]]
        findings.append(Finding(f"token {field} per die face, as the rules state them",
                                not bad, "; ".join(bad) or ", ".join(
                                    f"{d}: {expected[d][field]}" for d in sorted(expected))
                                + f" ({ref['tokens_source']})",
                                where=where if bad else "", basis=RULEBOOK))
    theme = kit.theme
    names = {die: row["names"].get(theme.name) for die, row in expected.items()}
    if all(names.values()):
        labels = theme.labels.get("tokens", {})
        bad = [f"die {die}: {said(labels.get(die, {}).get('name'))}, the seed says {said(name)}"
               for die, name in names.items()
               if str(labels.get(die, {}).get("name", "")).casefold() != name.casefold()]
        findings.append(Finding(f"token names of the {theme.name} theme", not bad,
                                "; ".join(bad) or ", ".join(names.values()), basis=RULEBOOK))
    return findings


def verify(game: Game, printed: PrintedKit) -> list[Finding]:
    """The printed cards against the reference card list, the Decktet's invariants, the tokens
    against the seed, then the kit's composition (Moving Day and Monster Day alike)."""
    rules = build_rules(game.data)
    rows = game.data["tables"]["decktet_cards"]
    row_index = {row["name"]: index for index, row in enumerate(rows)}
    by_id = {c.id: c for c in game.components}
    cards = [dict(item) for cid in ("play", "aces", "extended") if cid in by_id
             for item in by_id[cid].expanded()]

    def where(name: str) -> str:
        if name in row_index:
            return at(game, "tables", "decktet_cards", row_index[name])
        return at(game, "tables", "decktet_cards")

    findings = compare_cards(cards, reference().data["cards"], where)
    findings += verify_decktet(rows)
    findings += token_findings(game, printed)
    play = [item["name"] for item in by_id["play"].expanded()] if "play" in by_id else []
    findings.append(expect_equal("play cards (numerals and Crowns)", len(play), 30,
                                 basis=RULEBOOK))
    findings.append(expect_equal("play cards unique", len(set(play)), len(play), basis=DESIGN))
    aces = [item["name"] for item in by_id["aces"].expanded()] if "aces" in by_id else []
    findings.append(expect_equal("Aces for the village board", len(aces), 6, basis=RULEBOOK))
    findings.append(expect_equal("token points in all", sum(rules.token_points), 5,
                                 basis=RULEBOOK))
    findings.append(expect_equal("Aces fill both villages", len(rules.aces), 2 * rules.spaces,
                                 basis=RULEBOOK))
    findings.append(Finding("cards left to draw after the deal",
                            len(rules.deck) > 2 * rules.hand_size,
                            f"{len(rules.deck) - 2 * rules.hand_size} in the draw pile",
                            basis=DESIGN))
    return findings
