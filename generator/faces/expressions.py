"""Jinja2 expressions in templates, themes and data files, evaluated in a sandbox.

Every string in a face template, theme or data file may come from a stranger, so it is
treated as hostile: it must not reach Python objects outside its own values (no secrets, no
files, no code), and it must not make the build use unbounded memory or time.

What we rely on from Jinja2 (3.1, ``jinja2.sandbox.SandboxedEnvironment``):

* its parser: a string can only hold Jinja syntax, never Python statements;
* its sandboxed code generation: every attribute and item access in compiled code goes
  through ``environment.getattr``/``environment.getitem``, every call through
  ``environment.call``, and every binary operator named in ``intercepted_binops`` through
  ``environment.call_binop`` (and is then never folded at compile time);
* ``StrictUndefined``: a misspelt name is an error, not an empty string.

What this module adds on top (Jinja's own checks are not enough: ``str.format`` reached
through the ``str`` type escaped them, and constant folding ran filters at compile time):

* Attributes are an allow-list (``BoundedSandbox.getattr``/``getitem``/
  ``is_safe_attribute``): keys of mappings; a few methods of text (``upper``, ``split``...,
  and bounded ``center``/``ljust``/``rjust``/``zfill``/``expandtabs``/``replace``/``join``),
  ``index``/``count`` of lists, ``keys``/``values``/``items``/``get`` of mappings. Nothing
  else: no ``_``-names, no ``format``/``format_map``, ``mro``, ``to_bytes``, ``encode``, no
  mutating methods, no attribute of a function, type, generator or other object.
  ``wrap_str_format`` never hands out a formatter.
* Calls (``is_safe_callable``): only our global functions and the methods above. Globals kept
  (all plain functions returning plain values; no type object is reachable): ``range``,
  ``min``, ``max``, ``abs``, ``round``, ``len``, ``enumerate``, ``zip``, ``int``, ``float``,
  ``str``, ``d6_net``, ``d4_net``, ``pips``, ``arrow``, ``regular``, ``star``. Removed:
  ``dict``, ``lipsum``, ``cycler``, ``joiner``, ``namespace``.
* Filters kept (each wrapped: metered, bounded, and ``pass_context`` so it can never be
  folded at compile time): ``abs capitalize center count d default dictsort first float
  format indent int items join last length list lower map max min reject rejectattr replace
  reverse round select selectattr sort string sum title trim truncate unique upper
  upper_first wordwrap``. Removed: ``attr batch e escape filesizeformat forceescape groupby
  pprint random safe slice striptags tojson urlencode urlize wordcount xmlattr``. All tests
  are kept (``lower``/``upper`` rewritten so they never turn a value into text).
* No constant folding: ``optimized=False`` turns off Jinja's optimizer, and a
  ``pass_context`` ``finalize`` turns off the folding ``visit_Output`` does on its own, so
  ``{{ 'x'|center(2000000000) }}`` runs (and fails) at evaluation time, under our checks.
* Syntax allow-list: ``{{ expressions }}`` and ``{% if %}`` only (no ``for``, ``set``,
  ``macro``, ``include``...); the names ``self``, ``loop``, ``caller``, ``varargs``,
  ``kwargs`` and ``super`` are refused.
* Every operator (``+ - * / // % **``) is intercepted; ``~`` and list/tuple/dict literals
  are compiled to size-checked calls; ``%`` formatting is done piece by piece, each width
  and precision checked before anything is allocated.

Limits (each raises ``ExpressionError``, worded in the user's terms):

=====================  ==========  ===============================================
``MAX_SOURCE``             10 000  characters in one expression string
``MAX_DEPTH``                  32  levels of nesting in one expression
``MAX_STRING``             10 000  characters in any string made (or a format width)
``MAX_ITEMS``              10 000  items in any list made, and in a ``range``
``MAX_SIZE``              100 000  items + characters in any list/dict made or returned,
                                   shared parts counted every time they appear
``MAX_WORK``            1 000 000  items + characters made, and calls, by one expression
``MAX_INT_BITS``            1 000  bits of an integer (so it always converts to float)
``MAX_EXPONENT``               64  exponent of ``**``
``MAX_DIGITS``                 64  digits of ``round``
``MAX_LOOP``               10 000  ``each`` repetitions in one face (template.py)
``FACE_SECONDS``                2  seconds to evaluate one face (or one expression alone)
``shapes.MAX_POINTS``       1 000  points of a generated shape
=====================  ==========  ===============================================
"""
from __future__ import annotations

