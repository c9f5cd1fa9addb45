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
    turns: int                   # turns played: see ``play_one``
    outcome: str                 # win | draw | stall
    scores: tuple[float, ...]
    winners: tuple[int, ...]     # seats with the best score (empty for a stall)
    extra: tuple[tuple[str, int], ...] = ()  # engine-specific counters (e.g. damage rules)
    # Decisions (``count_choices``): (steps played, steps with more than one legal action,
    # sum and sum of squares of the legal actions at those, most at one): the balance
    # report's "decisions per turn", summed over games without keeping every step.
    choices: tuple[int, ...] = ()


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while a game was being played: the text says which game (its seed and players)
    and, for a project's engine, the hook and line it stopped in (generator/rules/guard.py)
    and the command that replays it. A KeyboardInterrupt still: every caller that stops on
    Ctrl-C stops on this one; the command line prints its text after ``interrupted:``."""


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index) & 0x7FFFFFFF


def play_one(module: Playable, players: int, seed: int, policy: str, max_turns: int,
             data: Mapping[str, Any] | None, count_choices: bool = False) -> GameResult:
    """``_play_one``, and Ctrl-C during it said as ``Interrupted`` naming the game (a
    project's engine names its hook too: its own ``interrupted``)."""
    try:
        return _play_one(module, players, seed, policy, max_turns, data, count_choices)
    except Interrupted:
        raise
    except KeyboardInterrupt:
        own = getattr(module, "interrupted", None)
        raise (own() if callable(own) else
               Interrupted(f"game seed {seed}, {players} players")) from None


def _play_one(module: Playable, players: int, seed: int, policy: str, max_turns: int,
              data: Mapping[str, Any] | None, count_choices: bool = False) -> GameResult:
    """Play one game to its end (or to ``max_turns``, a stall) with a seeded policy.

    ``count_choices`` also counts the legal actions at every step (``GameResult.choices``);
    the greedy policy then asks ``legal_actions`` too, which only reads the state (the
    Protocol's contract), so the game played is the same either way.

    The game's length is the turns played: from the turn it starts on to the turn its last
    action was taken in. Not ``state.turn`` at the end: an engine that moves the counter on
    after the last turn (the starter does: ``turn`` is "the trick being played") would
    report one turn more than were played, and one that stops it on a winning move would not,
    so only the turn each action is taken in is read, whatever the engine's habit."""
    state = module.new_game(players, seed, data)
    first = last = state.turn
    chooser = random.Random(seed ^ 0x5EED)
    greedy = module.greedy_action if policy == "greedy" else None
    legal, apply, over = module.legal_actions, module.apply, module.is_over
    steps, max_steps = 0, max_turns * 50
    decided = total = squares = most = 0
    while not over(state) and state.turn <= max_turns and steps < max_steps:
        if greedy is not None:
            if count_choices:
                options = len(legal(state))
                if options > 1:
                    decided, total, squares = decided + 1, total + options, \
                        squares + options * options
                    most = max(most, options)
            action = greedy(state)
        else:
            actions = legal(state)
            if len(actions) == 1:
                action = actions[0]
            else:
                action = chooser.choice(actions)
                options = len(actions)
                decided, total, squares = decided + 1, total + options, \
                    squares + options * options
                most = max(most, options)
        last = state.turn
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
    choices: tuple[int, ...] = (steps, decided, total, squares, most) if count_choices else ()
    played = last - first + 1 if steps else 0
    return GameResult(min(played, max_turns), outcome, final, winners, extra, choices)


def seat_wins(results: Iterable[GameResult], players: int) -> list[float]:
    """Wins per seat; a shared first place counts as a fraction for each seat in it."""
    wins = [0.0] * players
    for r in results:
        if r.outcome == "win":
            for seat in r.winners:
                wins[seat] += 1 / len(r.winners)
    return wins
