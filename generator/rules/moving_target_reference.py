"""Moving Target's printed deck against the standard 52-card deck, card by card.

The kit's data file describes the deck as two tables (suits, ranks) whose product the face
template draws; a ``checks:`` row in the same file keeps each number card's pips equal to its
value. Both live in one file, so a designer who edits a card's pips and that check (or its
value) together passes the load checks. This module compares what each card prints with a
reference kept in its own file, ``card_data/standard-deck-reference.yaml`` (52 rows with their
source), which no face template reads:

- the deck prints each card of the reference exactly once (a missing, extra or doubled card);
- each card prints the suit symbol of its suit (a swapped suit: Hearts drawn with diamonds);
- each card's value is the reference value (Ace 1 ... King 13), which the ``checks:`` row and
  the rules' "same value" rely on;
- each card prints as many pips as the reference: the pips the face draws from ``rank.pips``,
  plus the Ace's one large pip (``rank.ace``); court cards have none.

Every finding restates the published card list, so its basis is RULEBOOK, and a failure names
the cards ("the 7 of Hearts prints 6 pips, expected 7") and the data line that draws them.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from generator.core import paths
from generator.core.yamlfile import load_yaml

from .base import RULEBOOK, Finding, at

REFERENCE = paths.CARD_DATA / "standard-deck-reference.yaml"
SHOWN = 4  # cards named in one finding; the rest are counted


def load_reference(file: Path = REFERENCE) -> list[dict[str, Any]]:
    """The reference deck's rows (card, rank, suit, symbol, value, pips)."""
    doc = load_yaml(file)
    return list(doc.data["cards"])


def card_title(rank: Any, suit: Any) -> str:
    """How a finding names a card: "the 7 of Hearts", "the Queen of Spades"."""
    return f"the {rank['id'] if str(rank['id']).isdigit() else rank['name']} of {suit['name']}"


def printed_pips(rank: Any) -> int:
    """The suit symbols the face template draws in a card's middle (playing-card.yaml): one
    per entry of ``pips``, and one large one for an Ace."""
    return len(rank.get("pips") or []) + (1 if rank.get("ace") else 0)


def _named(problems: list[str]) -> str:
    more = f"; and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return "; ".join(problems[:SHOWN]) + more


def _row_index(rows: Iterable[Any], row: Any) -> int:
    for index, candidate in enumerate(rows):
        if candidate == row:
            return index
    return 0


def reference_findings(game: Any, reference: list[dict[str, Any]] | None = None
                       ) -> list[Finding]:
    """The printed deck against the standard deck (see the module docstring)."""
    ref = load_reference() if reference is None else reference
    by_key = {(str(r["rank"]), str(r["suit"])): r for r in ref}
    items = [(item["rank"], item["suit"]) for item in game.component("deck").expanded()]
    tables = game.data["tables"]
    source = f"reference {REFERENCE.name}"
    printed = Counter((str(rank["id"]), str(suit["name"])) for rank, suit in items)
    missing = [k for k in by_key if k not in printed]
    extra = [k for k in printed if k not in by_key]
    doubled = [k for k, n in printed.items() if n > 1 and k in by_key]
    list_problems = ([f"the {r} of {s} is missing" for r, s in missing]
                     + [f"the {r} of {s} is not in a standard deck" for r, s in extra]
                     + [f"the {r} of {s} is printed {printed[(r, s)]} times" for r, s in doubled])
    deck_at = at(game, "components", "deck")
    findings = [Finding(f"each card of the standard deck printed once ({source})",
                        not list_problems,
                        _named(list_problems) if list_problems else f"{len(ref)} cards",
                        where=deck_at, basis=RULEBOOK)]

    symbols: list[str] = []
    values: list[str] = []
    pips: list[str] = []
    symbol_at = value_at = pips_at = ""
    for rank, suit in items:
        want = by_key.get((str(rank["id"]), str(suit["name"])))
        if want is None:
            continue
        name = card_title(rank, suit)
        if suit.get("icon") != want["symbol"]:
            symbols.append(f"{name} prints the {suit.get('icon')} symbol, "
                           f"expected {want['symbol']}")
            symbol_at = symbol_at or at(game, "tables", "suits",
                                        _row_index(tables["suits"], suit), "icon")
        if rank.get("value") != want["value"]:
            values.append(f"{name} has value {rank.get('value')}, expected {want['value']}")
            value_at = value_at or at(game, "tables", "ranks",
                                      _row_index(tables["ranks"], rank), "value")
        count = printed_pips(rank)
        if count != want["pips"]:
            pips.append(f"{name} prints {count} pip{'s' * (count != 1)}, "
                        f"expected {want['pips']}")
            pips_at = pips_at or at(game, "tables", "ranks",
                                    _row_index(tables["ranks"], rank), "pips")
    checked = f"{len(items)} cards"
    findings += [
        Finding(f"each card's suit symbol is its suit's ({source})", not symbols,
                _named(symbols) if symbols else checked, where=symbol_at, basis=RULEBOOK),
        Finding(f"each card's value is its rank's ({source})", not values,
                _named(values) if values else checked, where=value_at, basis=RULEBOOK),
        Finding(f"each card prints as many pips as the standard deck ({source})", not pips,
                _named(pips) if pips else checked, where=pips_at, basis=RULEBOOK),
    ]
    return findings
