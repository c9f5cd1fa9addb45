"""Moving Day / Monster Day (P.D. Magnus): the rules engine's interface (``base.RulesEngine``).

One engine for both themes. The package reads one way, bottom to top:

- ``engine``: the state, the turn, scoring and the greedy policy (the readings of the seeds
  are listed there);
- ``reference``: ``verify``, the printed Decktet against its reference card list and the
  tokens against the seeds;
- ``worked``: ``examples``, the rules pages' worked example, played by the engine.
"""
from __future__ import annotations

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
from .reference import verify
from .worked import examples

__all__ = ["POINTS", "apply", "clone", "counters", "current_player", "examples",
           "greedy_action", "is_over", "legal_actions", "new_game", "outcome", "scores",
           "verify"]
