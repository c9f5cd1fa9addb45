"""Seeded playouts of any rules module, and the report a designer reads from them.

Game ``i`` of a run is seeded from ``(seed, i)`` alone, and its results are gathered back in
index order, so a run gives the same report whatever the number of worker processes. Work is
split into contiguous chunks, one per job, to keep inter-process traffic to one list per chunk.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import statistics
import threading
import time
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from generator import rules
from generator.core import children
from generator.core.words import said
from generator.data.translation.i18n import message
from generator.rules import guard
from generator.rules.base import HasVariants, RulesEngine
from generator.rules.guard import Guarded, replay_check
from generator.rules.play import (
    POLICIES,
    GameResult,
    Interrupted,
    game_seed,
    play_one,
    seat_wins,
)
from generator.rules.stats import (
    FairShare,
    SeatTest,
    Spread,
    describe_fair_shares,
    describe_seats,
    fair_shares,
    mean_interval,
    percent,
    rate_with_interval,
    seat_test,
    spread,
    wilson_interval,
)

DEFAULT_MAX_TURNS = 500


@dataclass
class Report:
    game: str
    players: int
    policy: str
    n: int
    seed: int
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0
    points: bool = False
    max_turns: int = DEFAULT_MAX_TURNS  # a game still running at this turn is a stall

    @property
    def lengths(self) -> list[int]:
        return [r.turns for r in self.results]

    def count(self, outcome: str) -> int:
        return sum(r.outcome == outcome for r in self.results)

    def seat_wins(self) -> list[float]:
        """Wins per seat; a shared first place counts as a fraction for each seat in it."""
        return seat_wins(self.results, self.players)

    def mean_scores(self) -> list[float]:
        return [statistics.fmean(r.scores[s] for r in self.results) for s in range(self.players)]

    def win_intervals(self) -> list[tuple[float, float, float]]:
        """(rate, low, high) per seat: share of all games won, with its 95 % Wilson interval.
        The text report and the chart's error bars both read these, so they always agree."""
        return [_rate(w, self.n) for w in self.seat_wins()]

    def outcome_interval(self, *outcomes: str) -> tuple[float, float, float]:
        """(rate, low, high) of games ending in any of ``outcomes`` (e.g. "draw", "stall")."""
        return _rate(sum(self.count(o) for o in outcomes), self.n)

    def score_intervals(self) -> list[tuple[float, float, float]]:
        """(mean, low, high) score per seat, a 95 % interval for each mean."""
        return [mean_interval([r.scores[s] for r in self.results]) for s in range(self.players)]

    def seat_test(self) -> SeatTest:
        """Chi-square test of the seats' wins against equal chances (see rules/stats.py)."""
        return seat_test(self.seat_wins())

    def fair_shares(self) -> list[FairShare]:
        """Each seat's share of the won games against 1/players (see rules/stats.py)."""
        return fair_shares(self.seat_wins())

    def steps(self) -> int:
        """Steps (actions) played in all, when the run counted choices (else 0)."""
        return sum(r.choices[0] for r in self.results if r.choices)

    def decisions(self) -> Spread:
        """Legal actions at each step that offered more than one (mean, spread, most), over
        every game of the run: how much choice a player has when there is one."""
        counted = [r.choices for r in self.results if r.choices]
        return spread(sum(c[1] for c in counted), sum(c[2] for c in counted),
                      sum(c[3] for c in counted), max((c[4] for c in counted), default=0))

    def length_interval(self) -> tuple[float, float, float]:
        """(mean, low, high) game length in turns, a 95 % interval for the mean."""
        return mean_interval([float(t) for t in self.lengths] or [0.0])

    def extras(self) -> dict[str, float]:
        """Each module counter averaged per game."""
        totals: Counter[str] = Counter()
        for r in self.results:
            totals.update(dict(r.extra))
        return {k: v / max(1, self.n) for k, v in sorted(totals.items())}


def _rate(successes: float, n: int) -> tuple[float, float, float]:
    low, high = wilson_interval(successes, n)
    return (successes / n if n else 0.0), low, high


