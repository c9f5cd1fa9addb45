"""One evaluator: Jinja's compiled code, and one shortcut that makes the same calls.

generator/expressions/ compiles a lone ``{{ expression }}`` with Jinja's code generator into a
function returning its value (``BoundedSandbox.expression_function``), and reads a lone dotted
name or literal without Jinja's parser (shortcut.py). The reference here is Jinja's ordinary
template compilation (``Environment.from_string`` of the expression assigned to a variable,
what ``Environment.compile_expression`` does): each test evaluates a string both ways, in
the same variables, and compares the outcome (the value's type and repr, or the error's
class and message) and the units of work the meter counted.
The hostile strings found by attacking the old second evaluator stay here as tests of the
one path: each is refused, or gives, exactly what Jinja's own compiled template gives.
"""
from __future__ import annotations

import ast
import collections
import math
import re
import types
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from jinja2 import filters as jinja_filters
from jinja2 import meta, nodes
from jinja2.utils import consume

from generator.core import paths
from generator.expressions import (
    ENV,
    WORK_METER,
    Compiled,
    ExpressionError,
    LimitError,
    Scope,
    compile_value,
    compiler,
    evaluate,
    library,
    names_used,
    work_budget,
)
from generator.expressions import scope as scope_module


class Thing:
    """An object that is not data: every attribute of it is refused."""

    items = "an attribute"
    name = "thing"


SHADOWS = ["items", "keys", "values", "get", "pop", "copy", "format", "update", "upper",
           "split", "count", "index", "mro", "real", "_x", "__class__", "name", "a", "b"]
VALUES: dict[str, Any] = {
    "d": {"items": 1, "keys": [1, 2], "get": "g", "format": "f", "a": {"b": 2.5}},
    "plain": {"a": 1, "b": "two", "name": "Ace"},
    "proxy": types.MappingProxyType({"a": 1, "items": 3}),  # a Mapping, not a dict
    "ordered": collections.OrderedDict(a=1, keys=2),  # a dict subclass
    "xs": [1, 2, 3, 4, 5, 6],
    "words": ("x", "y"),
    "s": "Hello",
    "n": 7,
    "f": 2.5,
    "big": 2 ** 900,
    "nothing": None,
    "yes": True,
    "r": range(4),
    "thing": Thing(),
    "_private": {"a": 1},
    "b": 1.5, "c": 2, "cell": 4.0,
    "item": {"name": "Ace", "rank": 3, "tags": ["red", "odd"], "sections": [{"h": 1}, {"h": 2}]},
}


def reference_compile(text: str) -> Compiled:
    """compile_value through Jinja's template compiler alone (no shortcut, no lean module)."""
    if "{{" not in text and "{%" not in text:
        return Compiled(lambda context: text, 1)
    parsed = compiler.parse(text)
    if not parsed.whole:
        return compile_value(text)  # text with {{ }}: a Jinja template either way
    try:
        template = nodes.Template([nodes.Assign(nodes.Name("result", "store"), parsed.tree,
                                                lineno=1)], lineno=1)
        root = ENV.from_string(template).root_render_func
    except Exception as exc:  # as compile_value words it
        if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
            raise ExpressionError(f"invalid expression {compiler.quote(text)}: "
                                  f"{compiler.number_error(exc)}") from None
        message = exc.msg if isinstance(exc, SyntaxError) else getattr(exc, "message", exc)
        raise ExpressionError(f"invalid expression {compiler.quote(text)}: {message}") \
            from None

    def expression(context: Any) -> Any:
        consume(root(context))
        return context.vars.pop("result")
    return Compiled(expression, parsed.size)


ADDRESS = re.compile(r" at 0x[0-9a-f]+")  # a lazy sequence prints its address (values, errors)


@contextmanager
def compiled_by(reference: bool):
    """evaluate() with compile_value as it is, or through Jinja's template compiler."""
    if not reference:
        yield
        return
    with mock.patch.object(scope_module, "compile_value", reference_compile):
        yield


