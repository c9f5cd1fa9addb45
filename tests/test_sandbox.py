"""The expression sandbox against hostile strings: no escape, no secret, bounded memory and work.

Data files, themes and face templates come from strangers, and every string in them may be a
Jinja2 expression (generator/expressions/). Payloads tried (server-side template
injection and resource bombs) and what they give now; each is in the tables below:

  Escapes (all refused with "not allowed in ...: access to attribute ... is unsafe", or the
  name is undefined/reserved; the secret never appears):
    {{ str.format('{0.__init__.__globals__[os].environ[SECRET]}', cycler) }}
        (the reported escape: it printed the secret; ``str`` is now a plain function)
    {{ str.format('{0.__class__}', 1) }}, {{ '{0.__class__}'.format(1) }},
    {{ '{0}'.format_map({}) }}, {{ 'x'.format }}, {{ str('x').format(...) }}
    {{ '%(__class__)s' % item }} (a key lookup, KeyError), {{ '%s' % item.__class__ }}
    {{ item|attr('__class__') }}, {{ item|attr('__init__') }} (no attr filter)
    {{ self }}, {{ self.__dict__ }}, {{ loop.cycle }}, {{ caller() }}, {{ varargs }} (reserved)
    {{ lipsum.__globals__ }}, {{ cycler.__init__.__globals__ }}, {{ joiner }},
    {{ namespace() }}, {{ dict(a=1) }}, {{ config }}, {{ request }} (not defined)
    {{ range.__class__ }}, {{ range(1).__class__.__mro__ }}, {{ [].__class__ }},
    {{ ().__class__.__base__.__subclasses__() }}, {{ ''.__class__.__mro__[1]... }}
    {{ int.__subclasses__() }}, {{ int.mro() }}, {{ float.fromhex('1') }}, {{ zip.mro }},
    {{ str.join(',', ['a']) }}, {{ len.__self__ }}, {{ enumerate.__init__ }},
    {{ min.__module__ }}, {{ regular.__globals__ }} (functions have no attributes)
    {{ 'a'.split.__self__ }}, {{ 'a'.split._function }} (methods have none either)
    {{ (1).to_bytes(3000000000, 'big') }}, {{ 'x'.encode() }}
    {{ item.pop('a') }}, {{ item.xs.append(1) }}, {{ item.update({...}) }} (no mutation)
    {{ xs|map(attribute='__class__') }}, {{ xs|sort(attribute='__class__') }},
    {{ item|selectattr('__class__') }} (attribute names go through the same allow-list)
    {{ item['__class__'] }}, {{ {}.__class__ }}, {{ item.keys().mapping }}
    {{ str }}, {{ [len] }}, {{ 'a'.upper }} (a function is not a value)
    {% macro %}, {% for %}, {% set %}, {% include %}, {% import %}, {% extends %},
    {% filter %} (only {{ }} and {% if %} are allowed)
  Bombs (all refused before allocating, within the work meter's budget):
    {{ 'x'|center(2000000000) }} (was folded at compile time: gigabytes), also inside text
    {{ 'x'.center(2000000000) }}, .ljust(4e9), .rjust(10**9), .zfill(10**9),
    .expandtabs(10**9), .replace('x', 'xx') on 10 000 characters, ','.join(...)
    {{ '%0999999999d' % 1 }}, '%.999999999f', '%*d', '%(a)999999999s', '%999999999s'|format
    {{ '%s' % (big nested list,) }}, {{ (big nested list)|string }}, '{:>999999999}'.format
    {{ 'x' * 10**9 }}, {{ [0] * 20000 }}, {{ [[0] * 10000] * 10000 }}
    {{ 2 ** 1000 }}, {{ (2 ** 64) ** 64 }}, 10 ** 60 * ... (integers past 2**1000)
    {{ round(5, -10**9) }} (hangs in plain Python), {{ 5|round(10**9, 'floor') }}
    {{ range(10**9) }}, {{ range(10**9)|list }}, range(10000)|map('center', 10000)|list,
    [range(10000)|list] * 10000, ([0] * 10000)|map('default', 'x' * 10000, true)|list,
    range(10000)|select('in', range(10000)|list) (quadratic: stopped by the work limit)
    {{ lipsum(10**9) }} (gone), {{ regular(0, 0, 1, 10**8) }}, {{ star(0, 0, 1, 10**8) }},
    {{ arrow(0, 0, 1e308, ...) }}, {{ d6_net(0, 0, 'x') }}
    |indent(10**9), |wordwrap(1, wrapstring='-' * 1000), |replace('', 'y' * 9000),
    [1]|sum(start=[]) (quadratic list sums), (100 nested brackets), a.b.b.b... (52 deep)
    each: range(10000) inside each: range(10000) (template.py: loop limit per face)
    a face whose expressions do too much (the work meter: per expression, per face)
  Harmless, allowed: {% raw %}{{ 7*7 }}{% endraw %} (literal text), '%(a)s' % item (data),
    'abc'['upper']() (an allowed method), item.xs[0:10**9] (a slice copies at most the list).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import tracemalloc

import pytest
from jinja2.sandbox import SandboxedEnvironment

from generator import expressions
from generator.core import paths
from generator.core.errors import DataError
from generator.data.design.templates import load_template
from generator.expressions import (
    ENV,
    MAX_FACE_WORK,
    MAX_SIZE,
    MAX_WORK,
    ExpressionError,
    compile_value,
    evaluate,
    limits,
    names_used,
    work_budget,
)
from generator.faces.template import ELEMENT_WORK, REPETITION_WORK
from tests.designer import run
from tests.drawing import render_face

CANARY = "s3cr3t-canary-7f1d"  # the value of SECRET while these tests run
CONTEXT = {"item": {"a": 1, "name": "Ace", "xs": [1, 2, 3]}, "W": 63.5, "H": 88.9,
           "palette": {"ink": "#000000"}}


@pytest.fixture(autouse=True)
def secret(monkeypatch):
    monkeypatch.setenv("SECRET", CANARY)
    return CANARY


def refused(expr: str, match: str, context: dict | None = None) -> str:
    """Evaluate ``expr``: it must fail with an ExpressionError matching ``match``, within
    the work meter's budget and without the secret. Returns the message."""
    with work_budget("expression") as meter, \
            pytest.raises(ExpressionError, match=match) as info:
        result = evaluate(expr, CONTEXT if context is None else context)
        assert CANARY not in repr(result)
    assert meter.work <= MAX_WORK + MAX_SIZE  # the last charge may pass the line once
    message = str(info.value)
    assert CANARY not in message
    return message


