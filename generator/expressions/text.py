"""Text operations an expression may use, each bounded before it allocates: padding,
replacing, joining and ``%`` formatting with its widths checked first (the methods of text
in env.py and the filters in library.py call these)."""
from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from generator.core.words import said

from .limits import BoundedText, charge, check_length, check_width, metered, to_text

# -- the rich-text markup's escape ----------------------------------------------------------

# The characters of the rich-text markup (**bold**, [colour]...[/], :icon:, \ escaping):
# generator/faces/markup.py parses them, ``literal`` escapes them. Defined here, below both,
# so the filter is the library's own and the parser reads the same set.
MARKUP_SPECIAL = "\\*[]:"
_MARKUP_CHAR = re.compile(r"[\\*\[\]:]")


def escape_markup(text: object) -> str:
    """``text`` with every markup character escaped: it prints exactly as given."""
    return _MARKUP_CHAR.sub(lambda m: "\\" + m.group(0), str(text))


# -- bounded text operations -----------------------------------------------------------------

def padder(name: str) -> Callable[..., str]:
    """``str.center``, ``ljust`` or ``rjust`` with its width checked first."""
    method = getattr(str, name)

    def pad(text: str, width: Any, *fill: Any) -> str:
        return method(text, check_width(width), *fill)
    pad.__name__ = name
    return pad


def zfill(text: str, width: Any) -> str:
    return text.zfill(check_width(width))


def expandtabs(text: str, tabsize: Any = 8) -> str:
    size = check_width(tabsize, "tab size")
    check_length(len(text) + text.count("\t") * max(size, 0))
    return text.expandtabs(size)


def replace(text: str, old: Any, new: Any, count: Any = -1) -> str:
    if not isinstance(old, str) or not isinstance(new, str):
        raise TypeError("replace() takes text to find and text to put in its place")
    count = operator.index(count)
    found = text.count(old) if old else len(text) + 1
    if count >= 0:
        found = min(found, count)
    check_length(len(text) + found * (len(new) - len(old)))
    return text.replace(old, new, count)


def join(separator: str, items: Iterable[Any]) -> str:
    out = BoundedText()
    for index, item in enumerate(metered(items)):
        if not isinstance(item, str):
            raise TypeError(f"join() takes text, got {type(item).__name__}")
        if index:
            out.add(separator)
        out.add(item)
    return out.value()


_SPEC = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
                   r"(?:\.(?P<precision>\*|\d*))?[hlL]?(?P<type>[diouxXeEfFgGcrsa%])")


def percent_format(template: str, values: Any) -> str:
    """``template % values``, made piece by piece: each width and precision is checked and
    each piece counted before it is made, so ``'%0999999999d' % 1`` allocates nothing."""
    mapping = values if isinstance(values, Mapping) else None
    args = values if isinstance(values, tuple) else (values,)
    used = 0
    out = BoundedText()
    position = 0
    while True:
        start = template.find("%", position)
        if start < 0:
            out.add(template[position:])
            break
        out.add(template[position:start])
        spec = _SPEC.match(template, start)
        if spec is None:
            raise ValueError(f"unsupported format at {said(template[start:start + 10])}")
        position = spec.end()
        kind, width, precision = spec["type"], spec["width"], spec["precision"]
        if width == "*" or precision == "*":
            raise ValueError("a * width or precision is not supported")
        if width is not None:
            check_width(int(width), "format width")
        if precision:
            check_width(int(precision), "format precision")
        if kind == "%":
            out.add("%")
            continue
        if spec["key"] is not None:
            if mapping is None:
                raise TypeError("format requires a mapping")
            value = mapping[spec["key"]]
        else:
            if used >= len(args):
                raise TypeError("not enough arguments for format string")
            value = args[used]
            used += 1
        flags = spec["flags"]
        if kind in "sra":
            if kind == "s":
                piece = to_text(value)
            else:
                text = BoundedText()
                text.write(value)
                piece = text.value()
            if precision is not None:
                piece = piece[:int(precision or 0)]
            if width is not None:
                piece = piece.ljust(int(width)) if "-" in flags else piece.rjust(int(width))
        else:
            if not isinstance(value, (int, float)) and not (kind == "c" and isinstance(value, str)):
                raise TypeError(f"%{kind} format: a number is required, not "
                                f"{type(value).__name__}")
            one = "%" + flags + (width or "") + ("." + precision if precision is not None
                                                 else "") + kind
            piece = one % (value,)
        out.add(piece)
    if mapping is None and used < len(args):
        raise TypeError("not all arguments converted during string formatting")
    return out.value()


def bounded_concat(parts: Iterable[Any]) -> str:
    """The ``~`` operator: every part as text, refused past MAX_STRING."""
    out = BoundedText()
    for part in parts:
        out.add(to_text(part))
    charge(out.size + 1)
    return out.value()