import datetime
import math
import operator
import re
import textwrap
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from itertools import islice
from time import monotonic
from typing import Any

from jinja2 import StrictUndefined, Undefined, meta, nodes, pass_context
from jinja2 import filters as jf
from jinja2 import tests as jt
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError, TemplateError, TemplateSyntaxError
from jinja2.parser import Parser
from jinja2.runtime import Context, new_context
from jinja2.sandbox import SandboxedEnvironment, is_internal_attribute
from jinja2.utils import _PassArg, consume

from . import dice, shapes

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


# -- bounded text operations -----------------------------------------------------------------

def _pad(name: str) -> Callable[..., str]:
    method = getattr(str, name)

    def pad(text: str, width: Any, *fill: Any) -> str:
        return method(text, _width(width), *fill)
    pad.__name__ = name
    return pad


def _zfill(text: str, width: Any) -> str:
    return text.zfill(_width(width))


def _expandtabs(text: str, tabsize: Any = 8) -> str:
    size = _width(tabsize, "tab size")
    _check_length(len(text) + text.count("\t") * max(size, 0))
    return text.expandtabs(size)


def _replace(text: str, old: Any, new: Any, count: Any = -1) -> str:
    if not isinstance(old, str) or not isinstance(new, str):
        raise TypeError("replace() takes text to find and text to put in its place")
    count = operator.index(count)
    found = text.count(old) if old else len(text) + 1
    if count >= 0:
        found = min(found, count)
    _check_length(len(text) + found * (len(new) - len(old)))
    return text.replace(old, new, count)


def _join(separator: str, items: Iterable[Any]) -> str:
    out = _Text()
    for index, item in enumerate(_metered(items)):
        if not isinstance(item, str):
            raise TypeError(f"join() takes text, got {type(item).__name__}")
        if index:
            out.add(separator)
        out.add(item)
    return out.value()


_SPEC = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
                   r"(?:\.(?P<precision>\*|\d*))?[hlL]?(?P<type>[diouxXeEfFgGcrsa%])")


def percent_format(template: str, values: Any) -> str:
    """``template % values``, made piece by piece: each width and precision is checked and
    each piece counted before it is made, so ``'%0999999999d' % 1`` allocates nothing."""
    mapping = values if isinstance(values, Mapping) else None
    args = values if isinstance(values, tuple) else (values,)
    used = 0
    out = _Text()
    position = 0
    while True:
        start = template.find("%", position)
        if start < 0:
            out.add(template[position:])
            break
        out.add(template[position:start])
        spec = _SPEC.match(template, start)
        if spec is None:
            raise ValueError(f"unsupported format at {template[start:start + 10]!r}")
        position = spec.end()
        kind, width, precision = spec["type"], spec["width"], spec["precision"]
        if width == "*" or precision == "*":
            raise ValueError("a * width or precision is not supported")
        if width is not None:
            _width(int(width), "format width")
        if precision:
            _width(int(precision), "format precision")
        if kind == "%":
            out.add("%")
            continue
        if spec["key"] is not None:
            if mapping is None:
                raise TypeError("format requires a mapping")
            value = mapping[spec["key"]]
        else:
            if used >= len(args):
                raise TypeError("not enough arguments for format string")
            value = args[used]
            used += 1
        flags = spec["flags"]
        if kind in "sra":
            if kind == "s":
                piece = to_text(value)
            else:
                text = _Text()
                text.write(value)
                piece = text.value()
            if precision is not None:
                piece = piece[:int(precision or 0)]
            if width is not None:
                piece = piece.ljust(int(width)) if "-" in flags else piece.rjust(int(width))
        else:
            if not isinstance(value, (int, float)) and not (kind == "c" and isinstance(value, str)):
                raise TypeError(f"%{kind} format: a number is required, not "
                                f"{type(value).__name__}")
            one = "%" + flags + (width or "") + ("." + precision if precision is not None
                                                 else "") + kind
            piece = one % (value,)
        out.add(piece)
    if mapping is None and used < len(args):
        raise TypeError("not all arguments converted during string formatting")
    return out.value()


def bounded_concat(parts: Iterable[Any]) -> str:
    """The ``~`` operator: every part as text, refused past MAX_STRING."""
    out = _Text()
    for part in parts:
        out.add(to_text(part))
    _METER.charge(out.size + 1)
    return out.value()


# -- methods reachable from expressions ------------------------------------------------------

