"""Errors a user can act on: each names the file, line, field and what was expected."""
from __future__ import annotations

from pathlib import Path


class DataError(Exception):
    """Bad input (a data file, theme or face template). The CLI prints it and exits with 2."""

    def __init__(self, file: Path | str, line: int | None, field: str, expected: str) -> None:
        self.file = str(file)
        self.line = line
        self.field = field
        self.expected = expected
        super().__init__(self.message())

    def message(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.expected}"


class DataErrors(DataError):
    """Several independent problems found in one pass, reported together."""

    def __init__(self, errors: list[DataError]) -> None:
        self.errors = errors
        first = errors[0]
        super().__init__(first.file, first.line, first.field, first.expected)

    def message(self) -> str:
        return "\n".join(e.message() for e in self.errors)


class CompositionError(Exception):
    """The rules module's verify() failed: the set would print incomplete or wrong."""