# -- escapes -------------------------------------------------------------------------------

UNSAFE = r"not allowed in .*unsafe"
ESCAPES = [
    # the reported escape and its variants: str.format walks attributes outside the sandbox
    ("{{ str.format('{0.__init__.__globals__[os].environ[SECRET]}', cycler) }}", UNSAFE),
    ("{{ str.format('{0.__class__}', 1) }}", UNSAFE),
    ("{{ '{0.__class__}'.format(1) }}", UNSAFE),
    ("{{ '{0.__init__.__globals__}'.format(range) }}", UNSAFE),
    ("{{ '{0}'.format_map({}) }}", UNSAFE),
    ("{{ 'x'.format }}", UNSAFE),
    ("{{ str('x').format('{0.__class__}') }}", UNSAFE),
    ("{{ ''['format']('{0.__class__}', 1) }}", UNSAFE),
    ("{{ str.join(',', ['a']) }}", UNSAFE),
    ("{{ '%(__class__)s' % item }}", "__class__"),  # a key of the data, not an attribute
    ("{{ '%s' % item.__class__ }}", UNSAFE),
    # filters that walk attributes
    ("{{ item|attr('__class__') }}", "No filter named 'attr'"),
    ("{{ item|attr('__init__') }}", "No filter named 'attr'"),
    ("{{ item.xs|map(attribute='__class__')|list }}", UNSAFE),
    ("{{ item.xs|sort(attribute='__class__') }}", UNSAFE),
    ("{{ item|selectattr('__class__')|list }}", UNSAFE),
    ("{{ item.xs|join(attribute='__class__') }}", UNSAFE),
    # Jinja's special names and default globals
    ("{{ self }}", "the name 'self' is reserved"),
    ("{{ self.__dict__ }}", "the name 'self' is reserved"),
    ("{{ loop.cycle }}", "the name 'loop' is reserved"),
    ("{{ caller() }}", "the name 'caller' is reserved"),
    ("{{ varargs }}", "the name 'varargs' is reserved"),
    ("{{ lipsum.__globals__ }}", UNSAFE),
    ("{{ lipsum() }}", "'lipsum' is undefined"),
    ("{{ cycler.__init__.__globals__ }}", UNSAFE),
    ("{{ joiner() }}", "'joiner' is undefined"),
    ("{{ namespace() }}", "'namespace' is undefined"),
    ("{{ dict(a=1) }}", "'dict' is undefined"),
    ("{{ config }}", "'config' is undefined"),
    ("{{ request.environ }}", "'request' is undefined"),
    # type objects and functions: no attributes at all
    ("{{ range.__class__ }}", UNSAFE),
    ("{{ range(1).__class__.__mro__ }}", UNSAFE),
    ("{{ ().__class__.__base__.__subclasses__() }}", UNSAFE),
    ("{{ ''.__class__.__mro__[1].__subclasses__() }}", UNSAFE),
    ("{{ [].__class__ }}", UNSAFE),
    ("{{ int.__subclasses__() }}", UNSAFE),
    ("{{ int.mro() }}", UNSAFE),
    ("{{ float.fromhex('1') }}", UNSAFE),
    ("{{ zip.mro }}", UNSAFE),
    ("{{ len.__self__ }}", UNSAFE),
    ("{{ enumerate.__init__ }}", UNSAFE),
    ("{{ min.__module__ }}", UNSAFE),
    ("{{ regular.__globals__ }}", UNSAFE),
    ("{{ 'a'.split.__self__ }}", UNSAFE),
    ("{{ 'a'.split._function }}", UNSAFE),
    ("{{ item['__class__'] }}", UNSAFE),
    ("{{ {}.__class__ }}", UNSAFE),
    ("{{ item.__class__ }}", UNSAFE),
    ("{{ item.keys().mapping }}", "has no attribute 'mapping'"),
    ("{{ str }}", "a function is not a value"),
    ("{{ [len] }}", "a function is not a value"),
    # methods that convert, allocate or mutate
    ("{{ (1).to_bytes(3000000000, 'big') }}", UNSAFE),
    ("{{ 'x'.encode() }}", UNSAFE),
    ("{{ item.pop('a') }}", UNSAFE),
    ("{{ item.xs.append(1) }}", UNSAFE),
    ("{{ item.update({'a': 2}) }}", UNSAFE),
    ("{{ item.name() }}", "not safely callable"),
    # statements
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", r"\{% macro %\} is not allowed"),
    ("{% for i in range(3) %}x{% endfor %}", r"\{% for %\} is not allowed"),
    ("{% set x = cycler %}{{ x }}", r"\{% set %\} is not allowed"),
    ("{% include 'x' %}", r"\{% include %\} is not allowed"),
    ("{% import 'os' as os %}", r"\{% import %\} is not allowed"),
    ("{% extends 'x' %}", r"\{% extends %\} is not allowed"),
    ("{% filter upper %}x{% endfilter %}", r"\{% filter %\} is not allowed"),
]