def outcome(text: str, values: dict[str, Any], reference: bool) -> tuple[str, str, str, int]:
    with compiled_by(reference), work_budget("expression") as meter:
        try:
            value = evaluate(text, Scope(values))
        except ExpressionError as exc:
            # Jinja's message may name a lazy sequence by its address, as a value's repr does
            return ("error", type(exc).__name__, ADDRESS.sub("", str(exc)), meter.work)
    return ("value", type(value).__name__, ADDRESS.sub("", repr(value)), meter.work)


def same(text: str, values: dict[str, Any] = VALUES) -> tuple[str, str, str, int]:
    ours, jinja = outcome(text, values, False), outcome(text, values, True)
    assert ours == jinja, text
    return ours


# -- the paths taken -------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["{{ palette.ink }}", "{{ cell }}", "{{ item.name }}",
                                  "{{ 3 }}", "{{ -2.5 }}", "{{ 'a b' }}", "{{ none }}"])
def test_lone_names_and_literals_take_the_shortcut(text):
    assert compile_value(text).run.__module__ == "generator.expressions.shortcut"


@pytest.mark.parametrize("text", [
    "{{ b + c * cell }}", "{{ x if y > 1 else 2 }}", "{{ item.name|upper }}", "{{ [a, b][0] }}",
    "{{ xs[1:3] }}", "{{ n is divisibleby 2 }}", "{{ f(*xs) }}", "{{ 1e3 }}", "{{ 007 }}",
    "{{ a . b }}", "{{ self }}", "{{ a.b.c.d.e.f.g.h.i }}", "{{ 'a\\'b' }}"])
def test_everything_else_is_compiled_by_jinja(text):
    try:
        compiled = compile_value(text)
    except ExpressionError:
        return  # refused when parsed or compiled: Jinja's own words
    assert compiled.run.__module__ != "generator.expressions.shortcut"


def test_text_with_expressions_is_a_jinja_template():
    assert same("Round {{ n }} of {{ c }}")[2] == "'Round 7 of 2'"


# -- dotted names and literals ---------------------------------------------------------------

names = st.sampled_from(sorted(VALUES) + SHADOWS + ["missing", "true", "none", "not", "self"])
dotted_paths = st.lists(names, min_size=1, max_size=9).map(".".join)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(path=dotted_paths, space=st.sampled_from(["", " ", "  ", "\n"]))
def test_a_dotted_name_resolves_as_jinja_resolves_it(path, space):
    """Keys that shadow dict methods, missing keys, underscores, keywords, a Mapping that is
    not a dict, a dict subclass, an object, a function, a list and a string."""
    same("{{" + space + path + space + "}}")


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(data=st.recursive(
    st.one_of(st.integers(-5, 5), st.floats(allow_nan=False), st.text(max_size=5),
              st.none(), st.booleans()),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(SHADOWS), inner, max_size=4)),
    max_leaves=12),
    path=st.lists(st.sampled_from(SHADOWS), min_size=0, max_size=3))
def test_a_dotted_name_in_any_data(data, path):
    same("{{ " + ".".join(["v", *path]) + " }}", {"v": data})


def test_a_key_named_like_a_method_is_the_data():
    assert same("{{ d.items }}")[2] == "1"
    assert same("{{ d.get }}")[2] == "'g'"
    assert same("{{ proxy.items }}")[2] == "3"
    assert same("{{ plain.items() }}")[0] == "value"  # no such key: the method
    assert same("{{ d.pop }}")[0] == "error"  # refused, key or not
    assert "unsafe" in same("{{ d._x }}")[2]
    assert "has no attribute 'missing'" in same("{{ plain.missing }}")[2]
    assert "undefined" in same("{{ missing.a }}")[2]
    assert "unsafe" in same("{{ thing.name }}")[2]


LITERAL_PARTS = ["0", "1", "7", "00", "007", "12", "3.5", "0.25", "1.", ".5", "1e3", "1_0", "-",
                 "- ", "'", '"', "a", "é", " ", "\\", "\r", "\n", "{", "}", "true", "None",
                 "x" * 16, "9" * 16]


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(LITERAL_PARTS), min_size=1, max_size=5).map("".join))
def test_a_literal_is_read_as_jinja_reads_it(source):
    same("{{ " + source + " }}")


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=12), quote=st.sampled_from(["'", '"']))
def test_quoted_text_is_read_as_jinja_reads_it(text, quote):
    same("{{ " + quote + text + quote + " }}")


