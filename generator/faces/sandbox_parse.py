"""A small parser for the common shapes of ``{{ expression }}``, giving Jinja's own tree.

Why: after sandbox_fast.py removed Jinja's code generation, Jinja's lexer and parser were
most of the time left in compiling a kit's ~1 000 expression strings. Nearly all of them are
names, numbers, quoted words, arithmetic, comparisons, ``x if c else y``, filters and calls;
this parser reads exactly those, in a single regular-expression pass and one recursive
descent that copies Jinja 3.1's ``Parser`` method by method (same precedence, same
associativity, same node for every construct), and builds the very ``jinja2.nodes`` tree
Jinja would.

Whatever it is not sure of it refuses (returns None) and Jinja parses the string as before,
with its own error messages: any character or token outside the subset (``;``, ``\\``,
``}}``, non-ASCII outside quotes, ``*args``, numbers written as ``1e3``, ``0x1f``,
``1_000`` or with more than 15 digits, a carriage return), a syntax error, or nesting
deeper than expressions.MAX_DEPTH allows anyway. tests/test_sandbox_fast.py
checks that every tree it gives equals Jinja's for the same string.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from jinja2 import nodes

_TOKEN = re.compile(r"""[ \t\n]*(?:
    (?P<float>(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15})(?![A-Za-z0-9_.])
  | (?P<integer>0|[1-9][0-9]{0,17})(?![A-Za-z0-9_.])
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)(?![^\x00-\x7f])
  | '(?P<single>[^'\\\r]*)'
  | "(?P<double>[^"\\\r]*)"
  | (?P<operator>//|\*\*|==|!=|>=|<=|[-+/*%~\[\](){}.|,=<>:])
)""", re.X)
_SPACE = re.compile(r"[ \t\n]*")
_OPERATORS = {
    "+": "add", "-": "sub", "/": "div", "//": "floordiv", "*": "mul", "%": "mod",
    "**": "pow", "~": "tilde", "[": "lbracket", "]": "rbracket", "(": "lparen",
    ")": "rparen", "==": "eq", "!=": "ne", ">": "gt", ">=": "gteq", "<": "lt",
    "<=": "lteq", "=": "assign", ".": "dot", "|": "pipe", ",": "comma", "{": "lbrace",
    "}": "rbrace", ":": "colon",
}
_TEST_ARGUMENT = frozenset({"name", "string", "integer", "float", "lparen", "lbracket",
                            "lbrace"})
_COMPARE = frozenset({"eq", "ne", "lt", "lteq", "gt", "gteq"})
_MATH1 = {"add": nodes.Add, "sub": nodes.Sub}
_MATH2 = {"mul": nodes.Mul, "div": nodes.Div, "floordiv": nodes.FloorDiv, "mod": nodes.Mod}
_EOS = ("eos", None)
MAX_NESTING = 32  # deeper is refused by expressions._check_tree anyway: left to Jinja


class _Refused(Exception):
    """Not in the subset: Jinja parses this string."""


def parse(source: str) -> nodes.Expr | None:
    """The tree Jinja's ``Parser(env, source, state="variable").parse_expression()`` gives
    for the inside of a ``{{ }}``, or None when this parser does not take it."""
    if "}}" in source:  # Jinja's lexer may end the expression there: left to it
        return None
    tokens = _tokens(source)
    if tokens is None:
        return None
    parser = _Parser(tokens)
    try:
        node = parser.expression()
    except (_Refused, RecursionError):  # deep already on the stack: Jinja's path says so
        return None
    return node if parser.current[0] == "eos" else None


def _tokens(source: str) -> list[tuple[str, object]] | None:
    out: list[tuple[str, object]] = []
    position, end = 0, len(source)
    match_token = _TOKEN.match
    while True:
        match = match_token(source, position)
        if match is None:
            tail = _SPACE.match(source, position)
            return out if tail is not None and tail.end() == end else None
        kind = match.lastgroup
        text = match.group(kind)  # type: ignore[arg-type]
        if kind == "operator":
            out.append((_OPERATORS[text], text))
        elif kind == "integer":
            out.append(("integer", int(text)))
        elif kind == "float":
            out.append(("float", float(text)))
        elif kind == "name":
            out.append(("name", text))
        else:
            out.append(("string", text))
        position = match.end()


class _Parser:
    """jinja2.parser.Parser's expression methods, for the token subset above."""

    def __init__(self, tokens: list[tuple[str, object]]) -> None:
        self.tokens = tokens
        self.index = 0
        self.current = tokens[0] if tokens else _EOS
        self.nesting = 0

    # -- the token stream ----------------------------------------------------------------
    def next(self) -> tuple[str, object]:
        token = self.current
        self.index += 1
        self.current = self.tokens[self.index] if self.index < len(self.tokens) else _EOS
        return token

    def look(self) -> tuple[str, object]:
        index = self.index + 1
        return self.tokens[index] if index < len(self.tokens) else _EOS

    def is_name(self, value: str) -> bool:
        return self.current[0] == "name" and self.current[1] == value

    def skip_name(self, value: str) -> bool:
        if self.is_name(value):
            self.next()
            return True
        return False

    def expect(self, kind: str) -> tuple[str, object]:
        if self.current[0] != kind:
            raise _Refused
        return self.next()

    # -- expressions (parse_expression ... parse_primary) ----------------------------------
    def expression(self) -> nodes.Expr:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise _Refused
        try:
            return self.condexpr()
        finally:
            self.nesting -= 1

    def condexpr(self) -> nodes.Expr:
        expr1 = self.or_()
        while self.skip_name("if"):
            expr2 = self.or_()
            expr3 = self.condexpr() if self.skip_name("else") else None
            expr1 = nodes.CondExpr(expr2, expr1, expr3, lineno=1)
        return expr1

    def or_(self) -> nodes.Expr:
        left = self.and_()
        while self.skip_name("or"):
            left = nodes.Or(left, self.and_(), lineno=1)
        return left

    def and_(self) -> nodes.Expr:
        left = self.not_()
        while self.skip_name("and"):
            left = nodes.And(left, self.not_(), lineno=1)
        return left

    def not_(self) -> nodes.Expr:
        if self.is_name("not"):
            self.next()
            self.nested()
            node = nodes.Not(self.not_(), lineno=1)
            self.nesting -= 1
            return node
        return self.compare()

    def compare(self) -> nodes.Expr:
        expr = self.math1()
        ops = []
        while True:
            kind = self.current[0]
            if kind in _COMPARE:
                self.next()
                ops.append(nodes.Operand(kind, self.math1()))
            elif self.skip_name("in"):
                ops.append(nodes.Operand("in", self.math1()))
            elif self.is_name("not") and self.look() == ("name", "in"):
                self.next()
                self.next()
                ops.append(nodes.Operand("notin", self.math1()))
            else:
                break
        return nodes.Compare(expr, ops, lineno=1) if ops else expr

    def _left_binary(self, table: dict[str, type[nodes.BinExpr]],
                     operand: Callable[[], nodes.Expr]) -> nodes.Expr:
        """``operand (op operand)*`` folded to the left, ``op`` a key of ``table`` (Jinja's
        parse_math1 and parse_math2 both have this shape)."""
        left = operand()
        while self.current[0] in table:
            cls = table[self.next()[0]]
            left = cls(left, operand(), lineno=1)
        return left

    def math1(self) -> nodes.Expr:
        return self._left_binary(_MATH1, self.concat)

    def concat(self) -> nodes.Expr:
        args = [self.math2()]
        while self.current[0] == "tilde":
            self.next()
            args.append(self.math2())
        return args[0] if len(args) == 1 else nodes.Concat(args, lineno=1)

    def math2(self) -> nodes.Expr:
        return self._left_binary(_MATH2, self.pow_)

    def pow_(self) -> nodes.Expr:
        left = self.unary()
        while self.current[0] == "pow":
            self.next()
            left = nodes.Pow(left, self.unary(), lineno=1)
        return left

    def nested(self) -> None:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise _Refused

    def unary(self, with_filter: bool = True) -> nodes.Expr:
        kind = self.current[0]
        node: nodes.Expr
        if kind in ("sub", "add"):
            self.next()
            self.nested()
            inner = self.unary(False)
            self.nesting -= 1
            node = nodes.Neg(inner, lineno=1) if kind == "sub" else nodes.Pos(inner, lineno=1)
        else:
            node = self.primary()
        node = self.postfix(node)
        if with_filter:
            node = self.filter_expr(node)
        return node

    def primary(self) -> nodes.Expr:
        kind, value = self.current
        if kind == "name":
            self.next()
            if value in ("true", "false", "True", "False"):
                return nodes.Const(value in ("true", "True"), lineno=1)
            if value in ("none", "None"):
                return nodes.Const(None, lineno=1)
            return nodes.Name(value, "load", lineno=1)
        if kind == "string":
            self.next()
            parts = [value]
            while self.current[0] == "string":  # 'a' 'b' is one string, as in Jinja
                parts.append(self.next()[1])
            return nodes.Const("".join(parts), lineno=1)  # type: ignore[arg-type]
        if kind in ("integer", "float"):
            self.next()
            return nodes.Const(value, lineno=1)
        if kind == "lparen":
            self.next()
            node = self.tuple_()
            self.expect("rparen")
            return node
        if kind == "lbracket":
            return self.list_()
        if kind == "lbrace":
            return self.dict_()
        raise _Refused  # an error: Jinja says which

    def tuple_(self) -> nodes.Expr:
        """parse_tuple(explicit_parentheses=True): ``(a)`` is ``a``, ``()``, ``(a,)`` and
        ``(a, b)`` are tuples."""
        args: list[nodes.Expr] = []
        is_tuple = False
        while True:
            if args:
                self.expect("comma")
            if self.current[0] == "rparen":
                break
            args.append(self.expression())
            if self.current[0] == "comma":
                is_tuple = True
            else:
                break
        if not is_tuple and args:
            return args[0]
        return nodes.Tuple(args, "load", lineno=1)

    def list_(self) -> nodes.Expr:
        self.expect("lbracket")
        items: list[nodes.Expr] = []
        while self.current[0] != "rbracket":
            if items:
                self.expect("comma")
            if self.current[0] == "rbracket":
                break
            items.append(self.expression())
        self.expect("rbracket")
        return nodes.List(items, lineno=1)

    def dict_(self) -> nodes.Expr:
        self.expect("lbrace")
        items: list[nodes.Pair] = []
        while self.current[0] != "rbrace":
            if items:
                self.expect("comma")
            if self.current[0] == "rbrace":
                break
            key = self.expression()
            self.expect("colon")
            items.append(nodes.Pair(key, self.expression(), lineno=1))
        self.expect("rbrace")
        return nodes.Dict(items, lineno=1)

    def postfix(self, node: nodes.Expr) -> nodes.Expr:
        while True:
            kind = self.current[0]
            if kind == "dot":
                self.next()
                attribute = self.expect("name")[1]
                node = nodes.Getattr(node, attribute, "load", lineno=1)
            elif kind == "lbracket":
                self.next()
                args: list[nodes.Expr] = []
                while self.current[0] != "rbracket":
                    if args:
                        self.expect("comma")
                    args.append(self.subscribed())
                self.expect("rbracket")
                arg = args[0] if len(args) == 1 else nodes.Tuple(args, "load", lineno=1)
                node = nodes.Getitem(node, arg, "load", lineno=1)
            elif kind == "lparen":
                node = self.call(node)
            else:
                return node

    def subscribed(self) -> nodes.Expr:
        """parse_subscribed: an index, or a slice ``a:b:c`` with any part left out."""
        args: list[nodes.Expr | None]
        if self.current[0] == "colon":
            self.next()
            args = [None]
        else:
            node = self.expression()
            if self.current[0] != "colon":
                return node
            self.next()
            args = [node]
        if self.current[0] == "colon":
            args.append(None)
        elif self.current[0] not in ("rbracket", "comma"):
            args.append(self.expression())
        else:
            args.append(None)
        if self.current[0] == "colon":
            self.next()
            if self.current[0] not in ("rbracket", "comma"):
                args.append(self.expression())
            else:
                args.append(None)
        else:
            args.append(None)
        return nodes.Slice(*args, lineno=1)

    def filter_expr(self, node: nodes.Expr) -> nodes.Expr:
        while True:
            kind = self.current[0]
            if kind == "pipe":
                node = self.filter(node)
            elif self.is_name("is"):
                node = self.test(node)
            elif kind == "lparen":
                node = self.call(node)
            else:
                return node

    def filter(self, node: nodes.Expr) -> nodes.Expr:
        while self.current[0] == "pipe":
            self.next()
            name = str(self.expect("name")[1])
            while self.current[0] == "dot":
                self.next()
                name += "." + str(self.expect("name")[1])
            args: list[nodes.Expr] = []
            kwargs: list[nodes.Keyword] = []
            if self.current[0] == "lparen":
                args, kwargs = self.call_args()
            node = nodes.Filter(node, name, args, kwargs, None, None, lineno=1)
        return node

    def test(self, node: nodes.Expr) -> nodes.Expr:
        """parse_test: ``x is name``, ``x is not name``, ``x is name(args)`` or ``x is name
        primary`` (one argument without brackets, as ``divisibleby 3``)."""
        self.next()
        negated = self.skip_name("not")
        name = str(self.expect("name")[1])
        while self.current[0] == "dot":
            self.next()
            name += "." + str(self.expect("name")[1])
        args: list[nodes.Expr] = []
        kwargs: list[nodes.Keyword] = []
        if self.current[0] == "lparen":
            args, kwargs = self.call_args()
        elif self.current[0] in _TEST_ARGUMENT and not (
                self.current[0] == "name" and self.current[1] in ("else", "or", "and")):
            if self.is_name("is"):
                raise _Refused  # "You cannot chain multiple tests with is"
            args = [self.postfix(self.primary())]
        node = nodes.Test(node, name, args, kwargs, None, None, lineno=1)
        return nodes.Not(node, lineno=1) if negated else node

    def call(self, node: nodes.Expr) -> nodes.Expr:
        args, kwargs = self.call_args()
        return nodes.Call(node, args, kwargs, None, None, lineno=1)

    def call_args(self) -> tuple[list[nodes.Expr], list[nodes.Keyword]]:
        self.expect("lparen")
        args: list[nodes.Expr] = []
        kwargs: list[nodes.Keyword] = []
        require_comma = False
        while self.current[0] != "rparen":
            if require_comma:
                self.expect("comma")
                if self.current[0] == "rparen":  # a trailing comma
                    break
            if self.current[0] in ("mul", "pow"):
                raise _Refused  # *args, **kwargs
            if self.current[0] == "name" and self.look()[0] == "assign":
                key = str(self.next()[1])
                self.next()
                kwargs.append(nodes.Keyword(key, self.expression(), lineno=1))
            else:
                if kwargs:
                    raise _Refused  # Jinja's "invalid syntax for function call expression"
                args.append(self.expression())
            require_comma = True
        self.expect("rparen")
        return args, kwargs


def parse_text(text: str) -> nodes.Template | None:
    """The tree ``env.parse(text)`` gives for text with ``{{ expression }}`` inside (no
    ``{% %}``, no comments, no whitespace control), or None when this parser does not take
    it. As Jinja's lexer, one trailing newline is dropped (``keep_trailing_newline`` off)."""
    if "{%" in text or "{#" in text or "\r" in text:
        return None
    if text.endswith("\n"):
        text = text[:-1]
    body: list[nodes.Node] = []
    position = 0
    while True:
        start = text.find("{{", position)
        if start < 0:
            break
        end = text.find("}}", start + 2)
        if end < 0:
            return None
        if start > position:
            body.append(nodes.TemplateData(text[position:start], lineno=1))
        inner = text[start + 2:end]
        if inner[:1] in ("-", "+") or inner[-1:] in ("-", "+"):
            return None  # whitespace control
        expression = parse(inner)  # a "}}" inside quotes or brackets: refused there
        if expression is None:
            return None
        body.append(expression)
        position = end + 2
    if position < len(text):
        body.append(nodes.TemplateData(text[position:], lineno=1))
    return nodes.Template([nodes.Output(body, lineno=1)] if body else [], lineno=1)