@pytest.mark.parametrize(("expr", "match"), ESCAPES)
def test_escapes_are_refused(expr, match):
    refused(expr, match)


def test_the_reported_escape_is_closed_in_a_face_template(tmp_path):
    """The issue's face template printed the secret in the PDF: now a DataError naming file,
    line and field, without the secret."""
    (tmp_path / "t.yaml").write_text(textwrap.dedent("""\
        elements:
          - text: {x: 0, y: 0, w: 50, h: 10,
                   text: "{{ str.format('{0.__init__.__globals__[os].environ[SECRET]}', 1) }}"}
        """), encoding="utf-8")
    with pytest.raises(DataError) as info:
        render_face(load_template("t", tmp_path), 63.5, 88.9, {})
    err = info.value
    assert (err.file, err.line, err.field) == (str(tmp_path / "t.yaml"), 3, "elements[0].text.text")
    assert "unsafe" in err.expected and CANARY not in err.message()


def test_the_reported_escape_is_closed_in_a_data_file_label(game_file, tmp_path, monkeypatch,
                                                            capsys):
    """The issue's data file put the secret in PNG file names through ``label``: the command
    line (in this process: an exception would fail the test where a child prints a
    traceback) now exits 2 with the file and line, no secret, nothing written."""
    label = 'label: "{{ item.rank.name }} of {{ item.suit.name }}"'
    payload = "label: \"{{ str.format('{0.__init__.__globals__[os].environ[SECRET]}', 1) }}\""
    file, (line,) = game_file((label, payload))
    monkeypatch.setenv("SECRET", CANARY)
    monkeypatch.chdir(paths.ROOT)
    code, out, err = run(capsys, "png", file, "--out", tmp_path / "out")
    assert code == 2, err
    assert "Traceback" not in err
    assert f"{file}:{line}: components[0].label" in err and "unsafe" in err
    assert CANARY not in out + err
    assert not any((tmp_path / "out").rglob("*.png"))


# -- resource bombs ------------------------------------------------------------------------

