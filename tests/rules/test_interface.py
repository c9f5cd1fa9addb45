"""Every rules engine is a package whose ``__init__`` satisfies ``base.RulesEngine``: attributes
present, signatures as the protocol states them (at run time here, statically by mypy when it is
installed). That generator/rules/ imports go one way (no cycle, no private name, nothing from
the orchestration or front-end layers) is held by tests/test_architecture.py."""
from __future__ import annotations

import inspect
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator import rules
from generator.core import paths
from generator.data.loader import rules_modules
from generator.rules import decktet_moving_day, movement_game, moving_day_boxes, moving_target
from generator.rules.base import (
    HasCounters,
    HasVariants,
    HasWinners,
    Playable,
    RulesEngine,
    members,
)

RULES = paths.ROOT / "generator" / "rules"


def engines() -> dict[str, RulesEngine]:
    """Every engine package by name, typed: mypy checks each module against the protocol."""
    return {"decktet_moving_day": decktet_moving_day, "moving_day_boxes": moving_day_boxes,
            "movement_game": movement_game, "moving_target": moving_target}


def test_the_loader_offers_exactly_the_engine_packages():
    assert rules_modules() == tuple(sorted(engines()))
    assert {p.name for p in RULES.iterdir() if (p / "__init__.py").is_file()} == set(
        rules_modules())
    for name, engine in engines().items():
        assert rules.load(name) is engine


def test_a_module_that_is_not_an_engine_does_not_load():
    with pytest.raises(ImportError, match=r"not a rules engine: it has no .*verify"):
        rules.load("base")


def _compatible(protocol: Callable[..., Any], implementation: Callable[..., Any]) -> list[str]:
    """How ``implementation`` (a module function) breaks the protocol method's signature:
    the same parameters in the same order and kinds; a default where the protocol has one
    (it may add defaults, never drop them)."""
    wanted = list(inspect.signature(protocol).parameters.values())[1:]  # without self
    found = list(inspect.signature(implementation).parameters.values())
    problems = []
    if [(p.name, p.kind) for p in wanted] != [(p.name, p.kind) for p in found]:
        problems.append(f"parameters {[p.name for p in found]}, "
                        f"expected {[p.name for p in wanted]}")
    for want, have in zip(wanted, found, strict=False):
        if want.default is not inspect.Parameter.empty and have.default is inspect.Parameter.empty:
            problems.append(f"{have.name} needs a default")
    return problems


@pytest.mark.parametrize("name", sorted(engines()))
def test_every_engine_satisfies_the_protocol(name):
    engine = engines()[name]
    assert isinstance(engine, RulesEngine) and isinstance(engine, Playable)
    assert isinstance(engine.POINTS, bool)
    wrong = {}
    for protocol in (RulesEngine, HasWinners, HasCounters, HasVariants):
        if protocol is not RulesEngine and not isinstance(engine, protocol):
            continue  # an optional part the engine does not offer
        attributes = {n for cls in protocol.__mro__ for n in vars(cls).get("__annotations__", {})}
        for name in members(protocol):
            if name in attributes:
                continue
            problems = _compatible(getattr(protocol, name), getattr(engine, name))
            if problems:
                wrong[name] = problems
    assert not wrong, wrong


def test_the_protocol_names_what_the_callers_use():
    """verify and examples for the build, the play loop for the simulator and playouts."""
    assert members(RulesEngine) == sorted(set(members(Playable)) | {"verify", "examples",
                                                                    "__name__"})
    assert {"new_game", "legal_actions", "apply", "is_over", "scores", "outcome",
            "greedy_action", "clone", "current_player", "POINTS"} == set(members(Playable))


@pytest.mark.skipif(shutil.which("mypy", path=str(Path(sys.executable).parent)) is None,
                    reason="mypy is not installed in this environment")
def test_mypy_finds_the_rules_layer_and_its_protocol_clean():
    """Each engine package against ``RulesEngine`` (``engines`` above), statically."""
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent))
    # No incremental cache: a cached pass can miss a module that no longer fits a protocol.
    done = subprocess.run([str(mypy), "--no-incremental", "--check-untyped-defs",
                           "--follow-imports=silent", "generator/rules", __file__],
                          cwd=paths.ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
