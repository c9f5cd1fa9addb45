"""The game model: small frozen dataclasses built from a validated data file.

Every measurement is in millimetres. Points and pixels exist only inside a renderer.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # typed only: the model loads no YAML or colour library
    from generator.core.context import Sourced
    from generator.core.vector import IconDef
    from generator.core.yamlfile import YamlDoc

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
class ItemRef:
    """Where an item's values were written, as field paths of the game's files: ``whole``,
    the item itself (``("tables", "cards", 3)``: a table's row, in the file that holds the
    table; ``("components", 0, "items", 2)``: an entry of the game file), ``keys``, a top-level
    field written elsewhere (a product's row of another table, a ``generate``'s ``extra``).
    Errors about a value drawn from the item name its cell
    (generator/data/translation/origin.py)."""

    whole: tuple[Hashable, ...]
    keys: tuple[tuple[str, tuple[Hashable, ...]], ...] = ()


@dataclass(frozen=True)
class StartCell:
    """A board's start space, by name and in mm from its top-left corner: the contents sheet
    says which seam of a tiled board crosses it."""

    name: str
    x: float
    y: float
    w: float
    h: float


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
    corner: float = 0.0  # rounded corners' radius (mm) in the cut file (layout/cutfile.py)
    params: Mapping[str, Any] = field(default_factory=dict)
    label: str | None = None  # a template naming each item (PNG file names, reports)
    assembly: str = ""  # how to cut, fold or join it (the contents sheet prints this)
    # A board's cell boundaries (x lines, y lines, mm): where a tiled board's seams may go.
    seams: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    seam_gap: float = 0.0  # each boundary is the middle of a gap this wide between cells
    start: StartCell | None = None  # the start space, crossed by as few seams as fit
    # A board of equal cells (``size: {grid: ...}``): rows, cols, gap, border and the cell's
    # {w, h} in mm, which its faces read (``component.grid.rows``) instead of repeating them.
    grid: Mapping[str, Any] | None = None
    # Where each item was written (parallel to ``items``; empty for a component made in
    # code), for errors about its values. Left out of equality.
    sources: tuple[ItemRef, ...] = field(default=(), compare=False)

    def expanded(self) -> Iterator[Mapping[str, Any]]:
        """Each copy's data, ``count`` times per item: what ends up on the table."""
        for item in self.items:
            for _ in range(item.count):
                yield item.data

    @property
    def total(self) -> int:
        return sum(item.count for item in self.items)


@dataclass(frozen=True)
class FaceTemplate:
    """A face template as loaded and checked (generator/data/design/templates.py): its name and
    its parsed file, every line kept for errors (templates/faces/<name>.yaml or a
    project's faces/)."""

    name: str
    doc: YamlDoc

    @property
    def file(self) -> Path:
        return self.doc.file


TemplateKey = tuple[str, str | None]  # (name, folder of the including template, or None)
MAX_INCLUDE_DEPTH = 4  # include inside include: deep enough for a diagram's parts, no cycles


@dataclass(frozen=True)
class Known:
    """What loading resolved for drawing faces, so the faces read it instead of looking it
    up while drawing: icons by name (the theme's choices, the icons a game's data names),
    face templates by name and where they are looked for first (a component's face and
    back: ``(name, None)``; a static ``include:`` of a template: ``(name, its folder)``),
    and the font names already checked (the theme's). Each value carries the files its
    look-up read (``Sourced``), noted again wherever a face uses it."""

    icons: Mapping[str, Sourced[IconDef]] = field(default_factory=dict)
    templates: Mapping[TemplateKey, Sourced[FaceTemplate]] = field(default_factory=dict)
    fonts: frozenset[str] = frozenset()

    def __add__(self, other: Known) -> Known:
        return Known({**self.icons, **other.icons}, {**self.templates, **other.templates},
                     self.fonts | other.fonts)


NOTHING_KNOWN = Known()


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
    # What loading resolved for its faces: the templates its components name (and their
    # static includes), the icons its data names. Left out of equality.
    known: Known = field(default=NOTHING_KNOWN, compare=False)

    def component(self, component_id: str) -> Component:
        for comp in self.components:
            if comp.id == component_id:
                return comp
        raise KeyError(component_id)