WIDE = "is larger than 10000"
LONG = "longer than 10000"
BOMBS = [
    ("{{ 'x'|center(2000000000) }}", WIDE),
    ("a {{ 'x'|center(2000000000) }} b", WIDE),
    ("{{ 'x'|center(width=2000000000) }}", WIDE),
    ("{{ 'x'.center(2000000000) }}", WIDE),
    ("{{ 'x'.ljust(4e9) }}", WIDE),
    ("{{ 'x'.rjust(10**9) }}", WIDE),
    ("{{ '1'.zfill(10**9) }}", WIDE),
    ("{{ '\t'.expandtabs(10**9) }}", WIDE),
    ("{{ ('x' * 10000).replace('x', 'xx') }}", LONG),
    ("{{ 'x'|replace('', 'y' * 9000) }}", LONG),
    ("{{ ','.join(['x' * 9000] * 2) }}", LONG),
    ("{{ '%0999999999d' % 1 }}", "format width 999999999 " + WIDE),
    ("{{ '%.999999999f' % 1.5 }}", "format precision 999999999 " + WIDE),
    ("{{ '%*d' % (999999999, 1) }}", r"a \* width or precision is not supported"),
    ("{{ '%(a)999999999s' % item }}", WIDE),
    ("{{ '%999999999s'|format(1) }}", WIDE),
    ("{{ '%s%s' % ('x' * 6000, 'y' * 6000) }}", LONG),
    ("{{ '%s' % ([['x' * 1000] * 100] * 100,) }}", "bigger than 100000"),
    ("{{ ([['x' * 5000] * 10] * 10)|string }}", "bigger than 100000"),
    ("{{ '{:>999999999}'.format(1) }}", UNSAFE),
    ("{{ 'x' * 10**9 }}", LONG),
    ('{{ "x" * 100000 }}', LONG),
    ("{{ [0] * 20000 }}", LONG),
    ("{{ [[0] * 10000] * 10000 }}", "bigger than 100000"),
    ("{{ [range(10000)|list] * 10000 }}", "bigger than 100000"),
    ("{{ 'x' ~ 'y' * 9999 ~ 'z' * 9999 }}", LONG),
    ("{{ 2 ** 1000 }}", "exponent 1000 is larger than 64"),
    ("{{ 2 ** (10 ** 10) }}", "exponent 10000000000 is larger than 64"),
    ("{{ 2 ** 10 ** 10 ** 10 }}", r"number larger than 2\*\*1000"),  # Jinja: left to right
    ("{{ (2 ** 64) ** 64 }}", r"number larger than 2\*\*1000"),
    ("{{ 10 ** 60 * 10 ** 60 * 10 ** 60 * 10 ** 60 * 10 ** 60 * 10 ** 60 }}",
     r"number larger than 2\*\*1000"),
    ("{{ int('9' * 4000) }}", r"number larger than 2\*\*1000"),
    ("{{ round(5, -10**9) }}", "more than 64"),
    ("{{ 5|round(10**9, 'floor') }}", "more than 64"),
    ("{{ range(10**9) }}", "Range too big: more than 10000 items"),
    ("{{ range(10 ** 8) | list | length }}", "Range too big"),
    ("{{ range(0, 10**18, 2) | list }}", "Range too big"),
    ("{{ range(10000)|map('center', 10000)|list|length }}", "more than 1000000 units of work"),
    ("{{ range(10000)|map('center', 5000)|join }}", LONG),
    ("{{ ([0] * 10000)|map('default', 'x' * 10000, true)|list|length }}",
     "more than 1000000 units of work"),
    ("{{ range(10000)|select('in', range(10000)|list)|list|length }}", "more than 1000000 units"),
    ("{{ range(10000)|map('string')|join(',' * 10000) }}", LONG),
    ("{{ ('x' * 10000)|list|join('-') }}", LONG),
    ("{{ ('x' * 10000).split('x') }}", "list longer than 10000 items"),
    ("{{ regular(0, 0, 1, 10**8) }}", r"regular\(\): sides must be from 3 to 1000"),
    ("{{ regular(0, 0, 1, 2.5) }}", r"regular\(\): sides must be a whole number"),
    ("{{ star(0, 0, 1, 10**8) }}", r"star\(\): points must be from 2 to 500"),
    ("{{ arrow(0, 0, 1e308, 1e308, 1, 1) }}", r"arrow\(\): length must be a number within"),
    ("{{ d6_net(0, 0, 'x' * 10000) }}", r"d6_net\(\): s must be a number"),
    ("{{ d4_net(0, 0, 1e300 * 1e300) }}", r"d4_net\(\): a must be a number within"),
    ("{{ pips([1]) }}", r"pips\(\): the value must be a number"),
    ("{{ 'x'|indent(10**9) }}", WIDE),
    ("{{ ('x\n' * 5000)|indent(100) }}", LONG),
    ("{{ ('x ' * 4000)|wordwrap(1, wrapstring='-' * 1000) }}", LONG),
    ("{{ [1]|sum(start=[]) }}", "sum adds numbers only"),
    ("{{ " + "(" * 100 + "1" + ")" * 100 + " }}", "nested more than 32 levels deep"),
    ("{{ a" + ".b" * 50 + " }}", "nested more than 32 levels deep"),
    ("{{ " + "[" * 40 + "]" * 40 + " }}", "nested more than 32 levels deep"),
    ("{{ " + "1 + " * 2000 + "1 }}", "nested more than 32 levels deep"),
    ("{{ " + "x" * 10001 + " }}", "expression longer than 10000 characters"),
    ("{{ 'x' * 10000 }}" * 3, LONG),
    ("{{ s }}" * 200, LONG),
    ("{% for i in range(10000) %}{% for j in range(10000) %}x{% endfor %}{% endfor %}",
     r"\{% for %\} is not allowed"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("expr", "match"), BOMBS)
def test_resource_bombs_fail_fast(expr, match):
    tracemalloc.start()
    try:
        refused(expr, match, {**CONTEXT, "s": "x" * 9000})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MB"


def test_there_are_enough_hostile_cases():
    assert len(ESCAPES) + len(BOMBS) >= 40


BIGGEST = [
    "{{ 'x'|center(2000000000) }}",
    "a {{ 'x'|center(2000000000) }}",
    "{{ '%0999999999d' % 1 }}",
    "{{ 'x'.ljust(4e9) }}",
    "{{ (1).to_bytes(3000000000, 'big') }}",
    "{{ regular(0, 0, 1, 10**8) }}",
]
CHILD = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (500 * 2**20, 500 * 2**20))
from generator.expressions import ExpressionError, evaluate
try:
    evaluate(sys.argv[1], {})
