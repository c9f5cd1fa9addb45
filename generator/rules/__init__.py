"""Rules engines, one package per game, all behind the interface ``base.RulesEngine``.

A game's data file names its engine by the package's name (``rules: moving_day_boxes`` loads
``generator/rules/moving_day_boxes/``); every package here is an engine, and the plain modules
beside them are what engines share (``base``: the interface and findings; ``play``: the seeded
play loop; ``stats``: intervals of playout results; ``declarative`` and ``coverage``: the
checks every game gets, engine or not).

A rules engine is optional: a game whose data file has no ``rules:`` line has no play engine
(nothing to simulate, no worked examples) and is checked by its ``verify`` list alone
(``declarative``)."""
from __future__ import annotations

import importlib
from typing import Any

from generator.core.errors import DataError

from .base import RulesEngine, members

__all__ = ["RulesEngine", "engine", "load"]


def load(name: str) -> RulesEngine:
    """Import the engine ``generator.rules.<name>``; the name comes from a game's data file.
    A module that is not an engine (it lacks part of ``RulesEngine``) is an ImportError."""
    module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
    if not isinstance(module, RulesEngine):
        missing = [m for m in members(RulesEngine) if not hasattr(module, m)]
        raise ImportError(f"{module.__name__} is not a rules engine: it has no "
                          f"{', '.join(missing)}")
    return module


def engine(game: Any) -> RulesEngine | None:
    """The game's rules engine, or None for a game without one. An engine that cannot be
    imported is a DataError at the ``rules:`` line (the loader checks the name first, so
    this is the last line of defence against a traceback)."""
    name = getattr(game, "rules", None)
    if not name:
        return None
    try:
        return load(name)
    except ImportError as exc:
        docs = getattr(game, "docs", None) or {}
        doc = docs.get("game")
        expected = f"cannot load the rules module {name!r}: {exc}"
        if doc is not None:
            raise doc.error(("rules",), expected) from None
        raise DataError(game.source, None, "rules", expected) from None
