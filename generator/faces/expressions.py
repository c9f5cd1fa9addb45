"""Jinja2 expressions in templates and themes, evaluated in a sandbox.

A theme or face template is user input, so expressions run in a ``SandboxedEnvironment``
with ``StrictUndefined`` (a typo is an error, not an empty string), and the operators that
can blow up memory (``*`` and ``**``) are bounded because the sandbox does not bound them.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined, Undefined, meta
from jinja2.exceptions import SecurityError, TemplateError
from jinja2.runtime import Context, new_context
from jinja2.sandbox import SandboxedEnvironment, safe_range
from jinja2.utils import consume

from . import dice, shapes

MAX_STRING = 10_000
_NUMBERS = (int, float)
MAX_EXPONENT = 64
_WHOLE = re.compile(r"^\s*\{\{(.*)\}\}\s*$", re.S)


class ExpressionError(ValueError):
    """An expression failed; the message says why in the user's terms."""


class BoundedSandbox(SandboxedEnvironment):
    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if type(left) in _NUMBERS and type(right) in _NUMBERS and operator == "*":
            return left * right  # the common case, kept cheap
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
            raise SecurityError(f"exponent {right} is larger than {MAX_EXPONENT}")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) \
                        and len(seq) * times > MAX_STRING:
                    raise SecurityError(f"result longer than {MAX_STRING} items")
        return super().call_binop(context, operator, left, right)


ENV = BoundedSandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False)
ENV.globals.update(range=safe_range, min=min, max=max, abs=abs, round=round, len=len,
                   enumerate=enumerate, zip=zip, int=int, float=float, str=str)
ENV.filters["upper_first"] = lambda s: s[:1].upper() + s[1:]
ENV.globals.update(d6_net=dice.d6_net, d4_net=dice.d4_net, pips=dice.pips,
                   arrow=shapes.arrow, regular=shapes.regular, star=shapes.star)


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


Compiled = Callable[[Context], Any]


@lru_cache(maxsize=4096)
def compile_value(text: str) -> Compiled:
    """``{{ expr }}`` alone -> the expression's native value; text with ``{{ }}`` inside -> a
    rendered string; anything else -> itself. Compiled once per distinct string."""
    whole = _WHOLE.match(text)
    try:
        if whole and "{{" not in whole.group(1):
            root = ENV.compile_expression(whole.group(1), undefined_to_none=False) \
                ._template.root_render_func

            def expression(ctx: Context) -> Any:
                consume(root(ctx))
                return ctx.vars.pop("result")
            return expression
        if "{{" in text or "{%" in text:
            render = ENV.from_string(text).root_render_func
            return lambda ctx: ENV.concat(render(ctx))  # type: ignore[attr-defined]
    except TemplateError as exc:
        raise ExpressionError(f"invalid expression {text!r}: {exc.message}") from None
    return lambda ctx: text


@lru_cache(maxsize=4096)
def names_used(text: str) -> frozenset[str]:
    """The top-level variables an expression string reads (to know what a face depends on)."""
    if "{{" not in text and "{%" not in text:
        return frozenset()
    try:
        whole = _WHOLE.match(text)
        source = text if not whole else "{{ " + whole.group(1) + " }}"
        return frozenset(meta.find_undeclared_variables(ENV.parse(source)))
    except TemplateError:
        return frozenset()


def evaluate(value: Any, scope: Scope | Mapping[str, Any]) -> Any:
    """Evaluate strings (recursively inside lists and mappings); other values pass through."""
    if not isinstance(scope, Scope):
        scope = Scope(scope)
    return _evaluate(value, scope)


def _evaluate(value: Any, scope: Scope) -> Any:
    if isinstance(value, str):
        try:
            result = compile_value(value)(scope.context)
            if isinstance(result, Undefined):
                result._fail_with_undefined_error()
        except SecurityError as exc:
            raise ExpressionError(f"not allowed in {value!r}: {exc}") from None
        except TemplateError as exc:
            raise ExpressionError(f"in {value!r}: {exc.message}") from None
        except (TypeError, ValueError, ArithmeticError, KeyError, IndexError) as exc:
            raise ExpressionError(f"in {value!r}: {exc}") from None
        if isinstance(result, str) and len(result) > MAX_STRING:
            raise ExpressionError(f"{value!r} gives a string longer than {MAX_STRING} characters")
        return result
    if isinstance(value, list):
        return [_evaluate(v, scope) for v in value]
    if isinstance(value, dict):
        return {k: _evaluate(v, scope) for k, v in value.items()}
    return value
