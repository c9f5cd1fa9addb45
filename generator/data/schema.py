"""The shape of a game data file, checked by pydantic so every error names its field path."""
from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .columns import ColumnType, parse_type

ID_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"
RULES_PATTERN = r"^[a-z_][a-z0-9_]{0,63}$"
# Copies a data file may ask for, checked at load (before a rules module's verify() loops
# over them): per item or table row, per component, and in the whole game.
MAX_ROW_COUNT = 1000
MAX_COMPONENT_PIECES = 5000
MAX_GAME_PIECES = 20000
MAX_INCLUDES = 20


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
    count: int = Field(default=1, ge=1, le=MAX_ROW_COUNT)

    @model_validator(mode="after")
    def one_source(self) -> Generate:
        if (self.product is None) == (self.table is None):
            raise ValueError("give exactly one of 'product' or 'table'")
        return self


class ComponentSpec(Strict):
    id: str = Field(pattern=ID_PATTERN)
    kind: Literal["card", "token", "tile", "board", "die", "sheet", "rules", "aid"]
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
            if not isinstance(count, int) or isinstance(count, bool) \
                    or not 1 <= count <= MAX_ROW_COUNT:
                raise ValueError(f"item count must be a whole number 1-{MAX_ROW_COUNT}, "
                                 f"got {count!r}")
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


class RowCheck(Strict):
    """A rule every row of a table must keep (``when`` it applies), checked at load:

        checks:
          - table: ranks
            when: "{{ not row.get('court') }}"
            expect: "{{ row.pips | length == row.value }}"
            field: pips
            message: "the {{ row.name }} needs {{ row.value }} pips"

    ``when``, ``expect`` and ``message`` are expressions over ``row`` (the sandbox of face
    templates); a failing row is reported at its own line (at ``field`` when given)."""

    table: str = Field(min_length=1, max_length=64)
    when: str = Field(default="{{ true }}", max_length=400)
    expect: str = Field(min_length=1, max_length=400)
    field: str | None = Field(default=None, min_length=1, max_length=64)
    message: str = Field(min_length=1, max_length=400)


LINES_PATTERN = r"^[0-9]{1,5}(-[0-9]{1,5})?$"


class SeedRule(Strict):
    """One rule of the game's seed text and the words of the printed rules pages that carry
    it (generator/rules/coverage.py checks they are printed)."""

    line: int | str = Field(union_mode="left_to_right")  # a seed line, or a range "12-14"
    rule: str = Field(min_length=1, max_length=600)  # quoted or paraphrased
    printed: str = Field(min_length=3, max_length=300)  # exactly as the rules pages print it

    @field_validator("line")
    @classmethod
    def line_or_range(cls, line: int | str) -> int | str:
        return _line_or_range(line)


class SeedAside(Strict):
    """Seed lines that hold no rule (title, flavour, credits), and why."""

    line: int | str = Field(union_mode="left_to_right")
    why: str = Field(min_length=3, max_length=200)

    @field_validator("line")
    @classmethod
    def line_or_range(cls, line: int | str) -> int | str:
        return _line_or_range(line)


def _line_or_range(line: int | str) -> int | str:
    import re

    if isinstance(line, int) and not isinstance(line, bool) and 1 <= line <= 99999:
        return line
    if isinstance(line, str) and re.match(LINES_PATTERN, line):
        first, _, last = line.partition("-")
        if int(first) <= int(last or first):
            return line
    raise ValueError("expected a seed line number or a range like 12-14")


class RulesCoverage(Strict):
    """Every rule of the seed (the game's published rules text, by line) mapped to the line of
    the printed rules summary that carries it."""

    seed: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$")  # ../shared/seeds/<seed>
    rules: list[SeedRule] = Field(min_length=1, max_length=300)
    not_rules: list[SeedAside] = Field(default_factory=list, max_length=300)


