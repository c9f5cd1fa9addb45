"""Words that cannot hurt: a stranger's keys and values as a message shows them.

A message quotes what a project wrote (a mapping's key, a cell, a name that matches
nothing), and the message goes to a terminal. Written as it is, such text can hurt: an escape
sequence (``ESC [ 2 J``, ``ESC ] 52``) clears the screen, retitles the window or writes the
clipboard; a bidirectional override reorders the line around it; a 2 MB value makes a 2 MB
error line. So every piece of a stranger's text in a message goes through one of these:

- ``printable(text)``: every character that is not printable (``str.isprintable``: control
  characters and escapes, line breaks, bidirectional controls, lone surrogates) written as
  its Python escape (``\\x1b``, ``\\n``, ``\\u202e``), as ``repr`` writes it; nothing cut;
- ``plain(value)``: a key or name shown bare (``tables.cards[3].name``): ``printable`` and
  cut at ``LIMIT`` characters with ``…``;
- ``said(value)``: a value quoted as ``repr`` quotes it (``'Dawn'``, ``3``, ``[1, 2]``), cut
  at ``LIMIT`` characters with ``…``: the one way a message quotes a value.

A value is cut before it is escaped or formatted, so quoting a 2 MB text costs no more than
quoting a short one. ``safe_lines`` is the last guard where an error is printed
(generator/core/errors.py's ``reported``): each line made printable and cut at ``LINE_LIMIT``.
"""
from __future__ import annotations

import reprlib

LIMIT = 60  # characters of a key or value a message shows
LINE_LIMIT = 2000  # characters of one line of a message printed
ELLIPSIS = "…"

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = LIMIT
_REPR.maxother = LIMIT
for _field in ("maxlist", "maxtuple", "maxdict", "maxset", "maxfrozenset", "maxdeque",
               "maxarray"):
    setattr(_REPR, _field, 8)


def cut(text: str, limit: int = LIMIT) -> str:
    """``text`` at most ``limit`` characters, ``…`` ending it when it was longer."""
    return text if len(text) <= limit else text[:max(limit - 1, 0)] + ELLIPSIS


def printable(text: str) -> str:
    """``text`` with each character that is not printable written as its escape (``\\x1b``,
    ``\\n``, ``\\u202e``): nothing in it can move the cursor, colour, retitle, reorder or
    break a line of the terminal."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def plain(value: object, limit: int = LIMIT) -> str:
    """A key or name shown bare in a message: printable, at most ``limit`` characters."""
    text = value if isinstance(value, str) else str(value)
    return cut(printable(text[:limit + 1]), limit)


def said(value: object, limit: int = LIMIT) -> str:
    """A value quoted in a message as ``repr`` quotes it, at most ``limit`` characters (a
    text cut inside its quotes: ``'Dawnnnn…'``)."""
    if isinstance(value, str):
        quoted = repr(value[:limit + 1])  # escapes every character that is not printable
        inner = quoted[1:-1]
        if len(value) > limit or len(inner) > limit:
            inner = inner[:max(limit - 1, 0)] + ELLIPSIS
        return quoted[0] + inner + quoted[-1]
    return cut(printable(_REPR.repr(value)), limit)


def safe_lines(text: str, limit: int | None = LINE_LIMIT) -> str:
    """A message as printed: each of its lines printable and at most ``limit`` characters
    (None: whole; the last guard: what a message quotes should already be ``said`` or
    ``plain``)."""
    if limit is None:
        return "\n".join(printable(line) for line in text.split("\n"))
    return "\n".join(cut(printable(line[:limit + 1]), limit) for line in text.split("\n"))
