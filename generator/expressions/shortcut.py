"""The one way past Jinja's compiler: a lone dotted name or a literal.

Why: a kit has ~1 000 distinct expression strings and a fifth of them are a name, often
dotted (``{{ card.name }}``, ``{{ theme.colours.ink }}``). Jinja's lexer, parser, code
generator and Python's ``compile`` take about half a millisecond for each; this reads them in
microseconds, and they are most of a kit's evaluations.

Same meaning, by construction: a name is looked up as Jinja's compiled code looks it up
(``context.resolve_or_missing``, then ``environment.undefined(name=...)`` when missing), and
every attribute goes through the environment's ``getattr``, the sandbox's own check (env.py),
as in Jinja's code; a literal is the constant Jinja's lexer reads. The work meter charges the
same units either way (one per node of Jinja's tree: compiler.py). Anything else returns None
and Jinja compiles it: a keyword or reserved name, more than ``MAX_PARTS`` parts, spaces
inside, non-ASCII names, numbers written ``1_000``, ``1e3``, ``0x1f``, ``007`` or with more
than 15 digits, a string with a backslash, a brace or a carriage return.
tests/test_expression_shortcut.py compares both ways on values, errors and work.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from jinja2.runtime import Context
from jinja2.utils import missing

from .library import ENV

MAX_PARTS = 8  # name.attr.attr...: far below the nesting limit (limits.MAX_DEPTH)
_DOTTED = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*")
_LITERAL = re.compile(r"""\s*(?:(?P<sign>-)?(?:(?P<float>[0-9]{1,15}\.[0-9]{1,15})
                               |(?P<int>0|[1-9][0-9]{0,14}))
                               |'(?P<single>[^'\\\r{}]*)'|"(?P<double>[^"\\\r{}]*)"
                               |(?P<word>true|false|none|True|False|None))\s*""", re.X)
_WORDS = {"true": True, "false": False, "none": None, "True": True, "False": False,
          "None": None}
# Jinja's parser reads these as operators or constants; expressions reserve the others.
_NOT_NAMES = frozenset({"and", "or", "not", "in", "is", "if", "else", *_WORDS, "self", "loop",
                        "caller", "varargs", "kwargs", "super"})


def compile_shortcut(inner: str) -> tuple[Callable[[Context], Any], int, frozenset[str]] | None:
    """The inside of a lone ``{{ }}`` as (function of the context, nodes of Jinja's tree,
    top-level names read), or None: Jinja compiles it."""
    match = _LITERAL.fullmatch(inner)
    if match is not None:
        value: Any
        if match["word"] is not None:
            value = _WORDS[match["word"]]
        elif match["float"] is not None or match["int"] is not None:
            value = float(match["float"]) if match["float"] is not None else int(match["int"])
            if match["sign"]:
                return _constant(-value), 2, frozenset()  # Jinja: Neg(Const)
        else:
            value = match["single"] if match["single"] is not None else match["double"]
        return _constant(value), 1, frozenset()
    match = _DOTTED.fullmatch(inner)
    if match is None:
        return None
    parts = match.group(1).split(".")
    if len(parts) > MAX_PARTS or not _NOT_NAMES.isdisjoint(parts):
        return None
    names = frozenset() if parts[0] in ENV.globals else frozenset(parts[:1])
    return _dotted(parts[0], tuple(parts[1:])), len(parts), names


def _dotted(name: str, attributes: tuple[str, ...]) -> Callable[[Context], Any]:
    getattr_ = ENV.getattr
    undefined = ENV.undefined

    def dotted(context: Context) -> Any:
        value = context.resolve_or_missing(name)
        if value is missing:
            value = undefined(name=name)
        for attribute in attributes:
            value = getattr_(value, attribute)
        return value
    return dotted


def _constant(value: Any) -> Callable[[Context], Any]:
    return lambda context: value
