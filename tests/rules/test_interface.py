"""Every rules engine is a package whose ``__init__`` satisfies ``base.RulesEngine``: attributes
present, signatures as the protocol states them (at run time here, statically by `make test`'s
mypy step). That generator/rules/ imports go one way (no cycle, no private name, nothing from
the orchestration or front-end layers) is held by tests/test_architecture.py."""
from __future__ import annotations

import inspect
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator import rules
from generator.core import paths
from generator.data.tables.loader import rules_modules
from generator.rules import decktet_moving_day, movement_game, moving_day_boxes, moving_target
from generator.rules.base import (
    HasCounters,
    HasVariants,
    HasWinners,
    Playable,
    RulesEngine,
    members,
)
from generator.rules.guard import Guarded

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


def starter_engine(folder: Path) -> RulesEngine:
    """The starter's rules.py (``pnp init --engine``), loaded by the one loader from a trusted
    project folder: the guarded engine every caller gets."""
    from generator.core import trust
    from generator.data import load_game
    from generator.data.files import project

    project.init_project(folder, engine=True)
    with trust.for_run([folder]):
        found = rules.engine(load_game(str(folder)))
    assert found is not None
    return found


@pytest.mark.parametrize("name", [*sorted(engines()), "starter"])
def test_every_engine_satisfies_the_protocol(name, tmp_path):
    """The built-in engines, and the starter's rules.py: the module as written (its hooks'
    signatures) and as the loader hands it out (``guard.Guarded``)."""
    if name == "starter":
        guarded = starter_engine(tmp_path / "g")
        assert isinstance(guarded, RulesEngine) and isinstance(guarded, Playable)
        assert isinstance(guarded, Guarded)
        engine: Any = guarded.module
        assert set(members(RulesEngine)) - {"__name__"} <= set(vars(engine))
    else:
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


def test_make_tests_mypy_run_checks_each_engine_against_the_protocol():
    """``engines`` above types each engine package as a ``RulesEngine``; mypy checks that
    statically when it reads this file. `make test` runs mypy with pyproject.toml's settings
    (its own step, with its cache, rather than a second cold run inside the suite), so those
    settings must name this file and check the rules layer's untyped bodies too."""
    config = tomllib.loads((paths.ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mypy = config["tool"]["mypy"]
    assert "tests/rules/test_interface.py" in mypy["files"] and "generator" in mypy["files"]
    checked = {module for override in mypy.get("overrides", ())
               if override.get("check_untyped_defs") for module in override["module"]}
    assert {"generator.rules.*", "tests.rules.test_interface"} <= checked
    makefile = (paths.ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("\ntest: "):].split("\n\n")[0]
    assert "$(VENV)/bin/mypy\n" in recipe
