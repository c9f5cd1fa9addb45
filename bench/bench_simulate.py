"""Simulation speed: games per second on one core for every game with a rules module, and the
speed-up from running the same seeded games over every core (results must be identical).

Each game gets a sample sized to about SECONDS of single-core work, so slow games (long
movement games) and fast ones (Moving Target, Monster Day) are measured with equal care."""
from __future__ import annotations

import os

from generator import rules
from generator.data import game_ids, load_game
from generator.orchestration import simulate

SECONDS = 5.0
PROBE_GAMES = 100


def main() -> None:
    cores = os.cpu_count() or 1
    print(f"\nsimulation (random policy): games/s on 1 core and on {cores} cores")
    seen: set[str] = set()
    for game_id in game_ids():
        game = load_game(game_id)
        key = f"{game.rules}:{sorted(game.data['settings'].items())!r}"
        if key in seen:
            continue  # moving-day plays exactly like monster-day
        seen.add(key)
        module = rules.load(game.rules)
        players = game.players[0]
        probe = simulate.run(module, players, PROBE_GAMES, seed=7, jobs=1, data=game.data)
        n = max(200, min(20_000, int(PROBE_GAMES / probe.seconds * SECONDS)))
        one = simulate.run(module, players, n, seed=7, jobs=1, data=game.data)
        many = simulate.run(module, players, n, seed=7, jobs=cores, data=game.data)
        same = "identical" if one.results == many.results else "DIFFERENT"
        one_rate, many_rate = n / one.seconds, n / many.seconds
        print(f"  {game_id:<18} {players}p  n={n:<6} 1 core {one_rate:8,.0f} games/s   "
              f"{cores} cores {many_rate:8,.0f} games/s   speed-up {many_rate / one_rate:.2f}x  "
              f"(results {same})")
