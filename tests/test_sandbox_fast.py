"""The fast expression paths give what Jinja's compiled code gives: values and errors alike.

generator/faces/sandbox_parse.py reads common expressions into Jinja's own tree and
generator/faces/sandbox_fast.py evaluates trees as closures instead of compiled modules
(a kit's ~1 000 expression strings compiled ~8x faster). ``expressions._compile(text,
fast=False)`` is the reference: the original path through Jinja's parser and compiler.
Each test evaluates the same string both ways, in the same variables, and compares the
outcome: the value (type and repr), or the error's class and message.
"""
from __future__ import annotations

import collections
import math
import types
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2 import nodes
from jinja2.parser import Parser

from generator.faces import expressions, sandbox_fast, sandbox_parse
from generator.faces.expressions import ENV, ExpressionError, LimitError, Scope, evaluate


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


@contextmanager
def compiled_by(fast: bool):
    """compile_value as it is (fast) or through Jinja's compiler alone (the reference)."""
    with mock.patch.object(expressions, "compile_value",
                           lambda text: expressions._compile(text, fast)):
        yield


def outcome(text: str, values: dict[str, Any], fast: bool) -> tuple[str, str, str]:
    with compiled_by(fast):
        try:
            value = evaluate(text, Scope(values))
        except ExpressionError as exc:
            return ("error", type(exc).__name__, str(exc))
    return ("value", type(value).__name__, repr(value))


def same(text: str, values: dict[str, Any] = VALUES) -> tuple[str, str, str]:
    fast, slow = outcome(text, values, True), outcome(text, values, False)
    assert fast == slow, text
    return fast


def dump(node: Any) -> Any:
    """A tree with its node and constant types (``Const(1) == Const(True)`` in Jinja)."""
    if isinstance(node, nodes.Node):
        return (type(node).__name__,) + tuple((f, dump(getattr(node, f))) for f in node.fields)
    if isinstance(node, list):
        return [dump(child) for child in node]
    return (type(node).__name__, repr(node))


def jinja_tree(source: str) -> Any:
    try:
        parser = Parser(ENV, source, state="variable")
        tree = parser.parse_expression()
        return dump(tree) if parser.stream.eos else "error"
    except Exception:  # any failure: ours must have refused the string too
        return "error"


# -- the fast paths are taken ----------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "{{ palette.ink }}", "{{ cell }}", "{{ b + c * cell }}", "{{ x if y > 1 else 2 }}",
    "{{ item.name|upper }}", "{{ [a, b][0] }}", "{{ xs[1:3] }}", "{{ n is divisibleby 2 }}",
    "{{ range(3)|list }}", "{{ {'a': 1}[k] }}"])
def test_common_expressions_compile_to_closures(text):
    assert expressions.compile_value(text).__module__ == sandbox_fast.__name__


def test_text_with_expressions_renders_through_closures():
    assert expressions.compile_value("Round {{ n }} of {{ total }}").__qualname__ \
        .startswith("_rendered")


@pytest.mark.parametrize("text", [
    "{{ f(*xs) }}", "{{ x if y }}", "{{ 1e400 }}", "{{ x|no_such_filter }}",
    "{{ f(a=1, a=2) }}"])
def test_the_rest_goes_through_jinja(text):
    try:
        compiled = expressions.compile_value(text)
    except ExpressionError:
        return  # an error at compile time: Jinja's own
    assert compiled.__module__ != sandbox_fast.__name__


# -- dotted names ----------------------------------------------------------------------------

names = st.sampled_from(sorted(VALUES) + SHADOWS + ["missing", "true", "none", "not", "self"])
paths = st.lists(names, min_size=1, max_size=5).map(".".join)


@settings(max_examples=400, deadline=None)
@given(path=paths, space=st.sampled_from(["", " ", "  ", "\n"]))
def test_a_dotted_name_resolves_as_jinja_resolves_it(path, space):
    """Keys that shadow dict methods, missing keys, underscores, keywords, a Mapping that is
    not a dict, a dict subclass, an object, a function, a list and a string."""
    same("{{" + space + path + space + "}}")


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


# -- expressions of every supported kind ----------------------------------------------------

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


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=expressions_)
def test_an_expression_gives_what_jinja_gives(source):
    same("{{ " + source + " }}")
    tree = sandbox_parse.parse(source)
    if tree is not None:
        assert dump(tree) == jinja_tree(source), source


@settings(max_examples=300, deadline=None)
@given(source=expressions_, other=expressions_)
def test_text_with_expressions_gives_what_jinja_gives(source, other):
    same("Total: {{ " + source + " }}!")
    same("{% if " + source + " %}a {{ " + other + " }}{% elif n %}b{% else %}c{% endif %}.")


TOKENS = ["a", "b", "x1", "_y", "if", "else", "and", "or", "not", "in", "is", "none", "True",
          "0", "1", "12", "3.5", "'s'", "\"d\"", "'é'", "+", "-", "*", "/", "//", "%", "**",
          "~", "(", ")", "[", "]", "{", "}", ":", ",", ".", "|", "=", "==", "!=", "<", "<=",
          ">", ">=", "upper", "defined", "divisibleby", " ", "\n", "\t", "1e3", "0x1", "1_0",
          "!", ";", "\\", "'a\\'b'", "}}", "-}}", "é", "00", "1.", ".5", "\r", "\u00a0",
          "'x\ny'", "99999999999999999999"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=10).map("".join))
