"""The bounded Jinja2 environment: which attributes and methods an expression may reach,
the operators it may use, and how it compiles (no constant folding; comparisons metered; a
lone expression into a function returning its value)."""
from __future__ import annotations

import io
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jinja2 import StrictUndefined, Undefined, nodes, pass_context, runtime
from jinja2.compiler import CodeGenerator, Frame, operators
from jinja2.exceptions import SecurityError
from jinja2.nodes import EvalContext
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment, is_internal_attribute

from generator.core.words import said

from .limits import (
    CALL_WORK,
    MAX_EXPONENT,
    MAX_INT_BITS,
    MAX_ITEMS,
    MAX_SIZE,
    MAX_STRING,
    NUMBERS,
    LimitError,
    charge,
    charge_inputs,
    charge_read,
    check_length,
    made,
    size_of,
    to_text,
    too_big,
)
from .text import bounded_concat, expandtabs, join, padder, percent_format, replace, zfill

# -- methods reachable from expressions ------------------------------------------------------

_STR_METHODS: dict[str, Callable[..., Any]] = {
    name: getattr(str, name) for name in (
        "capitalize", "casefold", "count", "endswith", "find", "index", "isalnum", "isalpha",
        "isdecimal", "isdigit", "islower", "isnumeric", "isspace", "istitle", "isupper",
        "lower", "lstrip", "partition", "removeprefix", "removesuffix", "rfind", "rindex",
        "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
        "swapcase", "title", "upper")
}
_STR_METHODS.update(center=padder("center"), ljust=padder("ljust"), rjust=padder("rjust"),
                    zfill=zfill, expandtabs=expandtabs, replace=replace, join=join)
_SEQUENCE_METHODS: dict[str, Callable[..., Any]] = {
    "index": lambda seq, *args: seq.index(*args),
    "count": lambda seq, value: seq.count(value),
}
_MAPPING_METHODS: dict[str, Callable[..., Any]] = {
    "keys": lambda mapping: list(mapping.keys()),
    "values": lambda mapping: list(mapping.values()),
    "items": lambda mapping: list(mapping.items()),
    "get": lambda mapping, key, default=None: mapping.get(key, default),
}
# Named so a reader sees them refused (the allow-lists above already leave them out).
REFUSED_ATTRIBUTES = frozenset({
    "format", "format_map", "mro", "to_bytes", "from_bytes", "encode", "decode", "translate",
    "maketrans", "append", "extend", "insert", "pop", "popitem", "remove", "clear", "update",
    "setdefault", "sort", "reverse", "copy", "gi_frame", "gi_code", "f_globals", "func_globals",
})
_DATA = (str, list, tuple, range, int, float, bool, type(None), Mapping)


class _Method:
    """A method of a value, bound, checked and counted. Has no attributes of its own."""

    __slots__ = ("_function", "_name", "_self")

    def __init__(self, function: Callable[..., Any], self_: Any, name: str) -> None:
        self._function, self._self, self._name = function, self_, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        charge(CALL_WORK)
        charge_inputs((self._self, *args))
        return made(self._function(self._self, *args, **kwargs))

    def __repr__(self) -> str:
        return f"<method {self._name}>"


def _method(obj: Any, name: str) -> _Method | None:
    if isinstance(obj, str):
        table: Mapping[str, Callable[..., Any]] = _STR_METHODS
    elif isinstance(obj, (list, tuple, range)):
        table = _SEQUENCE_METHODS
    elif isinstance(obj, Mapping):
        table = _MAPPING_METHODS
    else:
        return None
    function = table.get(name)
    return _Method(function, obj, name) if function is not None else None


# -- the environment -------------------------------------------------------------------------

# What Jinja's generated code finds in its module namespace (the names its own module
# header imports from jinja2.runtime).
_RUNTIME_NAMES = {name: getattr(runtime, name) for name in runtime.exported}