@settings(max_examples=200, deadline=None)
@given(number=st.one_of(st.integers(0, 10 ** 15), st.floats(0, 1e15, allow_nan=False)),
       sign=st.sampled_from(["", "-"]))
def test_a_number_is_read_as_jinja_reads_it(number, sign):
    same("{{ " + sign + repr(number) + " }}")


# -- expressions of every supported kind: the lean module gives what a template gives --------

ATOMS = ["n", "f", "b", "c", "cell", "s", "xs", "words", "item", "item.name", "item.rank",
         "item.tags", "d", "plain.a", "nothing", "yes", "missing", "0", "1", "2.5", "-3",
         "'a'", "'Ab c'", "\"q\"", "true", "none", "r", "thing", "big", "d.keys", "item.tags[0]"]


def _combine(parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "~", "==", "!=", "<",
                              "<=", ">", ">=", "in", "not in", "and", "or"])
    return st.one_of(
        st.tuples(parts, binary, parts).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(st.sampled_from(["-", "+", "not "]), parts).map("".join),
        parts.map(lambda p: f"({p})"),
        st.tuples(parts, parts, parts).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        st.tuples(parts, st.sampled_from(
            ["upper", "length", "first", "int", "round(1)", "default(1)", "join(',')",
             "list", "sum", "string", "abs", "max", "sort", "reverse", "title", "trim",
             "replace('a', 'b')", "sum(attribute='h')", "map('upper')|list",
             "selectattr('h')|list", "center(3)", "float", "unique|list"])).map(
            lambda t: f"{t[0]}|{t[1]}"),
        st.tuples(st.sampled_from(["range", "len", "min", "max", "abs", "round", "str", "int",
                                   "float", "zip", "enumerate"]),
                  st.lists(parts, max_size=2)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(parts, parts).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(parts, st.sampled_from(["1:3", ":2", "::-1", "1:", ":"])).map(
            lambda t: f"{t[0]}[{t[1]}]"),
        st.lists(parts, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
        st.lists(parts, max_size=2).map(lambda items: f"({', '.join(items)},)"),
        st.tuples(parts, parts).map(lambda t: f"{{{t[0]}: {t[1]}}}"),
        st.tuples(parts, st.sampled_from(["defined", "none", "divisibleby 2", "not number",
                                          "string", "in(xs)", "sameas true"])).map(
            lambda t: f"{t[0]} is {t[1]}"),
        st.tuples(parts, st.sampled_from(["upper()", "split()", "count(1)", "index(2)",
                                          "items()", "get('a')", "center(5)"])).map(
            lambda t: f"{t[0]}.{t[1]}"),
    )


expressions_ = st.recursive(st.sampled_from(ATOMS), _combine, max_leaves=8)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=expressions_)
def test_an_expression_gives_what_jinja_gives(source):
    same("{{ " + source + " }}")


# -- hostile strings: the same answer as Jinja's own compiled template -----------------------

HOSTILE = [
    "{{ item.__class__ }}", "{{ item._x }}", "{{ ''.__class__.__mro__ }}", "{{ str.format }}",
    "{{ 'x'.format(1) }}", "{{ item.pop('a') }}", "{{ range.__class__ }}", "{{ self }}",
    "{{ loop.cycle }}", "{{ len.__self__ }}", "{{ 'a'.split.__self__ }}", "{{ xs.append(1) }}",
    "{{ 'x' * 100000 }}", "{{ [0] * 20000 }}", "{{ 2 ** 10000 }}", "{{ (2 ** 64) ** 64 }}",
    "{{ 10 ** 60 * 10 ** 60 * 10 ** 60 * 10 ** 60 * 10 ** 60 * 10 ** 60 }}",
    "{{ range(10 ** 9) }}", "{{ 'x'|center(2000000000) }}", "{{ 'x'.center(2000000000) }}",
    "{{ '%0999999999d' % 1 }}", "{{ round(5, -10 ** 9) }}", "{{ [[0] * 10000] * 10000 }}",
    "{{ range(10000)|map('center', 10000)|list }}", "{{ len }}", "{{ 'a'.upper }}",
    "{{ [len] }}", "{{ " + "(" * 40 + "1" + ")" * 40 + " }}", "{{ a" + ".b" * 40 + " }}",
    "{{ " + "-" * 40 + "1 }}", "{{ " + "not " * 40 + "1 }}", "{{ " + "[" * 40 + "]" * 40 + " }}",
    "{{ 1 / 0 }}", "{{ 1 // 0 }}", "{{ 'a' - 1 }}", "{{ -'a' }}", "{{ 1 < 'a' }}",
    "{{ 1 in 5 }}", "{{ missing + 1 }}", "{{ missing }}", "{{ x if y }}", "{{ 1e400 }}",
    "{{ f(a=1, a=2) }}", "{{ n(1) }}", "{{ item|no_such_filter }}", "{{ n is no_such_test }}",
    "{{ xs[::0] }}", "{{ 'a' 'b' }}", "{{ }}", "{{ 1 2 }}", "{{ a = 1 }}", "{{ (1, 2 }}",
    "{{ {'a': {'b': 1}} }}", "{{ 'x' ~ 'y' * 6000 }}", "{{ 'x'[5] }}", "{{ xs[10] }}",
    "{{ d['keys'] }}", "{{ d[none] }}", "{{ thing[0] }}", "{{ n[0] }}", "{{ s.zfill(10 ** 9) }}",
    "a {{ 'x' * 6000 }}{{ 'y' * 6000 }}", "{% for x in xs %}{% endfor %}", "{% set a = 1 %}",
    "{% if missing %}a{% endif %}", "{% if n %}{{ 'x' * 10001 }}{% endif %}",
    "{{ varargs }}", "{{ kwargs }}", "{{ caller() }}", "{{ super() }}",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_hostile_string_is_refused_as_jinja_refuses_it(text):
    same(text)


MORE_HOSTILE = [
    "{{ s['__class__'] }}", "{{ item['__class__'] }}", "{{ plain['update']({'a': 2}) }}",
    "{{ xs['append'](1) }}", "{{ s['format'] }}", "{{ len['__call__'] }}", "{{ r.start }}",
    "{{ (xs|map('abs')).gi_frame }}", "{{ (xs|map('abs'))['gi_frame'] }}", "{{ cycler }}",
    "{{ lipsum }}", "{{ namespace }}", "{{ environment }}", "{{ context }}", "{{ resolve }}",
    "{{ __builtins__ }}", "{{ s|attr('__class__') }}",
    "{{ [plain]|map(attribute='__class__')|list }}",
    "{{ [plain]|map(attribute='a.__class__')|list }}", "{{ [d]|map(attribute='pop')|list }}",
    "{{ [plain]|sort(attribute='__class__') }}", "{{ [thing]|selectattr('name')|list }}",
    "{{ d.get('__class__') }}", "{{ '%99999999s'|format(1) }}", "{{ '{0.__class__}'|format(s) }}",
    "{{ '%(a)99999999s'|format(a=1) }}", "{{ '%(x)s' % {'x': thing} }}", "{{ '%.9999999f' % 1.0 }}",
    "{{ '%c' % 1114112 }}", "{{ 10 ** 10 ** 10 }}", "{{ 2 ** 100000 }}", "{{ 10.0 ** 400 }}",
    "{{ range(10 ** 12)|length }}", "{{ int('9' * 5000) }}", "{{ 'é' ~ '\\u00e9' }}", "{{ 1_000 }}",
    "{{ 0x10 }}", "{{ 1e5 }}", "{{ .5 }}", "{{ 5. }}", "{{ '\\N{BULLET}' }}", "{{ '\\x4' }}",
    "{{ xs[::0] }}", "{{ 1 if missing }}", "{{ result }}", "a {{ result }} b",
    "{{ " + " if 1 else ".join(["1"] * 40) + " }}", "{{ x" + "[0]" * 40 + " }}",
    "{{ 1" + "|abs" * 40 + " }}", "{{ " + "abs(" * 40 + "1" + ")" * 40 + " }}",
    "{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}", "{{ " + "1 + " * 2000 + "1 }}",
]


@pytest.mark.parametrize("text", MORE_HOSTILE)
def test_more_hostile_strings_are_refused_as_jinja_refuses_them(text):
    same(text)


HUGE_NUMBERS = ["9" * 5000, "0x" + "f" * 4000]  # Python reads or writes neither: > 4300 digits


@pytest.mark.parametrize("number", HUGE_NUMBERS)
@pytest.mark.parametrize("shape", ["{{ N }}", "a {{ N }} b", "{% if N %}x{% endif %}",
                                   "{{ N if true else 1 }}", "{{ N if y }}"])
def test_a_number_with_too_many_digits_is_an_expression_error(number, shape):
    """Jinja's lexer reads ``99...9`` with int(), its code generator writes a constant with
    repr(): past 4 300 digits both raised a bare ValueError, a traceback (either path)."""
    text = shape.replace("N", number)
    kind, error, message, _ = same(text)
    assert (kind, error) == ("error", "ExpressionError")
    assert "a number with too many digits" in message
    assert names_used.__wrapped__(text) <= {"y"}  # it fails when evaluated


def test_a_big_number_constant_is_refused():
    text = "{{ 0x" + "f" * 300 + " }}"
    assert "larger than 2**1000" in same(text)[2]


def test_big_numbers_and_floats_settle_as_jinja_gives_them():
    assert same("{{ big * 2 }}")[0] == "value"
    assert "larger than 2**1000" in same("{{ big * big }}")[2]
    assert same("{{ f * 2 }}")[:3] == ("value", "float", "5.0")
    assert same("{{ yes }}")[:3] == ("value", "bool", "True")
    assert same("{{ nothing }}")[:3] == ("value", "NoneType", "None")
    assert math.isnan(evaluate("{{ 'nan'|float }}", {}))


@pytest.mark.parametrize("text, error, words", [
    ("{{ 'x' * 100000 }}", LimitError, "longer than 10000"),
    ("{{ 2 ** 10000 }}", LimitError, "exponent"),
    ("{{ item.__class__ }}", ExpressionError, "unsafe"),
    ("{{ d._x }}", ExpressionError, "unsafe"),
    ("{{ a" + ".b" * 40 + " }}", ExpressionError, "nested more than 32"),
    ("{{ " + "-" * 40 + "1 }}", ExpressionError, "nested more than 32"),
    ("{{ " + "[" * 40 + "]" * 40 + " }}", ExpressionError, "nested more than 32"),
    ("{{ range(10 ** 9) }}", LimitError, "10000"),
    ("{{ len }}", ExpressionError, "a function is not a value"),
])
def test_the_limits_hold(text, error, words):
    with pytest.raises(error, match=words):
        evaluate(text, VALUES)


# -- what a template depends on ---------------------------------------------------------------

def reference_names(text: str) -> frozenset[str] | None:
    """Jinja's undeclared variables of a string that compiles (else nothing); None wherever
    Jinja itself cannot say, whatever it raises: its parser refuses the text, or its analysis,
    which folds constants, fails on one (``0['a']``: "'int object' has no attribute 'a'";
    ``{[]: 0}[1:3]`` and ``({[]: 0}) is defined``: a TypeError, unhashable list). A reference
    that raised would fail the property on Jinja's refusal, not on ``names_used``; None makes
    the property assume the case away, and ``names_used`` is held on it by the cases below."""
    if "{{" not in text and "{%" not in text:
        return frozenset()
    try:
        compile_value(text)
    except (ExpressionError, ValueError, RecursionError):
        return frozenset()  # does not compile: it reads nothing (it fails when evaluated)
    whole = compiler.WHOLE.match(text)
    source = text if not whole else "{{ " + whole.group(1) + " }}"
    try:
        return frozenset(meta.find_undeclared_variables(ENV.parse(source)))
    except Exception:  # any refusal of Jinja's is "no reference", not a failure
        return None


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(source=expressions_, space=st.sampled_from(["", " ", "\n"]))
def test_names_used_are_the_undeclared_variables_jinja_finds(source, space):
    """Globals (range, t...) are not dependencies; a string that does not compile reads
    nothing (it fails when evaluated)."""
    text = "{{" + space + source + space + "}}"
    reference = reference_names(text)
    assume(reference is not None)
    if reference or compile_ok(text):
        assert names_used.__wrapped__(text) == reference, text


def test_where_jinja_cannot_say_there_is_no_reference():
    """The case a dev-profile run found: Jinja's own analysis raises on a constant."""
    assert reference_names("{{(n if 0['a'] else n)}}") is None
    assert names_used.__wrapped__("{{(n if 0['a'] else n)}}") == frozenset({"n"})
    assert reference_names("{{{[]: 0}[1:3]}}") is None
    # A fresh-seed run's find (issue 37): Jinja's analysis raises TypeError, unhashable list.
    for text in ("{{({[]: 0}) is defined}}", "{{ ({[]: 0}) is defined }}"):
        assert reference_names(text) is None
        assert names_used.__wrapped__(text) == frozenset()
    assert names_used.__wrapped__("{{({[]: n}) is defined}}") == frozenset({"n"})


def compile_ok(text: str) -> bool:
    try:
        compile_value(text)
    except ExpressionError:
        return False
    return True


@pytest.mark.parametrize("text", HOSTILE + [
    "{{ x }}", "{{ range(n) }}", "{{ t('a') ~ name }}", "{{ x|no_such_filter }}",
    "{{ n is no_such_test }}", "{{ loop.index }}", "{{ a, b }}", "{{ a }} {{ b }}",
    "{{ " + "-" * 31 + "x }}", "{{ " + "-" * 30 + "x }}", "{{ x if y else z|upper }}",
    "{{ " + "x" * 20000 + " }}"])
def test_names_used_of_odd_strings(text):
    if compile_ok(text):
        assert names_used.__wrapped__(text) == reference_names(text)
    else:  # it fails when evaluated: what it names does not matter, but never raises
        assert all(name.isidentifier() for name in names_used.__wrapped__(text))


# -- work: the same units, whichever way a string is compiled ---------------------------------

@pytest.mark.parametrize(("text", "units"), [
    ("{{ cell }}", 1), ("{{ item.name }}", 2), ("{{ 3 }}", 1), ("{{ -3 }}", 2),
    ("{{ b + c }}", 3),  # Add, Name, Name: numbers add without a charge
    ("plain text", 1),
])
def test_an_expression_costs_its_nodes(text, units):
    assert same(text)[3] == units


# -- the package: below the faces, one environment -------------------------------------------

PACKAGE = paths.ROOT / "generator" / "expressions"


def test_the_package_sits_below_the_faces():
    """generator/expressions/ imports no face module (faces import expressions), and no module
    of it imports another module's private name."""
    for file in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                assert "faces" not in module, (file.name, module)
                assert not any(alias.name.startswith("_") for alias in node.names
                               if alias.name != "__future__"), (file.name, module)
            elif isinstance(node, ast.Import):
                assert not any("faces" in alias.name for alias in node.names), file.name


def test_filters_are_called_as_jinja_calls_them():
    assert library.first_argument(jinja_filters.do_map) == "context"
    assert library.first_argument(jinja_filters.do_sort) == "environment"
    assert library.first_argument(jinja_filters.do_trim) is None
    with work_budget("expression"):
        assert evaluate("{{ [3, 1, 2]|sort|first }} {{ ['a', 'b']|map('upper')|join }}",
                        {}) == "1 AB"


def test_the_meter_is_per_context():
    """The meter lives in a ContextVar: a budget opened in one context is not another's."""
    import contextvars

    with work_budget() as outer:
        evaluate("{{ 'x' * 10 }}", {})
        seen = contextvars.Context().run(lambda: WORK_METER.get())
    assert seen is None and outer.work > 0 and WORK_METER.get() is None
