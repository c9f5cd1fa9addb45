"""Checked Jinja expression trees turned into Python closures, without Jinja's code generator.

Why: a five-kit build evaluates about 1 000 distinct expression strings, and compiling each
through Jinja (generate a Python module's source, then ``compile`` it) cost more than all
of their ~50 000 evaluations. Most of them are ``{{ palette.ink }}``, ``{{ b + c * cell }}``
or text like ``Round {{ n }}``: a closure per tree node builds in microseconds.

Same semantics, by construction: each closure does exactly what the code Jinja 3.1 generates
for that node does in our sandbox (``optimized=False``, no autoescape, sandboxed): the same
``environment.getattr``/``getitem``/``call``/``call_binop``/``made``/``bounded_concat``/
``finalize`` calls, on the same values, in the same order, and Python's own operators where
Jinja writes them (``-x``, ``not x``, ``a and b``, comparisons, ``x if c else y``). Every
limit therefore lives where it did (sandbox_env.py, sandbox_limits.py). Anything not mirrored
here (slices, ``*args``/``**kwargs``, an ``if`` without ``else``, a filter or test unknown
when compiled, a keyword given twice, an environment configured differently) raises
``Unsupported`` and expressions.py compiles it through Jinja as before.
tests/test_sandbox_fast.py checks both paths agree, values and error messages alike.
"""
from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Iterable
from typing import Any

from jinja2 import nodes
from jinja2.exceptions import TemplateRuntimeError
from jinja2.runtime import Context
from jinja2.utils import _PassArg

from .sandbox_env import ENV, REFUSED_ATTRIBUTES, BoundedSandbox
from .sandbox_limits import MAX_INT_BITS

Closure = Callable[[Context], Any]
Emit = Callable[[Context, Callable[[str], None]], None]


class Unsupported(Exception):
    """This tree is compiled by Jinja instead (an internal signal, never shown to a user)."""


# Names a bare dotted path may not contain: Jinja reads these words as constants or
# operators, and expressions.py reserves the others; such strings take the parsed path.
_WORDS = frozenset({"and", "or", "not", "in", "is", "if", "else", "true", "false", "none",
                    "True", "False", "None", "self", "loop", "caller", "varargs", "kwargs",
                    "super"})
_DOTTED = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){0,7})\s*")
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq, "ne": operator.ne, "gt": operator.gt, "gteq": operator.ge,
    "lt": operator.lt, "lteq": operator.le,
    "in": lambda a, b: a in b, "notin": lambda a, b: a not in b,
}
_BINOPS = {nodes.Add: "+", nodes.Sub: "-", nodes.Mul: "*", nodes.Div: "/",
           nodes.FloorDiv: "//", nodes.Mod: "%", nodes.Pow: "**"}


def _environment_ok() -> bool:
    """The settings the closures assume (what Jinja's generated code would depend on)."""
    return (ENV.sandboxed and not ENV.is_async and ENV.optimized is False
            and not ENV.autoescape and not ENV.intercepted_unops
            and ENV.context_class is Context
            and type(ENV).getattr is BoundedSandbox.getattr
            and ENV.intercepted_binops >= frozenset(_BINOPS.values())
            and _PassArg.from_obj(ENV.finalize) is _PassArg.context)


def dotted(inner: str) -> Closure | None:
    """``name`` or ``name.attr.attr`` (ASCII, at most 8 parts, no keyword), the inside of a
    ``{{ }}``, as a closure without parsing; None for anything else."""
    match = _DOTTED.fullmatch(inner)
    if match is None or not _environment_ok():
        return None
    parts = match.group(1).split(".")
    if any(part in _WORDS for part in parts):
        return None
    closure = _name(parts[0])
    for attribute in parts[1:]:
        closure = _getattr(closure, attribute)
    return closure


def expression(node: nodes.Expr) -> Closure:
    """A checked expression tree (expressions._check_tree) as a closure of the context."""
    if not _environment_ok():
        raise Unsupported
    return _build(node)


def template(tree: nodes.Template) -> Emit:
    """A checked template (text with ``{{ }}`` and ``{% if %}``) as a function that passes
    each piece Jinja would yield, in order, to ``add``."""
    if not _environment_ok():
        raise Unsupported
    return _block(tree.body)


# -- statements ------------------------------------------------------------------------------

def _block(body: Iterable[nodes.Node]) -> Emit:
    steps = [_statement(node) for node in body]

    def block(ctx: Context, add: Callable[[str], None]) -> None:
        for step in steps:
            step(ctx, add)
    return steps[0] if len(steps) == 1 else block  # an empty body: a block doing nothing


def _statement(node: nodes.Node) -> Emit:
    kind = type(node)
    if kind is nodes.Output:
        return _output(node)
    if kind is nodes.If:
        branches = [(_build(node.test), _block(node.body))]
        branches += [(_build(elif_.test), _block(elif_.body)) for elif_ in node.elif_]
        otherwise = _block(node.else_) if node.else_ else None

        def if_(ctx: Context, add: Callable[[str], None]) -> None:
            for test, body in branches:
                if test(ctx):
                    body(ctx, add)
                    return
            if otherwise is not None:
                otherwise(ctx, add)
        return if_
    raise Unsupported


