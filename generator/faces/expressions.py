"""Jinja2 expressions in templates, themes and data files, evaluated in a sandbox.

This module compiles and evaluates; the sandbox itself is split by job: ``sandbox_limits``
(the figures below, the errors and the meter), ``sandbox_text`` (bounded text operations and
``%`` formatting), ``sandbox_env`` (the environment: attributes, operators, no folding) and
``sandbox_library`` (the functions, filters and tests offered).

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
  ``str``, ``d6_net``, ``d4_net``, ``pips``, ``arrow``, ``regular``, ``star``, ``t`` (a
  data text in the kit's language, generator/data/i18n.py). Removed:
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

How a string is compiled (once per distinct string, ``compile_value``): a kit has ~1 000
of them and Jinja's lexer, parser and code generator took longer than all their ~50 000
evaluations, so the common ones skip those steps without changing what they mean.
``sandbox_parse`` reads ``{{ name.attr }}``, arithmetic, comparisons, filters, calls and
text around them into the very tree Jinja's parser gives (else Jinja parses); the tree is
checked as before (``_check_tree``); ``sandbox_fast`` turns it into closures that make the
same ``environment.getattr``/``call``/``call_binop``/... calls, in the same order, as the
module Jinja would generate (else Jinja compiles it). tests/test_sandbox_fast.py compares
both ways on values, errors and hostile strings (``_compile(text, fast=False)`` is Jinja's).

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

import re
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from jinja2 import Undefined, meta, nodes
from jinja2.exceptions import SecurityError, TemplateError, TemplateSyntaxError
from jinja2.parser import Parser
from jinja2.runtime import Context, new_context
from jinja2.utils import consume

from . import sandbox_fast, sandbox_parse
from .sandbox_env import ENV, BoundedSandbox
from .sandbox_library import ENV as _ENV_WITH_LIBRARY  # noqa: F401 (fills ENV's globals)
from .sandbox_limits import (
    _METER,
    _WHOLE,
    FACE_SECONDS,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_EXPONENT,
    MAX_INT_BITS,
    MAX_ITEMS,
    MAX_LOOP,
    MAX_SIZE,
    MAX_SOURCE,
    MAX_STRING,
    MAX_WORK,
    ExpressionError,
    LimitError,
    _bounded_list,
    _Text,
    _too_big,
    check_time,
    count_loops,
    face_budget,
    size_of,
    to_text,
)
from .sandbox_text import percent_format

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
    except ExpressionError:
        raise
    except ValueError as exc:  # Jinja's lexer: int() of more than 4 300 digits
        raise ExpressionError(_number_error(exc)) from None


def _number_error(exc: ValueError) -> str:
    """Python refuses to read or write a whole number of more than 4 300 digits (Jinja's
    lexer reads ``99...9``, its code generator writes ``0xff...f`` as decimal): a raw
    ValueError, said in the user's terms."""
    if "integer string conversion" in str(exc):
        return "a number with too many digits (at most 4300)"
    return str(exc)


Compiled = Callable[[Context], Any]


@lru_cache(maxsize=4096)
def compile_value(text: str) -> Compiled:
    """``{{ expr }}`` alone -> the expression's native value; text with ``{{ }}`` inside -> a
    rendered string; anything else -> itself. Compiled once per distinct string: as closures
    (sandbox_fast.py) when every node is one they mirror, else through Jinja's compiler."""
    return _compile(text, fast=True)


def _compile(text: str, fast: bool) -> Compiled:
    """compile_value without its cache; ``fast=False`` always uses Jinja's compiler (the
    reference tests/test_sandbox_fast.py compares the closures with)."""
    whole = _WHOLE.match(text)
    if not (whole or "{{" in text or "{%" in text):
        return lambda ctx: text
    if fast and whole and len(text) <= MAX_SOURCE and "{{" not in whole.group(1):
        closure = _fast_expression(whole.group(1))
        if closure is not None:
            return closure
    try:
        if whole and "{{" not in whole.group(1):
            tree = _parse(whole.group(1), whole=True)
            if fast:
                try:
                    return sandbox_fast.expression(tree.body[0].node)  # type: ignore[attr-defined]
                except sandbox_fast.Unsupported:
                    pass
            root = ENV.from_string(tree).root_render_func

            def expression(ctx: Context) -> Any:
                consume(root(ctx))
                return ctx.vars.pop("result")
            return expression
        checked = _text_tree(text) if fast else None  # None: Jinja's parser reads it
        if fast and checked is not None:
            try:
                return _rendered(sandbox_fast.template(checked))
            except sandbox_fast.Unsupported:
                pass
        tree = _parse(text, whole=False)
        if fast and checked is None:
            try:
                return _rendered(sandbox_fast.template(tree))
            except sandbox_fast.Unsupported:
                pass
        render = ENV.from_string(tree).root_render_func

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
    except ValueError as exc:  # ExpressionError is one, but is caught above
        raise ExpressionError(f"invalid expression {_quote(text)}: {_number_error(exc)}") \
            from None


