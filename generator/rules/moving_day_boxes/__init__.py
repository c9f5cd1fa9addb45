"""Moving Day (Mads Fløe, Piatnik 2024): the rules engine's interface (``base.RulesEngine``).

The package reads one way, bottom to top:

- ``scoring``: the pieces, the end-of-game damage and points of a vehicle, and the checks of
  the printed set's counts and balance;
- ``engine``: the state, the turn and the greedy policy (the readings of the rulebook are
  listed there);
- ``reference``: each printed piece against the reference list;
- ``worked``: ``examples``, the rulebook's scoring example, laid out with the kit's pieces
  and scored by the engine.
"""
from __future__ import annotations

from generator.core.findings import Finding
from generator.core.model import Game

from ..base import PrintedKit
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
    winners,
)
from .reference import check as reference_findings
from .scoring import kit_findings
from .worked import check as example_findings
from .worked import examples

__all__ = ["POINTS", "apply", "clone", "counters", "current_player", "examples",
           "greedy_action", "is_over", "legal_actions", "new_game", "outcome", "scores",
           "verify", "winners"]


def verify(game: Game, printed: PrintedKit | None = None) -> list[Finding]:
    """The printed set's counts and balance, each piece against the reference list, then the
    worked example against the rulebook's numbers. Only data is read: ``printed`` (the drawn
    kit) is not needed."""
    return kit_findings(game) + reference_findings(game) + example_findings(game)