except ExpressionError as exc:
    print(exc)
    sys.exit(3)
"""


@pytest.mark.slow
@pytest.mark.parametrize("expr", BIGGEST)
def test_biggest_bombs_fail_cleanly_within_500_mb(expr):
    """Under RLIMIT_AS = 500 MB a bomb that allocated would die with MemoryError; these end
    with the sandbox's own error."""
    result = subprocess.run([sys.executable, "-c", CHILD, expr], cwd=paths.ROOT,
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "SECRET": CANARY})
    assert result.returncode == 3, result.stderr
    assert result.stderr == "" and "Traceback" not in result.stdout
    assert re.search("larger than|unsafe|must be from", result.stdout)
    assert CANARY not in result.stdout


def test_no_constant_folding_at_compile_time(monkeypatch):
    """Jinja folds constant filters while compiling, before any check could run; ours
    compiles without folding (optimizer off, context-passing finalize and filters)."""
    calls = []

    def spy(value):
        calls.append(value)
        return value

    stock = SandboxedEnvironment()
    stock.filters["spy"] = spy
    stock.from_string("a {{ 1|spy }}")
    assert calls == [1]  # what we guard against: run at compile time

    calls.clear()
    monkeypatch.setitem(ENV.filters, "spy", spy)
    assert ENV.optimized is False
    for text in ("{{ 2|spy }}", "a {{ 3|spy }}", "{{ 4|spy|spy }} b", "{{ [5|spy] }}"):
        compile_value(text)
    assert calls == []

    for text in ("{{ 'x'|center(2000000000) }}", "a {{ 'x'|center(2000000000) }} b"):
        tracemalloc.start()
        try:
            compile_value(text)
            with pytest.raises(ExpressionError, match="width 2000000000 is larger than 10000"):
                evaluate(text, {})
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 16 * 2**20


@pytest.mark.parametrize("text", [
    "{{ " + "(" * 300 + "1" + ")" * 300 + " }}",
    "{{ a" + ".b" * 300 + " }}",
    "{{ " + "x" * 20000 + " }}",
    "{% macro f() %}{% endmacro %}",
])
def test_names_used_never_raises(text):
    assert names_used(text) == frozenset()


# -- face templates: loops and work ---------------------------------------------------------

def write_template(tmp_path, body: str):
    (tmp_path / "t.yaml").write_text(textwrap.dedent(body), encoding="utf-8")
    return load_template("t", tmp_path)


def face_meter(template, label: str = ""):
    """Draw ``template`` once; the work meter of its face (a budget opened here is the one
    the face uses), and the primitives drawn, or the DataError."""
    with work_budget() as meter:
        try:
            return meter, render_face(template, 63.5, 88.9, {}, label=label).prims
        except DataError as exc:
            return meter, exc


def test_nested_each_loops_are_capped(tmp_path):
    t = write_template(tmp_path, """\
        elements:
          - each: "{{ range(10000) }}"
            do:
              - each: "{{ range(10000) }}"
                do:
                  - rect: {x: 0, y: 0, w: 1, h: 1}
        """)
    meter, error = face_meter(t)
    assert isinstance(error, DataError) and "more than 10000 loop iterations" in str(error)
    assert (error.line, error.field) == (4, "elements[0].do[0].each")
    assert meter.loops == 20_000  # refused when counted: no inner repetition ran


