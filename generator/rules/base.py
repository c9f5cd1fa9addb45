"""The one interface every game's rules module implements, in the style of OpenSpiel.

A rules module is a plain Python module exposing module-level functions (not a class), so
``generator.rules.load(name)`` can import it by name from the game's data file:

- ``verify(game) -> list[Finding]``: check the composition of the printed set (counts,
  invariants). Runs before every build; any finding with ``ok=False`` blocks printing.
- ``new_game(players, seed, game=None) -> state``: a fresh, dealt state. All chance (shuffles,
  dice) comes from ``state.rng``, a ``random.Random(seed)``, so every game replays exactly.
- ``current_player(state) -> int``: the seat to act (0-based).
- ``legal_actions(state) -> list``: every action the current player may take now. Forced steps
  (e.g. "draw a card") are returned as a single-action list, so a policy never needs game rules.
- ``apply(state, action) -> state``: perform the action. For speed it may mutate and return the
  same state object; callers that need the old state take ``clone(state)`` first.
- ``is_over(state) -> bool`` and ``scores(state) -> list[float]`` (1 for a win, 0 for a loss,
  0.5 each for a draw, or points where the game scores points).
- ``outcome(state) -> str``: ``"win"``, ``"draw"`` or ``"stall"``, for simulation reports.
- optional ``greedy_action(state) -> action`` for the greedy policy; ``winners(state)`` when
  the game breaks ties beyond ``scores``; ``counters(state) -> dict[str, int]`` for per-game
  figures in the simulation report; ``variants(data)`` to simulate each board separately.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Finding:
    """One line of a composition report: what was checked, whether it held, and the detail."""

    check: str
    ok: bool
    detail: str = ""
    warn: bool = False  # a pre-flight warning: fails only ``verify --strict``
    where: str = ""  # "file:line" of the data the finding is about (see ``at``)

    def line(self) -> str:
        mark = "ok  " if self.ok else ("WARN" if self.warn else "FAIL")
        place = f" ({self.where})" if self.where and not self.ok else ""
        return f"  [{mark}] {self.check}" + (f": {self.detail}" if self.detail else "") + place


def at(game: Any, *path: Any) -> str:
    """"file:line" of a field of the game's data file, or of the included file that holds a
    table: ``at(game, "components", "grid")`` (a component by id), ``at(game, "tables",
    "ranks")``, ``at(game, "settings", "hand_size")``. Falls back to the data file alone."""
    from ..data.yamlfile import load_yaml

    source = Path(game.source)
    files = [source] + [source.parent / name for name in _includes(source)]
    for file in files:
        try:
            doc = load_yaml(file)
        except Exception:  # a location is a courtesy: never fail a report over it
            continue
        key = list(path)
        if len(key) >= 2 and key[0] == "components" and isinstance(doc.data, dict):
            ids = [c.get("id") for c in doc.data.get("components") or [] if isinstance(c, dict)]
            if key[1] not in ids:
                continue
            key[1] = ids.index(key[1])
        if isinstance(doc.data, dict) and key and key[0] in doc.data and (
                len(key) < 2 or key[0] == "components"
                or key[1] in (doc.data.get(key[0]) or {})):
            line = doc.line_of(tuple(key))
            return f"{file}:{line}" if line else str(file)
    return str(source)


def _includes(source: Path) -> list[str]:
    from ..data.yamlfile import load_yaml

    try:
        data = load_yaml(source).data
    except Exception:  # see at()
        return []
    names = data.get("include", []) if isinstance(data, dict) else []
    return [n for n in names if isinstance(n, str)]


def expect_equal(check: str, actual: object, expected: object, where: str = "") -> Finding:
    """A finding that holds when ``actual == expected``, naming both when it does not."""
    if actual == expected:
        return Finding(check, True, str(actual), where=where)
    return Finding(check, False, f"expected {expected}, found {actual}", where=where)


def per_data(build: Callable[..., T]) -> Callable[..., T]:
    """Memoise ``build(data, *extra)`` on the identity of ``data``.

    Rules modules precompute tables (card values, board rays...) from the game's data mapping.
    Mappings are unhashable, but the simulator hands the same object to every game of a run, so
    identity is the key; the cache keeps a reference to ``data`` so its id is never reused."""
    cache: dict[tuple[Any, ...], tuple[Any, T]] = {}

    def cached(data: Any, *extra: Any) -> T:
        key = (id(data), *extra)
        hit = cache.get(key)
        if hit is not None and hit[0] is data:
            return hit[1]
        if len(cache) > 64:
            cache.clear()
        built = build(data, *extra)
        cache[key] = (data, built)
        return built

    return cached
