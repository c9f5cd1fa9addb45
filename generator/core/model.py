"""The game model: small frozen dataclasses built from a validated data file.

Every measurement is in millimetres. Points and pixels exist only inside a renderer.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ("card", "token", "tile", "board", "die", "sheet", "rules", "aid")


@dataclass(frozen=True)
class Size:
    """Trim size of one face, in millimetres."""

    w: float
    h: float


@dataclass(frozen=True)
class Item:
    """One distinct printed face (a card, a token side...) and how many copies to print."""

    data: Mapping[str, Any]
    count: int = 1

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


@dataclass(frozen=True)
class Component:
    """A family of printed pieces sharing size, face template and back (a deck, a token set...)."""

    id: str
    kind: str
    name: str
    size: Size
    face: str
    items: tuple[Item, ...]
    back: str | None = None
    shape: str = "rect"
    params: Mapping[str, Any] = field(default_factory=dict)
    label: str | None = None  # a template naming each item (PNG file names, reports)
    assembly: str = ""  # how to cut, fold or join it (the contents sheet prints this)

    def expanded(self) -> Iterator[Mapping[str, Any]]:
        """Each copy's data, ``count`` times per item: what ends up on the table."""
        for item in self.items:
            for _ in range(item.count):
                yield item.data

    @property
    def total(self) -> int:
        return sum(item.count for item in self.items)


@dataclass(frozen=True)
class Game:
    """A whole kit: its components plus the game-level data (credit, rules summary, settings)."""

    id: str
    title: str
    credit: str
    # The rules engine (generator/rules/<name>/), or None: a game without Python has no play
    # engine to simulate and is checked only by its data file's ``verify`` list.
    rules: str | None
    players: tuple[int, int]
    components: tuple[Component, ...]
    theme: str
    data: Mapping[str, Any]
    source: Path
    # The parsed files, for pointing findings at lines: {"game": YamlDoc, "tables": {name:
    # YamlDoc of the file that holds the table}}. Left out of equality.
    docs: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def component(self, component_id: str) -> Component:
        for comp in self.components:
            if comp.id == component_id:
                return comp
        raise KeyError(component_id)
