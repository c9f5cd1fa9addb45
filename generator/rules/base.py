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
    # Where the expectation comes from: RULEBOOK (the game's published rules or card list)
    # or DESIGN (a target of this kit: print legibility, sheet counts, our own readings).
    basis: str = ""

    def line(self) -> str:
        mark = "ok  " if self.ok else ("WARN" if self.warn else "FAIL")
        place = f" ({self.where})" if self.where and not self.ok else ""
        basis = f" [{self.basis}]" if self.basis else ""
        return (f"  [{mark}]{basis} {self.check}" + (f": {self.detail}" if self.detail else "")
                + place)


RULEBOOK = "rulebook"  # Finding.basis: the check restates the published rules or card list
DESIGN = "design"  # Finding.basis: our own target (legibility, sheet counts, a reading)


def at(game: Any, *path: Any) -> str:
    """"file:line" of a field of the game's data, from the files the loader parsed (no file
    is read again): ``at(game, "components", "grid")`` (a component by id), ``at(game,
    "tables", "ranks")`` (in whichever file holds the table), ``at(game, "settings",
    "hand_size")``. Falls back to the data file alone."""
    docs = getattr(game, "docs", None) or {}
    key = list(path)
    doc = docs.get("game")
    if key[:1] == ["tables"] and len(key) > 1:
        doc = (docs.get("tables") or {}).get(key[1], doc)
    elif key[:1] == ["components"] and len(key) > 1 and doc is not None:
        ids = [c.get("id") if isinstance(c, dict) else None
               for c in (doc.data.get("components") or [])]
        key[1] = ids.index(key[1]) if key[1] in ids else 0
    if doc is None:
        return str(game.source)
    line = doc.line_of(tuple(key))
    return f"{doc.file}:{line}" if line else str(doc.file)


def expect_equal(check: str, actual: object, expected: object, where: str = "",
                 basis: str = "") -> Finding:
    """A finding that holds when ``actual == expected``, naming both when it does not."""
    if actual == expected:
        return Finding(check, True, str(actual), where=where, basis=basis)
    return Finding(check, False, f"expected {expected}, found {actual}", where=where,
                   basis=basis)


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
