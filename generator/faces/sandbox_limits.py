"""Limits of the expression sandbox: the figures, the errors, and the meter that charges
every string, list and step an expression makes (see expressions.py for the whole design)."""
from __future__ import annotations

import datetime
import math
import operator
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from itertools import islice
from time import monotonic
from typing import Any

from jinja2 import Undefined

MAX_SOURCE = 10_000
MAX_DEPTH = 32
MAX_STRING = 10_000
MAX_ITEMS = 10_000
MAX_SIZE = 100_000
MAX_WORK = 1_000_000
MAX_INT_BITS = 1_000
MAX_EXPONENT = 64
MAX_DIGITS = 64
MAX_LOOP = 10_000
FACE_SECONDS = 2.0
MAX_RANGE = MAX_ITEMS  # kept for readers who know Jinja's name

_NUMBERS = (int, float)
_WHOLE = re.compile(r"^\s*\{\{(.*)\}\}\s*$", re.S)


class ExpressionError(ValueError):
    """An expression failed; the message says why in the user's terms."""


class LimitError(ExpressionError):
    """An expression went past one of the sandbox's limits."""


# -- metering --------------------------------------------------------------------------------

class _Meter(threading.local):
    """Per thread: the work done by the current expression and the current face's budget."""

    def __init__(self) -> None:
        self.work = 0  # items + characters made and calls, by the current expression
        self.deadline = math.inf  # monotonic() time the current face must finish by
        self.seconds = FACE_SECONDS
        self.loops = 0  # each repetitions in the current face
        self.open = 0  # nesting of budgets: an inner one (evaluate in a face) is the outer one

    def charge(self, amount: int = 1) -> None:
        self.work += amount
        if self.work > MAX_WORK:
            raise LimitError(f"more than {MAX_WORK} items, characters and calls in one "
                             "expression")
        if monotonic() > self.deadline:
            raise LimitError(self.late())

    def late(self) -> str:
        return f"took longer than {self.seconds:g} s (the time limit for one face)"


_METER = _Meter()


@contextmanager
def face_budget(seconds: float | None = None) -> Iterator[None]:
    """The limits of one face: ``seconds`` (default FACE_SECONDS) of evaluation and
    ``MAX_LOOP`` repetitions. Inside an open budget this is the same budget (an expression
    evaluated for a face counts against the face)."""
    seconds = FACE_SECONDS if seconds is None else seconds
    meter = _METER
    if meter.open:
        meter.open += 1
        try:
            yield
        finally:
            meter.open -= 1
        return
    meter.open, meter.deadline, meter.seconds, meter.loops = 1, monotonic() + seconds, seconds, 0
    try:
        yield
    finally:
        meter.open, meter.deadline, meter.loops = 0, math.inf, 0


def check_time() -> None:
    """Raise once the current face's time is up (template.py calls it between elements)."""
    if monotonic() > _METER.deadline:
        raise LimitError(_METER.late())


def count_loops(times: int) -> None:
    """Count ``times`` repetitions of an ``each`` against the face's ``MAX_LOOP``."""
    _METER.loops += times
    if _METER.loops > MAX_LOOP:
        raise LimitError(f"more than {MAX_LOOP} loop iterations (each) in one face")


# -- sizes and bounded conversions -----------------------------------------------------------

def _too_long(size: int) -> LimitError:
    return LimitError(f"string longer than {MAX_STRING} characters ({size})")


def _check_length(size: int) -> None:
    """Before making a string of ``size`` characters."""
    if size > MAX_STRING:
        raise _too_long(size)


def _width(value: Any, what: str = "width") -> int:
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


def _too_big(what: str) -> LimitError:
    return LimitError(f"{what} bigger than {MAX_SIZE} items and characters")


class _Text:
    """A string built piece by piece, never longer than ``MAX_STRING``."""

    __slots__ = ("parts", "size")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def add(self, piece: str) -> None:
        self.size += len(piece)
        if self.size > MAX_STRING:
            raise _too_long(self.size)
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
                raise _too_long(self.size + len(value))
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
    text = _Text()
    text.write(value, top=True)
    return text.value()


_SIZED = (str, list, tuple, range, Mapping)


def _charge_inputs(values: Iterable[Any]) -> None:
    """What an operation will read is work too: a test or method over a list of 10 000
    items costs 10 000, so a quadratic chain stops at MAX_WORK, long before its time."""
    for value in values:
        if isinstance(value, _SIZED):
            _METER.charge(len(value) + 1)


def _made(result: Any) -> Any:
    """Check and count a value an operation has just made."""
    kind = type(result)
    if kind is str:
        if len(result) > MAX_STRING:
            raise _too_long(len(result))
        _METER.charge(len(result) + 1)
    elif kind in (list, tuple) or isinstance(result, (list, tuple, Mapping)):
        if not isinstance(result, Mapping) and len(result) > MAX_ITEMS:
            raise LimitError(f"list longer than {MAX_ITEMS} items ({len(result)})")
        size = size_of(result)
        if size > MAX_SIZE:
            raise _too_big("list or mapping")
        _METER.charge(size)
    elif kind is int:
        if result.bit_length() > MAX_INT_BITS:
            raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
        _METER.charge()
    elif isinstance(result, Iterator) and not isinstance(result, Undefined):
        return _metered(result)
    else:
        _METER.charge()
    return result


def _metered(items: Iterable[Any]) -> Iterator[Any]:
    """A lazy sequence (``map``, ``select``...) whose every item is counted as work."""
    charge = _METER.charge
    for item in items:
        charge()
        yield item


def _bounded_list(items: Iterable[Any]) -> list[Any]:
    """``list(items)``, refused past MAX_ITEMS items."""
    out = list(islice(_metered(items), MAX_ITEMS + 1))
    if len(out) > MAX_ITEMS:
        raise LimitError(f"list longer than {MAX_ITEMS} items")
    return out




# The functions expressions may call (our globals, filters and tests), by id; the values keep
# them alive so an id is never reused.
_SAFE_CALLABLES: dict[int, Callable[..., Any]] = {}