_STR_METHODS: dict[str, Callable[..., Any]] = {
    name: getattr(str, name) for name in (
        "capitalize", "casefold", "count", "endswith", "find", "index", "isalnum", "isalpha",
        "isdecimal", "isdigit", "islower", "isnumeric", "isspace", "istitle", "isupper",
        "lower", "lstrip", "partition", "removeprefix", "removesuffix", "rfind", "rindex",
        "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
        "swapcase", "title", "upper")
}
_STR_METHODS.update(center=_pad("center"), ljust=_pad("ljust"), rjust=_pad("rjust"),
                    zfill=_zfill, expandtabs=_expandtabs, replace=_replace, join=_join)
_SEQUENCE_METHODS: dict[str, Callable[..., Any]] = {
    "index": lambda seq, *args: seq.index(*args),
    "count": lambda seq, value: seq.count(value),
}
_MAPPING_METHODS: dict[str, Callable[..., Any]] = {
    "keys": lambda mapping: list(mapping.keys()),
    "values": lambda mapping: list(mapping.values()),
    "items": lambda mapping: list(mapping.items()),
    "get": lambda mapping, key, default=None: mapping.get(key, default),
}
# Named so a reader sees them refused (the allow-lists above already leave them out).
REFUSED_ATTRIBUTES = frozenset({
    "format", "format_map", "mro", "to_bytes", "from_bytes", "encode", "decode", "translate",
    "maketrans", "append", "extend", "insert", "pop", "popitem", "remove", "clear", "update",
    "setdefault", "sort", "reverse", "copy", "gi_frame", "gi_code", "f_globals", "func_globals",
})
_DATA = (str, list, tuple, range, int, float, bool, type(None), Mapping)


class _Method:
    """A method of a value, bound, checked and counted. Has no attributes of its own."""

    __slots__ = ("_function", "_name", "_self")

    def __init__(self, function: Callable[..., Any], self_: Any, name: str) -> None:
        self._function, self._self, self._name = function, self_, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        _METER.charge()
        _charge_inputs((self._self, *args))
        return _made(self._function(self._self, *args, **kwargs))

    def __repr__(self) -> str:
        return f"<method {self._name}>"


def _method(obj: Any, name: str) -> _Method | None:
    if isinstance(obj, str):
        table: Mapping[str, Callable[..., Any]] = _STR_METHODS
    elif isinstance(obj, (list, tuple, range)):
        table = _SEQUENCE_METHODS
    elif isinstance(obj, Mapping):
        table = _MAPPING_METHODS
    else:
        return None
    function = table.get(name)
    return _Method(function, obj, name) if function is not None else None


# -- the environment -------------------------------------------------------------------------

