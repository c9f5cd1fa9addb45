"""The environment every expression is compiled in, ``ENV``, and what it offers: functions,
filters and tests, plain functions only (no type objects), each metered and bounded.

``make_environment`` is the factory: given the functions, filters and tests, it returns a
sandbox offering exactly those, each wrapped. ``ENV`` is made by it once, from the tables
below; nothing is added to an environment after it is made, and no module registers into
this one when imported. ``t`` (a data text in the kit's language) translates through the
language session of the build's context (generator/core/context.py: data/translation/i18n.py's
``Session``, whose ``t`` this one calls), and ``literal`` escapes the rich-text markup
(``text.escape_markup``), so neither needs a layer above this package to offer it."""
from __future__ import annotations

import math
import operator
import textwrap
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jinja2 import filters as jf
from jinja2 import pass_context, pass_environment, pass_eval_context
from jinja2 import tests as jt
from jinja2.runtime import Context

from generator.core import context as build_context

from . import dice, shapes
from .env import BoundedSandbox, new_environment
from .limits import (
    CALL_WORK,
    MAX_DIGITS,
    MAX_ITEMS,
    NUMBERS,
    BoundedText,
    LimitError,
    bounded_list,
    charge,
    charge_inputs,
    check_length,
    check_width,
    made,
    metered,
    to_text,
)
from .text import escape_markup, percent_format, replace

# -- globals ---------------------------------------------------------------------------------

def _function(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """A global function: each call counted, its result checked."""
    def call(*args: Any, **kwargs: Any) -> Any:
        charge(CALL_WORK)
        charge_inputs(args)
        return made(fn(*args, **kwargs))
    call.__name__ = call.__qualname__ = name
    return call


def _range(*args: Any) -> range:
    span = range(*(operator.index(a) for a in args))
    if span.stop - span.start > MAX_ITEMS * abs(span.step) and len(span[:MAX_ITEMS + 1]) \
            > MAX_ITEMS:
        raise LimitError(f"Range too big: more than {MAX_ITEMS} items (more than {MAX_ITEMS} "
                         "loop iterations)")
    return span


def _round(value: Any, digits: Any = None) -> Any:
    if not isinstance(value, NUMBERS):
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
    if base is not None or not isinstance(value, NUMBERS):
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
    return list(enumerate(bounded_list(items), operator.index(start)))


def _zip(*sequences: Iterable[Any]) -> list[tuple[Any, ...]]:
    return bounded_list(zip(*sequences, strict=False))


def _translated(value: Any) -> Any:
    """``t(value)``: a value of the data in the kit's language, translated by the language
    session of the build's context (generator/data/translation/i18n.py's ``Session.t``); with no
    session open (nothing loaded a translation), the value itself, as an English session gives
    it."""
    session = build_context.current().session
    return value if session is None else session.t(value)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "range": _range, "min": _min, "max": _max, "abs": _abs, "round": _round, "len": _len,
    "enumerate": _enumerate, "zip": _zip, "int": _int, "float": _float, "str": _str,
    "d6_net": dice.d6_net, "d4_net": dice.d4_net, "pips": dice.pips,
    "arrow": shapes.arrow, "regular": shapes.regular, "star": shapes.star,
    "t": _translated,  # a data text in the kit's language
}


# -- filters and tests -----------------------------------------------------------------------

# What Jinja passes a filter or test first, by the mark its public decorators leave on it
# (``pass_context``, ``pass_eval_context``, ``pass_environment``); unmarked: the value.
_MARK = "jinja_pass_arg"
_FIRST_ARGUMENT = {
    getattr(decorator(lambda: None), _MARK): what
    for decorator, what in ((pass_context, "context"), (pass_eval_context, "eval_context"),
                            (pass_environment, "environment"))
}


def first_argument(fn: Callable[..., Any]) -> str | None:
    """``context``, ``eval_context``, ``environment`` or None: what Jinja would pass ``fn``
    before the value (tests/test_sandbox.py checks every filter kept is one of these)."""
    mark = getattr(fn, _MARK, None)
    if mark is None:
        return None
    return _FIRST_ARGUMENT[mark]  # KeyError: a mark this Jinja has and we do not know