def other_policy(policy: str) -> str:
    """The policy a comparison plays against ``policy`` (random against greedy)."""
    return POLICIES[1 - POLICIES.index(policy)]


def no_engine(game_id: str) -> str:
    """What ``simulate`` says of a game whose data file names no rules module: only a rules
    module can play the game, declarative checks cannot."""
    return f"{game_id} has no play engine (no `rules:` module); nothing to simulate"


def unplayable(game: Any, lang: str = "en") -> str | None:
    """Why the game cannot be simulated here, in one line (no engine; a project's own engine
    in a folder not trusted: its code is not run), or None when it can."""
    if rules.engine(game, skip_untrusted=True) is not None:
        return None
    own = rules.project_engine(game)
    if own is not None:
        return rules.trust_message("trust.skipped", own, lang)
    return no_engine(game.id)


def engine(game: Any) -> RulesEngine | None:
    """The game's play engine (its rules module), or None: see ``no_engine``. A project's own
    engine in a folder not trusted is ``rules.Untrusted``: simulating is running its code."""
    return rules.engine(game)


INTERRUPT_GRACE_S = 5.0  # after Ctrl-C, how long the workers may take to say where they were


def _watched(module: RulesEngine, policy: str, variant: str) -> None:
    """A project's engine told how its games are played (so a fault's replay hint plays the
    same game), and each of its calls held to a budget of lines (``guard.CALL_BUDGET``:
    a call that never returns is stopped and named, not waited for)."""
    if isinstance(module, Guarded):
        module.policy, module.variant, module.budget = policy, variant, guard.CALL_BUDGET