def test_each_loops_within_the_cap_run(tmp_path):
    """9 900 rectangles: 10 000 repetitions, the cap itself, and about 400 000 units of work,
    far below MAX_FACE_WORK, counted the same on any machine."""
    t = write_template(tmp_path, """\
        elements:
          - each: "{{ range(100) }}"
            do:
              - each: "{{ range(99) }}"
                do:
                  - rect: {x: 0, y: 0, w: 1, h: 1}
        """)
    meter, prims = face_meter(t)
    assert len(prims) == 9900
    assert meter.loops == 10_000
    # units: 1 + 100 eaches and 9 900 rectangles (what drawing each takes: template.py's
    # ELEMENT_WORK), 10 000 repetitions (a scope each), and each range() 4 + CALL_WORK (3
    # nodes, the call, the range made), once outside and 100 times inside
    assert meter.work == (101 * ELEMENT_WORK["each"] + 9900 * ELEMENT_WORK["rect"]
                          + 10_000 * REPETITION_WORK + (4 + limits.CALL_WORK) * 101)


@pytest.mark.parametrize("n", [1, 10, 100])
def test_a_loop_of_n_steps_charges_n_units_per_element(tmp_path, n):
    base = face_meter(write_template(tmp_path, """\
        elements:
          - each: "{{ range(0) }}"
            do:
              - rect: {x: 0, y: 0, w: 1, h: 1}
        """))[0].work
    meter, prims = face_meter(write_template(tmp_path, f"""\
        elements:
          - each: "{{{{ range({n}) }}}}"
            do:
              - rect: {{x: 0, y: 0, w: 1, h: 1}}
        """))
    assert len(prims) == n
    assert meter.work - base == n * (REPETITION_WORK + ELEMENT_WORK["rect"])  # each step


def test_a_heavy_face_stops_at_the_work_limit(tmp_path, monkeypatch):
    """Each condition makes and reads ~33 000 units: the face stops on the meter, after the
    same number of repetitions on every machine (the face's cap lowered to 10 conditions'
    worth, so the test is quick; MAX_FACE_WORK is the same rule, ten million units)."""
    monkeypatch.setattr(limits, "MAX_FACE_WORK", 330_000)
    t = write_template(tmp_path, """\
        elements:
          - each: "{{ range(5000) }}"
            do:
              - if: "{{ range(2000)|map('string')|join(',')|length > 0 }}"
                do: []
        """)
    meter, error = face_meter(t, label="heavy")
    assert isinstance(error, DataError)
    assert "more than 330000 units of work" in error.expected
    assert "in one face" in error.expected and "(drawing 'heavy')" in error.expected
    assert error.line == 4
    assert 330_000 < meter.work < 330_000 + 33_000
    assert meter.loops == 5000  # counted up front; about ten ran


def test_one_expression_of_a_face_stops_at_its_own_limit(tmp_path):
    t = write_template(tmp_path, """\
        vars:
          n: "{{ range(10000)|map('center', 10000)|list|length }}"
        elements: []
        """)
    meter, error = face_meter(t)
    assert isinstance(error, DataError) and error.field == "vars.n"
    assert f"more than {MAX_WORK} units of work" in error.expected
    assert "in one expression" in error.expected
    assert MAX_WORK < meter.work < MAX_WORK + 20_000


def test_the_wall_clock_is_only_a_backstop(tmp_path, monkeypatch):
    """Past BACKSTOP_SECONDS (60: a face the meter let through takes a second or two) a
    face stops, asking for a report; a deadline already past shows the message."""
    assert limits.BACKSTOP_SECONDS >= 30
    monkeypatch.setattr(limits, "BACKSTOP_SECONDS", -1.0)
    t = write_template(tmp_path, """\
        elements:
          - rect: {x: 0, y: 0, w: 1, h: 1}
        """)
    error = face_meter(t)[1]
    assert isinstance(error, DataError) and error.line == 2
    assert "a backstop against a bug in the generator" in error.expected


def test_the_faces_of_the_kits_are_far_below_the_face_limit():
    """The heaviest built-in face (a rules page laying out its sections) costs ~310 000
    units: MAX_FACE_WORK leaves it thirty times that (tests/hostile/test_budget.py measures
    whole builds against their budget)."""
    assert MAX_FACE_WORK >= 30 * 310_000


def test_each_names_must_be_names(tmp_path):
    t = write_template(tmp_path, """\
        elements:
          - each: "{{ [1] }}"
            as: [a]
            do: []
        """)
    with pytest.raises(DataError, match="expected a name, got") as info:
        render_face(t, 63.5, 88.9, {})
    assert info.value.field == "elements[0].as"


