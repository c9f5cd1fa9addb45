"""The movement game's ``verify``: the printed kit, each board, and a playout per sound board.

The top of the package below its ``__init__``: it gathers the content checks (``reference``),
the board checks (``boards``) and the playouts (``playouts``) in the order verify prints them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from generator.core.findings import DESIGN, RULEBOOK, Finding
from generator.core.model import Game

from ..base import PrintedKit, at
from .boards import board_findings, parse_board
from .playouts import PLAYOUT_PLAYERS, playout_findings
from .reference import content_findings, load_reference
from .setup import seating, seating_problem


def verify(game: Game, printed: PrintedKit) -> list[Finding]:
    """What the kit prints against the reference data (``reference``: the seed's cards, tokens
    and board kinds, our frozen board layouts, read back from the boards as ``printed`` draws
    them), each board's shape and reachability, the standard-deck stand-in beside the
    navigation deck, and a quick playout per sound board."""
    tables = game.data["tables"]
    ref = load_reference(game)
    out = content_findings(game, printed, ref)
    boards = [parse_board(b) for b in tables.get("boards") or []]
    sound = set()
    for board in boards:
        found = [replace(f, basis=f.basis or DESIGN) for f in board_findings(board)]
        out += found
        if all(f.ok for f in found):
            sound.add(board.name)
    cards = Counter({str(r["direction"]): int(r.get("count", 1)) for r in tables["navigation"]})
    conversion = {r["direction"]: int(r["count"]) for r in tables["standard_deck_conversion"]}
    for d, n in cards.items():
        std = conversion.get(d, 0)
        out.append(Finding("standard-deck conversion", d in conversion,
                           f"{d}: standard deck {std}, navigation deck {n} ({std - n:+d})",
                           basis=RULEBOOK))
    total, want = sum(conversion.values()), ref.data["standard_deck"]["cards"]
    out.append(Finding("standard-deck conversion, total", total == sum(want.values()),
                       f"{total} vs {sum(cards.values())}", basis=RULEBOOK))
    seats = seat_findings(game)
    out += seats
    if all(f.ok for f in seats):  # the playouts seat the players as the setting says
        out += [replace(f, basis=DESIGN) for f in playout_findings(game.data, sound)]
    return out


def seat_findings(game: Game) -> list[Finding]:
    """The ``seats`` setting: for each player count, that many different sides, each with
    the side across (where its tokens head), so the engine can seat every player."""
    out = []
    for players, sides in (game.data["settings"].get("seats") or {}).items():
        problem = seating_problem(int(players), tuple(sides))
        out.append(Finding(f"seats for {players} players", problem is None,
                           f"{', '.join(sides) or 'none'}" + (f": {problem}" if problem
                                                              else ""),
                           where=at(game, "settings", "seats", players), basis=RULEBOOK))
    if PLAYOUT_PLAYERS not in seating(game.data):  # the playouts would seat no one
        out.append(Finding(f"seats for {PLAYOUT_PLAYERS} players", False,
                           f"none: expected a seating for {PLAYOUT_PLAYERS} players, the game "
                           "verify plays", where=at(game, "settings", "seats"), basis=RULEBOOK))
    return out
