"""Rules modules, one per game, all behind the interface described in ``base``.

A rules module is optional: a game whose data file has no ``rules:`` line has no play engine
(nothing to simulate, no worked examples) and is checked by its ``verify`` list alone
(``declarative``)."""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from generator.core.errors import DataError

from .base import Finding, expect_equal

__all__ = ["Finding", "engine", "expect_equal", "load"]


def load(name: str) -> ModuleType:
    """Import ``generator.rules.<name>``; the name comes from a game's data file."""
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def engine(game: Any) -> ModuleType | None:
    """The game's rules module, or None for a game without one. A module that cannot be
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