class _CodeGenerator(CodeGenerator):
    """Jinja's code generator, with ``~`` and list/tuple/dict literals size-checked."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.bounded_concat((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    def visit_List(self, node: nodes.List, frame: Frame) -> None:
        self.write("environment.made(")
        super().visit_List(node, frame)
        self.write(")")

    def visit_Tuple(self, node: nodes.Tuple, frame: Frame) -> None:
        if node.ctx != "load":
            super().visit_Tuple(node, frame)
            return
        self.write("environment.made(")
        super().visit_Tuple(node, frame)
        self.write(")")

    def visit_Dict(self, node: nodes.Dict, frame: Frame) -> None:
        self.write("environment.made(")
        super().visit_Dict(node, frame)
        self.write(")")


def _unsafe(obj: Any, attribute: Any) -> SecurityError:
    return SecurityError(f"access to attribute {attribute!r} of {type(obj).__name__!r} "
                         "object is unsafe.")


class BoundedSandbox(SandboxedEnvironment):
    """Jinja's sandbox with allow-listed attributes and calls and bounded operations."""

    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})
    code_generator_class = _CodeGenerator

    @staticmethod
    def made(value: Any) -> Any:
        return _made(value)

    @staticmethod
    def bounded_concat(parts: Iterable[Any]) -> str:
        return bounded_concat(parts)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if not isinstance(attr, str) or attr.startswith("_") or attr in REFUSED_ATTRIBUTES:
            return False
        if is_internal_attribute(obj, attr):
            return False
        return _method(obj, attr) is not None

    def is_safe_callable(self, obj: Any) -> bool:
        return type(obj) is _Method or id(obj) in _SAFE_CALLABLES

    def wrap_str_format(self, value: Any) -> None:
        return None  # str.format and format_map are refused, never wrapped

    def getattr(self, obj: Any, attribute: str) -> Any:
        if not isinstance(attribute, str) or attribute.startswith("_") \
                or attribute in REFUSED_ATTRIBUTES:
            raise _unsafe(obj, attribute)
        if isinstance(obj, Undefined):
            obj._fail_with_undefined_error()
        if isinstance(obj, Mapping) and attribute in obj:
            return obj[attribute]  # data first: a key named "items" is the data
        method = _method(obj, attribute)
        if method is not None and not is_internal_attribute(obj, attribute):
            return method
        if isinstance(obj, _DATA):
            return self.undefined(obj=obj, name=attribute)
        raise _unsafe(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        if isinstance(obj, Undefined):
            obj._fail_with_undefined_error()
        if isinstance(obj, (Mapping, list, tuple, str, range)):
            try:
                return obj[argument]
            except (TypeError, LookupError):
                pass
            if isinstance(argument, str):
                return self.getattr(obj, argument)
            return self.undefined(obj=obj, name=argument)
        if isinstance(argument, str):
            return self.getattr(obj, argument)
        raise SecurityError(f"indexing a {type(obj).__name__!r} object is unsafe.")

    def call(__self, __context: Context, __obj: Any, *args: Any,
             **kwargs: Any) -> Any:
        if isinstance(__obj, Undefined):
            __obj._fail_with_undefined_error()
        if not __self.is_safe_callable(__obj):
            raise SecurityError(f"a {type(__obj).__name__!r} object is not safely callable")
        return __obj(*args, **kwargs)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        kinds = type(left), type(right)
        if kinds[0] in _NUMBERS and kinds[1] in _NUMBERS:
            if operator == "**":
                _check_power(left, right)
            elif operator == "*" and kinds == (int, int) \
                    and left.bit_length() + right.bit_length() > MAX_INT_BITS + 1:
                raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
            result = self.binop_table[operator](left, right)
            if type(result) is int and result.bit_length() > MAX_INT_BITS:
                raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
            return result
        _METER.charge()
        if operator == "%" and isinstance(left, str):
            return _made(percent_format(left, right))
        if operator == "**" and isinstance(left, _NUMBERS) and isinstance(right, _NUMBERS):
            _check_power(left, right)
        elif operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int):
                    _check_repeat(seq, times)
        elif operator == "+":
            if isinstance(left, str) and isinstance(right, str):
                _check_length(len(left) + len(right))
            elif isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
                if len(left) + len(right) > MAX_ITEMS:
                    raise LimitError(f"list longer than {MAX_ITEMS} items")
                if size_of(left) + size_of(right) > MAX_SIZE:
                    raise _too_big("list")
        return _made(self.binop_table[operator](left, right))


def _check_power(base: Any, exponent: Any) -> None:
    if abs(exponent) > MAX_EXPONENT:
        raise LimitError(f"exponent {exponent} is larger than {MAX_EXPONENT}")
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 \
            and base.bit_length() * exponent > MAX_INT_BITS + exponent:
        raise LimitError(f"number larger than 2**{MAX_INT_BITS}")


def _check_repeat(seq: str | list[Any] | tuple[Any, ...], times: int) -> None:
    if times <= 0:
        return
    if isinstance(seq, str):
        if len(seq) * times > MAX_STRING:
            raise LimitError(f"result longer than {MAX_STRING} items: string longer than "
                             f"{MAX_STRING} characters")
        return
    if len(seq) * times > MAX_ITEMS:
        raise LimitError(f"result longer than {MAX_ITEMS} items")
    if size_of(seq, MAX_SIZE // times + 1) * times > MAX_SIZE:
        raise _too_big("list")


@pass_context
def _finalize(context: Context, value: Any) -> str:
    """How ``{{ value }}`` inside text is printed. ``pass_context`` on purpose: Jinja then
    cannot fold the output at compile time."""
    text = to_text(value)
    _METER.charge(len(text) + 1)
    return text


ENV = BoundedSandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False,
                     optimized=False, finalize=_finalize)


# -- globals ---------------------------------------------------------------------------------

_SAFE_CALLABLES: dict[int, Callable[..., Any]] = {}  # id -> the function (kept alive)


