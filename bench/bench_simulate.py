"""Simulation speed: games per second on one core for every game with a rules module, and the
speed-up from running the same seeded games over every core (results must be identical)."""
from __future__ import annotations

import os

from generator import rules, simulate
from generator.data import game_ids, load_game

ONE_CORE_GAMES = 2000
ALL_CORES_GAMES = 8000


def main() -> None:
    cores = os.cpu_count() or 1
    print(f"\nsimulation (random policy), games/s on 1 core and on {cores} cores:")
    seen: set[tuple[str, str]] = set()
    for game_id in game_ids():
        game = load_game(game_id)
        key = (game.rules, repr(sorted(game.data["settings"].items())))
        if key in seen:
            continue
        seen.add(key)
        module = rules.load(game.rules)
        players = game.players[0]
        one = simulate.run(module, players, ONE_CORE_GAMES, seed=7, jobs=1, data=game.data)
        one_rate = one.n / one.seconds
        many = simulate.run(module, players, ALL_CORES_GAMES, seed=7, jobs=cores,
                            data=game.data)
        many_rate = many.n / many.seconds
        single = simulate.run(module, players, ALL_CORES_GAMES, seed=7, jobs=1, data=game.data)
        same = "identical" if single.results == many.results else "DIFFERENT"
        print(f"  {game_id:<18} {players}p  1 core {one_rate:8,.0f} games/s   "
              f"{cores} cores {many_rate:8,.0f} games/s   speed-up "
              f"{many_rate / (single.n / single.seconds):.2f}x  (results {same})")
