"""Moving Target's ``verify``: the printed deck against the standard 52-card deck, card by card.

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
  plus the Ace's one large pip (``rank.ace``); court cards have none;
- each card's pips are placed as a printed deck's: inside the pip area, apart (a repeated
  position prints one pip on another, which a count passes), the same left to right.

Each of these restates the published card list, so its basis is RULEBOOK, and a failure names
the cards ("the 7 of Hearts prints 6 pips, expected 7") and the data line that draws them.
``verify`` adds the counts (52 unique cards, 4 suits x 13 ranks), the deals against the deck
and the printed play grid against the rules (``grid_findings``).
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from generator.core import paths
from generator.core.findings import DESIGN, RULEBOOK, Finding
from generator.core.model import Component, Game
from generator.core.sizes import CARD_SIZES
from generator.core.words import said
from generator.core.yamlfile import load_yaml

from ..base import PrintedKit, at, at_rules_line, expect_equal
from .engine import CARDS, RANKS, SUITS, settings

REFERENCE = "standard-deck-reference.yaml"  # in the built-in card_data/, found at each use
SHOWN = 4  # cards named in one finding; the rest are counted


def load_reference(file: Path | None = None) -> list[dict[str, Any]]:
    """The reference deck's rows (card, rank, suit, symbol, value, pips)."""
    doc = load_yaml(file or paths.CARD_DATA / REFERENCE)
    return list(doc.data["cards"])


def card_title(rank: Any, suit: Any) -> str:
    """How a finding names a card: "the 7 of Hearts", "the Queen of Spades"."""
    return f"the {rank['id'] if str(rank['id']).isdigit() else rank['name']} of {suit['name']}"


def printed_pips(rank: Any) -> int:
    """The suit symbols the face template draws in a card's middle (playing-card.yaml): one
    per entry of ``pips``, and one large one for an Ace."""
    return len(rank.get("pips") or []) + (1 if rank.get("ace") else 0)


MIN_PIP_GAP = 0.25  # pip centres closer than this (in pip-area units) print on each other


def pip_problems(name: str, pips: Any) -> list[str]:
    """Where a card's pips go, beyond their number: each inside the pip area ((0,0) to (1,1)),
    no two on top of each other (a Five whose list repeats a position prints 4 pips, and a
    count would pass it), and arranged as a printed deck's are: the same left to right."""
    points = [(float(x), float(y)) for x, y in pips or []]
    problems = [f"{name} has a pip at ({x:g}, {y:g}), outside the pip area"
                for x, y in points if not (0 <= x <= 1 and 0 <= y <= 1)]
    for i, a in enumerate(points):
        for b in points[i + 1:]:
            if math.dist(a, b) < MIN_PIP_GAP:
                problems.append(f"{name} has two pips at ({a[0]:g}, {a[1]:g}) and "
                                f"({b[0]:g}, {b[1]:g}): they print on each other")
    mirrored = sorted((round(1 - x, 6), round(y, 6)) for x, y in points)
    if not problems and mirrored != sorted((round(x, 6), round(y, 6)) for x, y in points):
        problems.append(f"{name}'s pips are not the same left to right, as a printed deck's are")
    return problems


def _named(problems: list[str]) -> str:
    more = f"; and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return "; ".join(problems[:SHOWN]) + more


def _row_index(rows: Iterable[Any], row: Any) -> int:
    for index, candidate in enumerate(rows):
        if candidate == row:
            return index
    return 0


def deck_cards(game: Any) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """The (rank, suit) rows of each card of the game's ``deck``, as this engine reads them;
    a game whose data is not that shape (a project naming ``rules: moving_target`` over
    other data) is one line at its ``rules:`` line naming what is missing."""
    wants = ("moving_target reads a component 'deck' whose cards each have a 'rank' (with "
             "an id) and a 'suit' (with an id and a name), as card_data/moving-target.yaml")
    if not any(c.id == "deck" for c in game.components):
        raise at_rules_line(game, f"{wants}: this game has no component 'deck'")
    found = []
    for index, item in enumerate(game.component("deck").expanded(), 1):
        rank, suit = item.get("rank"), item.get("suit")
        for name, row, keys in (("rank", rank, ("id",)), ("suit", suit, ("id", "name"))):
            if not isinstance(row, Mapping) or any(k not in row for k in keys):
                raise at_rules_line(game, f"{wants}: card {index} of the deck has no "
                                          f"{name}" + (" id" if isinstance(row, Mapping)
                                                       else ""))
        assert isinstance(rank, Mapping) and isinstance(suit, Mapping)
        found.append((rank, suit))
    return found


