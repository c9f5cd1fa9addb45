"""One seeded game of any rules engine, played to its end by a policy.

The simulator (generator/orchestration/simulate.py) plays many of these for its reports; an
engine's own ``verify`` plays some too (the movement game's playouts per board). Both use this
loop, so a playout in a verify finding is the very game a simulation report counts. Game
``index`` of a run is seeded from ``(seed, index)`` alone (``game_seed``), so a run's results
do not depend on how it is split between processes.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .base import HasCounters, HasWinners, Playable

POLICIES = ("random", "greedy")


@dataclass(frozen=True)
class GameResult:
    turns: int
    outcome: str                 # win | draw | stall
    scores: tuple[float, ...]
    winners: tuple[int, ...]     # seats with the best score (empty for a stall)
    extra: tuple[tuple[str, int], ...] = ()  # engine-specific counters (e.g. damage rules)


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index) & 0x7FFFFFFF


def play_one(module: Playable, players: int, seed: int, policy: str, max_turns: int,
             data: Mapping[str, Any] | None) -> GameResult:
    """Play one game to its end (or to ``max_turns``, a stall) with a seeded policy."""
    state = module.new_game(players, seed, data)
    chooser = random.Random(seed ^ 0x5EED)
    greedy = module.greedy_action if policy == "greedy" else None
    legal, apply, over = module.legal_actions, module.apply, module.is_over
    steps, max_steps = 0, max_turns * 50
    while not over(state) and state.turn <= max_turns and steps < max_steps:
        if greedy is not None:
            action = greedy(state)
        else:
            actions = legal(state)
            action = actions[0] if len(actions) == 1 else chooser.choice(actions)
        state = apply(state, action)
        steps += 1
    done = over(state)
    outcome = module.outcome(state) if done else "stall"
    final = tuple(module.scores(state))
    winners: tuple[int, ...] = ()
    if outcome == "win" and isinstance(module, HasWinners):
        winners = tuple(module.winners(state))  # the game's own tie-breaks
    elif outcome == "win":
        best = max(final)
        winners = tuple(s for s, v in enumerate(final) if v == best)
    extra = (tuple(sorted(module.counters(state).items())) if isinstance(module, HasCounters)
             else ())
    return GameResult(min(state.turn, max_turns), outcome, final, winners, extra)


def seat_wins(results: Iterable[GameResult], players: int) -> list[float]:
    """Wins per seat; a shared first place counts as a fraction for each seat in it."""
    wins = [0.0] * players
    for r in results:
        if r.outcome == "win":
            for seat in r.winners:
                wins[seat] += 1 / len(r.winners)
    return wins