def test_a_hostile_value_in_a_template_names_file_line_and_field(tmp_path):
    t = write_template(tmp_path, """\
        vars:
          pad: "{{ 'x'|center(2000000000) }}"
        elements:
          - rect: {x: 0, y: 0, w: 1, h: 1}
        """)
    with pytest.raises(DataError) as info:
        render_face(t, 63.5, 88.9, {})
    err = info.value
    assert (err.line, err.field) == (2, "vars.pad")
    assert "width 2000000000 is larger than 10000 (the longest string)" in err.expected


# -- what stays allowed ----------------------------------------------------------------------

ITEM = {"rank": {"name": "Ace", "value": 1}, "suits": ["moons", "suns"], "kind": "numeral",
        "dx": 1, "dy": -1, "word": "north", "items": "data wins"}
TABLES = {"box_colours": [{"id": "green", "name": "Green"}, {"id": "red", "name": "Red"}],
          "navigation": [{"direction": "n", "dx": 0}, {"direction": "s", "dx": 1}]}
NORMAL = [
    ("{{ W / 2 }}", 31.75),
    ("{{ -bleed }}", -3.0),
    ("{{ W + 2 * bleed }}", 69.5),
    ("{{ (W - 16) / 3 }}", 47.5 / 3),
    ("{{ 7 // 2 }} {{ 7 % 2 }} {{ 2 ** 3 }}", "3 1 8"),
    ("{{ item.rank.name }} of Spades", "Ace of Spades"),
    ("{{ item.rank.name | upper }}", "ACE"),
    ("{{ item.word | title }}", "North"),
    ("{{ item.suits | length }}", 2),
    ("{{ item.suits | map('capitalize') | join(' · ') }}", "Moons · Suns"),
    ("{{ 'suit_' ~ item.suits[0] ~ '_ink' }}", "suit_moons_ink"),
    ("{{ item.rank.ace | default(false) }}", False),
    ("{{ item.rank.value | string }}", "1"),
    ("{{ (H / 4) | int }}", 22),
    ("{{ [((W - 6 + 6) // 66) | int, 1] | max }}", 1),
    ("{{ range(-1, (H / 20) | int + 2) | list }}", list(range(-1, 6))),
    ("{{ (tables.box_colours | map(attribute='id') | list).index('red') }}", 1),
    ("{{ tables.navigation | selectattr('direction', 'equalto', 's') | first }}",
     {"direction": "s", "dx": 1}),
    ("{{ 'a\\nb' | replace('\\n', ' ') }}", "a b"),
    ("{{ {'ace': 'A', 'numeral': item.rank.value | string}[item.kind] }}", "1"),
    ("{{ 'pt' if item.rank.value < 3 else 'pts' }}", "pt"),
    ("{{ '6' in ('6', '9') }}", True),
    ("{{ [1, 1, 1, 2][3] }}", 2),
    ("{{ item.items }}", "data wins"),  # a key named like a dict method is the data
    ("{{ pips(3) }}", [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)]),
    ("{{ regular(0, 0, 1, 4, -45) | length }}", 4),
    ("{{ star(0, 0, 1) | length }}", 10),
    ("{{ arrow(10, 11, 10, 6, item.dx, item.dy) | length }}", 7),
    ("{{ d6_net(0, 0, 10).squares | length }}", 6),
    ("{{ d4_net(0, 0, 10).tabs | length }}", 3),
    ("{{ '%s: %5.1f%%' % ('ink', 12.345) }}", "ink:  12.3%"),
    ("{{ '%(name)s' % item.rank }}", "Ace"),
    ("{{ '%-4s|%04d' | format('ab', 7) }}", "ab  |0007"),
    ("{{ 'a,b'.split(',') }}", ["a", "b"]),
    ("{{ 'x'.center(5, '-') }} {{ '7'.zfill(3) }}", "--x-- 007"),
    ("{{ '-'.join(['a', 'b']) }}", "a-b"),
    ("{{ item.rank.keys() | list }}", ["name", "value"]),
    ("{{ int('7') + float('1.5') + len('ab') + abs(-1) + round(2.6) }}", 14.5),
    ("{{ str(3) ~ str([1, 'a']) }}", "3[1, 'a']"),
    ("{{ zip([1, 2], 'ab') }}", [(1, "a"), (2, "b")]),
    ("{{ enumerate('ab') }}", [(0, "a"), (1, "b")]),
    ("{{ min(3, 1) }} {{ max([2, 5]) }}", "1 5"),
    ("{{ range(3) | map('string') }}", ["0", "1", "2"]),  # lazy results become lists
    ("{{ [1, 2, 3] | sum }} {{ 2.567 | round(2) }}", "6 2.57"),
    ("{{ 'abc' | center(7) }}|", "  abc  |"),
    ("{% if item.rank.value == 1 %}ace{% else %}other{% endif %}", "ace"),
    ("{% raw %}{{ 7*7 }}{% endraw %}", "{{ 7*7 }}"),
    ("{{ item.suits[0:10**9] }}", ["moons", "suns"]),
    ("{{ ('x' * 10000) | length }}", 10000),  # the limits themselves are allowed
    ("{{ [0] * 10000 }}", [0] * 10000),
    ("{{ range(10000) | list | length }}", 10000),
    ("plain text", "plain text"),
]


