"""`pnp build` runs with Python's cyclic garbage collector eased (cli.collector_eased): at the
default thresholds it walked the build's young objects again and again, 8 to 10% of a warm
build's CPU. The collector stays on, so cyclic garbage stays bounded; the thresholds cover
the whole command (its notes, the build, the workers it forks) and are as they were
afterwards, even when the build fails."""
from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.frontends import app, cli
from generator.orchestration.parallel import Built


@pytest.fixture
def seen(monkeypatch) -> list[tuple[bool, tuple[int, int, int]]]:
    """The collector's state (on, thresholds) each time a (stand-in) game was built."""
    states: list[tuple[bool, tuple[int, int, int]]] = []

    def build_many(games: list[str], opts: Any, jobs: int | None) -> Iterator[Built]:
        for game in games:
            states.append((gc.isenabled(), gc.get_threshold()))
            if game == "broken":
                raise app.InputError("no such game: broken")
            yield Built(game, Path(f"/nowhere/{game}.pdf"), 1, 0)

    monkeypatch.setattr(app, "build_many", build_many)
    monkeypatch.setattr(app, "games", lambda named, out: list(named))
    return states


def test_the_collector_is_eased_while_building(seen, tmp_path, capsys):
    before = gc.get_threshold()
    assert before != cli.BUILD_THRESHOLDS
    assert cli.main(["build", "moving-target", "monster-day", "--out", str(tmp_path)]) == 0
    assert seen == [(True, cli.BUILD_THRESHOLDS)] * 2
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0  # what the build froze is collectable again
    assert "monster-day: 1 pages" in capsys.readouterr().out


def test_a_failed_build_puts_it_back(seen, tmp_path, capsys):
    before = gc.get_threshold()
    assert cli.main(["build", "broken", "--out", str(tmp_path)]) == 2
    assert seen == [(True, cli.BUILD_THRESHOLDS)]
    assert gc.get_threshold() == before
    assert "no such game" in capsys.readouterr().err


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_cyclic_garbage_is_collected_while_eased():
    """Why eased and not off: cycles a project's code drops are freed during the build."""
    with cli.collector_eased():
        first = Node()
        gone = weakref.ref(first)
        del first
        for _ in range(cli.BUILD_THRESHOLDS[0] * 3):
            Node()
        assert gone() is None
