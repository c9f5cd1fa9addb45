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

from jinja2 import StrictUndefined, Undefined
from jinja2.exceptions import SecurityError, TemplateError
from jinja2.sandbox import SandboxedEnvironment

MAX_STRING = 10_000
MAX_EXPONENT = 64
_WHOLE = re.compile(r"^\s*\{\{(.*)\}\}\s*$", re.S)


class ExpressionError(ValueError):
    """An expression failed; the message says why in the user's terms."""


class BoundedSandbox(SandboxedEnvironment):
    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
            raise SecurityError(f"exponent {right} is larger than {MAX_EXPONENT}")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) \
                        and len(seq) * times > MAX_STRING:
                    raise SecurityError(f"result longer than {MAX_STRING} items")
        return super().call_binop(context, operator, left, right)


ENV = BoundedSandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False)
ENV.globals.update(range=range, min=min, max=max, abs=abs, round=round, len=len,
                   enumerate=enumerate, zip=zip, int=int, float=float, str=str)
ENV.filters["upper_first"] = lambda s: s[:1].upper() + s[1:]


@lru_cache(maxsize=4096)
def compile_value(text: str) -> Callable[[Mapping[str, Any]], Any]:
    """``{{ expr }}`` alone -> the expression's native value; text with ``{{ }}`` inside -> a
    rendered string; anything else -> itself. Compiled once per distinct string."""
    whole = _WHOLE.match(text)
    try:
        if whole and "{{" not in whole.group(1):
            expr = ENV.compile_expression(whole.group(1), undefined_to_none=False)
            return lambda ctx: expr(**ctx)
        if "{{" in text or "{%" in text:
            template = ENV.from_string(text)
            return lambda ctx: template.render(**ctx)
    except TemplateError as exc:
        raise ExpressionError(f"invalid expression {text!r}: {exc.message}") from None
    return lambda ctx: text


def evaluate(value: Any, ctx: Mapping[str, Any]) -> Any:
    """Evaluate strings (recursively inside lists and mappings); other values pass through."""
    if isinstance(value, str):
        try:
            result = compile_value(value)(ctx)
            if isinstance(result, Undefined):
                result._fail_with_undefined_error()
        except SecurityError as exc:
            raise ExpressionError(f"not allowed in {value!r}: {exc}") from None
        except TemplateError as exc:
            raise ExpressionError(f"in {value!r}: {exc.message}") from None
        except (TypeError, ValueError, ZeroDivisionError, KeyError, IndexError) as exc:
            raise ExpressionError(f"in {value!r}: {exc}") from None
        if isinstance(result, str) and len(result) > MAX_STRING:
            raise ExpressionError(f"{value!r} gives a string longer than {MAX_STRING} characters")
        return result
    if isinstance(value, list):
        return [evaluate(v, ctx) for v in value]
    if isinstance(value, dict):
        return {k: evaluate(v, ctx) for k, v in value.items()}
    return value
