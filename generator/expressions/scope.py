"""Evaluating: the variables of an evaluation (``Scope``), ``evaluate`` and the checks on
what an expression gives back."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from jinja2 import Undefined
from jinja2.exceptions import SecurityError, TemplateError
from jinja2.runtime import Context, new_context

from generator.core.words import plain

from .compiler import compile_value, quote
from .library import ENV
from .limits import (
    MAX_INT_BITS,
    MAX_SIZE,
    MAX_STRING,
    WORK_METER,
    BudgetSpent,
    ExpressionError,
    LimitError,
    bounded_list,
    charge,
    size_of,
    too_big,
    work_budget,
)


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
    Inside an open budget (a face) the work counts against it, else against a budget of its
    own. Every failure, limits included, is an ``ExpressionError``."""
    if not isinstance(scope, Scope):
        scope = Scope(scope)
    if WORK_METER.get() is not None:  # inside a face: its budget
        if type(value) is str:  # a face's fields: mostly single strings
            return _evaluate_text(value, scope)
        return _evaluate(value, scope)
    with work_budget("expression"):
        return _evaluate(value, scope)


def _evaluate(value: Any, scope: Scope) -> Any:
    """Strings evaluated inside lists and mappings; each item walked is a unit of work (a
    template's literal list of 50 000 points, drawn 10 000 times, is not free)."""
    if isinstance(value, str):
        return _evaluate_text(value, scope)
    if isinstance(value, list):
        charge(len(value) + 1)
        return [_evaluate(v, scope) for v in value]
    if isinstance(value, dict):
        charge(len(value) + 1)
        return {k: _evaluate(v, scope) for k, v in value.items()}
    return value


def _evaluate_text(value: str, scope: Scope) -> Any:
    compiled = compile_value(value)  # its errors already name the expression
    meter = WORK_METER.get()
    assert meter is not None  # evaluate() opened a budget
    outer = meter.limit
    try:
        meter.start_expression(compiled.cost)
        result = compiled.run(scope.context)
        if isinstance(result, Undefined):
            result._fail_with_undefined_error()
        return _settle(result)
    except LimitError as exc:
        raise LimitError(f"in {quote(value)}: {exc}") from None
    except ExpressionError as exc:
        raise ExpressionError(f"in {quote(value)}: {exc}") from None
    except SecurityError as exc:
        raise ExpressionError(f"not allowed in {quote(value)}: {exc}") from None
    except TemplateError as exc:
        raise ExpressionError(f"in {quote(value)}: {exc.message}") from None
    except BudgetSpent:
        raise  # the build's, not this expression's: it names the heaviest spender
    except RecursionError:
        raise ExpressionError(f"in {quote(value)}: nested too deeply") from None
    except MemoryError:
        raise LimitError(f"in {quote(value)}: out of memory") from None
    except Exception as exc:  # user input: every failure is a data error, never a traceback
        raise ExpressionError(f"in {quote(value)}: {plain(str(exc), 300)}") from None
    finally:
        meter.limit = outer


def _settle(result: Any) -> Any:
    """The value an expression gives, checked: bounded text, lists instead of lazy sequences,
    no undefined value inside, a total size within MAX_SIZE (and charged: it is read)."""
    kind = type(result)
    if kind is float or kind is bool or result is None:  # most results: nothing to check
        return result
    if kind is int:
        if result.bit_length() > MAX_INT_BITS:
            raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
        return result
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
        result = bounded_list(result)
    if isinstance(result, (list, tuple, Mapping)):
        size = size_of(result, strict=True)
        if size > MAX_SIZE:
            raise too_big("value")
        charge(size)
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
