"""From an expression string to a function of a Jinja context, once per distinct string.

Every string is read by Jinja's parser (or, for a lone dotted name or literal, by
shortcut.py), its tree checked against our syntax allow-list (``check_tree``), then compiled
by the environment's code generator: ``BoundedSandbox.expression_function`` for a lone
``{{ expression }}`` (its native value), ``Environment.from_string`` for text with
``{{ }}`` or ``{% if %}`` inside (a string). Nothing else evaluates an expression.

``compile_value`` and ``names_used`` each keep their answer per string, not the tree; both
start from ``compiled``, the string's code, which a process compiles once and keeps on disk
by content (generator/core/code_cache.py): a string another process compiled before is
neither parsed nor compiled again. The key is the full text and everything that decides the
code made of it (``code_key``); only code this module's compiler made from that text, after
``check_tree`` passed it, is ever stored.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import jinja2
from jinja2 import nodes
from jinja2.exceptions import TemplateError, TemplateSyntaxError
from jinja2.parser import Parser
from jinja2.runtime import Context

from generator.core import cache, code_cache, memo
from generator.core.words import said

from .library import ENV
from .limits import MAX_DEPTH, MAX_SOURCE, BoundedText, ExpressionError
from .shortcut import compile_shortcut

WHOLE = re.compile(r"^\s*\{\{(.*)\}\}\s*$", re.S)  # a lone {{ expression }}

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


@dataclass(frozen=True, slots=True)
class Compiled:
    """A compiled string: ``run(context)`` gives its value; each run costs ``cost`` units of
    work (the nodes of its tree: what running it does besides what the meter charges)."""

    run: Callable[[Context], Any]
    cost: int


@dataclass(frozen=True, slots=True)
class Parsed:
    """A checked tree: an expression (``whole``: a lone ``{{ }}``) or a template."""

    tree: nodes.Node
    whole: bool
    size: int  # nodes in the tree
    filters: bool  # whether it applies a filter or a test


def check_tree(tree: nodes.Node) -> tuple[int, bool]:
    """Only expressions and ``{% if %}``; no reserved names; bounded nesting. Returns the
    number of nodes, and whether a filter or test is among them."""
    stack = [(tree, 0)]
    count = 0
    filters = False
    while stack:
        node, depth = stack.pop()
        count += 1
        if depth > MAX_DEPTH:
            raise ExpressionError(f"nested more than {MAX_DEPTH} levels deep")
        kind = type(node)
        if kind not in _ALLOWED:
            if isinstance(node, nodes.Stmt):
                word = "{% " + _STATEMENT_WORDS.get(kind.__name__, kind.__name__.lower()) + " %}"
                raise ExpressionError(f"{word} is not allowed: only {{{{ expressions }}}} and "
                                      "{% if %} (use each: in a face template to repeat)")
            raise ExpressionError(f"{kind.__name__} is not allowed in an expression")
        if isinstance(node, nodes.Name) and (node.ctx != "load" or node.name in _RESERVED):
            raise ExpressionError(f"the name {said(node.name)} is reserved")
        if isinstance(node, nodes.Tuple) and node.ctx != "load":
            raise ExpressionError("assignment is not allowed in an expression")
        if kind is nodes.Filter or kind is nodes.Test:
            filters = True
        stack.extend((child, depth + 1) for child in node.iter_child_nodes())
    return count, filters


def parse(text: str) -> Parsed:
    """The checked tree of a string holding ``{{ }}`` or ``{% %}`` (Jinja's parser); an
    ExpressionError saying what is wrong, in the user's words. Not cached: compile_value
    and names_used keep what they make of it, not the tree."""
    whole = WHOLE.match(text)
    try:
        if len(text) > MAX_SOURCE:
            raise ExpressionError(f"expression longer than {MAX_SOURCE} characters")
        if whole and "{{" not in whole.group(1):
            parser = Parser(ENV, whole.group(1), state="variable")
            expr = parser.parse_expression()
            if not parser.stream.eos:
                raise TemplateSyntaxError("chunk after expression",
                                          parser.stream.current.lineno, None, None)
            return Parsed(expr, True, *check_tree(expr))
        tree = ENV.parse(text)
        return Parsed(tree, False, *check_tree(tree))
    except ExpressionError as exc:
        raise ExpressionError(f"invalid expression {quote(text)}: {exc}") from None
    except TemplateError as exc:
        raise ExpressionError(f"invalid expression {quote(text)}: {exc.message}") from None
    except (RecursionError, SyntaxError, MemoryError):
        raise ExpressionError(f"invalid expression {quote(text)}: nested more than "
                              f"{MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # Jinja's lexer: int() of more than 4 300 digits
        raise ExpressionError(f"invalid expression {quote(text)}: {number_error(exc)}") \
            from None


def number_error(exc: ValueError) -> str:
    """Python refuses to read or write a whole number of more than 4 300 digits (Jinja's
    lexer reads ``99...9``, its code generator writes ``0xff...f`` as decimal): a raw
    ValueError, said in the user's terms."""
    if "integer string conversion" in str(exc):
        return "a number with too many digits (at most 4300)"
    return str(exc)


EXPRESSION_SHOWN = 120  # characters of an expression a message quotes (more than a value's)


def quote(text: str) -> str:
    """An expression as an error message shows it (generator/core/words.py: quoted, escaped
    for the terminal, cut at ``EXPRESSION_SHOWN`` characters)."""
    return said(text, EXPRESSION_SHOWN)


def _lone(text: str) -> str | None:
    """The inside of a lone ``{{ }}``, or None."""
    whole = WHOLE.match(text)
    return whole.group(1) if whole and "{{" not in whole.group(1) else None


@dataclass(frozen=True, slots=True)
class Code:
    """A string's compiled code: for a lone ``{{ expression }}`` (``whole``) a module defining
    ``expression(context)`` (``BoundedSandbox.expression_code``), else a Jinja template's
    module; the size of its tree (its cost) and the names its tree loads (globals included:
    ``names_used`` takes those out)."""

    code: types.CodeType
    whole: bool
    size: int
    loads: frozenset[str]


@memo.memo(code=True)
def _settings() -> str:
    """What decides the code made of a text, besides the text and the filter and test names:
    the versions of Python, its bytecode and Jinja, the environment's lexer and code
    generation settings, and the source of this module and all it imports (the code
    generator, the environment: ``cache.code_digest``)."""
    return json.dumps([code_cache.MAGIC.decode(), sys.implementation.cache_tag,
                       importlib.util.MAGIC_NUMBER.hex(), jinja2.__version__,
                       [repr(getattr(ENV, name, None)) for name in _LEXER_SETTINGS],
                       type(ENV).__qualname__, ENV.code_generator_class.__qualname__,
                       ENV.undefined.__qualname__, ENV.optimized, repr(ENV.autoescape),
                       getattr(ENV.finalize, "__qualname__", None), cache.code_digest(__name__)])


_LEXER_SETTINGS = ("block_start_string", "block_end_string", "variable_start_string",
                   "variable_end_string", "comment_start_string", "comment_end_string",
                   "line_statement_prefix", "line_comment_prefix", "trim_blocks",
                   "lstrip_blocks", "newline_sequence", "keep_trailing_newline")


@memo.memo(maxsize=64, code=True)
def _signature(filters: tuple[str, ...], tests: tuple[str, ...]) -> bytes:
    """``_settings`` with the filter and test names (an unknown one fails compiling), hashed."""
    return hashlib.sha256(json.dumps([_settings(), sorted(filters), sorted(tests)]).encode()) \
        .digest()


def code_key(text: str) -> str:
    """The code cache's key of ``text``: sha256 of the environment's ``_signature`` and the
    whole text."""
    digest = hashlib.sha256(_signature(tuple(ENV.filters), tuple(ENV.tests)))
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _loads(tree: nodes.Node) -> frozenset[str]:
    """The names a tree loads (``find_all`` skips the node it starts from)."""
    names = {node.name for node in tree.find_all(nodes.Name) if node.ctx == "load"}
    if type(tree) is nodes.Name and tree.ctx == "load":
        names.add(tree.name)
    return frozenset(names)


def _cached(found: tuple[dict[str, Any], Any]) -> Code | None:
    """An entry read from the code cache as a Code, or None when its header is not one we
    write (the file is checked by code_cache; its header is checked here)."""
    header, code = found
    whole, size, loads = header.get("whole"), header.get("size"), header.get("loads")
    if type(code) is not types.CodeType or type(whole) is not bool or type(size) is not int \
            or size < 1 or type(loads) is not list or not all(type(n) is str for n in loads):
        return None
    return Code(code, whole, size, frozenset(loads))


@memo.memo(maxsize=4096, code=True)
def compiled(text: str) -> Code:
    """The code of a string holding ``{{ }}`` or ``{% %}``: from the code cache, or parsed,
    checked (``parse``) and compiled by the environment's code generator, then stored.
    ExpressionError says what is wrong (nothing is stored then)."""
    key = code_key(text)
    found = code_cache.load(key)
    entry = _cached(found) if found is not None else None
    if entry is not None:
        return entry
    parsed = parse(text)
    try:
        code = (ENV.expression_code(parsed.tree, parsed.filters)  # type: ignore[arg-type]
                if parsed.whole else ENV.compile(cast(nodes.Template, parsed.tree)))
    except TemplateError as exc:
        raise ExpressionError(f"invalid expression {quote(text)}: {exc.message}") from None
    except SyntaxError as exc:  # Python refuses the code (``f(a=1, a=2)``)
        raise ExpressionError(f"invalid expression {quote(text)}: {exc.msg}") from None
    except (RecursionError, MemoryError):
        raise ExpressionError(f"invalid expression {quote(text)}: nested more than "
                              f"{MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise ExpressionError(f"invalid expression {quote(text)}: {number_error(exc)}") \
            from None
    entry = Code(code, parsed.whole, parsed.size, _loads(parsed.tree))
    code_cache.store(key, {"whole": entry.whole, "size": entry.size,
                           "loads": sorted(entry.loads)}, code)
    return entry


# Both tables depend on the text and this code only (the functions and filters a compiled
# string calls are looked up each time it runs): ``code=True``, kept by memo.forget_all.
@memo.memo(maxsize=4096, code=True)
def compile_value(text: str) -> Compiled:
    """``{{ expr }}`` alone -> the expression's native value; text with ``{{ }}`` inside -> a
    rendered string; anything else -> itself. Compiled once per distinct string."""
    if "{{" not in text and "{%" not in text:
        return Compiled(lambda context: text, 1)
    inner = _lone(text) if len(text) <= MAX_SOURCE else None
    if inner is not None:
        short = compile_shortcut(inner)
        if short is not None:
            return Compiled(short[0], short[1])
    found = compiled(text)
    if found.whole:
        return Compiled(ENV.expression_from_code(found.code), found.size)
    template = ENV.template_class.from_code(ENV, found.code, ENV.make_globals(None), None)
    return Compiled(_rendered(template.root_render_func), found.size)


def _rendered(render: Callable[[Context], Any]) -> Callable[[Context], str]:
    """Text with ``{{ }}``: the pieces Jinja's render function yields, joined, never longer
    than MAX_STRING."""
    def rendered(context: Context) -> str:
        out = BoundedText()
        for piece in render(context):
            out.add(piece)
        return out.value()
    return rendered


@memo.memo(maxsize=4096, code=True)
def names_used(text: str) -> frozenset[str]:
    """The top-level variables a string reads (what a face depends on): the names its tree
    loads, less the globals, as Jinja's ``meta.find_undeclared_variables`` finds them. A
    string that does not compile reads nothing (it fails, with its message, when
    evaluated)."""
    if "{{" not in text and "{%" not in text:
        return frozenset()
    inner = _lone(text) if len(text) <= MAX_SOURCE else None
    if inner is not None:
        short = compile_shortcut(inner)
        if short is not None:
            return short[2]
    try:
        loads = compiled(text).loads
    except ExpressionError:  # parsed but refused by the code generator: its tree's names
        try:
            loads = _loads(parse(text).tree)
        except ExpressionError:
            return frozenset()
    return loads - set(ENV.globals)