def _output(node: nodes.Output) -> Emit:
    """Jinja joins adjacent template data into one piece; every ``{{ }}`` is one piece,
    ``str(environment.finalize(context, value))``."""
    pieces: list[str | Closure] = []
    for child in node.nodes:
        if type(child) is nodes.TemplateData:
            data = str(child.data)
            if pieces and isinstance(pieces[-1], str):
                pieces[-1] += data
            else:
                pieces.append(data)
        else:
            pieces.append(_build(child))
    finalize = ENV.finalize

    def output(ctx: Context, add: Callable[[str], None]) -> None:
        for piece in pieces:
            if type(piece) is str:
                add(piece)
            else:
                add(str(finalize(ctx, piece(ctx))))  # type: ignore[operator]
    return output


# -- expressions -----------------------------------------------------------------------------

def _build(node: nodes.Node) -> Closure:
    builder = _BUILDERS.get(type(node))
    if builder is None:
        raise Unsupported
    return builder(node)


def _name(key: str) -> Closure:
    """``resolve(key)``, then ``undefined(name=key)`` if missing (Context.resolve_or_missing
    inlined: the context's own variables, then its parent)."""
    undefined = ENV.undefined

    def name(ctx: Context) -> Any:
        if key in ctx.vars:
            return ctx.vars[key]
        parent = ctx.parent
        if key in parent:
            return parent[key]
        return undefined(name=key)
    return name


def _getattr(inner: Closure, attribute: str) -> Closure:
    """``environment.getattr(value, attribute)``. For a plain dict holding the key, that is
    the key's value (data first, BoundedSandbox.getattr), read here directly: a safe name's
    look-up is most of a face's expressions."""
    getattr_ = ENV.getattr
    if attribute.startswith("_") or attribute in REFUSED_ATTRIBUTES:
        def refused(ctx: Context) -> Any:
            return getattr_(inner(ctx), attribute)  # raises, as it would in Jinja's code
        return refused

    def getattr_node(ctx: Context) -> Any:
        value = inner(ctx)
        if type(value) is dict and attribute in value:
            return value[attribute]
        return getattr_(value, attribute)
    return getattr_node


def _const(node: nodes.Const) -> Closure:
    value = node.value
    if type(value) not in (str, int, float, bool, type(None)):
        raise Unsupported  # the parser makes no other constant
    if type(value) is float and not math.isfinite(value):
        raise Unsupported  # Jinja writes ``inf`` into its module: a NameError when run
    if type(value) is int and value.bit_length() > MAX_INT_BITS:
        raise Unsupported  # ``0xff...f``: Jinja may fail to write it, and must say so
    return lambda ctx: value


def _getitem(node: nodes.Getitem) -> Closure:
    if type(node.arg) is nodes.Slice:  # Jinja writes a Python slice: ``x[a:b:c]``
        inner = _build(node.node)
        bounds = [None if part is None else _build(part)
                  for part in (node.arg.start, node.arg.stop, node.arg.step)]

        def sliced(ctx: Context) -> Any:
            value = inner(ctx)
            start, stop, step = (None if part is None else part(ctx) for part in bounds)
            return value[start:stop:step]
        return sliced
    inner, arg = _build(node.node), _build(node.arg)
    getitem = ENV.getitem
    return lambda ctx: getitem(inner(ctx), arg(ctx))


def _binop(node: nodes.BinExpr) -> Closure:
    op = _BINOPS[type(node)]
    left, right = _build(node.left), _build(node.right)
    call_binop = ENV.call_binop
    return lambda ctx: call_binop(ctx, op, left(ctx), right(ctx))


def _and(node: nodes.And) -> Closure:
    left, right = _build(node.left), _build(node.right)

    def and_(ctx: Context) -> Any:
        value = left(ctx)
        return right(ctx) if value else value
    return and_


def _or(node: nodes.Or) -> Closure:
    left, right = _build(node.left), _build(node.right)

    def or_(ctx: Context) -> Any:
        value = left(ctx)
        return value if value else right(ctx)
    return or_


def _unary(function: Callable[[Any], Any]) -> Callable[[nodes.UnaryExpr], Closure]:
    def builder(node: nodes.UnaryExpr) -> Closure:
        inner = _build(node.node)
        return lambda ctx: function(inner(ctx))
    return builder


def _compare(node: nodes.Compare) -> Closure:
    """Python's chained comparison: each link's result is tested only if another follows,
    and a false one is the value."""
    first = _build(node.expr)
    links = []
    for operand in node.ops:
        if type(operand) is not nodes.Operand or operand.op not in _COMPARE:
            raise Unsupported
        links.append((_COMPARE[operand.op], _build(operand.expr)))
    last = len(links) - 1

    def compare(ctx: Context) -> Any:
        left = first(ctx)
        result: Any = None
        for index, (test, operand) in enumerate(links):
            right = operand(ctx)
            result = test(left, right)
            if index < last and not result:
                return result
            left = right
        return result
    if len(links) == 1:
        test, operand = links[0]
        return lambda ctx: test(first(ctx), operand(ctx))
    return compare


