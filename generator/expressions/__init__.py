"""Jinja2 expressions in templates, themes and data files, evaluated in a sandbox.

This package is the sandbox; the rest of the generator uses only what this module exports
(``evaluate``, ``ExpressionError``, ``Scope``, the face budget...). Its modules, by job:
``limits`` (the figures below, the errors and the work meter), ``text`` (bounded text
operations and ``%`` formatting), ``env`` (the environment: attributes, operators, code
generation without folding), ``library`` (``make_environment``, the factory given the
functions, filters and tests an environment offers, and the one environment ``ENV`` it made
from the library's tables; ``dice`` and ``shapes`` are geometry offered as functions),
``compiler`` (string -> checked tree -> compiled function), ``shortcut`` (lone dotted names
and literals) and ``scope`` (evaluating). It sits below the data and the faces and imports
neither, and nothing registers into ``ENV`` when imported: ``t`` translates through the
language session the build's context holds (data/translation/i18n.py's ``Session.t``), and
``literal`` escapes the rich-text markup whose characters ``text.MARKUP_SPECIAL`` defines (the
faces' markup parser reads the same set).

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

Jinja's compiled code is the only evaluator. One shortcut (shortcut.py) reads a lone dotted
name or literal without Jinja's parser and makes the very calls Jinja's code makes
(``context.resolve_or_missing``, ``environment.getattr``); a lone ``{{ expression }}`` is
compiled by Jinja's code generator into a function returning its value, without a template's
furniture (``env.BoundedSandbox.expression_function``); text with ``{{ }}`` inside is a Jinja
template. Each distinct string is parsed and compiled once (``compiler.compile_value``),
and its code kept on disk by content for the next process (``compiler.compiled``,
generator/core/code_cache.py).

What this package adds on top (Jinja's own checks are not enough: ``str.format`` reached
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
  data text in the kit's language, through the session of generator/data/translation/i18n.py).
  Removed: ``dict``, ``lipsum``, ``cycler``, ``joiner``, ``namespace``.
* Filters kept (each wrapped: metered, bounded, and ``pass_context`` so it can never be
  folded at compile time): ``abs capitalize center count d default dictsort first float
  format indent int items join last length list lower map max min reject rejectattr replace
  reverse round select selectattr sort string sum title trim truncate unique upper
  upper_first wordwrap``, and ``literal`` (the markup escaped, faces/markup.py). Removed: ``attr
  batch e escape filesizeformat forceescape groupby pprint random safe slice striptags tojson
  urlencode urlize wordcount xmlattr``. All tests are kept (``lower``/``upper`` rewritten so
  they never turn a value into text).
* No constant folding: ``optimized=False`` turns off Jinja's optimizer, and a
  ``pass_context`` ``finalize`` turns off the folding ``visit_Output`` does on its own, so
  ``{{ 'x'|center(2000000000) }}`` runs (and fails) at evaluation time, under our checks.
* Syntax allow-list: ``{{ expressions }}`` and ``{% if %}`` only (no ``for``, ``set``,
  ``macro``, ``include``...); the names ``self``, ``loop``, ``caller``, ``varargs``,
  ``kwargs`` and ``super`` are refused.
* Every operator (``+ - * / // % **``) is intercepted; ``~``, list/tuple/dict literals and
  comparisons are compiled to metered calls; ``%`` formatting is done piece by piece, each
  width and precision checked before anything is allocated.

Limits (each raises ``ExpressionError``, worded in the user's terms). Time is bounded by
work, counted the same on every machine (``limits.WorkMeter``, in the ContextVar
``limits.WORK_METER``): an expression gets ``MAX_WORK`` units, a face ``MAX_FACE_WORK``, a
build ``MAX_BUILD_WORK`` (its faces, labels and checks together, counted in the build's
``context.Budget``; past it ``BudgetSpent``, a DataError naming the heaviest spender); a unit
is one node of an expression's tree each time it runs, one item or character made or read
(compared, searched, sorted, returned; a range's items too), ``CALL_WORK`` a call (what calling
takes) and one character of text measured, and an element of a face template or a
repetition of an ``each`` weighs what drawing it takes (generator/faces/template.py).
Wall-clock time is only a backstop against a bug of ours.

============================  ==========  =============================================
``MAX_SOURCE``                    10 000  characters in one expression string
``MAX_DEPTH``                         32  levels of nesting in one expression
``MAX_STRING``                    10 000  characters in any string made (or a format width)
``MAX_ITEMS``                     10 000  items in any list made, and in a ``range``
``MAX_SIZE``                     100 000  items + characters in any list/dict made or returned,
                                          shared parts counted every time they appear
``MAX_WORK``                   1 000 000  units of work by one expression
``MAX_FACE_WORK``             10 000 000  units of work by one face (its expressions, elements,
                                          repetitions and measured text)
``MAX_BUILD_WORK``            20 000 000  units of work by one build (faces, labels, checks)
``MAX_FACE_PRIMITIVES``           10 000  primitives one face draws
``MAX_COMPONENT_PRIMITIVES``     100 000  primitives of one component's distinct faces
``MAX_BUILD_PRIMITIVES``         200 000  primitives of every face one build draws
``MAX_INT_BITS``                   1 000  bits of an integer (so it always converts to float)
``MAX_EXPONENT``                      64  exponent of ``**``
``MAX_DIGITS``                        64  digits of ``round``
``MAX_LOOP``                      10 000  ``each`` repetitions in one face (template.py)
``BACKSTOP_SECONDS``                  60  wall clock of one face: only against a bug of ours
``shapes.MAX_POINTS``              1 000  points of a generated shape
============================  ==========  =============================================
"""
from __future__ import annotations

from .compiler import Compiled, compile_value, names_used
from .env import BoundedSandbox
from .library import ENV, make_environment
from .limits import (
    BACKSTOP_SECONDS,
    MAX_BUILD_PRIMITIVES,
    MAX_BUILD_WORK,
    MAX_COMPONENT_PRIMITIVES,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_EXPONENT,
    MAX_FACE_PRIMITIVES,
    MAX_FACE_WORK,
    MAX_INT_BITS,
    MAX_ITEMS,
    MAX_LOOP,
    MAX_SIZE,
    MAX_SOURCE,
    MAX_STRING,
    MAX_WORK,
    WORK_METER,
    BudgetSpent,
    ExpressionError,
    LimitError,
    Spending,
    WorkMeter,
    charge,
    charge_if_metered,
    check_backstop,
    count_loops,
    size_of,
    spend,
    to_text,
    work_budget,
)
from .scope import Scope, evaluate
from .text import MARKUP_SPECIAL, escape_markup, percent_format

__all__ = ["BACKSTOP_SECONDS", "ENV", "MARKUP_SPECIAL", "MAX_BUILD_PRIMITIVES",
           "MAX_BUILD_WORK",
           "MAX_COMPONENT_PRIMITIVES", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT",
           "MAX_FACE_PRIMITIVES", "MAX_FACE_WORK", "MAX_INT_BITS", "MAX_ITEMS", "MAX_LOOP",
           "MAX_SIZE", "MAX_SOURCE", "MAX_STRING", "MAX_WORK", "WORK_METER", "BoundedSandbox",
           "BudgetSpent", "Compiled", "ExpressionError", "LimitError", "Scope", "Spending",
           "WorkMeter", "charge", "charge_if_metered", "check_backstop", "compile_value",
           "count_loops", "escape_markup", "evaluate", "make_environment", "names_used",
           "percent_format", "size_of", "spend", "to_text", "work_budget"]