def _caller(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` called as Jinja calls a filter or test, from a context-passing wrapper."""
    first = first_argument(fn)
    if first == "context":
        return fn
    if first == "eval_context":
        return lambda context, *args, **kwargs: fn(context.eval_ctx, *args, **kwargs)
    if first == "environment":
        return lambda context, *args, **kwargs: fn(context.environment, *args, **kwargs)
    return lambda context, *args, **kwargs: fn(*args, **kwargs)


def wrap_filter(fn: Callable[..., Any], text: bool = False) -> Callable[..., Any]:
    """A filter: context-passing (never folded at compile time), counted and checked; with
    ``text`` its value is first turned into (bounded) text."""
    call_fn = _caller(fn)

    @pass_context
    def call(context: Context, value: Any, *args: Any, **kwargs: Any) -> Any:
        charge(CALL_WORK)
        charge_inputs((value, *args))
        if text:
            value = to_text(value)
        return made(call_fn(context, value, *args, **kwargs))
    return call


def _test(fn: Callable[..., Any]) -> Callable[..., Any]:
    call_fn = _caller(fn)

    @pass_context
    def call(context: Context, value: Any, *args: Any, **kwargs: Any) -> Any:
        charge(CALL_WORK)
        charge_inputs((value, *args))
        return call_fn(context, value, *args, **kwargs)
    return call


def _center_filter(value: str, width: Any = 80) -> str:
    return value.center(check_width(width))


def _indent_filter(value: str, width: Any = 4, first: bool = False,
                   blank: bool = False) -> str:
    pad = len(to_text(width)) if isinstance(width, str) else max(check_width(width), 0)
    check_length(len(value) + (value.count("\n") + 1) * pad)
    return jf.do_indent(value, width if isinstance(width, str) else pad, first, blank)


def _wordwrap_filter(value: str, width: Any = 79, break_long_words: bool = True,
                     wrapstring: Any = None, break_on_hyphens: bool = True) -> str:
    separator = "\n" if wrapstring is None else to_text(wrapstring)
    lines: list[str] = []
    for paragraph in value.splitlines():
        lines += textwrap.wrap(paragraph, width=operator.index(width), expand_tabs=False,
                               replace_whitespace=False, break_long_words=break_long_words,
                               break_on_hyphens=break_on_hyphens) or [""]
        charge(len(lines))
    check_length(sum(map(len, lines)) + len(separator) * max(len(lines) - 1, 0))
    return separator.join(lines)


def _replace_filter(value: str, old: Any, new: Any, count: Any = None) -> str:
    return replace(value, to_text(old), to_text(new), -1 if count is None else count)


def _format_filter(value: str, *args: Any, **kwargs: Any) -> str:
    if args and kwargs:
        raise TypeError("format takes positional or keyword arguments, not both")
    return percent_format(value, kwargs or args)


def _join_filter(context: Context, value: Iterable[Any], d: Any = "",
                 attribute: Any = None) -> str:
    if attribute is not None:
        value = map(jf.make_attrgetter(context.environment, attribute), value)
    separator = to_text(d)
    out = BoundedText()
    for index, item in enumerate(metered(value)):
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
    for item in metered(iterable):
        if not isinstance(item, NUMBERS) or not isinstance(total, NUMBERS):
            raise TypeError("sum adds numbers only")
        total = context.environment.call_binop(context, "+", total, item)  # type: ignore[attr-defined]
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
    return bounded_list(value)


def _upper_first(value: str) -> str:
    return value[:1].upper() + value[1:]


FILTERS: dict[str, Callable[..., Any]] = {
    "abs": abs, "count": len, "d": jf.do_default, "default": jf.do_default,
    "dictsort": jf.do_dictsort, "first": jf.do_first, "float": jf.do_float, "int": jf.do_int,
    "items": jf.do_items, "last": jf.do_last, "length": len, "list": _list_filter,
    "map": jf.do_map, "max": jf.do_max, "min": jf.do_min, "reject": jf.do_reject,
    "rejectattr": jf.do_rejectattr, "reverse": jf.do_reverse, "round": _round_filter,
    "select": jf.do_select, "selectattr": jf.do_selectattr, "sort": jf.do_sort,
    "sum": _sum_filter, "unique": jf.do_unique, "join": _join_filter,
}
TEXT_FILTERS: dict[str, Callable[..., Any]] = {  # their value is turned into text first
    "capitalize": str.capitalize, "center": _center_filter, "format": _format_filter,
    "indent": _indent_filter, "lower": str.lower, "replace": _replace_filter,
    "string": str.__str__, "title": jf.do_title, "trim": jf.do_trim,
    "truncate": jf.do_truncate, "upper": str.upper, "upper_first": _upper_first,
    "wordwrap": _wordwrap_filter,
    # a data value printed exactly as written, never read as markup (faces/markup.py)
    "literal": escape_markup,
}
TESTS: dict[str, Callable[..., Any]] = {
    **jt.TESTS,  # type: ignore[dict-item]
    "lower": lambda value: isinstance(value, str) and value.islower(),
    "upper": lambda value: isinstance(value, str) and value.isupper(),
}


def make_environment(functions: Mapping[str, Callable[..., Any]],
                     filters: Mapping[str, Callable[..., Any]],
                     text_filters: Mapping[str, Callable[..., Any]],
                     tests: Mapping[str, Callable[..., Any]]) -> BoundedSandbox:
    """A sandbox offering exactly the functions, filters (``text_filters``: their value is
    turned into text first) and tests given, each wrapped: metered, its inputs charged, its
    result checked, and never folded at compile time. Jinja's own library is dropped."""
    env = new_environment()
    env.globals.clear()
    offered = {name: _function(name, fn) for name, fn in functions.items()}
    env.globals.update(offered)
    env.callables = {id(fn): fn for fn in offered.values()}  # the only ones it may call
    env.filters.clear()
    env.filters.update({name: wrap_filter(fn) for name, fn in filters.items()})
    env.filters.update({name: wrap_filter(fn, text=True) for name, fn in text_filters.items()})
    env.tests.clear()
    env.tests.update({name: _test(fn) for name, fn in tests.items()})
    return env


ENV = make_environment(FUNCTIONS, FILTERS, TEXT_FILTERS, TESTS)