# The tree of each ``{{ inner }}`` read by sandbox_parse.py, shared by names_used and
# compile_value (both ask about every string of a template); nothing changes a tree.
_parsed = lru_cache(maxsize=4096)(sandbox_parse.parse)


def _fast_expression(inner: str) -> Compiled | None:
    """The inside of a lone ``{{ }}`` as closures, when sandbox_parse.py reads it (the tree
    Jinja's parser would give, checked as _parse checks it) and sandbox_fast.py mirrors every
    node; None sends it the whole way through Jinja. A checked tree that fails is an error."""
    closure = sandbox_fast.dotted(inner)  # {{ palette.ink }}: not even parsed
    if closure is not None:
        return closure
    tree = _parsed(inner)
    if tree is None:
        return None
    try:
        _check_tree(tree)
    except ExpressionError:
        return None  # Jinja's parse and the same check say it again, in the usual words
    try:
        return sandbox_fast.expression(tree)
    except (sandbox_fast.Unsupported, RecursionError):
        return None


def _rendered(emit: sandbox_fast.Emit) -> Compiled:
    """Text with ``{{ }}``: the pieces joined, never longer than MAX_STRING."""
    def rendered(ctx: Context) -> str:
        out = _Text()
        emit(ctx, out.add)
        return out.value()
    return rendered


@lru_cache(maxsize=4096)
def names_used(text: str) -> frozenset[str]:
    """The top-level variables an expression string reads (to know what a face depends on)."""
    if "{{" not in text and "{%" not in text:
        return frozenset()
    whole = _WHOLE.match(text)
    if whole and "{{" not in whole.group(1):
        found = _names_read(whole.group(1))
    else:  # the source _names_used parses
        tree = _text_tree(text if not whole else "{{ " + whole.group(1) + " }}")
        found = _names_in(tree) if tree is not None else None
    return found if found is not None else _names_used(text, whole)


def _names_used(text: str, whole: re.Match[str] | None) -> frozenset[str]:
    """names_used through Jinja: the template's undeclared variables."""
    try:
        source = text if not whole else "{{ " + whole.group(1) + " }}"
        return frozenset(meta.find_undeclared_variables(_parse(source, whole=False)))
    except (ExpressionError, TemplateError, RecursionError, SyntaxError, MemoryError,
            ValueError):  # ValueError: find_undeclared_variables writes every number
        return frozenset()  # the expression fails, with its message, when evaluated


def _names_read(inner: str) -> frozenset[str] | None:
    """What ``find_undeclared_variables`` says of ``{{ inner }}``, read off the tree
    sandbox_parse.py gives (Jinja's own): every name loaded that is not a global. None (ask
    Jinja) when the parser does not take the string, the check refuses it (then the answer is
    nothing, and Jinja's path says so), or a filter or test is unknown (Jinja's code
    generator fails on it, and then the answer is nothing too)."""
    if len(inner) + 6 > MAX_SOURCE:
        return None
    tree = _parsed(inner)
    if tree is None:
        return None
    template = nodes.Template([nodes.Output([tree])])  # find_all: the tree's root too
    try:
        _check_tree(template)  # as deep as in "{{ inner }}"
    except ExpressionError:
        return None
    return _names_in(template)


def _text_tree(text: str) -> nodes.Template | None:
    """Text with ``{{ }}`` inside as sandbox_parse.py reads it (Jinja's tree), checked as
    _parse checks it; None: let Jinja parse it (and say what is wrong)."""
    if len(text) > MAX_SOURCE:
        return None
    tree = sandbox_parse.parse_text(text)
    if tree is None:
        return None
    try:
        _check_tree(tree)
    except ExpressionError:
        return None
    return tree


def _names_in(template: nodes.Template) -> frozenset[str] | None:
    """A checked template's undeclared variables, as Jinja finds them (None if a filter or
    test is unknown: Jinja's code generator fails there, and its answer is nothing)."""
    for node in template.find_all((nodes.Filter, nodes.Test)):
        if node.name not in (ENV.filters if type(node) is nodes.Filter else ENV.tests):
            return None
    names = {node.name for node in template.find_all(nodes.Name) if node.ctx == "load"}
    return frozenset(names - set(ENV.globals))


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
        if type(value) is str:  # a face's fields: mostly single strings
            return _evaluate_text(value, scope)
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
