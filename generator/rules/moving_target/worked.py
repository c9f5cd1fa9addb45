"""Moving Target's worked example for the rules pages, played by the rules engine at build time.

The seed's winning rule is the one players most often get wrong: emptying your hand wins only
if the last card touches a card of the same value; a last card that matches by suit alone
draws a card and play goes on. The example shows both from one real game: two seats play
seeded games with the engine's own greedy policy (``greedy_action``) until a game is won by a
last card that could also have gone, legally, on a cell where it matches by suit only. The
position before the winning placement is cloned, the card is placed on that other cell by
``apply`` (no win: the player draws), and the real placement is applied to the original (the
engine declares the winner). Seeds are tried in order from ``FIRST_SEED``, so the example is
the same on every build, and changes with the engine when the engine changes.

``worked_example(game)`` returns plain data for the diagram template (moving-target-example.yaml):
the 25 cells with the printed rank and suit (from the game's tables), the winning and the
suit-only cells, and sentences whose numbers all come from the engine states. The sentences
speak to players: no seed or turn number (kept in the dict for the tests), and the kit's own
readings of the seed (a mixed suit/value match, no removal after a winning 13th card) are
labelled as ours.
"""
from __future__ import annotations

from typing import Any

from generator.core import cache
from generator.core.model import Game

from . import engine as mt

FIRST_SEED = 1
MAX_SEEDS = 400
MIN_ON_GRID = 6  # a grid with some shape to it (in practice the last card is the 13th)
MAX_TURN = 60  # a game of ordinary length (greedy play sometimes circles for hundreds of turns)
PLAYERS = 2
MAX_ACTIONS = 3000  # a game longer than this is skipped (never seen: games take ~40 turns)


def _cell_name(cell: int, size: int) -> str:
    """The board's own coordinates (card-grid.yaml): column letter, row number."""
    row, col = divmod(cell, size)
    return f"{'ABCDEFGHIJ'[col]}{row + 1}"


def _row_ids(card: int) -> tuple[str, str]:
    """The tables' ids of an engine card's rank and suit (engine names: "7H", "TS")."""
    name = mt.card_name(card)
    return ("10" if name[0] == "T" else name[0]), name[1]


def _describes_deck(game: Any) -> bool:
    """Whether the game's tables name every card the engine plays with (a broken data file
    printed with --force may not: then there is no example to draw)."""
    tables = game.data["tables"]
    ranks = {str(r["id"]) for r in tables.get("ranks", [])}
    suits = {str(s["id"]) for s in tables.get("suits", [])}
    return all(r in ranks and s in suits for r, s in map(_row_ids, range(mt.CARDS)))


