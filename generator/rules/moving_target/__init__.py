"""Moving Target (Andrew Gonsalves, 2011): the rules engine's interface (``base.RulesEngine``).

The package reads one way, bottom to top:

- ``engine``: the state, the turn and the greedy policy (the readings of the seed are listed
  there);
- ``reference``: ``verify``, the printed deck against the standard 52-card deck and the rules;
- ``worked``: ``examples``, the rules pages' worked example, played by the engine.
"""
from __future__ import annotations

from .engine import (
    POINTS,
    apply,
    clone,
    current_player,
    greedy_action,
    is_over,
    legal_actions,
    new_game,
    outcome,
    scores,
)
from .reference import verify
from .worked import examples

__all__ = ["POINTS", "apply", "clone", "current_player", "examples", "greedy_action", "is_over",
           "legal_actions", "new_game", "outcome", "scores", "verify"]