def _condexpr(node: nodes.CondExpr) -> Closure:
    if node.expr2 is None:
        raise Unsupported  # Jinja's message names the line: left to it
    test, then, otherwise = _build(node.test), _build(node.expr1), _build(node.expr2)
    return lambda ctx: then(ctx) if test(ctx) else otherwise(ctx)


def _concat(node: nodes.Concat) -> Closure:
    parts = [_build(child) for child in node.nodes]
    bounded_concat = ENV.bounded_concat
    return lambda ctx: bounded_concat(tuple(part(ctx) for part in parts))


def _made(items: Callable[[Context], Any]) -> Closure:
    made = ENV.made
    return lambda ctx: made(items(ctx))


def _list(node: nodes.List) -> Closure:
    items = [_build(child) for child in node.items]
    return _made(lambda ctx: [item(ctx) for item in items])


def _tuple(node: nodes.Tuple) -> Closure:
    if node.ctx != "load":
        raise Unsupported
    items = [_build(child) for child in node.items]
    return _made(lambda ctx: tuple(item(ctx) for item in items))


def _dict(node: nodes.Dict) -> Closure:
    pairs = []
    for pair in node.items:
        if type(pair) is not nodes.Pair:
            raise Unsupported
        pairs.append((_build(pair.key), _build(pair.value)))

    def dict_(ctx: Context) -> dict[Any, Any]:
        made: dict[Any, Any] = {}
        for key, value in pairs:  # key, then value, pair by pair: a dict display's order
            k = key(ctx)
            made[k] = value(ctx)
        return made
    return _made(dict_)


def _arguments(node: nodes.Call | nodes.Filter | nodes.Test
               ) -> tuple[list[Closure], list[tuple[str, Closure]]]:
    if node.dyn_args is not None or node.dyn_kwargs is not None:
        raise Unsupported
    args = [_build(arg) for arg in node.args]
    kwargs = []
    for keyword in node.kwargs:
        if type(keyword) is not nodes.Keyword:
            raise Unsupported
        kwargs.append((keyword.key, _build(keyword.value)))
    if len({key for key, _ in kwargs}) != len(kwargs):
        raise Unsupported  # Python refuses the generated call: Jinja's error, not ours
    return args, kwargs


def _call(node: nodes.Call) -> Closure:
    function = _build(node.node)
    args, kwargs = _arguments(node)
    call = ENV.call

    def call_node(ctx: Context) -> Any:
        target = function(ctx)
        values = [arg(ctx) for arg in args]
        named = {key: value(ctx) for key, value in kwargs}
        return call(ctx, target, *values, **named)
    return call_node


def _filter_or_test(table_name: str, what: str) -> Callable[[Any], Closure]:
    """``t_n(context, value, *args, **kwargs)``: the function looked up in the environment's
    table at every evaluation (as Jinja's module does at every render), whether it takes the
    context decided when compiled (as Jinja decides)."""
    def builder(node: nodes.Filter | nodes.Test) -> Closure:
        if node.node is None:
            raise Unsupported  # a filter block
        table = getattr(ENV, table_name)
        name = node.name
        if name not in table:
            raise Unsupported  # Jinja's own error, at compile or run time
        pass_arg = _PassArg.from_obj(table[name])
        if pass_arg not in (None, _PassArg.context):
            raise Unsupported
        with_context = pass_arg is _PassArg.context
        inner = _build(node.node)
        args, kwargs = _arguments(node)

        def apply(ctx: Context) -> Any:
            value = inner(ctx)
            values = [arg(ctx) for arg in args]
            named = {key: kw(ctx) for key, kw in kwargs}
            try:
                function = table[name]
            except KeyError:
                raise TemplateRuntimeError(f"No {what} named {name!r} found.") from None
            if with_context:
                return function(ctx, value, *values, **named)
            return function(value, *values, **named)
        return apply
    return builder


_BUILDERS: dict[type, Callable[[Any], Closure]] = {
    nodes.Const: _const,
    nodes.Name: lambda node: _name(node.name) if node.ctx == "load" else _unsupported(),
    nodes.Getattr: lambda node: _getattr(_build(node.node), node.attr),
    nodes.Getitem: _getitem,
    **{kind: _binop for kind in _BINOPS},
    nodes.And: _and,
    nodes.Or: _or,
    nodes.Not: _unary(operator.not_),
    nodes.Neg: _unary(operator.neg),
    nodes.Pos: _unary(operator.pos),
    nodes.Compare: _compare,
    nodes.CondExpr: _condexpr,
    nodes.Concat: _concat,
    nodes.List: _list,
    nodes.Tuple: _tuple,
    nodes.Dict: _dict,
    nodes.Call: _call,
    nodes.Filter: _filter_or_test("filters", "filter"),
    nodes.Test: _filter_or_test("tests", "test"),
}


def _unsupported() -> Closure:
    raise Unsupported