@pytest.mark.parametrize(("expr", "expected"), NORMAL)
def test_normal_expressions_still_work(expr, expected):
    ctx = {"item": ITEM, "tables": TABLES, "W": 63.5, "H": 88.9, "bleed": 3.0}
    assert evaluate(expr, ctx) == expected


@pytest.mark.slow
def test_every_built_in_template_and_data_expression_compiles():
    """Every string with {{ }} or {% %} in our templates, themes and data files passes the
    syntax allow-list (the builds in tests/test_pdf.py evaluate them)."""
    import yaml

    def strings(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, list):
            for child in node:
                yield from strings(child)
        elif isinstance(node, dict):
            for child in node.values():
                yield from strings(child)

    files = [*(paths.ROOT / "templates").rglob("*.yaml"), *paths.CARD_DATA.glob("*.yaml"),
             *(paths.ROOT / "examples").glob("*.yaml")]
    seen = 0
    for file in files:
        for text in strings(yaml.safe_load(file.read_text(encoding="utf-8"))):
            if "{{" in text or "{%" in text:
                compile_value(text)
                seen += 1
    assert seen > 300


# -- the environment itself --------------------------------------------------------------------

def test_globals_are_plain_functions():
    assert set(ENV.globals) == {"range", "min", "max", "abs", "round", "len", "enumerate", "zip",
                                "int", "float", "str", "d6_net", "d4_net", "pips", "arrow",
                                "regular", "star", "t"}
    for value in ENV.globals.values():
        assert not isinstance(value, type) and ENV.is_safe_callable(value)


def test_filters_kept():
    assert set(ENV.filters) == {
        "abs", "capitalize", "center", "count", "d", "default", "dictsort", "first", "float",
        "format", "indent", "int", "items", "join", "last", "length", "list", "literal", "lower",
        "map",
        "max", "min", "reject", "rejectattr", "replace", "reverse", "round", "select",
        "selectattr", "sort", "string", "sum", "title", "trim", "truncate", "unique", "upper",
        "upper_first", "wordwrap"}


@pytest.mark.parametrize(("obj", "attr"), [
    ("x", "format"), ("x", "format_map"), ("x", "__class__"), ("x", "encode"), (1, "to_bytes"),
    (1, "real"), ([], "append"), ({}, "update"), ({}, "pop"), (str, "mro"), (int, "mro"),
    (print, "__self__"), (range(1), "start"), (ENV.globals["str"], "format"),
])
def test_is_safe_attribute_refuses(obj, attr):
    assert not ENV.is_safe_attribute(obj, attr, None)


@pytest.mark.parametrize(("obj", "attr"), [("x", "upper"), ("x", "split"), ("x", "center"),
                                           ([], "index"), ({}, "get"), ({}, "items")])
def test_is_safe_attribute_allows(obj, attr):
    assert ENV.is_safe_attribute(obj, attr, None)


@pytest.mark.parametrize("obj", [str, int, float, type, print, eval, getattr, os.system,
                                 "x".format, str.format, os, SandboxedEnvironment, lambda: 0])
def test_is_safe_callable_refuses(obj):
    assert not ENV.is_safe_callable(obj)


def test_docstring_names_every_limit():
    doc = expressions.__doc__
    for name in ("MAX_SOURCE", "MAX_DEPTH", "MAX_STRING", "MAX_ITEMS", "MAX_SIZE", "MAX_WORK",
                 "MAX_INT_BITS", "MAX_EXPONENT", "MAX_DIGITS", "MAX_LOOP", "BACKSTOP_SECONDS",
                 "MAX_FACE_WORK", "MAX_BUILD_WORK", "MAX_FACE_PRIMITIVES",
                 "MAX_COMPONENT_PRIMITIVES", "MAX_BUILD_PRIMITIVES", "MAX_POINTS"):
        assert f"``{name}``" in doc or f"``shapes.{name}``" in doc, name
    for needle in ("10 000", "100 000", "1 000 000", "64", "optimized=False", "StrictUndefined"):
        assert needle in doc