class _CodeGenerator(CodeGenerator):
    """Jinja's code generator, with ``~``, list/tuple/dict literals and comparisons metered,
    and a lean module for a lone expression (``expression_module``)."""

    def expression_module(self, node: nodes.Expr, filters: bool = True) -> None:
        """A module defining ``expression(context)``, which returns the value of ``node``.

        What ``visit_Template`` writes for a template holding only this expression, without
        the template's furniture (output, blocks, inheritance, the debug map): the same
        frame, the same name loads, the same filter and test look-ups, and the expression
        written by the same ``visit`` methods, so every attribute, item, call and operator
        goes through the environment exactly as in a compiled template. Writing and
        compiling that furniture was most of the cost of compiling a kit's ~1 000 strings.
        ``filters=False`` (the tree has no filter or test) skips looking for them: Jinja would
        write nothing for them."""
        frame = Frame(EvalContext(self.environment, self.name))
        frame.symbols.analyze_node(nodes.Template([nodes.Output([node])]))
        frame.toplevel = frame.rootlevel = True
        self.writeline("def expression(context, missing=missing, environment=environment):")
        self.indent()
        self.writeline("resolve = context.resolve_or_missing")
        self.writeline("undefined = environment.undefined")
        self.writeline("cond_expr_undefined = Undefined")
        self.enter_frame(frame)
        if filters:
            self.pull_dependencies([node])
        self.writeline("return ")
        self.visit(node, frame)
        self.outdent()

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.bounded_concat((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    def visit_List(self, node: nodes.List, frame: Frame) -> None:
        self.write("environment.made(")
        super().visit_List(node, frame)
        self.write(")")

    def visit_Tuple(self, node: nodes.Tuple, frame: Frame) -> None:
        if node.ctx != "load":
            super().visit_Tuple(node, frame)
            return
        self.write("environment.made(")
        super().visit_Tuple(node, frame)
        self.write(")")

    def visit_Dict(self, node: nodes.Dict, frame: Frame) -> None:
        self.write("environment.made(")
        super().visit_Dict(node, frame)
        self.write(")")

    def visit_Compare(self, node: nodes.Compare, frame: Frame) -> None:
        """Python's own comparison, as Jinja writes it, each operand read through
        ``environment.compared`` (comparing two big lists is work)."""
        self.write("(environment.compared(")
        self.visit(node.expr, frame)
        self.write(")")
        for operand in node.ops:
            self.visit(operand, frame)
        self.write(")")

    def visit_Operand(self, node: nodes.Operand, frame: Frame) -> None:
        self.write(f" {operators[node.op]} environment.compared(")
        self.visit(node.expr, frame)
        self.write(")")


def _unsafe(obj: Any, attribute: Any) -> SecurityError:
    return SecurityError(f"access to attribute {said(attribute)} of {said(type(obj).__name__)} "
                         "object is unsafe.")


class BoundedSandbox(SandboxedEnvironment):
    """Jinja's sandbox with allow-listed attributes and calls and bounded operations."""

    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})
    code_generator_class = _CodeGenerator
    # The functions an expression may call (this environment's globals, given to the factory
    # that made it: library.make_environment), by id; the values keep them alive so an id is
    # never reused. Each environment its own: nothing is added to a shared table.
    callables: dict[int, Callable[..., Any]]

    @staticmethod
    def made(value: Any) -> Any:
        return made(value)

    @staticmethod
    def bounded_concat(parts: Iterable[Any]) -> str:
        return bounded_concat(parts)

    @staticmethod
    def compared(value: Any) -> Any:
        return charge_read(value)

    def expression_function(self, node: nodes.Expr,
                            filters: bool = True) -> Callable[[Context], Any]:
        """A checked expression tree compiled by this environment's code generator into a
        function of the context (``_CodeGenerator.expression_module``; ``filters``: whether
        the tree applies a filter or test). Errors as Jinja's compiler raises them
        (TemplateAssertionError for an unknown filter...)."""
        return self.expression_from_code(self.expression_code(node, filters))

    def expression_code(self, node: nodes.Expr, filters: bool = True) -> types.CodeType:
        """The compiled module of ``expression_function`` (what the code cache keeps,
        generator/core/code_cache.py)."""
        source = io.StringIO()
        generator = self.code_generator_class(self, "<expression>", "<expression>", source,
                                              optimized=self.optimized)
        generator.expression_module(node, filters)
        return compile(source.getvalue(), "<expression>", "exec")

    def expression_from_code(self, code: types.CodeType) -> Callable[[Context], Any]:
        """The function ``expression_code``'s module defines, run in this environment."""
        namespace = {**_RUNTIME_NAMES, "environment": self}
        exec(code, namespace)
        function: Callable[[Context], Any] = namespace["expression"]
        return function

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if not isinstance(attr, str) or attr.startswith("_") or attr in REFUSED_ATTRIBUTES:
            return False
        if is_internal_attribute(obj, attr):
            return False
        return _method(obj, attr) is not None

    def is_safe_callable(self, obj: Any) -> bool:
        return type(obj) is _Method or id(obj) in self.callables

    def wrap_str_format(self, value: Any) -> None:
        return None  # str.format and format_map are refused, never wrapped

    def getattr(self, obj: Any, attribute: str) -> Any:
        if not isinstance(attribute, str) or attribute.startswith("_") \
                or attribute in REFUSED_ATTRIBUTES:
            raise _unsafe(obj, attribute)
        if isinstance(obj, Undefined):
            obj._fail_with_undefined_error()
        if isinstance(obj, Mapping) and attribute in obj:
            return obj[attribute]  # data first: a key named "items" is the data
        method = _method(obj, attribute)
        if method is not None and not is_internal_attribute(obj, attribute):
            return method
        if isinstance(obj, _DATA):
            return self.undefined(obj=obj, name=attribute)
        raise _unsafe(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        if isinstance(obj, Undefined):
            obj._fail_with_undefined_error()
        if isinstance(obj, (Mapping, list, tuple, str, range)):
            try:
                value = obj[argument]
            except (TypeError, LookupError):
                pass
            else:
                if type(argument) is slice:
                    charge_read(value)  # a slice is a copy
                return value
            if isinstance(argument, str):
                return self.getattr(obj, argument)
            return self.undefined(obj=obj, name=argument)
        if isinstance(argument, str):
            return self.getattr(obj, argument)
        raise SecurityError(f"indexing a {said(type(obj).__name__)} object is unsafe.")

    def call(__self, __context: Context, __obj: Any, *args: Any,
             **kwargs: Any) -> Any:
        if isinstance(__obj, Undefined):
            __obj._fail_with_undefined_error()
        if not __self.is_safe_callable(__obj):
            raise SecurityError(f"a {said(type(__obj).__name__)} object is not safely callable")
        return __obj(*args, **kwargs)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        kinds = type(left), type(right)
        if kinds[0] in NUMBERS and kinds[1] in NUMBERS:
            if operator == "**":
                _check_power(left, right)
            elif operator == "*" and kinds == (int, int) \
                    and left.bit_length() + right.bit_length() > MAX_INT_BITS + 1:
                raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
            result = self.binop_table[operator](left, right)
            if type(result) is int and result.bit_length() > MAX_INT_BITS:
                raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
            return result
        charge()
        if operator == "%" and isinstance(left, str):
            return made(percent_format(left, right))
        if operator == "**" and isinstance(left, NUMBERS) and isinstance(right, NUMBERS):
            _check_power(left, right)
        elif operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int):
                    _check_repeat(seq, times)
        elif operator == "+":
            if isinstance(left, str) and isinstance(right, str):
                check_length(len(left) + len(right))
            elif isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
                if len(left) + len(right) > MAX_ITEMS:
                    raise LimitError(f"list longer than {MAX_ITEMS} items")
                if size_of(left) + size_of(right) > MAX_SIZE:
                    raise too_big("list")
        return made(self.binop_table[operator](left, right))


