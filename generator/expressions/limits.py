"""Limits of the expression sandbox: the figures, the errors, and the work meter that charges
every step, string, list and call an expression makes (see the package docstring for the
whole design).

One rule bounds a face: the meter. Each expression gets ``MAX_WORK`` units of work, each
face ``MAX_FACE_WORK`` units (its expressions, elements, repetitions and the characters its
texts measure, together) and ``MAX_LOOP`` repetitions of ``each``; the same face costs the
same units on every machine, so a face that builds on a fast computer builds on a slow one.

One rule bounds a build: its budget. Everything a build evaluates (faces, labels, a data
file's ``checks:`` and ``verify:`` list) spends ``MAX_BUILD_WORK`` units in all, counted in
the build's ``context.Budget`` by who spent them; past it, ``BudgetSpent`` names the template
element or check that spent the most. A meter opened in a build may spend only what the build
has left, so it stops at the same unit whatever ran before it. Primitives are capped per
face, per component and per build (``MAX_*_PRIMITIVES``: what a build keeps in memory), each
weighed by what it holds (generator/core/primitives.py ``weight``: a path's segments count).

Wall-clock time is only a backstop (``BACKSTOP_SECONDS``) against a bug of ours that would
loop where no unit is charged; it never decides whether an input builds.
"""
from __future__ import annotations

import datetime
import operator
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import islice
from time import monotonic
from typing import Any

from jinja2 import Undefined

from generator.core import context
from generator.core.context import Budget, Spender
from generator.core.errors import DataError

MAX_SOURCE = 10_000
MAX_DEPTH = 32
MAX_STRING = 10_000
MAX_ITEMS = 10_000
MAX_SIZE = 100_000
MAX_WORK = 1_000_000
MAX_FACE_WORK = 10_000_000
MAX_INT_BITS = 1_000
MAX_EXPONENT = 64
MAX_DIGITS = 64
MAX_LOOP = 10_000
# One build: every built-in kit spends under 1% of it (tests/hostile/test_budget.py), and a
# build that spends it all takes seconds, not hours.
MAX_BUILD_WORK = 20_000_000
MAX_FACE_PRIMITIVES = 10_000  # primitives one face draws (the built-in faces: at most ~500)
MAX_COMPONENT_PRIMITIVES = 100_000  # primitives of one component's distinct faces
MAX_BUILD_PRIMITIVES = 200_000  # primitives of every face a build draws (~360 bytes each)
BACKSTOP_SECONDS = 60.0
# A call of a function, filter, test or method: what Jinja's call machinery and our checks
# around it take (~2-4 us), against an expression's step (~0.3 us). Counted as 1, a chain of
# ``map``/``select`` calls over 10,000 items spent ~1 us a unit (a build's budget ~21 s);
# at 8, every pattern stops within 10 s of CPU (tests/hostile/test_budget.py).
CALL_WORK = 8

NUMBERS = (int, float)


class ExpressionError(ValueError):
    """An expression failed; the message says why in the user's terms."""


class LimitError(ExpressionError):
    """An expression went past one of the sandbox's limits."""


class BudgetSpent(DataError):
    """The build's work budget is spent. Not an ExpressionError: the expression running when
    the budget ran out is seldom the one at fault, so nothing wraps this as its error; it
    names the spender that spent the most instead (its file, line and field)."""


def budget_spent(budget: Budget) -> BudgetSpent:
    """The error of a spent budget, naming its heaviest spender and what it spent."""
    who, (units, runs) = max(budget.by.items(), key=lambda entry: entry[1][0])
    figure = (f"the build ran out of work: a build may spend {MAX_BUILD_WORK:,} units "
              "(steps, calls, items and characters made, read or measured, counted the same "
              "on every machine)")
    if who is None:
        return BudgetSpent("the build", None, "", f"{figure}; expressions outside any "
                                                  f"template or check spent {units:,}")
    file, line, field, what = who
    return BudgetSpent(file, line, field, f"{figure}, and this spent the most: {units:,} "
                                          f"units in {runs:,} {what}{'' if runs == 1 else 's'}")