def _quiet() -> None:
    """A worker between chunks ignores Ctrl-C (the command reports it once); ``_chunk``
    listens while it plays, so the game being played says where it stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunk(args: tuple[str | rules.ProjectEngine, int, int, int, int, str, int, Any, str]
           ) -> list[GameResult]:
    module_name, players, seed, start, stop, policy, max_turns, data, variant = args
    module = rules.load(module_name)  # a project's engine: trusted again in the worker
    _watched(module, policy, variant)
    # a child process (a pool's worker, the studio's play) listens to Ctrl-C while it plays,
    # and goes back to what it did before after (a worker: ignoring it); only the main thread
    # may set a handler
    listen = (multiprocessing.parent_process() is not None
              and threading.current_thread() is threading.main_thread())
    before = signal.getsignal(signal.SIGINT)
    if listen:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return [play_one(module, players, game_seed(seed, i), policy, max_turns, data,
                         count_choices=True) for i in range(start, stop)]
    finally:
        if listen:
            signal.signal(signal.SIGINT, before if before is not None else signal.SIG_DFL)


def _stopped(futures: list[Future[list[GameResult]]]) -> KeyboardInterrupt:
    """Ctrl-C while workers play: each worker was interrupted too (one process group) and
    says which game and hook it stopped in; their words, one line (or a plain interrupt when
    none answers within ``INTERRUPT_GRACE_S``: a grace for the report, not a limit on play)."""
    wait(futures, timeout=INTERRUPT_GRACE_S)
    said_ = [str(f.exception()) for f in futures
             if f.done() and not f.cancelled() and isinstance(f.exception(), Interrupted)]
    for future in futures:
        future.cancel()
    return Interrupted("; ".join(said_)) if said_ else KeyboardInterrupt()


def run(module: RulesEngine, players: int, n: int, seed: int = 1, jobs: int | None = 1,
        policy: str = "random", max_turns: int = DEFAULT_MAX_TURNS,
        data: Mapping[str, Any] | None = None, game: str = "", variant: str = "") -> Report:
    """Play ``n`` seeded games; ``jobs`` worker processes (None: one per core). ``variant``
    names the set-up ``data`` is (``HasVariants``), for a fault's replay hint."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {said(policy)}")
    if n < 1:
        raise ValueError(f"n (games to play) must be at least 1, not {n}")
    if jobs is not None and jobs < 0:
        raise ValueError(f"jobs must be at least 1 (or 0/None: one per core), not {jobs}")
    jobs = max(1, min(jobs or os.cpu_count() or 1, n))
    name = module.__name__.rsplit(".", 1)[-1]
    plain = dict(data) if data is not None else None
    bounds = [(n * k // jobs, n * (k + 1) // jobs) for k in range(jobs)]
    tasks = [(rules.ref(module), players, seed, a, b, policy, max_turns, plain, variant)
             for a, b in bounds]
    started = time.perf_counter()
    _watched(module, policy, variant)
    if isinstance(module, Guarded):  # a project's engine: the first seed played twice
        replay_check(module, players, game_seed(seed, 0), policy, max_turns, plain)
    if jobs == 1:
        results = _chunk(tasks[0])
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=children.context(),
                                 initializer=_quiet) as pool:
            futures = [pool.submit(_chunk, task) for task in tasks]
            try:
                results = [r for future in futures for r in future.result()]
            except KeyboardInterrupt:
                raise _stopped(futures) from None
    seconds = time.perf_counter() - started
    if isinstance(module, Guarded) and all(r.outcome == "stall" for r in results):
        raise module.endless(game_seed(seed, 0), max_turns)
    return Report(game or name, players, policy, n, seed, results, seconds,
                  bool(module.POINTS), max_turns)


def setups(module: RulesEngine, data: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The game's set-ups, (name, data) pairs: one per board for games offering
    ``variants(data)``, else the one set-up ``("", data)``."""
    return list(module.variants(data)) if isinstance(module, HasVariants) else [("", data)]


def run_variants(module: RulesEngine, title: str, data: Mapping[str, Any], players: int,
                 only: str | None = None, **run_options: Any) -> list[tuple[str, Report]]:
    """Run every set-up of a game (``setups``), or the one named ``only``.
    Returns (file-name suffix, report) pairs: ``""`` or e.g. ``"-lattice"``. A player count
    the game refuses (``new_game`` raises ValueError) gives no reports."""
    from generator.orchestration.export import slug

    try:
        module.new_game(players, 0, data)
    except ValueError:
        return []
    out = []
    for variant, setup in setups(module, data):
        if only is not None and variant != only:
            continue
        name = f"{title} ({variant})" if variant else title
        report = run(module, players, data=setup, game=name, variant=variant, **run_options)
        suffix = f"-{slug(variant)}" if variant else ""
        out.append((suffix, report))
    return out


def replay(module: RulesEngine, players: int, seed: int, policy: str,
           data: Mapping[str, Any], variant: str = "",
           max_turns: int = DEFAULT_MAX_TURNS) -> str:
    """Play the one game of game seed ``seed`` (a fault's replay hint: ``pnp simulate
    --replay``) as a simulation plays it, in this process: a project's engine played twice
    and compared, under the same budget, so a fault comes out as it did in the run. One
    line of what happened when there is no fault."""
    _watched(module, policy, variant)
    if isinstance(module, Guarded):
        result = replay_check(module, players, seed, policy, max_turns, data)
        if result.outcome == "stall":
            raise module.endless(seed, max_turns)
    else:
        result = play_one(module, players, seed, policy, max_turns, data)
    winners = ", ".join(str(s + 1) for s in result.winners)
    return (f"game seed {seed} ({policy} policy): {result.turns} turns, {result.outcome}"
            + (f" (seat {winners})" if winners else "")
            + ", scores " + ", ".join(f"{v:g}" for v in result.scores))


def _length_line(lengths: list[int]) -> str:
    if min(lengths) == max(lengths):
        return f"length (turns): every game lasted {lengths[0]} turns"
    quart = statistics.quantiles(lengths, n=4) if len(lengths) > 1 else [lengths[0]] * 3
    return (f"length (turns): mean {statistics.fmean(lengths):.1f}, median {quart[1]:g}, "
            f"quartiles {quart[0]:g}-{quart[2]:g}, min {min(lengths)}, max {max(lengths)}")


def format_report(report: Report) -> str:
    """The text a designer reads: every rate with its 95 % interval, and whether the seats'
    differences are more than the noise of ``n`` random games."""
    n = max(1, report.n)
    lines = [
        f"games: {report.n} ({report.policy} policy, seed {report.seed}"
        + (f", {report.n / report.seconds:,.0f} games/s)" if report.seconds > 0 else ")"),
        _length_line(report.lengths or [0]),
        f"outcomes: {report.count('win')} won, {report.count('draw')} drawn, "
        f"{report.count('stall')} stalled (turn limit)",
        "seat win rate (95 % Wilson interval):",
    ]
    lines += [f"  seat {s + 1}: {rate_with_interval(w, n)}"
              for s, w in enumerate(report.seat_wins())]
    lines.append(f"  draws: {rate_with_interval(report.count('draw'), n)}, "
                 f"stalls: {rate_with_interval(report.count('stall'), n)}")
    lines.append(describe_seats(report.seat_test(), report.n))
    if report.points:
        lines.append("mean score (95 % interval): " + ", ".join(
            f"seat {s + 1} {m:.2f} ({lo:.2f}-{hi:.2f})"
            for s, (m, lo, hi) in enumerate(report.score_intervals())))
    extras = report.extras()
    if extras:
        lines.append("per game: " + ", ".join(f"{k} {v:.2f}" for k, v in extras.items()))
    return "\n".join(lines + balance_lines(report))


def balance_lines(report: Report) -> list[str]:
    """What a designer reads after the figures above (added after them, so those stay as
    they were): which seat's interval leaves out its fair share, how much choice a turn
    offers, how often the turn limit cut a game short. Words: messages' ``balance.*``."""
    lines = describe_fair_shares(report.fair_shares())
    steps = report.steps()
    if steps:
        choice = report.decisions()
        if choice.n:
            lines.append(message("balance.decisions", decided=choice.n, steps=steps,
                                 share=percent(choice.n / steps), mean=f"{choice.mean:.1f}",
                                 sd=f"{choice.sd:.1f}", most=choice.most))
        else:
            lines.append(message("balance.no_decisions", steps=steps))
    stalls = report.count("stall")
    if stalls:
        lines.append(message("balance.turn_limit", count=stalls, n=report.n,
                             rate=rate_with_interval(stalls, report.n),
                             limit=report.max_turns))
    else:
        lines.append(message("balance.no_turn_limit", limit=report.max_turns))
    return lines


def compare_policies(first: Report, second: Report) -> str:
    """Two runs of the same set-up under two policies (random against greedy), side by
    side: each seat's win rate, draws and stalls, game length and choice, then in words
    whether a seat's rate moved more than noise (its two 95 % intervals do not overlap: a
    cautious reading, so a difference it names is a real one)."""
    def mean_text(interval: tuple[float, float, float]) -> str:
        mean, low, high = interval
        return f"{mean:.1f} ({low:.1f}-{high:.1f})"

    lines = [message("balance.compare", a=first.policy, b=second.policy, n=first.n)]
    moved = []
    for seat, (a, b) in enumerate(zip(first.win_intervals(), second.win_intervals(),
                                      strict=True)):
        lines.append("  " + message("balance.compare_seat", seat=seat + 1,
                                    a=rate_with_interval(a[0] * first.n, first.n),
                                    b=rate_with_interval(b[0] * second.n, second.n)))
        if a[1] > b[2] or b[1] > a[2]:
            moved.append(message("balance.compare_differs", seat=seat + 1,
                                 policy=first.policy if a[0] > b[0] else second.policy))
    lines.append("  " + message(
        "balance.compare_other",
        a=rate_with_interval(first.count("draw") + first.count("stall"), first.n),
        b=rate_with_interval(second.count("draw") + second.count("stall"), second.n)))
    lines.append("  " + message("balance.compare_length", a=mean_text(first.length_interval()),
                                b=mean_text(second.length_interval())))
    if first.steps() and second.steps():
        lines.append("  " + message("balance.compare_decisions",
                                    a=f"{first.decisions().mean:.1f}",
                                    b=f"{second.decisions().mean:.1f}"))
    return "\n".join(lines + (moved or [message("balance.compare_same")]))

