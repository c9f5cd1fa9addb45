"""The bounded Jinja2 environment: which attributes and methods an expression may reach,
the operators it may use, and how it compiles (no constant folding)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jinja2 import StrictUndefined, Undefined, nodes, pass_context
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment, is_internal_attribute

from .sandbox_limits import (
    _METER,
    _NUMBERS,
    _SAFE_CALLABLES,
    MAX_EXPONENT,
    MAX_INT_BITS,
    MAX_ITEMS,
    MAX_SIZE,
    MAX_STRING,
    LimitError,
    _charge_inputs,
    _check_length,
    _made,
    _too_big,
    size_of,
    to_text,
)
from .sandbox_text import _expandtabs, _join, _pad, _replace, _zfill, bounded_concat, percent_format

# -- methods reachable from expressions ------------------------------------------------------

_STR_METHODS: dict[str, Callable[..., Any]] = {
    name: getattr(str, name) for name in (
        "capitalize", "casefold", "count", "endswith", "find", "index", "isalnum", "isalpha",
        "isdecimal", "isdigit", "islower", "isnumeric", "isspace", "istitle", "isupper",
        "lower", "lstrip", "partition", "removeprefix", "removesuffix", "rfind", "rindex",
        "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
        "swapcase", "title", "upper")
}
_STR_METHODS.update(center=_pad("center"), ljust=_pad("ljust"), rjust=_pad("rjust"),
                    zfill=_zfill, expandtabs=_expandtabs, replace=_replace, join=_join)
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
        _METER.charge()
        _charge_inputs((self._self, *args))
        return _made(self._function(self._self, *args, **kwargs))

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

class _CodeGenerator(CodeGenerator):
    """Jinja's code generator, with ``~`` and list/tuple/dict literals size-checked."""

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


def _unsafe(obj: Any, attribute: Any) -> SecurityError:
    return SecurityError(f"access to attribute {attribute!r} of {type(obj).__name__!r} "
                         "object is unsafe.")


class BoundedSandbox(SandboxedEnvironment):
    """Jinja's sandbox with allow-listed attributes and calls and bounded operations."""

    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})
    code_generator_class = _CodeGenerator

    @staticmethod
    def made(value: Any) -> Any:
        return _made(value)

    @staticmethod
    def bounded_concat(parts: Iterable[Any]) -> str:
        return bounded_concat(parts)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if not isinstance(attr, str) or attr.startswith("_") or attr in REFUSED_ATTRIBUTES:
            return False
        if is_internal_attribute(obj, attr):
            return False
        return _method(obj, attr) is not None

    def is_safe_callable(self, obj: Any) -> bool:
        return type(obj) is _Method or id(obj) in _SAFE_CALLABLES

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
                return obj[argument]
            except (TypeError, LookupError):
                pass
            if isinstance(argument, str):
                return self.getattr(obj, argument)
            return self.undefined(obj=obj, name=argument)
        if isinstance(argument, str):
            return self.getattr(obj, argument)
        raise SecurityError(f"indexing a {type(obj).__name__!r} object is unsafe.")

    def call(__self, __context: Context, __obj: Any, *args: Any,
             **kwargs: Any) -> Any:
        if isinstance(__obj, Undefined):
            __obj._fail_with_undefined_error()
        if not __self.is_safe_callable(__obj):
            raise SecurityError(f"a {type(__obj).__name__!r} object is not safely callable")
        return __obj(*args, **kwargs)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        kinds = type(left), type(right)
        if kinds[0] in _NUMBERS and kinds[1] in _NUMBERS:
            if operator == "**":
                _check_power(left, right)
            elif operator == "*" and kinds == (int, int) \
                    and left.bit_length() + right.bit_length() > MAX_INT_BITS + 1:
                raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
            result = self.binop_table[operator](left, right)
            if type(result) is int and result.bit_length() > MAX_INT_BITS:
                raise LimitError(f"number larger than 2**{MAX_INT_BITS}")
            return result
        _METER.charge()
        if operator == "%" and isinstance(left, str):
            return _made(percent_format(left, right))
        if operator == "**" and isinstance(left, _NUMBERS) and isinstance(right, _NUMBERS):
            _check_power(left, right)
        elif operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int):
                    _check_repeat(seq, times)
        elif operator == "+":
            if isinstance(left, str) and isinstance(right, str):
                _check_length(len(left) + len(right))
            elif isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
                if len(left) + len(right) > MAX_ITEMS:
                    raise LimitError(f"list longer than {MAX_ITEMS} items")
                if size_of(left) + size_of(right) > MAX_SIZE:
                    raise _too_big("list")
        return _made(self.binop_table[operator](left, right))


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
        raise _too_big("list")


@pass_context
def _finalize(context: Context, value: Any) -> str:
    """How ``{{ value }}`` inside text is printed. ``pass_context`` on purpose: Jinja then
    cannot fold the output at compile time."""
    text = to_text(value)
    _METER.charge(len(text) + 1)
    return text


ENV = BoundedSandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False,
                     optimized=False, finalize=_finalize)