def spend(who: Spender | None, units: int, runs: int = 0) -> None:
    """Count work done elsewhere (a component's faces from the face cache: what drawing
    them spent) against the build's budget, if one is open; past it, BudgetSpent."""
    budget = context.current().budget
    if budget is None:
        return
    budget.add(who, units, runs)
    if budget.spent > MAX_BUILD_WORK:
        raise budget_spent(budget)


class Spending:
    """``with Spending(who):`` work done in the block is ``who``'s (a face template's
    element, a label, a check): the build's budget says who spent what, and names the
    heaviest when it runs out. Each block is one run of ``who``. Outside a build, nothing is
    counted. A class, not a generator: it wraps every top-level element of every face."""

    __slots__ = ("budget", "meter", "outer", "who")

    def __init__(self, who: Spender) -> None:
        self.who = who

    def __enter__(self) -> None:
        self.budget = budget = context.current().budget
        if budget is None:
            return
        self.meter = meter = WORK_METER.get()
        if meter is not None:
            meter.settle()  # the work so far is the previous spender's
        self.outer = budget.who
        budget.who = self.who
        budget.add(self.who, 0, 1)  # one run more (the one that runs out counts too)

    def __exit__(self, *exc: object) -> None:
        budget = self.budget
        if budget is None:
            return
        meter = self.meter
        if meter is not None:
            meter.settle()
        budget.who = self.outer


# -- the work meter --------------------------------------------------------------------------

class WorkMeter:
    """The work of one face, or of expressions evaluated on their own (``scope`` says which,
    for messages): units charged so far and ``each`` repetitions, against MAX_WORK per
    expression, ``cap`` in all (MAX_FACE_WORK for a face) and MAX_LOOP.

    A unit is one node of an expression's tree each time it runs, one item or character
    made or read by a function, filter, method, comparison or operator, one call and one
    character of text measured; an element of a face template drawn and a repetition of an
    ``each`` weigh what drawing them takes (each kind's ``work``, generator/core/elements.py).

    In a build, the meter may spend only what the build's budget has left (``cap``); the work
    it spends is counted there (``settle``) as the current spender's."""

    __slots__ = ("budget", "cap", "deadline", "limit", "loops", "own", "scope", "settled",
                 "work")

    def __init__(self, scope: str, cap: int) -> None:
        self.scope = scope
        self.own = cap  # the face's or the expression's own cap
        self.budget = budget = context.current().budget  # the build's (None: none open)
        if budget is not None:  # never more than the build has left
            cap = min(cap, max(MAX_BUILD_WORK - budget.spent, 0))
        self.cap = cap
        self.work = 0
        self.settled = 0  # work already counted in the build's budget
        self.limit = cap  # where the next charge fails: the cap, or the expression's end
        self.loops = 0
        self.deadline = monotonic() + BACKSTOP_SECONDS

    def settle(self) -> None:
        """Count the work done since the last settling in the build's budget, as the
        current spender's."""
        budget = self.budget
        if budget is not None and self.work != self.settled:
            budget.add(budget.who, self.work - self.settled)
            self.settled = self.work

    def start_expression(self, cost: int) -> None:
        """An expression starts: it may spend MAX_WORK units (within the cap), ``cost`` of
        them at once (its tree's nodes). The caller restores ``limit`` when it ends."""
        self.limit = min(self.work + MAX_WORK, self.cap)
        self.work += cost
        if self.work > self.limit:
            raise self.over()

    def over(self) -> LimitError | BudgetSpent:
        if self.work > self.cap and self.cap < self.own and self.budget is not None:
            self.settle()  # the build's budget, not this face's: name who spent it
            return budget_spent(self.budget)
        if self.work > self.cap:
            return LimitError(f"more than {self.cap} units of work (steps, calls, items and "
                              f"characters made or read) in one {self.scope}")
        return LimitError(f"more than {MAX_WORK} units of work (steps, calls, items and "
                          "characters made or read) in one expression")


# The meter of the budget open in this thread or task (None: none is open). A ContextVar, not
# a module global: two builds in two threads each meter their own faces.
WORK_METER: ContextVar[WorkMeter | None] = ContextVar("expression_work_meter", default=None)


def _open_meter() -> WorkMeter:
    meter = WORK_METER.get()
    if meter is None:
        raise RuntimeError("expression work outside a budget: evaluate() or work_budget() "
                           "opens one")
    return meter