def reference_findings(game: Any, reference: list[dict[str, Any]] | None = None
                       ) -> list[Finding]:
    """The printed deck against the standard deck (see the module docstring)."""
    ref = load_reference() if reference is None else reference
    by_key = {(str(r["rank"]), str(r["suit"])): r for r in ref}
    items = deck_cards(game)
    tables = game.data.get("tables") or {}
    source = f"reference {REFERENCE}"
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
    layouts: list[str] = []
    symbol_at = value_at = pips_at = layout_at = ""
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
        placed = pip_problems(name, rank.get("pips"))
        if placed:
            layouts += placed
            layout_at = layout_at or at(game, "tables", "ranks",
                                        _row_index(tables["ranks"], rank), "pips")
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
        Finding("each card's pips are laid out as a printed deck's (inside the pip area, "
                "apart, the same left to right)", not layouts,
                _named(sorted(set(layouts), key=layouts.index)) if layouts else checked,
                where=layout_at, basis=RULEBOOK),
    ]
    return findings


def verify(game: Game, printed: PrintedKit | None = None) -> list[Finding]:
    """52 unique cards, 4 suits x 13 ranks, each card as the standard deck prints it
    (``reference_findings``); deals leave a draw pile; the grid is 5x5. All restate the
    seed or the standard deck (RULEBOOK) except the board's paper size (DESIGN). Only data is
    read: ``printed`` (the drawn kit) is not needed."""
    cfg = settings(game.data)
    cards = [(suit["id"], rank["id"]) for rank, suit in deck_cards(game)]
    suits = Counter(s for s, _ in cards)
    ranks = Counter(r for _, r in cards)
    deck_at, suits_at, ranks_at = (at(game, "components", "deck"), at(game, "tables", "suits"),
                                   at(game, "tables", "ranks"))
    findings = [
        expect_equal("deck size", len(cards), CARDS, deck_at, basis=RULEBOOK),
        expect_equal("unique cards", len(set(cards)), CARDS, deck_at, basis=RULEBOOK),
        expect_equal("suits", len(suits), SUITS, suits_at, basis=RULEBOOK),
        expect_equal("ranks", len(ranks), RANKS, ranks_at, basis=RULEBOOK),
        Finding("13 cards per suit", set(suits.values()) == {RANKS}, str(dict(suits)),
                where=suits_at, basis=RULEBOOK),
        Finding("4 cards per rank", set(ranks.values()) == {SUITS},
                ", ".join(f"{r}:{n}" for r, n in ranks.items()), where=ranks_at,
                basis=RULEBOOK),
        *reference_findings(game),
    ]
    for players, hand in sorted(cfg["hand_size"].items()):
        left = len(cards) - players * hand - 1
        findings.append(Finding(f"{players} players take {hand} each, 1 starts the grid",
                                left > 0, f"{left} cards left to draw",
                                where=at(game, "settings", "hand_size"), basis=RULEBOOK))
    size = int(cfg["grid_size"])
    grid = game.component("grid") if any(c.id == "grid" for c in game.components) else None
    if grid is not None:
        findings += [replace(f, where=at(game, "components", "grid"))
                     for f in grid_findings(grid, size)]
    return findings


def grid_findings(grid: Component, size: int) -> list[Finding]:
    """The printed board against the rules: the cells the face template draws (its params)
    must be the rules' grid, and must add up to the board's printed size (from ``size:``), so
    a board that draws 5 x 5 cells on paper sized for 4 x 4 is caught."""
    p = grid.params
    rows, cols = p.get("rows"), p.get("cols")
    out = [expect_equal("play grid cells drawn (params) vs rules grid_size",
                        f"{rows}x{cols}", f"{size}x{size}", basis=RULEBOOK)]
    cell = CARD_SIZES.get(str(p.get("cell")))
    if cell is None or not isinstance(rows, int | float) or not isinstance(cols, int | float):
        out.append(Finding("play grid cell size", False, f"unknown cell {said(p.get('cell'))}",
                           basis=DESIGN))
        return out
    gap, border = float(p.get("gap", 0)), float(p.get("border", 0))
    w = cols * cell.w + (cols - 1) * gap + 2 * border
    h = rows * cell.h + (rows - 1) * gap + 2 * border
    fits = abs(w - grid.size.w) < 0.01 and abs(h - grid.size.h) < 0.01
    out.append(Finding("play grid cells fill the printed board", fits,
                       f"cells need {w:g} x {h:g} mm, board printed "
                       f"{grid.size.w:g} x {grid.size.h:g} mm", basis=DESIGN))
    return out
