"""A project's own rules engine, watched: its faults are one message, never a traceback.

A designer's ``rules.py`` (loaded by generator/rules/__init__.py, only in a trusted folder) is
handed out wrapped in ``Guarded``, which calls the same hooks and checks what comes back:

- an exception in any hook is ``EngineFault`` naming the project's file and the line of the
  deepest frame in it, the hook, the error, and the game seed (and player count) that
  reproduces it: ``new_game(players, seed)`` replays the very game;
- an illegal action (``greedy_action`` choosing one that ``legal_actions`` does not list), no
  legal action in a game that is not over, scores of the wrong length, an outcome that is not
  "win" or "draw", a state without a whole-number ``turn``: the same;
- an endless game: ``STALL_ACTIONS`` actions in a row without ``state.turn`` moving (a count
  of actions, never the wall clock, so the same engine fails at the same action on every
  machine), or, in ``simulate``, no game of a run ending within the turn limit;
- non-determinism: ``replay_check`` plays one seed twice and compares every step.

Built-in engines are not wrapped: they are our code, tested, and run at full speed. The
optional hooks a project engine may leave out get the defaults listed in ``base.OPTIONAL``.
"""
from __future__ import annotations

import copy
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, ModuleType, TracebackType
from typing import TYPE_CHECKING, Any

from generator.core.errors import DataError
from generator.core.findings import Finding

from .play import GameResult, Interrupted, play_one

if TYPE_CHECKING:
    from generator.core.model import Game

    from .base import PrintedKit

STALL_ACTIONS = 10_000  # actions in a row without state.turn moving: the game never ends
# Lines of the engine's own code one hook call may run while a simulation plays: a call past
# it never returns (``Guarded._budgeted``). Generous: the starter's hooks run tens of lines a
# call, a greedy policy looking two moves ahead some thousands; traced, this is some seconds.
CALL_BUDGET = 20_000_000
SHOWN = 200  # characters of an engine's own error text quoted in a message


@dataclass(frozen=True)
class ProjectEngine:
    """Where a project's own engine is: picklable, so a simulation's worker processes load
    the very engine (and ask the same trust) the command did."""

    folder: Path  # the project folder as the user named it: what trust is asked of
    file: Path    # resolved: the module, or the package's __init__.py
    shown: str    # as the data file writes it: "rules.py"

    @property
    def root(self) -> Path:
        """What belongs to the engine: its package folder, or its module's folder."""
        return self.file.parent

    @property
    def named(self) -> str:
        """The engine's file as a designer finds it: ``mygame/rules.py``."""
        return str(self.folder / self.shown.rstrip("/"))


class OverBudget(BaseException):
    """Raised by the trace function of ``Guarded._budgeted`` in the engine's own frame: a
    BaseException, so an engine's ``except Exception`` cannot swallow it and loop on."""

    def __init__(self, budget: int) -> None:
        super().__init__(budget)
        self.budget = budget


class EngineFault(DataError):
    """A project engine's fault: ``file:line: hook: what happened (game seed ...)``; exit 2."""

    def __reduce__(self) -> tuple[type, tuple[str, int | None, str, str]]:
        return (EngineFault, (self.file, self.line, self.field, self.expected))

    @classmethod
    def of(cls, where: ProjectEngine, hook: str, exc: BaseException,
           replay: str = "") -> EngineFault:
        """The fault of ``exc`` raised in ``hook``, at the deepest line of the engine's own
        files in its traceback."""
        line = _line_in(where, exc.__traceback__)
        if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:  # never ran: no frame
            line = _shown(where, exc.filename), exc.lineno
            exc = SyntaxError(exc.msg)
        file = line[0] if line else where.named
        text = _plain(str(exc))
        what = f"raised {type(exc).__name__}" + (f": {text}" if text else "")
        return cls(file, line[1] if line else None, hook, what + replay)


def _plain(text: str) -> str:
    """An engine's own error text, one line, printable, short."""
    text = "".join(c if c.isprintable() else " " for c in text).strip()
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def replay_command(where: ProjectEngine, players: int, seed: int, policy: str = "random",
                   variant: str = "") -> str:
    """The command that plays game ``seed`` again as the simulation played it: the project's
    folder, the player count, the set-up (``variant``), the policy and the game's own seed
    (``pnp simulate --replay``: one game, in this process). ``--trust`` when the folder was
    trusted for the one run that found the fault: without it the replay would be refused."""
    import shlex

    from generator.core import trust

    words = ["pnp", "simulate", str(where.folder), "--players", str(players)]
    if variant:
        words += ["--variant", variant]
    if policy != "random":
        words += ["--policy", policy]
    words += ["--replay", str(seed)]
    if trust.for_this_run(where.folder):
        words.append("--trust")
    return " ".join(shlex.quote(w) for w in words)


