"""Rendered faces as plain JSON values and back, for the face cache (generator/faces/face_cache.py).

Why not pickle: a cache file is untrusted (anyone able to write the folder may have edited
it), and unpickling runs code. Each primitive is written as ``[tag, field, field...]`` in
its dataclass's field order; reading it back checks every field against the type its
annotation declares (a number where a number belongs, a tuple of (x, baseline, text) where
text lines belong...), so a tampered file is refused (``None``: a miss), never drawn.

The annotations are read from the dataclasses themselves; a primitive field whose annotation
this module does not know makes ``encode`` refuse (``Unencodable``), so a new kind of field
can never be cached half-understood (tests/test_face_cache.py checks every primitive).
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any, get_args

from generator.core import memo
from generator.core import primitives as p

# Every primitive of the drawing vocabulary (its ``Primitive`` union), so a new one is
# encoded without a change here.
_PRIMITIVES = tuple(cls.__name__ for cls in get_args(p.Primitive))
_CLASSES: dict[str, type] = {cls.__name__: cls
                             for cls in (*get_args(p.Primitive), p.Origin, p.Face)}


class Unencodable(ValueError):
    """A face holding something this codec cannot write exactly."""


class _Bad(ValueError):
    """A cached value that is not what its field declares."""


def _num(v: Any) -> float:
    if type(v) is int or (type(v) is float and math.isfinite(v)):
        return v
    raise _Bad


def _str(v: Any) -> str:
    if type(v) is str:
        return v
    raise _Bad


def _int(v: Any) -> int:
    if type(v) is int:
        return v
    raise _Bad


def _bool(v: Any) -> bool:
    if type(v) is bool:
        return v
    raise _Bad


def _optional(read: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda v: None if v is None else read(v)


def _seq(read: Callable[[Any], Any], length: int | None = None) -> Callable[[Any], tuple[Any, ...]]:
    def run(v: Any) -> tuple[Any, ...]:
        if type(v) is not list or (length is not None and len(v) != length):
            raise _Bad
        return tuple(read(x) for x in v)
    return run


def _record(*reads: Callable[[Any], Any]) -> Callable[[Any], tuple[Any, ...]]:
    def run(v: Any) -> tuple[Any, ...]:
        if type(v) is not list or len(v) != len(reads):
            raise _Bad
        return tuple(read(x) for read, x in zip(reads, v, strict=True))
    return run


def _object(*allowed: str) -> Callable[[Any], Any]:
    return lambda v: _decode_object(v, allowed)


_colour = _optional(_str)
# Field annotation (as written in generator/core/primitives.py) -> reader of its JSON form.
_READERS: dict[str, Callable[[Any], Any]] = {
    "float": _num,
    "int": _int,
    "str": _str,
    "bool": _bool,
    "Colour": _colour,
    "int | None": _optional(_int),
    "tuple[float, ...] | None": _optional(_seq(_num)),
    "tuple[float, float, float, float] | None": _optional(_seq(_num, 4)),
    "tuple[Segment, ...]": _seq(_record(_str, _seq(_num))),
    "tuple[tuple[float, float, str], ...]": _seq(_record(_num, _num, _str)),
    "tuple[tuple[float, float, str, str, Colour], ...]":
        _seq(_record(_num, _num, _str, _str, _colour)),
    "tuple[Icon, ...]": _seq(_object("Icon")),
    "tuple[Primitive, ...]": _seq(_object(*_PRIMITIVES)),
    "tuple[Origin, ...]": _seq(_object("Origin")),
}


# Field kinds checked inline (the common ones: no call per value); others use their reader.
_NUM, _STR, _COLOUR, _OTHER = 0, 1, 2, 3
_KINDS = {"float": _NUM, "str": _STR, "Colour": _COLOUR}
_Layout = tuple[type, tuple[str, ...], tuple[tuple[int, Callable[[Any], Any]], ...]]


def _fields(cls: type) -> _Layout:
    names, checks = [], []
    for f in dataclasses.fields(cls):
        read = _READERS.get(str(f.type))
        if read is None:
            raise Unencodable(f"{cls.__name__}.{f.name}: unknown field type {f.type}")
        names.append(f.name)
        checks.append((_KINDS.get(str(f.type), _OTHER), read))
    return cls, tuple(names), tuple(checks)


_LAYOUT: dict[str, _Layout] = {}  # class name -> its fields: derived from the code alone
memo.register(_LAYOUT.clear, f"{__name__}._LAYOUT", code=True)


def _layout(name: str) -> _Layout:
    layout = _LAYOUT.get(name)
    if layout is None:
        layout = _LAYOUT[name] = _fields(_CLASSES[name])
    return layout


def _decode_object(v: Any, allowed: tuple[str, ...]) -> Any:
    if type(v) is not list or not v or type(v[0]) is not str or v[0] not in allowed:
        raise _Bad
    cls, names, checks = _layout(v[0])
    if len(v) != len(names) + 1:
        raise _Bad
    values = []
    for (kind, read), x in zip(checks, v[1:], strict=True):
        t = type(x)
        if kind == _NUM:
            if not (t is int or (t is float and x - x == 0)):  # x - x: nan for inf and nan
                raise _Bad
        elif kind == _STR:
            if t is not str:
                raise _Bad
        elif kind == _COLOUR:
            if x is not None and t is not str:
                raise _Bad
        else:
            x = read(x)
        values.append(x)
    # The dataclasses are frozen and have no __post_init__: filling the instance's dict is
    # what their __init__ does, without a guarded setattr per field (decoding is a warm
    # build's hot path).
    made: object = object.__new__(cls)
    made.__dict__.update(zip(names, values, strict=True))
    return made


def _plain(value: Any) -> Any:
    """Tuples as lists, dataclasses as [tag, fields...]; anything else must be JSON's own."""
    kind = type(value)
    if value is None or kind in (str, int, bool):
        return value
    if kind is float:
        if not math.isfinite(value):
            raise Unencodable("a number that is not finite")
        return value
    if kind is tuple:
        return [_plain(v) for v in value]
    name = kind.__name__
    if _CLASSES.get(name) is kind:
        return [name, *(_plain(getattr(value, f)) for f in _layout(name)[1])]
    raise Unencodable(f"cannot write a {name}")