def _check_power(base: Any, exponent: Any) -> None:
    if abs(exponent) > MAX_EXPONENT:
        raise LimitError(f"exponent {exponent} is larger than {MAX_EXPONENT}")
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 \
            and base.bit_length() * exponent > MAX_INT_BITS + exponent:
        raise LimitError(f"number larger than 2**{MAX_INT_BITS}")


def _check_repeat(seq: str | list[Any] | tuple[Any, ...], times: int) -> None:
    if times <= 0:
        return
    if isinstance(seq, str):
        if len(seq) * times > MAX_STRING:
            raise LimitError(f"result longer than {MAX_STRING} items: string longer than "
                             f"{MAX_STRING} characters")
        return
    if len(seq) * times > MAX_ITEMS:
        raise LimitError(f"result longer than {MAX_ITEMS} items")
    if size_of(seq, MAX_SIZE // times + 1) * times > MAX_SIZE:
        raise too_big("list")


@pass_context
def _finalize(context: Context, value: Any) -> str:
    """How ``{{ value }}`` inside text is printed. ``pass_context`` on purpose: Jinja then
    cannot fold the output at compile time."""
    text = to_text(value)
    charge(len(text) + 1)
    return text


def new_environment() -> BoundedSandbox:
    """A bounded sandbox with our settings, Jinja's default library and no function callable
    (library.make_environment replaces the library with the one it is given)."""
    env = BoundedSandbox(undefined=StrictUndefined, autoescape=False,
                         keep_trailing_newline=False, optimized=False, finalize=_finalize)
    env.callables = {}
    return env
