"""What every game's rules engine offers (``RulesEngine``), and the findings ``verify`` reports.

A game's engine is a package of ``generator/rules/`` named by the ``rules:`` line of its data
file (``generator.rules.load``); its ``__init__`` is the interface, plain module-level functions
in the style of OpenSpiel, so a policy or the simulator plays any game without knowing its
rules. ``RulesEngine`` below is that interface as a ``typing.Protocol``: a type checker checks
each engine package against it, and a test checks the same at run time (``isinstance`` plus the
signatures), so a new engine cannot drift from what build, verify and simulate call.

States are each engine's own dataclass (typed ``Any`` here): all chance (shuffles, dice) comes
from ``state.rng``, a ``random.Random(seed)``, so every game replays exactly; ``state.turn``
counts turns from 1 (a game's length is the turns its actions were taken in: ``play.play_one``).
Actions are ints; a forced step
(e.g. "draw a card") is a single-action list, so a policy never needs the rules.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:  # types only: the engines never load themes or draw faces themselves
    from generator.core.model import Component, Game
    from generator.core.primitives import Face
    from generator.data.design.themes import Theme

from generator.core import memo
from generator.core.errors import DataError
from generator.core.findings import Finding

T = TypeVar("T")


def at_rules_line(game: Any, expected: str) -> DataError:
    """A DataError at the game's ``rules:`` line: the engine it names cannot be loaded, or
    cannot play this game's data (a built-in engine named by a project whose data is not the
    shape that engine reads)."""
    docs = getattr(game, "docs", None) or {}
    doc = docs.get("game")
    if doc is not None:
        return doc.error(("rules",), expected)
    return DataError(game.source, None, "rules", expected)


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
    identity is the key; the cache keeps a reference to ``data`` so its id is never reused.
    The table is registered (generator/core/memo.py), so ``forget_all`` empties it too."""
    cache: dict[tuple[Any, ...], tuple[Any, T]] = {}
    memo.register(cache.clear, f"{build.__module__}.{build.__qualname__}")

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


class PrintedKit(Protocol):
    """The kit as a default build draws it, handed to ``verify`` by the build layer
    (generator/orchestration/drawing.py) so an engine can check what is printed, read back
    from the drawn faces, without drawing anything itself: rules sit below the build and
    never call it. Faces are drawn only for the components an engine asks about."""

    @property
    def theme(self) -> Theme:
        """The theme the faces are drawn with (its palette and labels)."""
        ...

    def fronts(self, component: Component) -> Sequence[Face]:
        """The front of every printed copy of ``component``."""
        ...


@runtime_checkable
class Playable(Protocol):
    """What playing a game needs (``play.play_one``): the part of ``RulesEngine`` that an
    engine's own modules offer before its package adds ``verify`` and ``examples``.

    - ``new_game``: a fresh, dealt state (``ValueError`` for a player count the game refuses).
    - ``apply``: perform a legal action; for speed it may mutate and return the same state, so
      callers that need the old state take ``clone(state)`` first.
    - ``scores``: 1 for a win, 0 for a loss, 0.5 each for a draw, or points where the game
      scores points (``POINTS``); ``outcome``: "win" or "draw" once ``is_over``.
    - ``greedy_action``: the greedy policy's choice, one of ``legal_actions``.
    """

    POINTS: bool  # scores are points (a mean score is worth reporting), not win/loss

    def new_game(self, players: int, seed: int, data: Mapping[str, Any] | None = None
                 ) -> Any: ...

    def current_player(self, state: Any) -> int: ...

    def legal_actions(self, state: Any) -> list[int]: ...

    def apply(self, state: Any, action: int) -> Any: ...

    def clone(self, state: Any) -> Any: ...

    def is_over(self, state: Any) -> bool: ...

    def scores(self, state: Any) -> list[float]: ...

    def outcome(self, state: Any) -> str: ...

    def greedy_action(self, state: Any) -> int: ...


@runtime_checkable
class RulesEngine(Playable, Protocol):
    """The interface of a game's rules engine (its package's ``__init__``): ``Playable``, and

    - ``verify``: check the printed set (counts, invariants, reference lists); runs before every
      build, and any finding with ``ok=False`` blocks printing. ``printed`` is the kit as drawn
      (an engine that checks only data may ignore it).
    - ``examples``: worked examples computed from real engine states, for rules pages and aids
      to draw as ``examples`` (plain data; ``{}`` when there are none).

    An engine may also offer ``HasWinners``, ``HasCounters`` and ``HasVariants``.
    """

    __name__: str  # the package's: "generator.rules.<the name a data file gives it>"

    def verify(self, game: Game, printed: PrintedKit) -> list[Finding]: ...

    def examples(self, game: Game) -> dict[str, Any]: ...


@runtime_checkable
class HasWinners(Protocol):
    """An engine that breaks ties beyond ``scores`` (e.g. most points, then most snacks)."""

    def winners(self, state: Any) -> list[int]: ...


@runtime_checkable
class HasCounters(Protocol):
    """An engine with per-game figures for the simulation report (damage, discards...)."""

    def counters(self, state: Any) -> dict[str, int]: ...


@runtime_checkable
class HasVariants(Protocol):
    """An engine simulated once per set-up (e.g. per board): (name, data) pairs."""

    def variants(self, data: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]: ...


# What a project's own engine (``rules: rules.py``) must define itself; the rest of
# ``RulesEngine`` has a default when it does not (generator/rules/guard.py: ``POINTS`` False,
# ``clone`` a deep copy, ``outcome`` a win unless every score is equal, ``greedy_action`` the
# move that raises the mover's score most one move ahead, ``verify`` no findings, ``examples``
# none, ``describe`` an action's number alone). docs/engines.md documents both lists.
REQUIRED = ("new_game", "current_player", "legal_actions", "apply", "is_over", "scores")
OPTIONAL = ("POINTS", "clone", "outcome", "greedy_action", "verify", "examples", "describe")


def members(protocol: type) -> list[str]:
    """The names a protocol of this module asks for (its attributes and methods, its bases'
    included), sorted."""
    names: set[str] = set()
    for cls in protocol.__mro__:
        if cls is object or cls is Protocol or cls.__module__ != __name__:
            continue
        names |= set(vars(cls).get("__annotations__", {}))
        names |= {name for name, value in vars(cls).items()
                  if callable(value) and not name.startswith("_")}
    return sorted(names)