def charge(amount: int = 1) -> None:
    """Count ``amount`` units against the open budget; past its limit, a LimitError."""
    meter = WORK_METER.get()
    if meter is None:
        meter = _open_meter()  # raises: work outside any budget is a bug of ours
    meter.work += amount
    if meter.work > meter.limit:
        raise meter.over()


@contextmanager
def work_budget(scope: str = "face") -> Iterator[WorkMeter]:
    """The budget of one face (MAX_FACE_WORK units, MAX_LOOP repetitions), or of
    expressions evaluated on their own (``scope="expression"``: MAX_WORK units). Inside an
    open budget this is that same budget (an expression evaluated for a face counts against
    the face), so a caller may open one to read what a face cost."""
    meter = WORK_METER.get()
    if meter is not None:
        yield meter
        return
    meter = WorkMeter(scope, MAX_FACE_WORK if scope == "face" else MAX_WORK)
    token = WORK_METER.set(meter)
    try:
        yield meter
    finally:
        WORK_METER.reset(token)
        meter.settle()  # what it spent is the build's


def charge_if_metered(amount: int) -> None:
    """``charge`` inside a budget, nothing outside one: for work a face does and the layout
    of the pages does too (measuring text: generator/data/typefaces/fonts.py)."""
    meter = WORK_METER.get()
    if meter is not None:
        meter.work += amount
        if meter.work > meter.limit:
            raise meter.over()


def check_backstop() -> None:
    """The wall-clock backstop: a face that runs BACKSTOP_SECONDS has met a bug of ours (the
    meter stops any input long before); template.py checks it between elements (one
    expression is bounded by MAX_WORK on its own)."""
    meter = WORK_METER.get()
    if meter is not None and monotonic() > meter.deadline:
        raise LimitError(f"still running after {BACKSTOP_SECONDS:g} s, a backstop against a "
                         "bug in the generator (the work limit did not stop it): please "
                         "report this file")


def count_loops(times: int, work: int = 1) -> None:
    """Count ``times`` repetitions of an ``each`` against the face's ``MAX_LOOP``; each
    repetition is also ``work`` units of work (what making its scope takes)."""
    meter = _open_meter()
    meter.loops += times
    if meter.loops > MAX_LOOP:
        raise LimitError(f"more than {MAX_LOOP} loop iterations (each) in one face")
    charge(times * work)


# -- sizes and bounded conversions -----------------------------------------------------------

def too_long(size: int) -> LimitError:
    return LimitError(f"string longer than {MAX_STRING} characters ({size})")


def check_length(size: int) -> None:
    """Before making a string of ``size`` characters."""
    if size > MAX_STRING:
        raise too_long(size)


