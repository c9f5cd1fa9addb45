"""Progress for long work (all games, PNG export), on stderr and only for a terminal: logs,
CI and pipes stay quiet, and stdout keeps only the results."""
from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


class Progress:
    """A one-line counter ``label: done/total`` redrawn in place."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None,
                 enabled: bool | None = None) -> None:
        self.label, self.total, self.done = label, total, 0
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled

    def step(self, note: str = "") -> None:
        self.done += 1
        if self.enabled:
            width = 24
            filled = width * self.done // max(1, self.total)
            bar = "#" * filled + "." * (width - filled)
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {note[:30]:<30}")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * (len(self.label) + 70) + "\r")
            self.stream.flush()


def track(items: Iterable[T], label: str, total: int, stream: TextIO | None = None,
          enabled: bool | None = None) -> Iterator[T]:
    bar = Progress(label, total, stream, enabled)
    try:
        for item in items:
            yield item
            bar.step(str(item))
    finally:
        bar.close()
