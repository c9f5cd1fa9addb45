"""The shape of a game data file, checked by pydantic so every error names its field path."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WH(Strict):
    w: float = Field(gt=0, le=2000)
    h: float = Field(gt=0, le=2000)


class Round(Strict):
    diameter: float = Field(gt=0, le=500)


class GridSize(Strict):
    """A board made of equal cells: its size follows from the cell size, gaps and border."""

    cell: str | WH
    rows: int = Field(ge=1, le=40)
    cols: int = Field(ge=1, le=40)
    gap: float = Field(default=0, ge=0, le=50)
    border: float = Field(default=0, ge=0, le=100)


class GridSpec(Strict):
    grid: GridSize


SizeSpec = str | WH | Round | GridSpec


class Generate(Strict):
    """Items made from tables: a cartesian product, or one table filtered by field values."""

    product: dict[str, str] | None = None
    table: str | None = None
    where: dict[str, Any] = Field(default_factory=dict)
    extra: dict[str, Any] = Field(default_factory=dict)
    count: int = Field(default=1, ge=1, le=1000)

    @model_validator(mode="after")
    def one_source(self) -> Generate:
        if (self.product is None) == (self.table is None):
            raise ValueError("give exactly one of 'product' or 'table'")
        return self


class ComponentSpec(Strict):
    id: str = Field(pattern=ID_PATTERN)
    kind: Literal["card", "token", "tile", "board", "die", "sheet", "rules"]
    name: str = Field(min_length=1, max_length=80)
    size: SizeSpec
    face: str = Field(pattern=ID_PATTERN)
    back: str | None = Field(default=None, pattern=ID_PATTERN)
    shape: Literal["rect", "round"] = "rect"
    items: list[dict[str, Any]] | None = None
    generate: Generate | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    # A template naming each item in PNG file names, e.g. "{{ item.name }}".
    label: str | None = Field(default=None, max_length=200)
    # How to put the piece together, printed on the contents sheet; required for the kinds a
    # player cannot guess (dice nets, boards and mats).
    assembly: str = Field(default="", max_length=400)

    @model_validator(mode="after")
    def assembly_where_needed(self) -> ComponentSpec:
        if self.kind in ("die", "board") and not self.assembly.strip():
            raise ValueError(f"a {self.kind} needs an 'assembly' line for the contents sheet "
                             "(how to cut, fold or join it)")
        return self

    @model_validator(mode="after")
    def has_items(self) -> ComponentSpec:
        if (self.items is None) == (self.generate is None) and self.kind != "board":
            raise ValueError("give exactly one of 'items' or 'generate'")
        return self

    @field_validator("items")
    @classmethod
    def counts_are_positive(cls, items: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        for item in items or []:
            count = item.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 1000:
                raise ValueError(f"item count must be a whole number 1-1000, got {count!r}")
        return items


class ColourGroup(Strict):
    """Colours that carry game information (suits, box colours, token colours): pre-flight
    checks they stay apart under colour-vision deficiencies and in greyscale. Values are
    colours or expressions over the theme, e.g. "{{ palette.suit_moons }}"."""

    name: str = Field(min_length=1, max_length=80)
    colours: dict[str, str] = Field(min_length=2, max_length=24)
    # A second cue (a symbol, a shape, a printed word) that tells the pieces apart without
    # colour: with one, close colours are reported but do not fail pre-flight.
    second_cue: str = Field(default="", max_length=200)


class PreflightSpec(Strict):
    colour_groups: list[ColourGroup] = Field(default_factory=list, max_length=20)


class GameSpec(Strict):
    id: str = Field(pattern=ID_PATTERN)
    title: str = Field(min_length=1, max_length=80)
    credit: str = Field(min_length=1, max_length=400)
    rules: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    theme: str = Field(pattern=ID_PATTERN)
    players: tuple[int, int]
    include: list[str] = Field(default_factory=list)
    settings: dict[str, Any] = Field(default_factory=dict)
    tables: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    components: list[ComponentSpec] = Field(min_length=1)
    preflight: PreflightSpec = Field(default_factory=PreflightSpec)

    @field_validator("players")
    @classmethod
    def players_in_order(cls, players: tuple[int, int]) -> tuple[int, int]:
        low, high = players
        if not 1 <= low <= high <= 12:
            raise ValueError("expected [min, max] with 1 <= min <= max <= 12")
        return players