def check_width(value: Any, what: str = "width") -> int:
    """A padding width or count given by an expression; refused before anything is made."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    number = operator.index(value)  # TypeError for anything else, as Python would
    if number > MAX_STRING:
        raise LimitError(f"{what} {number} is larger than {MAX_STRING} (the longest string)")
    return number


def size_of(value: Any, limit: int = MAX_SIZE, strict: bool = False) -> int:
    """Items + characters of a value, counting a shared part every time it appears (what
    printing or comparing it costs). Stops counting soon after ``limit``. ``strict`` fails on
    an undefined value inside."""
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            total += len(item) + 1
        elif kind in (int, float, bool) or item is None:
            total += 1
        elif kind in (list, tuple):
            total += 1
            stack.extend(item if len(item) <= limit else item[:limit + 1])
        elif isinstance(item, Mapping):
            total += 1
            for count, (key, inner) in enumerate(item.items()):
                if count > limit:
                    break
                stack.append(key)
                stack.append(inner)
        elif isinstance(item, str):
            total += len(item) + 1
        elif isinstance(item, (list, tuple)):
            total += 1
            stack.extend(item if len(item) <= limit else item[:limit + 1])
        elif isinstance(item, Undefined) and strict:
            item._fail_with_undefined_error()
        elif strict and callable(item):
            raise ExpressionError("a function is not a value (call it, with its arguments "
                                  "in brackets)")
        else:
            total += 1
        if total > limit:
            break
    return total


def too_big(what: str) -> LimitError:
    return LimitError(f"{what} bigger than {MAX_SIZE} items and characters")


class BoundedText:
    """A string built piece by piece, never longer than ``MAX_STRING``."""

    __slots__ = ("parts", "size")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def add(self, piece: str) -> None:
        self.size += len(piece)
        if self.size > MAX_STRING:
            raise too_long(self.size)
        self.parts.append(piece)

    def value(self) -> str:
        return "".join(self.parts)

    def write(self, value: Any, top: bool = False) -> None:
        """Python's ``str`` (top) or ``repr`` (inside a container) of a value, bounded."""
        if isinstance(value, str):
            if top:
                self.add(str.__str__(value))
                return
            if self.size + len(value) > MAX_STRING:
                raise too_long(self.size + len(value))
            self.add(repr(str.__str__(value)))
        elif value is None or isinstance(value, (bool, int, float, complex)):
            self.add(repr(value))
        elif isinstance(value, (list, tuple)):
            ends = "[]" if isinstance(value, list) else "()"
            self.add(ends[0])
            for index, item in enumerate(value):
                if index:
                    self.add(", ")
                self.write(item)
            self.add("," + ends[1] if len(value) == 1 and ends == "()" else ends[1])
        elif isinstance(value, Mapping):
            self.add("{")
            for index, (key, item) in enumerate(value.items()):
                if index:
                    self.add(", ")
                self.write(key)
                self.add(": ")
                self.write(item)
            self.add("}")
        elif isinstance(value, range):
            self.add(repr(value))
        elif isinstance(value, Undefined):
            self.add(str(value))  # StrictUndefined: raises the undefined error
        elif isinstance(value, (datetime.date, datetime.time)):
            self.add(str(value))
        elif callable(value):
            self.add(f"<function {getattr(value, '__name__', 'function')}>")
        else:
            self.add(f"<{type(value).__name__}>")


def to_text(value: Any) -> str:
    """``str(value)`` for an expression, refused before it gets longer than MAX_STRING."""
    if type(value) is str:
        return value
    if value is None or type(value) in (int, float, bool):
        return str(value)
    text = BoundedText()
    text.write(value, top=True)
    return text.value()


def charge_read(value: Any) -> Any:
    """Count reading ``value`` whole (comparing, searching, sorting or returning it): its
    items and characters, nested ones too, so a quadratic chain or a loop over a big value
    stops at MAX_WORK. Numbers and other atoms are free here (each step is charged anyway)."""
    kind = type(value)
    if kind is str:
        charge(len(value) + 1)
    elif kind in (list, tuple, dict) or isinstance(value, (str, list, tuple, Mapping)):
        charge(size_of(value, MAX_WORK))
    elif kind is range:  # made in one step (``range``), read an item at a time (``max``)
        charge(len(value) + 1)
    return value


def charge_inputs(values: Iterable[Any]) -> None:
    """What an operation will read is work too: a test, method or filter over a list of
    10 000 items costs 10 000 (its nested items too)."""
    for value in values:
        charge_read(value)


def made(result: Any) -> Any:
    """Check and count a value an operation has just made."""
    kind = type(result)
    if kind is str:
        if len(result) > MAX_STRING:
            raise too_long(len(result))
        charge(len(result) + 1)
    elif kind in (list, tuple) or isinstance(result, (list, tuple, Mapping)):
        if not isinstance(result, Mapping) and len(result) > MAX_ITEMS:
            raise LimitError(f"list longer than {MAX_ITEMS} items ({len(result)})")
        size = size_of(result)
        if size > MAX_SIZE:
            raise too_big("list or mapping")
        charge(size)
    elif kind is int:
        if result.bit_length() > MAX_INT_BITS:
            raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
        charge()
    elif isinstance(result, Iterator) and not isinstance(result, Undefined):
        return metered(result)
    else:
        charge()
    return result


def metered(items: Iterable[Any]) -> Iterator[Any]:
    """A lazy sequence (``map``, ``select``...) whose every item is counted as work."""
    for item in items:
        charge()
        yield item


def bounded_list(items: Iterable[Any]) -> list[Any]:
    """``list(items)``, refused past MAX_ITEMS items."""
    out = list(islice(metered(items), MAX_ITEMS + 1))
    if len(out) > MAX_ITEMS:
        raise LimitError(f"list longer than {MAX_ITEMS} items")
    return out
