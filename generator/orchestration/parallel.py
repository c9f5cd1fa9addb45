"""Several games built at once, one worker process per core, reported in the order named.

Why processes: a build is pure-Python CPU work (templates, layout, ReportLab), so threads
would take turns on one core. Why ``fork``: a forked worker starts with every module the
parent already imported (about 0.4 s of a build's start) and the data files it already
parsed while checking the game names, so a worker costs milliseconds to start. The parent
builds too, so ``--jobs 2`` is two processes, not an idle parent holding its memory beside
two workers. Games are taken in turn from a shared counter, so one slow game does not hold
up the others. Where fork is unavailable (Windows) or only one game or one core is at hand,
games are built one after another in this process, exactly as before.

Each game's build is independent (its own output folder, lock and temporary files), and a
game built in a worker is byte-identical to one built alone (tests/test_parallel_build.py).
Results come back in the order the games were named, so the printed report and the first
error are the same as a one-by-one build's; a failure is forwarded as the text the command
line prints (errors.ForwardedError), since not every exception survives pickling.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.core.errors import ForwardedError, reported

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
    from generator.core import children

    try:
        return children.context("fork")
    except ValueError:  # Windows
        return None


def build_one(build: Callable[[str, Any], tuple[Path, int]], game_id: str, opts: Any) -> Built:
    """Build one game, counting what it printed untranslated (in this process)."""
    from generator.data.translation import i18n

    with i18n.collect() as missing:
        target, pages = build(game_id, opts)
    return Built(game_id, target, pages, len(missing))


Outcome = Built | ForwardedError


def _attempt(build: Callable[[str, Any], tuple[Path, int]], game_id: str,
             opts: Any) -> Outcome:
    """build_one, an expected failure returned as the text the command line prints; a bug
    is raised (in a worker it becomes a BuildCrashed in the parent, with its traceback)."""
    try:
        return build_one(build, game_id, opts)
    except Exception as exc:
        report = reported(exc)
        if report is None:
            raise
        return ForwardedError(*report)


class BuildCrashed(RuntimeError):
    """A worker failed with a bug (not a data error) or died: its traceback or exit code."""


class _Shared:
    """What the processes of one parallel build share: the index of the next game to take
    (under its lock, so each game is built once) and the queue of workers' outcomes."""

    def __init__(self, context: Any, games: int) -> None:
        self.next = context.Value("i", 0)
        self.games = games
        self.outcomes = context.Queue()

    def take(self) -> int | None:
        with self.next.get_lock():
            index = self.next.value
            if index >= self.games:
                return None
            self.next.value = index + 1
            return index

    def stop(self) -> None:
        """No game is taken after this one (a failure: the rest would not be printed)."""
        with self.next.get_lock():
            self.next.value = self.games


def _worker(build: Callable[[str, Any], tuple[Path, int]], game_ids: Sequence[str],
            opts: Any, shared: _Shared) -> None:
    """A forked worker: take games until none are left, send each outcome to the parent."""
    import traceback

    try:
        while (index := shared.take()) is not None:
            try:
                outcome: Outcome | str = _attempt(build, game_ids[index], opts)
            except Exception:
                outcome = traceback.format_exc()
                shared.stop()
            if isinstance(outcome, ForwardedError):
                shared.stop()
            shared.outcomes.put((index, outcome))
    except KeyboardInterrupt:  # Ctrl-C reaches every process: the parent reports it
        pass


def build_games(build: Callable[[str, Any], tuple[Path, int]], game_ids: Sequence[str],
                opts: Any, jobs: int | None = None) -> Iterator[Built]:
    """Each game's Built, in the order named; the first failure (in that order) is raised
    after the games before it have been yielded. With ``jobs`` > 1, ``jobs - 1`` forked
    workers and this process take the games in turn from a shared counter (so a slow game
    does not hold up the rest, and no idle parent holds memory while workers build)."""
    jobs = default_jobs(len(game_ids)) if jobs is None else max(1, min(jobs, len(game_ids)))
    context = _fork_context() if jobs > 1 else None
    if context is None:
        for game_id in game_ids:
            yield build_one(build, game_id, opts)
        return
    shared = _Shared(context, len(game_ids))
    workers = [context.Process(target=_worker, args=(build, game_ids, opts, shared),
                               daemon=True) for _ in range(jobs - 1)]
    for worker in workers:
        worker.start()
    outcomes: dict[int, Outcome | str] = {}
    shown = 0
    try:
        while shown < len(game_ids):
            if (index := shared.take()) is not None:  # this process builds one too
                outcomes[index] = _attempt(build, game_ids[index], opts)
                if isinstance(outcomes[index], ForwardedError):
                    shared.stop()
            _collect(shared, workers, outcomes, wait=index is None)
            while shown in outcomes:
                outcome = outcomes.pop(shown)
                if isinstance(outcome, str):
                    raise BuildCrashed(f"{game_ids[shown]}: the build failed in a worker:\n"
                                       f"{outcome}")
                if isinstance(outcome, ForwardedError):
                    raise outcome
                yield outcome
                shown += 1
    finally:
        shared.stop()
        for worker in workers:
            worker.join(timeout=5)
            if worker.is_alive():
                worker.terminate()


def _collect(shared: _Shared, workers: list[Any], outcomes: dict[int, Outcome | str],
             wait: bool) -> None:
    """Move the workers' finished outcomes into ``outcomes``; with ``wait``, block for at
    least one, noticing a worker that died without sending one."""
    import queue

    while True:
        try:
            index, outcome = shared.outcomes.get(timeout=0.2) if wait else \
                shared.outcomes.get_nowait()
        except queue.Empty:
            if not wait:
                return
            if not any(w.is_alive() for w in workers):
                codes = ", ".join(str(w.exitcode) for w in workers)
                raise BuildCrashed(f"a build worker stopped without finishing (exit "
                                   f"{codes})") from None
            continue
        outcomes[index] = outcome
        wait = False
