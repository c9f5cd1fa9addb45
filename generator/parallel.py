"""Several games built at once, one worker process per core, reported in the order named.

Why processes: a build is pure-Python CPU work (templates, layout, ReportLab), so threads
would take turns on one core. Why ``fork``: a forked worker starts with every module the
parent already imported (about 0.4 s of a build's start) and the data files it already
parsed while checking the game names, so a worker costs milliseconds to start. Where fork
is unavailable (Windows) or only one game or one core is at hand, games are built one after
another in this process, exactly as before.

Each game's build is independent (its own output folder, lock and temporary files), and a
game built in a worker is byte-identical to one built alone (tests/test_parallel_build.py).
Results come back in the order the games were named, so the printed report and the first
error are the same as a one-by-one build's; a failure is forwarded as the text the command
line prints (errors.ForwardedError), since not every exception survives pickling.
"""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ForwardedError, reported

MAX_JOBS = 8  # beyond this, memory grows faster than the build gets quicker


@dataclass(frozen=True)
class Built:
    """One game's finished build: its PDF, page count and the texts left untranslated."""

    game_id: str
    target: Path
    pages: int
    untranslated: int


def default_jobs(games: int) -> int:
    """One worker per core this process may use, never more than there are games."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(games, cores, MAX_JOBS))


def _fork_context() -> Any:
    try:
        return multiprocessing.get_context("fork")
    except ValueError:  # Windows
        return None


def build_one(build: Callable[[str, Any], tuple[Path, int]], game_id: str, opts: Any) -> Built:
    """Build one game, counting what it printed untranslated (in this process)."""
    from . import i18n

    with i18n.collect() as missing:
        target, pages = build(game_id, opts)
    return Built(game_id, target, pages, len(missing))


def _in_worker(build: Callable[[str, Any], tuple[Path, int]], game_id: str, opts: Any) -> Built:
    """build_one in a worker: an expected failure comes back as the text to print."""
    try:
        return build_one(build, game_id, opts)
    except Exception as exc:  # forwarded, then raised in the parent
        report = reported(exc)
        if report is None:
            raise  # a bug: its traceback travels with concurrent.futures' wrapper
        raise ForwardedError(*report) from None


def build_games(build: Callable[[str, Any], tuple[Path, int]], game_ids: Sequence[str],
                opts: Any, jobs: int | None = None) -> Iterator[Built]:
    """Each game's Built, in the order named; the first failure (in that order) is raised
    after the games before it have been yielded."""
    jobs = default_jobs(len(game_ids)) if jobs is None else max(1, min(jobs, len(game_ids)))
    context = _fork_context()
    if jobs <= 1 or context is None:
        for game_id in game_ids:
            yield build_one(build, game_id, opts)
        return
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures: list[Future[Built]] = [pool.submit(_in_worker, build, g, opts)
                                        for g in game_ids]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()