def _function(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """A global function: each call counted, its result checked."""
    def call(*args: Any, **kwargs: Any) -> Any:
        _METER.charge()
        _charge_inputs(args)
        return _made(fn(*args, **kwargs))
    call.__name__ = call.__qualname__ = name
    _SAFE_CALLABLES[id(call)] = call
    return call


def _range(*args: Any) -> range:
    span = range(*(operator.index(a) for a in args))
    if span.stop - span.start > MAX_ITEMS * abs(span.step) and len(span[:MAX_ITEMS + 1]) \
            > MAX_ITEMS:
        raise LimitError(f"Range too big: more than {MAX_ITEMS} items (more than {MAX_ITEMS} "
                         "loop iterations)")
    return span


def _round(value: Any, digits: Any = None) -> Any:
    if not isinstance(value, _NUMBERS):
        raise TypeError(f"round() takes a number, got {type(value).__name__}")
    if digits is None:
        return round(value)
    digits = operator.index(digits)
    if abs(digits) > MAX_DIGITS:
        raise LimitError(f"round() to {digits} digits: more than {MAX_DIGITS}")
    return round(value, digits)


def _int(value: Any = 0, base: Any = None) -> int:
    if isinstance(value, str):
        return int(value, 10 if base is None else operator.index(base))
    if base is not None or not isinstance(value, _NUMBERS):
        raise TypeError(f"int() takes a number or text, got {type(value).__name__}")
    return int(value)


def _float(value: Any = 0.0) -> float:
    if not isinstance(value, (str, int, float)):
        raise TypeError(f"float() takes a number or text, got {type(value).__name__}")
    return float(value)


def _str(value: Any = "") -> str:
    return to_text(value)


def _len(value: Any) -> int:
    return len(value)


def _min(*args: Any, **kwargs: Any) -> Any:
    return min(*args, **kwargs)


def _max(*args: Any, **kwargs: Any) -> Any:
    return max(*args, **kwargs)


def _abs(value: Any) -> Any:
    return abs(value)


def _enumerate(items: Iterable[Any], start: Any = 0) -> list[tuple[int, Any]]:
    return list(enumerate(_bounded_list(items), operator.index(start)))


def _zip(*sequences: Iterable[Any]) -> list[tuple[Any, ...]]:
    return _bounded_list(zip(*sequences, strict=False))


ENV.globals.clear()
ENV.globals.update({name: _function(name, fn) for name, fn in {
    "range": _range, "min": _min, "max": _max, "abs": _abs, "round": _round, "len": _len,
    "enumerate": _enumerate, "zip": _zip, "int": _int, "float": _float, "str": _str,
    "d6_net": dice.d6_net, "d4_net": dice.d4_net, "pips": dice.pips,
    "arrow": shapes.arrow, "regular": shapes.regular, "star": shapes.star,
}.items()})


# -- filters and tests -----------------------------------------------------------------------

def _filter(fn: Callable[..., Any], text: bool = False) -> Callable[..., Any]:
    """A filter: context-passing (never folded at compile time), counted and checked; with
    ``text`` its value is first turned into (bounded) text."""
    pass_arg = _PassArg.from_obj(fn)

    @pass_context
    def call(context: Context, value: Any, *args: Any, **kwargs: Any) -> Any:
        _METER.charge()
        _charge_inputs((value, *args))
        if text:
            value = to_text(value)
        if pass_arg is _PassArg.context:
            result = fn(context, value, *args, **kwargs)
        elif pass_arg is _PassArg.eval_context:
            result = fn(context.eval_ctx, value, *args, **kwargs)
        elif pass_arg is _PassArg.environment:
            result = fn(context.environment, value, *args, **kwargs)
        else:
            result = fn(value, *args, **kwargs)
        return _made(result)
    return call


def _test(fn: Callable[..., Any]) -> Callable[..., Any]:
    pass_arg = _PassArg.from_obj(fn)

    @pass_context
    def call(context: Context, value: Any, *args: Any, **kwargs: Any) -> Any:
        _METER.charge()
        _charge_inputs((value, *args))
        if pass_arg is _PassArg.context:
            return fn(context, value, *args, **kwargs)
        if pass_arg is _PassArg.environment:
            return fn(context.environment, value, *args, **kwargs)
        if pass_arg is _PassArg.eval_context:
            return fn(context.eval_ctx, value, *args, **kwargs)
        return fn(value, *args, **kwargs)
    return call


def _center_filter(value: str, width: Any = 80) -> str:
    return value.center(_width(width))


def _indent_filter(value: str, width: Any = 4, first: bool = False,
                   blank: bool = False) -> str:
    pad = len(to_text(width)) if isinstance(width, str) else max(_width(width), 0)
    _check_length(len(value) + (value.count("\n") + 1) * pad)
    return jf.do_indent(value, width if isinstance(width, str) else pad, first, blank)


def _wordwrap_filter(value: str, width: Any = 79, break_long_words: bool = True,
                     wrapstring: Any = None, break_on_hyphens: bool = True) -> str:
    separator = "\n" if wrapstring is None else to_text(wrapstring)
    lines: list[str] = []
    for paragraph in value.splitlines():
        lines += textwrap.wrap(paragraph, width=operator.index(width), expand_tabs=False,
                               replace_whitespace=False, break_long_words=break_long_words,
                               break_on_hyphens=break_on_hyphens) or [""]
        _METER.charge(len(lines))
    _check_length(sum(map(len, lines)) + len(separator) * max(len(lines) - 1, 0))
    return separator.join(lines)


def _replace_filter(value: str, old: Any, new: Any, count: Any = None) -> str:
    return _replace(value, to_text(old), to_text(new), -1 if count is None else count)


def _format_filter(value: str, *args: Any, **kwargs: Any) -> str:
    if args and kwargs:
        raise TypeError("format takes positional or keyword arguments, not both")
    return percent_format(value, kwargs or args)


def _join_filter(context: Context, value: Iterable[Any], d: Any = "",
                 attribute: Any = None) -> str:
    if attribute is not None:
        value = map(jf.make_attrgetter(context.environment, attribute), value)
    separator = to_text(d)
    out = _Text()
    for index, item in enumerate(_metered(value)):
        if index:
            out.add(separator)
        out.add(to_text(item))
    return out.value()


_join_filter = pass_context(_join_filter)


def _sum_filter(context: Context, iterable: Iterable[Any], attribute: Any = None,
                start: Any = 0) -> Any:
    if attribute is not None:
        iterable = map(jf.make_attrgetter(context.environment, attribute), iterable)
    total = start
    for item in _metered(iterable):
        if not isinstance(item, _NUMBERS) or not isinstance(total, _NUMBERS):
            raise TypeError("sum adds numbers only")
        total = context.environment.call_binop(context, "+", total, item)
    return total


_sum_filter = pass_context(_sum_filter)


def _round_filter(value: Any, precision: Any = 0, method: str = "common") -> float:
    digits = operator.index(precision)
    if abs(digits) > MAX_DIGITS:
        raise LimitError(f"round to {digits} digits: more than {MAX_DIGITS}")
    if method == "common":
        return round(float(value), digits)
    if method not in ("ceil", "floor"):
        raise ValueError("method must be common, ceil or floor")
    scale = 10.0 ** digits
    return (math.ceil if method == "ceil" else math.floor)(float(value) * scale) / scale


def _list_filter(value: Any) -> list[Any]:
    return _bounded_list(value)


def _upper_first(value: str) -> str:
    return value[:1].upper() + value[1:]


ENV.filters.clear()
ENV.filters.update({name: _filter(fn) for name, fn in {
    "abs": abs, "count": len, "d": jf.do_default, "default": jf.do_default,
    "dictsort": jf.do_dictsort, "first": jf.do_first, "float": jf.do_float, "int": jf.do_int,
    "items": jf.do_items, "last": jf.do_last, "length": len, "list": _list_filter,
    "map": jf.do_map, "max": jf.do_max, "min": jf.do_min, "reject": jf.do_reject,
    "rejectattr": jf.do_rejectattr, "reverse": jf.do_reverse, "round": _round_filter,
    "select": jf.do_select, "selectattr": jf.do_selectattr, "sort": jf.do_sort,
    "sum": _sum_filter, "unique": jf.do_unique, "join": _join_filter,
}.items()})
ENV.filters.update({name: _filter(fn, text=True) for name, fn in {
    "capitalize": str.capitalize, "center": _center_filter, "format": _format_filter,
    "indent": _indent_filter, "lower": str.lower, "replace": _replace_filter,
    "string": str.__str__, "title": jf.do_title, "trim": jf.do_trim,
    "truncate": jf.do_truncate, "upper": str.upper, "upper_first": _upper_first,
    "wordwrap": _wordwrap_filter,
}.items()})
ENV.tests.clear()
ENV.tests.update({name: _test(fn) for name, fn in {
    **jt.TESTS,
    "lower": lambda value: isinstance(value, str) and value.islower(),
    "upper": lambda value: isinstance(value, str) and value.isupper(),
}.items()})


# -- compiling -------------------------------------------------------------------------------

_STATEMENTS_ALLOWED = (nodes.Template, nodes.Output, nodes.TemplateData, nodes.If)
_EXPRESSIONS_ALLOWED = (
    nodes.Const, nodes.Name, nodes.Getattr, nodes.Getitem, nodes.Slice, nodes.Call,
    nodes.Keyword, nodes.Filter, nodes.Test, nodes.CondExpr, nodes.Compare, nodes.Operand,
    nodes.Concat, nodes.List, nodes.Tuple, nodes.Dict, nodes.Pair, nodes.Add, nodes.Sub,
    nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Mod, nodes.Pow, nodes.And, nodes.Or,
    nodes.Not, nodes.Neg, nodes.Pos)
_ALLOWED = frozenset(_STATEMENTS_ALLOWED + _EXPRESSIONS_ALLOWED)
_RESERVED = frozenset({"self", "loop", "caller", "varargs", "kwargs", "super"})
_STATEMENT_WORDS = {"Assign": "set", "AssignBlock": "set", "FilterBlock": "filter",
                    "CallBlock": "call", "FromImport": "from", "ExprStmt": "do",
                    "ScopedEvalContextModifier": "autoescape", "EvalContextModifier": "autoescape"}


def _check_tree(tree: nodes.Node) -> None:
    """Only expressions and ``{% if %}``; no reserved names; bounded nesting."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExpressionError(f"nested more than {MAX_DEPTH} levels deep")
        kind = type(node)
        if kind not in _ALLOWED:
            if isinstance(node, nodes.Stmt):
                word = "{% " + _STATEMENT_WORDS.get(kind.__name__, kind.__name__.lower()) + " %}"
                raise ExpressionError(f"{word} is not allowed: only {{{{ expressions }}}} and "
                                      "{% if %} (use each: in a face template to repeat)")
            raise ExpressionError(f"{kind.__name__} is not allowed in an expression")
        if kind is nodes.Name and (node.ctx != "load" or node.name in _RESERVED):
            raise ExpressionError(f"the name {node.name!r} is reserved")
        if kind is nodes.Tuple and node.ctx != "load":
            raise ExpressionError("assignment is not allowed in an expression")
        stack.extend((child, depth + 1) for child in node.iter_child_nodes())


def _parse(text: str, whole: bool) -> nodes.Template:
    """The checked syntax tree of an expression (``whole``) or of text with ``{{ }}``."""
    if len(text) > MAX_SOURCE:
        raise ExpressionError(f"expression longer than {MAX_SOURCE} characters")
    try:
        if not whole:
            tree = ENV.parse(text)
            _check_tree(tree)
            return tree
        parser = Parser(ENV, text, state="variable")
        expr = parser.parse_expression()
        if not parser.stream.eos:
            raise TemplateSyntaxError("chunk after expression", parser.stream.current.lineno,
                                      None, None)
        _check_tree(expr)
        expr.set_environment(ENV)
        return nodes.Template([nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)],
                              lineno=1)
    except RecursionError:
        raise ExpressionError(f"nested more than {MAX_DEPTH} levels deep") from None


Compiled = Callable[[Context], Any]


@lru_cache(maxsize=4096)
def compile_value(text: str) -> Compiled:
    """``{{ expr }}`` alone -> the expression's native value; text with ``{{ }}`` inside -> a
    rendered string; anything else -> itself. Compiled once per distinct string."""
    whole = _WHOLE.match(text)
    if not (whole or "{{" in text or "{%" in text):
        return lambda ctx: text
    try:
        if whole and "{{" not in whole.group(1):
            root = ENV.from_string(_parse(whole.group(1), whole=True)).root_render_func

            def expression(ctx: Context) -> Any:
                consume(root(ctx))
                return ctx.vars.pop("result")
            return expression
        render = ENV.from_string(_parse(text, whole=False)).root_render_func

        def rendered(ctx: Context) -> str:
            out = _Text()
            for piece in render(ctx):
                out.add(piece)
            return out.value()
        return rendered
    except ExpressionError as exc:
        raise ExpressionError(f"invalid expression {_quote(text)}: {exc}") from None
    except TemplateError as exc:
        raise ExpressionError(f"invalid expression {_quote(text)}: {exc.message}") from None
    except (RecursionError, SyntaxError, MemoryError):
        raise ExpressionError(f"invalid expression {_quote(text)}: nested more than "
                              f"{MAX_DEPTH} levels deep") from None


@lru_cache(maxsize=4096)
def names_used(text: str) -> frozenset[str]:
    """The top-level variables an expression string reads (to know what a face depends on)."""
    if "{{" not in text and "{%" not in text:
        return frozenset()
    try:
        whole = _WHOLE.match(text)
        source = text if not whole else "{{ " + whole.group(1) + " }}"
        return frozenset(meta.find_undeclared_variables(_parse(source, whole=False)))
    except (ExpressionError, TemplateError, RecursionError, SyntaxError, MemoryError):
        return frozenset()  # the expression fails, with its message, when evaluated


# -- evaluating ------------------------------------------------------------------------------

class Scope:
    """The variables of one evaluation, with one jinja Context shared by every expression
    evaluated in it: building a Context per expression was most of a deck's build time."""

    __slots__ = ("context", "values")

    def __init__(self, values: Mapping[str, Any], _copy_globals: bool = True) -> None:
        self.values: dict[str, Any] = dict(ENV.globals) if _copy_globals else {}
        self.values.update(values)
        self.context: Context = new_context(ENV, None, {}, self.values, shared=True)

    def set(self, key: str, value: Any) -> None:
        self.values[key] = value  # the context reads this same dict

    def child(self, values: Mapping[str, Any]) -> Scope:
        inner = Scope(self.values, _copy_globals=False)
        inner.values.update(values)
        return inner

    def __getitem__(self, key: str) -> Any:
        return self.values[key]


def evaluate(value: Any, scope: Scope | Mapping[str, Any]) -> Any:
    """Evaluate strings (recursively inside lists and mappings); other values pass through.
    Every failure, limits included, is an ``ExpressionError``."""
    if not isinstance(scope, Scope):
        scope = Scope(scope)
    if _METER.open:  # inside a face: its budget
        return _evaluate(value, scope)
    with face_budget():
        return _evaluate(value, scope)


def _quote(text: str, limit: int = 120) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _evaluate(value: Any, scope: Scope) -> Any:
    if isinstance(value, str):
        return _evaluate_text(value, scope)
    if isinstance(value, list):
        return [_evaluate(v, scope) for v in value]
    if isinstance(value, dict):
        return {k: _evaluate(v, scope) for k, v in value.items()}
    return value


def _evaluate_text(value: str, scope: Scope) -> Any:
    compiled = compile_value(value)  # its errors already name the expression
    meter = _METER
    meter.work = 0
    try:
        check_time()
        result = compiled(scope.context)
        if isinstance(result, Undefined):
            result._fail_with_undefined_error()
        return _settle(result)
    except LimitError as exc:
        raise LimitError(f"in {_quote(value)}: {exc}") from None
    except ExpressionError as exc:
        raise ExpressionError(f"in {_quote(value)}: {exc}") from None
    except SecurityError as exc:
        raise ExpressionError(f"not allowed in {_quote(value)}: {exc}") from None
    except TemplateError as exc:
        raise ExpressionError(f"in {_quote(value)}: {exc.message}") from None
    except RecursionError:
        raise ExpressionError(f"in {_quote(value)}: nested too deeply") from None
    except MemoryError:
        raise LimitError(f"in {_quote(value)}: out of memory") from None
    except Exception as exc:  # user input: every failure is a data error, never a traceback
        raise ExpressionError(f"in {_quote(value)}: {exc}") from None
    finally:
        meter.work = 0


def _settle(result: Any) -> Any:
    """The value an expression gives, checked: bounded text, lists instead of lazy sequences,
    no undefined value inside, a total size within MAX_SIZE."""
    if isinstance(result, str):
        if len(result) > MAX_STRING:
            raise LimitError(f"the result is a string longer than {MAX_STRING} characters")
        return result
    if type(result) is int and result.bit_length() > MAX_INT_BITS:
        raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
    if callable(result):
        raise ExpressionError("a function is not a value (call it, with its arguments in "
                              "brackets)")
    if isinstance(result, Iterator):
        result = _bounded_list(result)
    if isinstance(result, (list, tuple, Mapping)):
        if size_of(result, strict=True) > MAX_SIZE:
            raise _too_big("value")
        _check_numbers(result)
    return result


def _check_numbers(value: Any) -> None:
    """Whole numbers inside a result stay convertible to float."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is int and item.bit_length() > MAX_INT_BITS:
            raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, Mapping):
            stack.extend(item.values())


__all__ = ["ENV", "FACE_SECONDS", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT", "MAX_INT_BITS",
           "MAX_ITEMS", "MAX_LOOP", "MAX_SIZE", "MAX_SOURCE", "MAX_STRING", "MAX_WORK",
           "BoundedSandbox", "ExpressionError", "LimitError", "Scope", "check_time",
           "compile_value", "count_loops", "evaluate", "face_budget", "names_used",
           "percent_format", "size_of", "to_text"]
