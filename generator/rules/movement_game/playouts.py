"""The movement game's verify playouts: a greedy 2-player run per sound board, and its finding.

Why a module of its own: the playouts are the costliest step of any build (800 games), so their
summary (wins per seat, stalls, games) is kept in the on-disk cache (generator/core/cache.py) under
everything it depends on: the game's data, the boards, the run's parameters and the engines'
code. The finding is worked out from the summary alone, so a hit prints exactly what playing
the games again would.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from generator.core import cache
from generator.core.findings import Finding

from ..play import game_seed, play_one, seat_wins
from ..stats import percent, rate_with_interval, wilson_interval
from . import engine
from .setup import played_data, variants

# verify's playouts: the greedy policy, since random play wanders (about half its turns discard
# the hand) and nearly always hits the turn limit, which says nothing about a board.
VERIFY_GAMES, VERIFY_TURNS, VERIFY_POLICY, VERIFY_SEED = 200, 300, "greedy", 2
PLAYOUT_PLAYERS = 2  # the players of verify's playouts: the game must seat them


def playout_findings(data: Mapping[str, Any], sound: Iterable[str]) -> list[Finding]:
    """One finding per board variant (``setup.variants``) named in ``sound``."""
    wanted = set(sound)
    names = [name for name, _ in variants(data) if name in wanted]
    summaries = _summaries(data, list(dict.fromkeys(names))) if names else {}
    return [simulation_finding(summaries[name], name) for name in names]


def _playouts(data: Mapping[str, Any]) -> dict[str, Any]:
    """What verify reads from one board's playouts: wins per seat, stalls, games. The games
    are those ``simulate`` plays for the same seed and policy (one loop: ``play.play_one``)."""
    players = PLAYOUT_PLAYERS
    results = [play_one(engine, players, game_seed(VERIFY_SEED, i), VERIFY_POLICY, VERIFY_TURNS,
                        data) for i in range(VERIFY_GAMES)]
    return {"wins": seat_wins(results, players),
            "stalls": sum(r.outcome == "stall" for r in results), "n": VERIFY_GAMES}


def _summaries(data: Mapping[str, Any], names: list[str]) -> dict[str, dict[str, Any]]:
    """``_playouts`` of each named board (``variants``), kept in the on-disk cache
    (generator/core/cache.py) under the data the engine plays by (``played_data``), the
    boards and the playouts' parameters: unchanged play data and code replay nothing."""
    def compute() -> dict[str, dict[str, Any]]:
        setups = dict(variants(data))
        return {name: _playouts(setups[name]) for name in names}

    key = {"data": played_data(data), "boards": names, "players": 2, "games": VERIFY_GAMES,
           "seed": VERIFY_SEED, "policy": VERIFY_POLICY, "max_turns": VERIFY_TURNS}
    return cache.cached("movement-verify", key, compute,
                        valid=lambda value: _sound_summaries(value, names))


def _sound_summaries(value: Any, names: list[str]) -> bool:
    """Whether a cached value has exactly the shape ``_summaries`` computes."""
    def sound(s: Any) -> bool:
        return (type(s) is dict and set(s) == {"wins", "stalls", "n"}
                and s["n"] == VERIFY_GAMES and type(s["n"]) is int
                and type(s["stalls"]) is int and 0 <= s["stalls"] <= VERIFY_GAMES
                and type(s["wins"]) is list and len(s["wins"]) == 2
                and all(type(w) is float and 0 <= w <= VERIFY_GAMES for w in s["wins"]))

    return type(value) is dict and list(value) == names and all(map(sound, value.values()))


def simulation_finding(summary: Mapping[str, Any], name: str) -> Finding:
    """The finding verify prints for one board, from its summary alone. A seat whose 95 %
    Wilson interval excludes a fair share (half the games that ended), or more than one game in
    ten stalled, is
    a [design] warning naming the board and the seat (it fails only ``verify --strict``):
    the board favours a seat or stalls, which a designer should see, not read past."""
    wins, stalls, n = summary["wins"], summary["stalls"], summary["n"]
    fair = (n - stalls) / n / len(wins)  # each seat's share of the games that ended
    unfair = [seat for seat, won in enumerate(wins, start=1)
              if not wilson_interval(won, n)[0] <= fair <= wilson_interval(won, n)[1]]
    detail = (f"seat 1 (first player) wins {rate_with_interval(wins[0], n)} (95 % Wilson), "
              f"{stalls} stalls in {n} {VERIFY_POLICY} games ({VERIFY_TURNS}-turn limit)")
    if unfair:
        seat = max(unfair, key=lambda s: (round(abs(wins[s - 1] / n - fair), 9), wins[s - 1]))
        held = "is favoured" if wins[seat - 1] / n > fair else "is held back"
        detail = (f"seat {seat} {held}: its 95 % interval excludes a fair "
                  f"{percent(fair)}; " + detail)
    elif stalls > n / 10:
        detail = f"more than 1 game in 10 stalls; {detail}"
    warn = bool(unfair) or stalls > n / 10
    return Finding(f"board {name}: simulation, 2 players", not warn, detail, warn=warn)