def encode(faces: list[p.Face]) -> list[Any]:
    """The faces as plain JSON values; ``Unencodable`` when one would not come back equal."""
    return [_plain(face) for face in faces]


class _Past(Exception):
    """Counting stopped: the size is past its limit."""


def encoded_size(faces: list[p.Face], limit: int) -> int:
    """About the bytes ``encode(faces)`` takes as compact JSON (numbers exactly, text as if
    plain ASCII, so a little less where it is not), counted without making any of it: a
    component too large to keep is known before a copy of its faces is made. Counting stops
    once past ``limit`` (the result is then only known to exceed it)."""
    total = 0

    def walk(value: Any) -> None:
        nonlocal total
        kind = type(value)
        if kind is tuple:
            total += 1 + len(value)  # brackets and commas
            for v in value:  # most values are numbers in tuples: counted here, no call
                if type(v) is float:
                    total += len(repr(v))
                elif type(v) is str:
                    total += len(v) + 2
                else:
                    walk(v)
            if total > limit:
                raise _Past
        elif kind is float:
            total += len(repr(value))
        elif kind is str:
            total += len(value) + 2
        elif kind is int:
            total += len(str(value))
        elif value is None or kind is bool:
            total += 5
        elif _CLASSES.get(kind.__name__) is kind:
            names = _layout(kind.__name__)[1]
            total += len(kind.__name__) + 4 + len(names)  # ["Name",...]
            for name in names:
                walk(getattr(value, name))
        # anything else: ``encode`` refuses it

    try:
        for face in faces:
            walk(face)
    except _Past:
        pass
    return total


def comes_back(written: Any, face: p.Face) -> bool:
    """Whether ``written`` (what ``encode`` made of ``face``) decodes to that very face.
    Decoding keeps the written numbers and texts themselves, so an equal face is exactly the
    face drawn."""
    again = decode([written])
    return again is not None and again[0] == face


def decode(value: Any) -> list[p.Face] | None:
    """The faces ``encode`` wrote, or None when ``value`` is not exactly such a list."""
    if type(value) is not list:
        return None
    try:
        return [_decode_object(v, ("Face",)) for v in value]
    except (_Bad, TypeError, ValueError, RecursionError):
        return None
