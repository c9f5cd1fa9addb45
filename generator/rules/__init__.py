"""Rules modules, one per game, all behind the interface described in ``base``."""
from __future__ import annotations

import importlib
from types import ModuleType

from .base import Finding, expect_equal

__all__ = ["Finding", "expect_equal", "load"]


def load(name: str) -> ModuleType:
    """Import ``generator.rules.<name>``; the name comes from a game's data file."""
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