def _rows(game: Any, card: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The tables' rank and suit rows of an engine card."""
    rank_id, suit_id = _row_ids(card)
    tables = game.data["tables"]
    rank = next(r for r in tables["ranks"] if str(r["id"]) == rank_id)
    suit = next(s for s in tables["suits"] if str(s["id"]) == suit_id)
    return rank, suit


def _title(game: Any, card: int) -> str:
    rank, suit = _rows(game, card)
    return f"{rank['name']} of {suit['name']}"


def _value(game: Any, card: int) -> int:
    return int(_rows(game, card)[0]["value"])


def _touching(state: mt.State, cell: int) -> list[int]:
    return [state.grid[n] for n in state.neighbours[cell] if state.grid[n] >= 0]


def _apart(state: mt.State) -> bool:
    """Whether some card on the grid touches no other card: earlier removals left it alone (a
    card is placed beside another, so only a removal can isolate one; the first card is alone
    until the second arrives)."""
    return state.on_grid > 1 and any(held >= 0 and not _touching(state, index)
                                     for index, held in enumerate(state.grid))


def _find(data: Any) -> tuple[int, mt.State, int, int] | None:
    """The first seeded game won by a last card that had a suit-only cell too: (seed, the state
    before the winning placement, the winning action, the suit-only action)."""
    for seed in range(FIRST_SEED, FIRST_SEED + MAX_SEEDS):
        state = mt.new_game(PLAYERS, seed, data)
        for _ in range(MAX_ACTIONS):
            if mt.is_over(state) or state.turn > MAX_TURN:
                break
            action = mt.greedy_action(state)
            seat = state.player
            if 0 <= action < mt.REMOVE and state.hands[seat] == 1 << (action % 64):
                before = state.clone()
                mt.apply(state, action)
                if state.winner == seat and before.on_grid >= MIN_ON_GRID:
                    others = [a for a in mt.legal_actions(before)
                              if 0 <= a < mt.REMOVE and a % 64 == action % 64 and a != action]
                    for other in others:
                        trial = mt.apply(before.clone(), other)
                        if trial.winner < 0:
                            return seed, before, action, other
                continue
            mt.apply(state, action)
    return None


def examples(game: Game) -> dict[str, Any]:
    """The rules pages' worked example (``worked_example``): up to 400 seeded games, so kept in
    the on-disk cache (generator/core/cache.py) under the game's data, its only input besides the
    engine's code."""
    return cache.cached("moving-target-example", {"data": game.data},
                        lambda: worked_example(game),
                        valid=lambda v: type(v) is dict and set(v) <= {"moving_target"})


def worked_example(game: Game) -> dict[str, Any]:
    """The worked example (see the module docstring) as plain data."""
    found = _find(game.data) if _describes_deck(game) else None
    if found is None:
        return {}
    seed, before, action, other = found
    seat = before.player
    after = mt.apply(before.clone(), action)
    suit_only = mt.apply(before.clone(), other)
    size = before.size
    cell, card = divmod(action, 64)
    other_cell = other // 64
    value = _value(game, card)

    cells = []
    for index, held in enumerate(after.grid):
        entry: dict[str, Any] = {"cell": _cell_name(index, size), "row": index // size,
                                 "col": index % size, "card": held >= 0,
                                 "last": index == cell, "suit_only": index == other_cell}
        if held >= 0:
            rank, suit = _rows(game, held)
            entry.update(rank=str(rank["id"]), name=_title(game, held), icon=suit["icon"],
                         colour=suit["colour"])
        cells.append(entry)

    same = [c for c in _touching(after, cell) if _value(game, c) == value]
    by_suit = [c for c in _touching(after, cell) if c not in same]
    near_other = _touching(suit_only, other_cell)
    player = f"Player {seat + 1}"
    touches = " and ".join(f"the {_title(game, c)}" for c in same)
    also = "".join(f", and the {_title(game, c)}, the same suit" for c in by_suit)
    also += " (a mix our reading allows)" if by_suit else ""
    left = [h.bit_count() for h in after.hands]
    others_left = ", ".join(f"Player {s + 1} still holds {n} card{'s' * (n != 1)}"
                            for s, n in enumerate(left) if s != seat)
    ended = (f" The game ends at once; by our reading no card is removed, though it is the "
             f"{after.on_grid}th card on the grid." if after.on_grid > before.max_on_grid else "")
    held = suit_only.hands[seat].bit_count()
    removal = (", then, as it is the 13th card, remove a card"
               if suit_only.must_remove >= 0 else "")
    suit_touch = " and ".join(f"the {_title(game, c)}" for c in near_other)
    apart = ("Earlier removals have left some cards without neighbours; that is allowed."
             if _apart(after) else "")
    return {
        "moving_target": {
            "seed": seed,
            "players": PLAYERS,
            "size": size,
            "turn": before.turn,
            "player": seat + 1,
            "winner": after.winner + 1,
            "card": _title(game, card),
            "value": value,
            "cell": _cell_name(cell, size),
            "suit_only_cell": _cell_name(other_cell, size),
            "on_grid": after.on_grid,
            "same_value": [_title(game, c) for c in same],
            "same_suit": [_title(game, c) for c in by_suit],
            "suit_only_touches": [_title(game, c) for c in near_other],
            "hand_after_suit_only": suit_only.hands[seat].bit_count(),
            "hands_left": left,
            "cells": cells,
            "lines": [
                f"From a real {PLAYERS}-player game (worked out by the kit's own game code "
                f"when this page was printed): {player} holds one card, the "
                f"{_title(game, card)}, and places it on {_cell_name(cell, size)} (outlined). "
                f"It touches {touches}, the same value{also}.",
                f"{player} has emptied their hand with a same-value match and wins; "
                f"{others_left}.{ended}",
                f"On {_cell_name(other_cell, size)} (dashed) the card would touch only "
                f"{suit_touch}, a suit match: {player} would draw a card (now holding {held})"
                f"{removal}, and wait for another turn.",
                *([apart] if apart else []),
            ],
        }
    }