class GameSpec(Strict):
    id: str = Field(pattern=ID_PATTERN)
    title: str = Field(min_length=1, max_length=80)
    credit: str = Field(min_length=1, max_length=400)
    rules: str = Field(pattern=RULES_PATTERN)
    theme: str = Field(pattern=ID_PATTERN)
    players: tuple[int, int]
    include: list[str] = Field(default_factory=list, max_length=MAX_INCLUDES)
    settings: dict[str, Any] = Field(default_factory=dict)
    tables: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    components: list[ComponentSpec] = Field(min_length=1)
    preflight: PreflightSpec = Field(default_factory=PreflightSpec)
    # Column types of this file's tables (generator/data/columns.py), checked at load.
    columns: dict[str, Any] | None = None
    # Rules for table rows that column types cannot say, checked at load.
    checks: list[RowCheck] = Field(default_factory=list, max_length=50)
    # Each seed rule and the printed rules line carrying it, checked by verify.
    rules_coverage: RulesCoverage | None = None

    @field_validator("players")
    @classmethod
    def players_in_order(cls, players: tuple[int, int]) -> tuple[int, int]:
        low, high = players
        if not 1 <= low <= high <= 12:
            raise ValueError("expected [min, max] with 1 <= min <= max <= 12")
        return players


# -- settings ------------------------------------------------------------------------------
# The settings each rules module reads, with their types in the notation of table columns
# (generator/data/columns.py), plus ``per players <type>``: a mapping from a player count to
# a value. The ranges keep a rules module's verify() and simulations finite. A setting a
# module does not read is a typo; a module not listed here takes any settings.
SETTINGS: dict[str, dict[str, str]] = {
    "moving_target": {"grid_size": "int 3..9", "hand_size": "per players int 1..15",
                      "max_on_grid": "int 1..81", "max_draws": "int 1..52"},
    "decktet_moving_day": {"hand_size": "int 1..10", "village_spaces": "int 1..6",
                           "dice": "one of d4|d6", "extended": "bool"},
    "movement_game": {"hand_size": "int 1..10", "die_sides": "int 1..12",
                      "tokens_per_player": "int 1..8", "introduce_on": "int 1..12",
                      "seats": "per players list of one of S|W|N|E, at most 4",
                      "board": "name?"},
    "moving_day_boxes": {"rounds": "int 1..30", "extra_groups": "int 0..6",
                         "boxes_per_group": "int 1..6", "snack_per_neighbour": "int 0..6",
                         "tile_mm": "number 5..200", "slot_mm": "number 5..200"},
}
PER_PLAYERS = "per players "


def check_settings(rules: str, settings: Mapping[str, Any]
                   ) -> list[tuple[tuple[Hashable, ...], str]]:
    """Each setting against the type its rules module reads it as: (field path, problem)."""
    declared = SETTINGS.get(rules)
    if declared is None:
        return []
    problems: list[tuple[tuple[Hashable, ...], str]] = []
    for key, value in settings.items():
        path: tuple[Hashable, ...] = ("settings", key)
        if key not in declared:
            problems.append((path, f"unknown setting for the {rules} rules; they read: "
                                   f"{', '.join(declared)}"))
            continue
        spec = declared[key]
        if spec.startswith(PER_PLAYERS):
            problems += _per_players(path, parse_type(spec[len(PER_PLAYERS):]), value)
            continue
        kind = parse_type(spec)
        if value is None and kind.optional:
            continue
        if not kind.accepts(value):
            problems.append((path, f"expected {kind.describe()}, got {_short(value)}"))
    return problems


def _per_players(path: tuple[Hashable, ...], kind: ColumnType, value: Any
                 ) -> list[tuple[tuple[Hashable, ...], str]]:
    wanted = f"a mapping of player count (1-12) to {kind.describe()}"
    if not isinstance(value, Mapping) or not value:
        return [(path, f"expected {wanted}, got {_short(value)}")]
    problems: list[tuple[tuple[Hashable, ...], str]] = []
    for players, each in value.items():
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 12:
            problems.append((path, f"expected {wanted}; {_short(players)} is not a player "
                                   "count"))
        elif not kind.accepts(each):
            problems.append((path + (str(players),), f"expected {kind.describe()}, got "
                                                     f"{_short(each)}"))
    return problems


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
