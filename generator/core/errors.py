"""Errors a user can act on: each names the file, line, field and what was expected."""
from __future__ import annotations

import os
from pathlib import Path

from generator.core.atomic import OutputError, UnsafeOutput
from generator.core.words import safe_lines


def shown(file: str) -> str:
    """A file as a message names it: relative to the folder the user stands in when it lies
    inside it (``mygame/faces/card.yaml``, as they typed the project), else as it is. Data
    files were named as typed and templates found by absolute path; either way the user
    reads one form."""
    if not file or not os.path.isabs(file):
        return file
    try:
        here = os.getcwd()
    except OSError:  # the current folder was removed
        return file
    if file == here or not file.startswith(here.rstrip(os.sep) + os.sep):
        return file
    return os.path.relpath(file, here)


def location(file: Path | str, line: int | None, field: str = "") -> str:
    """Where a value was written, as every message says it: ``game.yaml:12: cards[3].name``
    for a YAML file, ``cards.xlsx: sheet Roles, row 4, column power`` for a spreadsheet's
    cell (no line: the field says the sheet, row and column), the bare file when nothing
    more is known; the file as ``shown``. The one place a location is formatted."""
    name = shown(str(file))
    where = f"{name}:{line}" if line else name
    return f"{where}: {field}" if field else where


class DataError(Exception):
    """Bad input (a data file, theme or face template). The CLI prints it and exits with 2."""

    # The text a face's text element was drawing when the error arose, when it was one: the
    # build names the data the text came from (a spreadsheet's cell) beside the template.
    printed: str | None = None

    def __init__(self, file: Path | str, line: int | None, field: str, expected: str) -> None:
        self.file = str(file)
        self.line = line
        self.field = field
        self.expected = expected
        super().__init__(self.message())

    def message(self) -> str:
        return f"{location(self.file, self.line, self.field)}: {self.expected}"


SHOWN = 50  # problems listed one per line before the rest are counted


class DataErrors(DataError):
    """Several independent problems found in one pass, reported together."""

    def __init__(self, errors: list[DataError]) -> None:
        self.errors = errors
        first = errors[0]
        super().__init__(first.file, first.line, first.field, first.expected)

    def message(self) -> str:
        """Every problem, one per line, up to ``SHOWN``; past that a count of the rest (a
        file with a thousand bad rows usually has one mistake repeated: the first lines say
        which, and 60,000 lines would bury it)."""
        lines = [e.message() for e in self.errors[:SHOWN]]
        if len(self.errors) > SHOWN:
            lines.append(f"... and {len(self.errors) - SHOWN} more problems in "
                         f"{len({str(e.file) for e in self.errors[SHOWN:]})} file(s) (fix "
                         "these first: the rest are often the same mistake)")
        return "\n".join(lines)


class InputError(ValueError):
    """Input that cannot be used as given (a project folder, a piece too large for the paper):
    the message says why and the command line exits 2. The layers that find such input
    subclass it, so this module never imports them."""


class CompositionError(Exception):
    """The rules module's verify() failed: the set would print incomplete or wrong."""


class ForwardedError(Exception):
    """A failure of a build in a worker process, as the command line prints it: ``text``
    after ``error: `` and the exit ``code``. Exceptions with their own constructors do not
    all survive pickling, so a worker sends what would be printed, not the exception."""

    def __init__(self, text: str, code: int) -> None:
        super().__init__(text)
        self.text = text
        self.code = code

    def __reduce__(self) -> tuple[type, tuple[str, int]]:
        return (ForwardedError, (self.text, self.code))


# Past the memory there is, where no input can be blamed (a template that draws too much is
# named where it is drawn: generator/faces/template.py).
OUT_OF_MEMORY = ("out of memory: the build needs more memory than there is (look for a very "
                 "large table, picture or template in the project)")


def reported(exc: BaseException) -> tuple[str, int] | None:
    """What the command line prints for an expected failure (the text after ``error: ``)
    and its exit code: 2 for bad input or an impossible set (an output folder that is a link
    included: the project is at fault, not the disk), 1 for an output that cannot be
    written; None for anything else (a bug, which keeps its traceback). The text is safe to
    print (generator/core/words.py: each line printable and of bounded length), whatever a
    message quoted."""
    found = _reported(exc)
    return None if found is None else (safe_lines(found[0]), found[1])


def _reported(exc: BaseException) -> tuple[str, int] | None:
    if isinstance(exc, ForwardedError):
        return exc.text, exc.code
    if isinstance(exc, DataError):
        return exc.message(), 2
    if isinstance(exc, (InputError, CompositionError, UnsafeOutput)):
        return str(exc), 2
    if isinstance(exc, OutputError):
        return str(exc), 1
    if isinstance(exc, MemoryError):
        return OUT_OF_MEMORY, 1
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc) or type(exc).__name__
        return (f"{exc.filename}: {reason}" if exc.filename else reason), 1
    return None
