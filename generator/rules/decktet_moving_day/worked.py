"""The worked example on Moving Day / Monster Day's rules pages, computed by the engine.

A real position, not a drawing: a seeded game played by the greedy policy for a few turns,
taken at the first seed whose village shows what a player must learn (a card beside every
Ace, some tokens out of the gap, at least one tie). Each token's totals for both players come
from the engine's ``total``, where it would go from ``move_token``, and the effect of one roll
from ``move_for_roll``, each on a clone of that state. The rules pages print only these
numbers, so a change to the rules changes the printed example with it.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.core import cache
from generator.core.model import Game

from . import engine as md

TURNS = 6            # turns played before the position is taken
SEEDS = range(1, 400)
ROLL = (1, 4)        # the roll the example plays out: two different faces, both move
SEATS = ("A", "B")   # seat 0 sits at the left end of the mat (spaces 1-3), seat 1 at the right


def _where(pos: int) -> str:
    return "gap" if pos == md.GAP else str(pos + 1)


def _teaches(state: md.State) -> bool:
    """A card beside every Ace, tokens both in the gap and out of it, and a tie to explain."""
    rules = state.rules
    ties = any(md.total(state, 0, f) == md.total(state, 1, f) for f in rules.token_family)
    out = sum(pos != md.GAP for pos in state.tokens)
    return min(state.top) >= 0 and ties and 2 <= out < len(state.tokens)


def find_position(data: Mapping[str, Any]) -> tuple[int, md.State]:
    """The first seed (in order) whose position after ``TURNS`` greedy turns teaches."""
    for seed in SEEDS:
        state = md.new_game(2, seed, data)
        for _ in range(TURNS):
            md.apply(state, md.greedy_action(state))
        if _teaches(state):
            return seed, state
    raise ValueError("no seed gives a village worth printing as the example")


def village_example(data: Mapping[str, Any]) -> dict[str, Any]:
    """Plain data for the diagram: the six spaces, the tokens, each token's totals and move."""
    seed, state = find_position(data)
    rules = state.rules
    rows = data["tables"]["decktet_cards"]
    suit_ids = [s["id"] for s in data["tables"]["decktet_suits"]]
    spaces = []
    for space, card in enumerate(state.top):
        row = rows[card] if card >= 0 else None
        spaces.append({
            "n": space + 1, "owner": SEATS[md.owner(rules, space)],
            "ace": suit_ids[state.aces[space]],
            "card": None if row is None else {
                "name": row["name"], "kind": row["kind"], "rank": row.get("rank") or 0,
                "suits": list(row["suits"]), "personality": "personality" in row["types"]},
            "tokens": [rules.token_die[t] for t, pos in enumerate(state.tokens) if pos == space],
        })
    tokens = []
    for token, family in enumerate(rules.token_family):
        a, b = md.total(state, 0, family), md.total(state, 1, family)
        after = md.clone(state)
        md.move_token(after, token)
        tokens.append({
            "die": rules.token_die[token], "counts": md.FAMILIES[family],
            "points": rules.token_points[token], "a": a, "b": b,
            "towards": "A" if a > b else "B" if b > a else "",
            "at": _where(state.tokens[token]), "to": _where(after.tokens[token]),
            "moves": after.tokens[token] != state.tokens[token],
        })
    rolled = md.clone(state)
    md.move_for_roll(rolled, *ROLL)
    return {
        "seed": seed, "turns": TURNS, "spaces": spaces, "tokens": tokens,
        "gap": [rules.token_die[t] for t, pos in enumerate(state.tokens) if pos == md.GAP],
        "roll": list(ROLL),
        "after_roll": [{"die": rules.token_die[t], "at": _where(pos)}
                       for t, pos in enumerate(rolled.tokens)],
        "scores": [int(s) for s in md.scores(state)],
        "scores_after_roll": [int(s) for s in md.scores(rolled)],
    }


def examples(game: Game) -> dict[str, Any]:
    """The worked example of the rules pages: a village from a seeded game, with each token's
    totals and moves computed here. Kept in the on-disk cache (generator/core/cache.py) under the
    game's data, its only input besides the engine's code."""
    return cache.cached("decktet-example", {"data": game.data},
                        lambda: {"village": village_example(game.data)},
                        valid=lambda v: type(v) is dict and list(v) == ["village"])