def test_the_parser_gives_jinjas_tree_or_refuses(source):
    """Any soup of tokens: the parser's tree is Jinja's, or it leaves the string to Jinja."""
    tree = sandbox_parse.parse(source)
    if tree is not None:
        assert dump(tree) == jinja_tree(source), source


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_quoted_text_is_read_as_jinja_reads_it(text):
    for quote in ("'", '"'):
        source = quote + text + quote
        tree = sandbox_parse.parse(source)
        if tree is not None:
            assert dump(tree) == jinja_tree(source)


TEXT_PIECES = ["a", " ", "\n", "{{", "}}", "{{ x }}", "{{ a.b }}", "{{x}}", "{{-x}}", "{{ x -}}",
               "{{ '}}' }}", "{{ {'a': 1} }}", "{% if x %}", "{#", "#}", "\r\n", "é", "}", "{",
               "{{ 1 + 2 }}", "{{ 'a' ~ b }}", "{{ x|upper }}", "{{ a, b }}", "{{ }}", "%}",
               "{{+ x }}", "{{ (1 }}", "{{ [1, {2: 3}] }}", "Note: ", "{{ \"}}\" }}"]


def jinja_template(text: str) -> Any:
    try:
        return dump(ENV.parse(text))
    except Exception:  # any failure: ours must have refused the text too
        return "error"


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(TEXT_PIECES), min_size=1, max_size=6).map("".join))
def test_text_is_read_as_jinja_reads_it_or_left_to_it(text):
    tree = sandbox_parse.parse_text(text)
    if tree is not None:
        assert dump(tree) == jinja_template(text), text


# -- hostile strings and limits: same answer either way -------------------------------------

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
def test_a_hostile_string_is_refused_the_same_way(text):
    same(text)


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
def test_the_limits_hold_on_the_fast_path(text, error, words):
    with pytest.raises(error, match=words):
        evaluate(text, VALUES)


def test_big_numbers_and_floats_settle_as_before():
    assert same("{{ big * 2 }}")[0] == "value"
    assert "larger than 2**1000" in same("{{ big * big }}")[2]
    assert same("{{ f * 2 }}") == ("value", "float", "5.0")
    assert same("{{ yes }}") == ("value", "bool", "True")
    assert same("{{ nothing }}") == ("value", "NoneType", "None")
    assert math.isnan(evaluate("{{ 'nan'|float }}", {}))


# -- what a template depends on ---------------------------------------------------------------

def reference_names(text: str) -> frozenset[str]:
    if "{{" not in text and "{%" not in text:
        return frozenset()
    return expressions._names_used(text, expressions._WHOLE.match(text))


@settings(max_examples=400, deadline=None)
@given(source=expressions_, space=st.sampled_from(["", " ", "\n"]))
def test_names_used_are_the_undeclared_variables_jinja_finds(source, space):
    """Globals (range, t...) are not dependencies; unknown filters or tests, reserved names
    and trees too deep give nothing, as Jinja's own answer does."""
    text = "{{" + space + source + space + "}}"
    assert expressions.names_used.__wrapped__(text) == reference_names(text), text


@pytest.mark.parametrize("text", HOSTILE + [
    "{{ x }}", "{{ range(n) }}", "{{ t('a') ~ name }}", "{{ x|no_such_filter }}",
    "{{ n is no_such_test }}", "{{ loop.index }}", "{{ a, b }}", "{{ a }} {{ b }}",
    "{{ " + "-" * 31 + "x }}", "{{ " + "-" * 30 + "x }}", "{{ x if y else z|upper }}",
    "{{ " + "x" * 20000 + " }}"])
def test_names_used_of_odd_strings(text):
    assert expressions.names_used.__wrapped__(text) == reference_names(text)


# -- found by attacking the fast path (a hostile author's strings) ---------------------------

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
def test_more_hostile_strings_are_refused_the_same_way(text):
    same(text)


HUGE_NUMBERS = ["9" * 5000, "0x" + "f" * 4000]  # Python reads or writes neither: > 4300 digits


@pytest.mark.parametrize("number", HUGE_NUMBERS)
@pytest.mark.parametrize("shape", ["{{ N }}", "a {{ N }} b", "{% if N %}x{% endif %}",
                                   "{{ N if true else 1 }}", "{{ N if y }}"])
def test_a_number_with_too_many_digits_is_an_expression_error(number, shape):
    """Jinja's lexer reads ``99...9`` with int(), its code generator writes a constant with
    repr(): past 4 300 digits both raised a bare ValueError, a traceback (either path)."""
    text = shape.replace("N", number)
    kind, error, message = same(text)
    assert (kind, error) == ("error", "ExpressionError")
    assert "a number with too many digits" in message
    assert expressions.names_used.__wrapped__(text) == frozenset()


def test_a_big_number_constant_is_left_to_jinja():
    """More than MAX_INT_BITS: the closures hand it back, so both paths say the same."""
    text = "{{ 0x" + "f" * 300 + " }}"
    assert expressions.compile_value(text).__module__ != sandbox_fast.__name__
    assert "larger than 2**1000" in same(text)[2]
