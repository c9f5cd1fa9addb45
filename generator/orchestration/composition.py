"""Verify: the game's composition checked before anything is printed.

The pipeline's verify stage (generator/orchestration/build.py): the rules engine's findings
(it reads back the drawn kit, ``drawing.DrawnKit``), the data file's declarative ``verify:``
list, then whether the rules pages carry every rule of the seed. A failing set is not
printed unless forced.
"""
from __future__ import annotations

from dataclasses import replace

from generator import rules
from generator.core.errors import CompositionError
from generator.core.findings import Finding
from generator.core.model import Game
from generator.orchestration.drawing import DrawnKit


def verify(game: Game) -> list[Finding]:
    """The rules module's composition findings (a game without one has none), the data
    file's declarative ``verify`` checks, then whether the rules pages carry every rule of
    the seed; each names the data it is about (at least the game's data file)."""
    from generator.rules.coverage import coverage_findings
    from generator.rules.declarative import findings as declared

    module = rules.engine(game, skip_untrusted=True)  # an untrusted project's code: not run
    findings = ((module.verify(game, DrawnKit(game)) if module else []) + declared(game)
                + coverage_findings(game))
    return [f if f.where else replace(f, where=str(game.source)) for f in findings]


def check_composition(game: Game, force: bool) -> list[Finding]:
    """Run the game's verify(); a failing set is not printed unless forced (a warning, e.g.
    a ``per`` check that may be missing combinations, never stops a build)."""
    findings = verify(game)
    failed = [f for f in findings if not f.ok and not f.warn]
    if failed and not force:
        lines = "\n".join(f.line() for f in failed)
        raise CompositionError(f"{game.source}: {game.id}: the set is incomplete or wrong, not "
                               f"printing (use --force to print anyway):\n{lines}")
    return findings
