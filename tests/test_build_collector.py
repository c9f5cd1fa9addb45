"""`pnp build` runs with Python's cyclic garbage collector paused (cli.collector_paused): it
walked the build's young objects again and again, 8 to 10% of a warm build's CPU. The pause
covers the whole build, workers included, and the collector is as it was afterwards, even
when the build fails."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.frontends import app, cli
from generator.orchestration.parallel import Built


@pytest.fixture
def seen(monkeypatch) -> list[bool]:
    """Whether the collector was on, each time a (stand-in) game was built."""
    states: list[bool] = []

    def build_many(games: list[str], opts: Any, jobs: int | None) -> Iterator[Built]:
        for game in games:
            states.append(gc.isenabled())
            if game == "broken":
                raise app.InputError("no such game: broken")
            yield Built(game, Path(f"/nowhere/{game}.pdf"), 1, 0)

    monkeypatch.setattr(app, "build_many", build_many)
    monkeypatch.setattr(app, "games", lambda named, out: list(named))
    return states


def test_the_collector_is_paused_while_building(seen, tmp_path, capsys):
    assert gc.isenabled()
    assert cli.main(["build", "moving-target", "monster-day", "--out", str(tmp_path)]) == 0
    assert seen == [False, False]
    assert gc.isenabled()
    assert "monster-day: 1 pages" in capsys.readouterr().out


def test_a_failed_build_turns_it_back_on(seen, tmp_path, capsys):
    assert cli.main(["build", "broken", "--out", str(tmp_path)]) == 2
    assert seen == [False]
    assert gc.isenabled()
    assert "no such game" in capsys.readouterr().err


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    try:
        with cli.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
