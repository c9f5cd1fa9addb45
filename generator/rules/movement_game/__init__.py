"""Untitled Movement Game: the rules engine's interface (``base.RulesEngine``).

The package reads one way, bottom to top:

- ``boards``: parsing the text grids of ``tables.boards``, the geometry of a move, and the
  checks of each board;
- ``setup``: what the engine reads from the data, per board and player count (``variants``:
  one data set per board);
- ``engine``: the state, the turn and the greedy policy (the readings of the seed are listed
  there);
- ``playouts`` (verify's greedy games per board, cached), ``reference`` (the printed kit
  against the reference data) and ``worked`` (``examples``: the seed's example turns, played
  by the engine);
- ``checks``: ``verify``, gathering the three above.
"""
from __future__ import annotations

from .checks import verify
from .engine import (
    POINTS,
    apply,
    clone,
    counters,
    current_player,
    greedy_action,
    is_over,
    legal_actions,
    new_game,
    outcome,
    scores,
)
from .setup import variants
from .worked import examples

__all__ = ["POINTS", "apply", "clone", "counters", "current_player", "examples",
           "greedy_action", "is_over", "legal_actions", "new_game", "outcome", "scores",
           "variants", "verify"]