def _line_in(where: ProjectEngine, tb: TracebackType | None) -> tuple[str, int] | None:
    """The engine's file and line deepest in ``tb``, as the designer names the file."""
    root = os.path.realpath(where.root)
    found = None
    while tb is not None:
        name = os.path.realpath(tb.tb_frame.f_code.co_filename)
        if name == root or name.startswith(root + os.sep):
            found = (_shown(where, name), tb.tb_lineno)
        tb = tb.tb_next
    return found


def _shown(where: ProjectEngine, file: str) -> str:
    """A file of the engine as the designer names it: ``mygame/engine/board.py``."""
    real = os.path.realpath(file)
    return os.path.join(str(where.folder), os.path.relpath(real, where.folder.resolve()))


class Guarded:
    """A project engine module, its hooks called through checks (see the module docstring).
    Satisfies ``base.RulesEngine``; offers ``winners``, ``counters`` and ``variants`` when the
    module does (so ``isinstance(engine, HasWinners)`` is the module's answer)."""

    __name__: str

    def __init__(self, module: ModuleType, where: ProjectEngine) -> None:
        self.module = module
        self.where = where
        self.__name__ = module.__name__
        points = getattr(module, "POINTS", False)
        self.POINTS = points if isinstance(points, bool) else bool(points)
        self.seed: int | None = None
        self.players: int | None = None
        self.policy = "random"  # how the games are played, and which set-up (``variants``):
        self.variant = ""       # set by the simulation, so a fault's replay hint plays them
        self.budget: int | None = None  # lines of engine code a call may run (``_budgeted``)
        self.hook: str | None = None  # the hook being called: what Ctrl-C stopped
        self._left = [0]  # lines the call being made may still run
        self._tracer: Callable[[FrameType, str, Any], Any] | None = None
        self._turn: Any = None
        self._still = 0
        self.trace: list[Any] | None = None  # replay_check's record of every step
        for optional in ("winners", "counters", "variants"):
            hook = getattr(module, optional, None)
            if callable(hook):
                setattr(self, optional, self._wrapped(optional, hook))

    # -- calling the module ----------------------------------------------------------------

    def _call(self, hook: str, fn: Callable[..., Any], *args: Any) -> Any:
        outer, self.hook = self.hook, hook
        try:
            if self.budget is not None and outer is None:
                return self._budgeted(fn, args)
            return fn(*args)
        except (EngineFault, Interrupted):
            raise
        except OverBudget as exc:
            raise self._over(hook, exc) from None
        except KeyboardInterrupt as exc:  # Ctrl-C: which game, which hook, which line
            raise self.interrupted(exc) from None
        except (Exception, SystemExit) as exc:  # SystemExit: a sys.exit() in the engine
            if isinstance(exc, ValueError) and hook in ("new_game", "examples"):
                raise  # their documented refusals (a player count, data an example lacks)
            raise EngineFault.of(self.where, hook, exc, self.replay()) from None
        finally:
            self.hook = outer

    def _budgeted(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``fn(*args)`` stopped once the engine's own code has run ``budget`` lines.

        Why lines counted by ``sys.settrace``, not a deadline: a count is the same on every
        machine and under any load, so the same engine stops at the same line of the same
        game everywhere, and a test can say exactly when. A loop that never returns runs
        lines (Python reports a line event on every jump back), so it is counted even when
        it calls nothing (a profile hook, counting calls, would never see ``while True:
        pass``). Only frames of the engine's own files are counted (the trace function
        declines every other frame, so library code runs untraced), and only while a
        simulation plays (``simulate`` sets ``budget``): build, verify and the built-in
        engines run at full speed. What it cannot see is a loop inside C code that never
        returns to Python (``sum(itertools.count())``): Ctrl-C stops that, and says where."""
        assert self.budget is not None
        if self._tracer is None:
            self._tracer = self._counter()
        self._left[0] = self.budget
        before = sys.gettrace()
        sys.settrace(self._tracer)
        try:
            return fn(*args)
        finally:
            sys.settrace(before)

    def _counter(self) -> Callable[[FrameType, str, Any], Any]:
        """The trace function of ``_budgeted``, made once per engine: it counts down
        ``_left`` on each line of the engine's own frames (which files are the engine's is
        worked out once per file name)."""
        root = os.path.realpath(self.where.root)
        mine: dict[str, bool] = {}
        left = self._left

        def line(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "line":
                left[0] -= 1
                if left[0] < 0:
                    raise OverBudget(self.budget or 0)
            return line

        def call(frame: FrameType, event: str, arg: Any) -> Any:
            name = frame.f_code.co_filename
            inside = mine.get(name)
            if inside is None:
                real = os.path.realpath(name)
                inside = mine[name] = real == root or real.startswith(root + os.sep)
            return line if inside else None

        return call

    def _over(self, hook: str, exc: OverBudget) -> EngineFault:
        """The one line of a call stopped by its budget: the line it was running."""
        found = _line_in(self.where, exc.__traceback__)
        file, line = found if found else (self.where.named, None)
        return EngineFault(file, line, hook,
                           f"did not return after {exc.budget:,} lines of the engine's code: "
                           "a loop that never ends?" + self.replay())

    def interrupted(self, exc: BaseException | None = None) -> Interrupted:
        """What Ctrl-C stopped: the game (its seed and players, and the command that replays
        it), the hook and the engine's line it was running, when it was in one."""
        where = ""
        if self.hook is not None:
            found = _line_in(self.where, exc.__traceback__) if exc is not None else None
            where = f" in {self.hook}" + (f" ({found[0]}:{found[1]})" if found else "")
        if self.seed is None:
            return Interrupted(f"{self.where.named}{where}")
        return Interrupted(f"game seed {self.seed}, {self.players} players{where}: "
                           f"{self.command()} replays it")

    def command(self) -> str:
        """The command that replays the game being played (``replay_command``)."""
        assert self.seed is not None and self.players is not None
        return replay_command(self.where, self.players, self.seed, self.policy, self.variant)

    def replay(self) -> str:
        """What a fault says of the game it happened in: its seed and players, and the
        command that replays it; nothing outside a game (a build's examples, an import)."""
        if self.seed is None or self.players is None:
            return ""
        return f" (game seed {self.seed}, {self.players} players: {self.command()} replays it)"

    def label(self, state: Any, action: Any) -> str:
        """An action as a fault names it: its index and, when the engine offers
        ``describe(state, action)``, its label (``20 "Moons 6"``). A ``describe`` that fails
        on the action (an index out of range, say) leaves the index alone: the fault being
        reported matters more than a second one in the label."""
        shown = _plain(repr(action))
        own = getattr(self.module, "describe", None)
        if not callable(own):
            return shown
        try:
            text = own(state, action)
        except Exception:
            return shown
        return f"{shown} {_plain(repr(str(text)))}" if text is not None else shown

    def _wrapped(self, hook: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        return lambda *args: self._call(hook, fn, *args)

    def fault(self, hook: str, what: str) -> EngineFault:
        """A fault found by a check (not an exception): named at the engine's file."""
        return EngineFault(self.where.named, None, hook, what + self.replay())

    # -- the interface (base.RulesEngine) --------------------------------------------------

    def new_game(self, players: int, seed: int, data: Mapping[str, Any] | None = None) -> Any:
        self.seed, self.players = seed, players
        state = self._call("new_game", self.module.new_game, players, seed, data)
        turn = getattr(state, "turn", None)
        if type(turn) is not int:
            raise self.fault("new_game", "the state it returns has no whole-number 'turn' "
                                         "(turns counted from 1: docs/engines.md)")
        self._turn, self._still = turn, 0
        if self.trace is not None:
            self.trace.append(("new_game", turn))
        return state

    def current_player(self, state: Any) -> int:
        return int(self._call("current_player", self.module.current_player, state))

    def legal_actions(self, state: Any) -> list[int]:
        found = self._call("legal_actions", self.module.legal_actions, state)
        try:
            actions = list(found)
        except TypeError:
            raise self.fault("legal_actions", f"returned {type(found).__name__}, not a list "
                                              "of whole numbers") from None
        if any(type(a) is not int for a in actions):
            raise self.fault("legal_actions", "returned something other than whole numbers")
        if not actions and not self.is_over(state):
            raise self.fault("legal_actions", "no legal action in a game that is not over "
                                              "(a forced step is a one-action list)")
        if self.trace is not None:
            self.trace.append(("legal", tuple(actions)))
        return actions

    def apply(self, state: Any, action: int) -> Any:
        after = self._call("apply", self.module.apply, state, action)
        turn = getattr(after, "turn", None)
        if type(turn) is not int:
            raise self.fault("apply", "the state it returns has no whole-number 'turn'")
        if turn == self._turn:
            self._still += 1
            if self._still >= STALL_ACTIONS:
                raise self.fault("apply", f"{STALL_ACTIONS:,} actions in a row and the turn "
                                          f"is still {turn}: an endless game (does "
                                          "'turn' advance, does is_over ever hold?)")
        else:
            self._turn, self._still = turn, 0
        if self.trace is not None:
            self.trace.append(("apply", action, turn))
        return after

    def clone(self, state: Any) -> Any:
        own = getattr(self.module, "clone", None)
        return self._call("clone", own if callable(own) else copy.deepcopy, state)

    def is_over(self, state: Any) -> bool:
        return bool(self._call("is_over", self.module.is_over, state))

    def scores(self, state: Any) -> list[float]:
        found = self._call("scores", self.module.scores, state)
        try:
            values = [float(v) for v in found]
        except (TypeError, ValueError):
            raise self.fault("scores", "expected a list of numbers, one per seat") from None
        if self.players is not None and len(values) != self.players:
            raise self.fault("scores", f"{len(values)} scores for {self.players} players")
        if self.trace is not None:
            self.trace.append(("scores", tuple(values)))
        return values

    def outcome(self, state: Any) -> str:
        own = getattr(self.module, "outcome", None)
        if not callable(own):
            values = self.scores(state)
            return "draw" if len(set(values)) == 1 else "win"
        found = self._call("outcome", own, state)
        if found not in ("win", "draw"):
            raise self.fault("outcome", f"returned {_plain(repr(found))}, expected 'win' or "
                                        "'draw'")
        return str(found)

    def greedy_action(self, state: Any) -> int:
        own = getattr(self.module, "greedy_action", None)
        legal = self.legal_actions(state)
        if not callable(own):
            return _one_ply(self, state, legal)
        action = self._call("greedy_action", own, state)
        if action not in legal:
            shown = ", ".join(self.label(state, a) for a in legal[:12]) + (
                ", ..." if len(legal) > 12 else "")
            raise self.fault("greedy_action", f"chose {self.label(state, action)}, not a "
                                              f"legal action (legal: {shown})")
        return int(action)

    def verify(self, game: Game, printed: PrintedKit) -> list[Finding]:
        own = getattr(self.module, "verify", None)
        if not callable(own):
            return []
        found = self._call("verify", own, game, printed)
        if not isinstance(found, list) or not all(isinstance(f, Finding) for f in found):
            raise self.fault("verify", "expected a list of Finding (from generator.rules "
                                       "import Finding)")
        return found

    def examples(self, game: Game) -> dict[str, Any]:
        own = getattr(self.module, "examples", None)
        if not callable(own):
            return {}
        found = self._call("examples", own, game)
        if not isinstance(found, dict):
            raise self.fault("examples", "expected a mapping of example name to plain data")
        return found

    def endless(self, seed: int, max_turns: int) -> EngineFault:
        """No game of a run ended within ``max_turns`` turns."""
        self.seed = seed
        return self.fault("is_over", f"no game ended within {max_turns} turns: an endless "
                                     "game (does is_over ever hold?)")


def _one_ply(engine: Guarded, state: Any, legal: list[int]) -> int:
    """The default greedy policy: the legal action after which the mover's score is highest
    (the first such, so it is seeded like everything else)."""
    seat = engine.current_player(state)
    best, best_score = legal[0], float("-inf")
    for action in legal:
        after = engine._call("apply", engine.module.apply, engine.clone(state), action)
        score = engine.scores(after)[seat]
        if score > best_score:
            best, best_score = action, score
    return best


def replay_check(engine: Guarded, players: int, seed: int, policy: str, max_turns: int,
                 data: Mapping[str, Any] | None) -> GameResult:
    """Play game ``seed`` twice and compare every step; a difference is an EngineFault (the
    engine draws chance from somewhere other than ``state.rng``). Returns the game's result."""
    traces = []
    result = None
    for _ in range(2):
        engine.trace = []
        try:
            result = play_one(engine, players, seed, policy, max_turns, data)
            traces.append(engine.trace)
        finally:
            engine.trace = None
    first, second = traces
    if first != second:
        step = next((i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
                    min(len(first), len(second)))
        engine.seed, engine.players = seed, players
        raise engine.fault("new_game", f"the same seed played twice went differently (at step "
                                       f"{step}): chance must come from state.rng alone, not "
                                       "random.random(), the time, or a set's order")
    assert result is not None
    return result
