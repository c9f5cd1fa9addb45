"""The shape of a game data file, checked by pydantic so every error names its field path."""
from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from generator.core.sizes import PAPER_SIZES
from generator.core.words import said

from .columns import ColumnType, parse_type

ID_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"
# ``rules:``: a built-in engine by name, or a project's own engine by path (``rules.py``,
# ``engine/rules.py``, a package ``rules/``): segments of letters, digits, - and _, so
# neither ``..`` nor an absolute path can be written (generator/data/files/resolve.py confines it).
RULES_PATTERN = (r"^(?:[a-z_][a-z0-9_]{0,63}|(?:[A-Za-z0-9_][A-Za-z0-9_-]{0,63}/){0,4}"
                 r"[A-Za-z0-9_][A-Za-z0-9_-]{0,63}(?:\.py|/))$")
PROJECT_RULES = (".py", "/")  # how a project's own engine is told from a built-in name

THEME_PATTERN = r"^([a-z0-9][a-z0-9_-]{0,63}|[A-Za-z0-9_][A-Za-z0-9_./-]{0,200}\.ya?ml)$"
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


class StartSpace(Strict):
    name: str = Field(min_length=1, max_length=20)
    x: float = Field(ge=0, le=10000)
    y: float = Field(ge=0, le=10000)
    w: float = Field(gt=0, le=10000)
    h: float = Field(gt=0, le=10000)


class Seams(Strict):
    x: list[Annotated[float, Field(ge=0, le=10000)]] = Field(default_factory=list, max_length=200)
    y: list[Annotated[float, Field(ge=0, le=10000)]] = Field(default_factory=list, max_length=200)
    # Each boundary is the middle of a gap this wide between cells: a seam anywhere in it
    # crosses no cell.
    gap: float = Field(default=0, ge=0, le=100)
    # The start space: as few seams as the paper allows cross it, and the contents sheet
    # says which do.
    start: StartSpace | None = None


class ComponentSpec(Strict):
    id: str = Field(pattern=ID_PATTERN)
    kind: Literal["card", "token", "tile", "board", "die", "sheet", "rules", "aid"]
    name: str = Field(min_length=1, max_length=80)
    size: SizeSpec
    face: str = Field(pattern=ID_PATTERN)
    back: str | None = Field(default=None, pattern=ID_PATTERN)
    shape: Literal["rect", "round"] = "rect"
    # The radius of a rectangular piece's rounded corners, mm: where the cut file
    # (``build --cut-svg``) rounds them. The printed kit's cut marks stay straight.
    corner: float = Field(default=0, ge=0, le=50)
    items: list[dict[str, Any]] | None = None
    generate: Generate | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    # A template naming each item in PNG file names, e.g. "{{ item.name }}".
    label: str | None = Field(default=None, min_length=1, max_length=200)
    # How to put the piece together, printed on the contents sheet; required for the kinds a
    # player cannot guess (dice nets, boards and mats).
    assembly: str = Field(default="", max_length=400)
    # A board's cell boundaries, in mm from its top-left corner: a board too big for the paper
    # is split on them where the tiles still fit, so no seam cuts a play cell.
    seams: Seams | None = None

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
                                 f"got {said(count)}")
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
    # The most sheets the kit may take on each paper (a design target, not a lower bound):
    # verify prints it beside the sheets used and fails ``--strict`` when the kit is over it.
    sheets: dict[str, int] = Field(default_factory=dict)

    @field_validator("sheets")
    @classmethod
    def sheets_in_range(cls, sheets: dict[str, int]) -> dict[str, int]:
        for paper, target in sheets.items():
            if paper not in PAPER_SIZES:
                raise ValueError(f"expected a paper the build offers ({', '.join(PAPER_SIZES)})"
                                 f" as a key, got {said(paper, 40)}")
            if not 1 <= target <= 1000:
                raise ValueError(f"expected a sheet target 1-1000 for {paper}, got {target}")
        return sheets


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


MAX_VERIFY_CHECKS = 100
class ValueRange(Strict):
    """The whole numbers a field of a ``complete:`` check takes: ``{min: 1, max: 9}``."""

    min: int = Field(ge=-1_000_000, le=1_000_000)
    max: int = Field(ge=-1_000_000, le=1_000_000)

    @model_validator(mode="after")
    def ordered(self) -> ValueRange:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is more than max ({self.max})")
        if self.max - self.min >= 10_000:
            raise ValueError("a range of at most 10000 values")
        return self


FIELD_MAX = 400  # characters of a FIELD: a name, a dotted path or an expression over item
FieldRef = str  # see docs/declarative-checks.md: "suit", "rank.value", "{{ item.x * 2 }}"


class CountRange(Strict):
    """A count given as a range: ``{min: 1}`` (at least one), ``{min: 2, max: 4}``."""

    min: int | None = Field(default=None, ge=0, le=1_000_000)
    max: int | None = Field(default=None, ge=0, le=1_000_000)

    @model_validator(mode="after")
    def ordered(self) -> CountRange:
        if self.min is None and self.max is None:
            raise ValueError("give 'min', 'max' or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is more than max ({self.max})")
        return self


VERIFY_KINDS = ("count", "counts", "total", "unique", "product")
MAX_COMPLETE_VALUES = 10_000  # values one ``complete:`` list names (as a range's)
# The values a ``complete:`` list names: text, numbers, true/false (as a column's cells).
CompleteValues = Annotated[list[str | bool | int | float], WithJsonSchema({
    "type": "array", "items": {"type": ["string", "number", "boolean"]}, "minItems": 1,
    "maxItems": MAX_COMPLETE_VALUES})]


def _complete_list(values: list[Any], field: str) -> list[Any]:
    """A ``complete:`` list of values: 1 to MAX_COMPLETE_VALUES plain values (text, numbers,
    true/false), each once, as the cells of a column hold them."""
    if not 1 <= len(values) <= MAX_COMPLETE_VALUES:
        raise ValueError(f"{field}a list of 1-{MAX_COMPLETE_VALUES} values")
    seen: set[Any] = set()
    for value in values:
        if not isinstance(value, (str, int, float)):
            raise ValueError(f"{field}a list of plain values (text, numbers, true/false), "
                             f"not {said(value)}")
        if (type(value), value) in seen:
            raise ValueError(f"{field}{said(value)} is listed twice")
        seen.add((type(value), value))
    return values


def _validated(model: type[Strict], value: Any, what: str) -> Any:
    """``value`` as ``model``, or one plain ValueError: ``what`` was expected, and the first
    problem (a field of a union reports its own error, not one per member of the union)."""
    from pydantic import ValidationError

    try:
        return model.model_validate(value)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(part) for part in err["loc"])
        message = err["msg"].removeprefix("Value error, ")
        raise ValueError(f"{what}: {where + ': ' if where else ''}{message}") from None


class CompositionCheck(Strict):
    """One declarative check of the printed set (the data file's ``verify:`` list), run by
    ``verify`` and before every build; the syntax is in docs/declarative-checks.md.

        verify:
          - name: each suit appears 6 times
            component: deck
            per: suit
            count: 6

    Exactly one kind: ``count`` (with ``per``: per value or combination), ``counts`` (with
    ``per``: exact count per value), ``total`` with ``is``, ``unique``, ``product`` (with an
    optional ``count``)."""

    name: str = Field(min_length=1, max_length=120)
    component: str | list[str] = Field(union_mode="left_to_right")
    where: dict[str, Any] | str | None = Field(default=None, union_mode="left_to_right")
    per: FieldRef | list[FieldRef] | None = Field(default=None, union_mode="left_to_right")
    count: int | CountRange | None = Field(default=None, union_mode="left_to_right")
    counts: dict[str | int, int] | None = Field(default=None, min_length=1, max_length=500)
    total: FieldRef | None = Field(default=None, min_length=1, max_length=FIELD_MAX)
    is_: float | None = Field(default=None, alias="is")
    unique: FieldRef | list[FieldRef] | None = Field(default=None, union_mode="left_to_right")
    product: dict[str, str] | None = Field(default=None, min_length=1, max_length=6)
    # With ``per`` + ``count``: every combination of the fields' values must occur (true: the
    # values that occur; a field may name a table, whose rows are its values, a range, or list
    # its values; a list alone lists the values of the one field of ``per``).
    complete: bool | CompleteValues | dict[FieldRef, str | ValueRange | CompleteValues] | None = (
        Field(default=None, union_mode="left_to_right"))

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @field_validator("component")
    @classmethod
    def component_ids(cls, value: str | list[str]) -> str | list[str]:
        import re

        ids = [value] if isinstance(value, str) else value
        if not 1 <= len(ids) <= 50 or not all(re.match(ID_PATTERN, i) for i in ids):
            raise ValueError("expected a component id, or a list of 1-50 of them")
        return value

    @field_validator("per", "unique")
    @classmethod
    def field_refs(cls, value: str | list[str] | None) -> str | list[str] | None:
        refs = [value] if isinstance(value, str) else (value or [])
        if value is not None and not 1 <= len(refs) <= 6:
            raise ValueError("expected a field, or a list of 1-6 fields")
        if any(not 1 <= len(ref) <= FIELD_MAX for ref in refs):
            raise ValueError(f"a field is 1-{FIELD_MAX} characters")
        return value

    @field_validator("count", mode="before")
    @classmethod
    def count_or_range(cls, value: Any) -> Any:
        """A mapping is a range: report its own error, not "should be a valid integer"."""
        if not isinstance(value, dict):
            return value
        return _validated(CountRange, value, "a range {min: A, max: B}")

    @field_validator("complete", mode="before")
    @classmethod
    def complete_values(cls, value: Any) -> Any:
        """true/false, or a mapping of fields to a table's name or a range: one plain error
        naming the field, not one per member of the union."""
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, list):
            return _complete_list(value, "")
        if not isinstance(value, dict) or not 1 <= len(value) <= 6:
            raise ValueError("expected true, false, a list of values, or a mapping of 1-6 "
                             "fields of 'per' to a table's name, a range {min: A, max: B} or "
                             "a list of values")
        found: dict[str, Any] = {}
        for field, domain in value.items():
            if isinstance(domain, str) and 1 <= len(domain) <= 100:
                found[str(field)] = domain
                continue
            if isinstance(domain, list):
                found[str(field)] = _complete_list(domain, f"{field}: ")
                continue
            if not isinstance(domain, dict):
                raise ValueError(f"{field}: expected a table's name, a range "
                                 "{min: A, max: B} or a list of values")
            found[str(field)] = _validated(ValueRange, domain,
                                           f"{field}: a range {{min: A, max: B}}")
        return found

    @field_validator("count")
    @classmethod
    def count_not_negative(cls, value: int | CountRange | None) -> int | CountRange | None:
        if isinstance(value, int) and not 0 <= value <= 1_000_000:
            raise ValueError("expected a whole number from 0 to 1000000")
        return value

    @field_validator("counts")
    @classmethod
    def counts_not_negative(cls, value: dict[str | int, int] | None
                            ) -> dict[str | int, int] | None:
        for key, number in (value or {}).items():
            if not 0 <= number <= 1_000_000:
                raise ValueError(f"the count of {said(key)} must be from 0 to 1000000")
        return value

    @model_validator(mode="after")
    def one_kind(self) -> CompositionCheck:
        kinds = [k for k in ("total", "unique", "product", "counts") if getattr(self, k)
                 is not None]
        if len(kinds) > 1:
            raise ValueError(f"give one kind of check; {' and '.join(kinds)} are several")
        kind = kinds[0] if kinds else ("count" if self.count is not None else None)
        if kind is None:
            raise ValueError("say what to check: one of count, per + count, per + counts, "
                             "total + is, unique, product")
        if self.count is not None and kind not in ("count", "product"):
            raise ValueError(f"'count' does not go with '{kind}'")
        if self.per is not None and kind not in ("count", "counts"):
            raise ValueError("'per' goes with 'count' or 'counts'")
        if kind == "counts" and not isinstance(self.per, str):
            raise ValueError("'counts' needs 'per' naming one field")
        if (self.total is None) != (self.is_ is None):
            raise ValueError("'total' and 'is' go together")
        if self.complete is not None and (kind != "count" or self.per is None):
            raise ValueError("'complete' goes with 'per' and 'count'")
        refs = [self.per] if isinstance(self.per, str) else (self.per or [])
        if isinstance(self.complete, list) and len(refs) != 1:
            raise ValueError("'complete' as a list of values goes with one field in 'per'; "
                             "for several, name each: {FIELD: [values], ...}")
        for field in self.complete if isinstance(self.complete, dict) else ():
            if field not in refs:
                raise ValueError(f"'complete' names {said(field)}, which is not one of 'per' "
                                 f"({', '.join(map(str, refs))})")
        return self

    @property
    def kind(self) -> str:
        for kind in ("total", "unique", "product", "counts"):
            if getattr(self, kind) is not None:
                return kind
        return "count"


# Deal questions (the data file's ``deal:`` list, docs/deal-statistics.md): the bounds keep
# each one's work small (generator/rules/deal.py counts it in cards dealt, never seconds).
MAX_DEAL_QUESTIONS = 30
MAX_DEAL_PLAYERS = 100
MAX_DEAL_TRIALS = 100_000
DEAL_KINDS = ("lengths", "void", "none", "at_least")
PERCENT_PATTERN = r"^(100|[0-9]{1,2}(\.[0-9]{1,6})?)\s?%$"


class DealExpect(Strict):
    """What a deal question's figure should be, in percent (``expect: {max: 40 %}``): a
    figure past it fails ``verify`` (and ``verify --strict``); a Monte Carlo figure whose 95 %
    interval straddles it is a warning, failing ``verify --strict``."""

    min: str | None = None
    max: str | None = None

    @field_validator("min", "max", mode="before")
    @classmethod
    def percentage(cls, value: Any) -> Any:
        import re

        if value is not None and not (isinstance(value, str)
                                      and re.match(PERCENT_PATTERN, value.strip())):
            raise ValueError(f"expected a percentage from 0 % to 100 % such as 40 %, got "
                             f"{said(value)}")
        return value if value is None else value.strip()

    @model_validator(mode="after")
    def a_bound(self) -> DealExpect:
        if self.min is None and self.max is None:
            raise ValueError("give min, max or both, as percentages: {max: 40 %}")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self

    @staticmethod
    def _fraction(text: str | None) -> Fraction | None:
        return None if text is None else Fraction(text.rstrip("%").strip()) / 100

    @property
    def low(self) -> Fraction | None:
        """``min`` as a probability (0.4 for 40 %), exactly."""
        return self._fraction(self.min)

    @property
    def high(self) -> Fraction | None:
        """``max`` as a probability, exactly."""
        return self._fraction(self.max)


class DealQuestion(Strict):
    """One question about dealing a deck (the data file's ``deal:`` list), answered by
    ``verify`` and the preview, exactly where one hand's composition decides it, else by a
    seeded Monte Carlo with a 95 % interval; the syntax is in docs/deal-statistics.md.

        deal:
          - name: a starting hand without a card above 7
            players: 4
            hand: 8
            none: "{{ item.rank.value > 7 }}"

    Exactly one kind: ``lengths: FIELD`` (the suit lengths of one hand), ``void: FIELD``
    (a hand missing some value of FIELD), ``none: WHERE`` (a hand with no card matching) or
    ``at_least: K`` with ``where: WHERE`` (a hand with K or more such cards); ``draws: D``
    asks the last two of the first D cards drawn after the deal instead. ``expect:`` bounds
    the figure (``{max: 40 %}``), checked by verify."""

    name: str = Field(min_length=1, max_length=120)
    component: str | None = Field(default=None, pattern=ID_PATTERN)
    players: int = Field(ge=1, le=MAX_DEAL_PLAYERS)
    hand: int = Field(ge=1, le=MAX_COMPONENT_PIECES)
    who: Literal["one", "anyone"] = "one"
    lengths: FieldRef | None = Field(default=None, min_length=1, max_length=FIELD_MAX)
    void: FieldRef | None = Field(default=None, min_length=1, max_length=FIELD_MAX)
    none: dict[str, Any] | str | None = Field(default=None, union_mode="left_to_right")
    at_least: int | None = Field(default=None, ge=1, le=MAX_COMPONENT_PIECES)
    where: dict[str, Any] | str | None = Field(default=None, union_mode="left_to_right")
    draws: int | None = Field(default=None, ge=1, le=MAX_COMPONENT_PIECES)
    trials: int = Field(default=10_000, ge=1, le=MAX_DEAL_TRIALS)
    seed: int = Field(default=1, ge=0, le=2**31 - 1)
    expect: DealExpect | None = None

    @model_validator(mode="after")
    def one_kind(self) -> DealQuestion:
        kinds = [k for k in DEAL_KINDS if getattr(self, k) is not None]
        if len(kinds) != 1:
            given = f"; {' and '.join(kinds)} are several" if kinds else ""
            raise ValueError(f"ask one thing: one of lengths: FIELD, void: FIELD, none: WHERE, "
                             f"at_least: K with where: WHERE{given}")
        if (self.at_least is None) != (self.where is None):
            raise ValueError("'at_least' and 'where' go together")
        if self.lengths is not None and self.who != "one":
            raise ValueError("'lengths' is about one hand: leave 'who' out")
        if self.lengths is not None and self.expect is not None:
            raise ValueError("'expect' is about one figure, and 'lengths' gives one a length: "
                             "ask 'none' or 'at_least' instead")
        if self.draws is not None and (self.none is None and self.where is None):
            raise ValueError("'draws' counts cards matching a condition: give 'none: WHERE' "
                             "or 'at_least: K' with 'where: WHERE'")
        if self.draws is not None and self.who != "one":
            raise ValueError("'draws' are the first cards drawn from the deck after the deal, "
                             "whoever draws them: leave 'who' out")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in DEAL_KINDS if getattr(self, k) is not None)


LINES_PATTERN = r"^[0-9]{1,5}(-[0-9]{1,5})?$"


class SeedRule(Strict):
    """One rule of the game's seed text and the words of the printed rules pages that carry
    it (generator/rules/coverage.py checks they are printed)."""

    line: int | str = Field(union_mode="left_to_right")  # a seed line, or a range "12-14"
    rule: str = Field(min_length=1, max_length=600)  # quoted or paraphrased
    printed: str = Field(min_length=3, max_length=300)  # exactly as the rules pages print it
    # The same words in a kit of another language, by language code: {fr: "..."}; a kit in a
    # language with none here is not checked for this rule (a note says how many).
    printed_in: dict[str, str] | None = Field(default=None, max_length=20)

    @field_validator("line")
    @classmethod
    def line_or_range(cls, line: int | str) -> int | str:
        return _line_or_range(line)

    @field_validator("printed_in")
    @classmethod
    def languages_and_words(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        import re

        for code, words in (value or {}).items():
            if not re.match(r"^[a-z]{2,3}$", code) or code == "en":
                raise ValueError(f"expected a language code other than en (fr), got "
                                 f"{said(code, 20)}")
            if not 3 <= len(words) <= 300:
                raise ValueError(f"expected the printed words ({code}) in 3 to 300 characters")
        return value


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


class TableFile(Strict):
    """A table read from a spreadsheet (generator/data/tables/spreadsheet.py) instead of written
    out: ``{file: cards.csv}``, ``{file: cards.csv, delimiter: ";"}`` or ``{file: deck.xlsx,
    sheet: Cards}``. The path is relative to the file that names it; row 1 names the
    columns."""

    file: str = Field(min_length=1, max_length=255)
    sheet: str | None = Field(default=None, min_length=1, max_length=31)  # XLSX only
    delimiter: Literal[",", ";", "\t"] | None = None  # CSV only; "," when not given

    @model_validator(mode="after")
    def fits_the_format(self) -> TableFile:
        suffix = self.file.lower().rpartition(".")[2]
        if suffix not in ("csv", "xlsx"):
            raise ValueError("a table file is a .csv or .xlsx file (save other spreadsheets, "
                             "such as .xls or .ods, as one of those)")
        if suffix == "csv" and self.sheet is not None:
            raise ValueError("'sheet' is for .xlsx files; a CSV file has one table")
        if suffix == "xlsx" and self.delimiter is not None:
            raise ValueError("'delimiter' is for .csv files")
        return self


def _table_kind(value: Any) -> str:
    """Which form a table takes, so a bad one is reported against that form alone (the tags
    are capitalised: loader.validation_errors leaves such union tags out of field paths)."""
    return "TableFile" if isinstance(value, (dict, TableFile)) else "Rows"


# A table: its rows written out, or a spreadsheet they are read from.
TableSpec = Annotated[Annotated[list[dict[str, Any]], Tag("Rows")]
                      | Annotated[TableFile, Tag("TableFile")], Discriminator(_table_kind)]


class GameSpec(Strict):
    id: str = Field(pattern=ID_PATTERN)
    title: str = Field(min_length=1, max_length=80)
    credit: str = Field(min_length=1, max_length=400)
    # The game's rules engine: a built-in one (generator/rules/<name>/) or the project's own
    # (rules.py, or a package rules/; run only in a trusted folder: generator/core/trust.py).
    # Optional: a game without one is checked by its ``verify`` list alone.
    rules: str | None = Field(default=None, pattern=RULES_PATTERN)
    # A theme name (the project's themes/, then the built-ins) or a .yaml file relative to
    # this data file and inside its folder (generator/data/tables/loader.py: theme_of).
    theme: str = Field(min_length=1, max_length=200)
    players: tuple[int, int]
    include: list[str] = Field(default_factory=list, max_length=MAX_INCLUDES)
    settings: dict[str, Any] = Field(default_factory=dict)
    # A table is a list of rows, or a spreadsheet the rows are read from (TableFile).
    tables: dict[str, TableSpec] = Field(default_factory=dict)
    components: list[ComponentSpec] = Field(min_length=1)
    preflight: PreflightSpec = Field(default_factory=PreflightSpec)
    # Column types of this file's tables (generator/data/tables/columns.py), checked at load.
    columns: dict[str, Any] | None = None
    # Rules for table rows that column types cannot say, checked at load.
    checks: list[RowCheck] = Field(default_factory=list, max_length=50)
    # Declarative checks of the printed set (counts, totals, uniqueness, table products),
    # run by verify and before every build (docs/declarative-checks.md).
    verify: list[CompositionCheck] = Field(default_factory=list, max_length=MAX_VERIFY_CHECKS)
    # Each seed rule and the printed rules line carrying it, checked by verify.
    rules_coverage: RulesCoverage | None = None
    # Questions about dealing a deck (suit lengths, voids, hands without a kind of card),
    # answered by verify and the preview (docs/deal-statistics.md).
    deal: list[DealQuestion] = Field(default_factory=list, max_length=MAX_DEAL_QUESTIONS)

    @field_validator("theme")
    @classmethod
    def theme_name_or_file(cls, theme: str) -> str:
        import re

        if not re.match(THEME_PATTERN, theme):
            raise ValueError("expected a theme name (lower-case letters, digits, - and _) or a "
                             ".yaml file inside this game's folder, like looks/night.yaml")
        return theme

    @field_validator("players")
    @classmethod
    def players_in_order(cls, players: tuple[int, int]) -> tuple[int, int]:
        low, high = players
        if not 1 <= low <= high <= 12:
            raise ValueError("expected [min, max] with 1 <= min <= max <= 12")
        return players


# -- settings ------------------------------------------------------------------------------
# The settings each rules module reads, with their types in the notation of table columns
# (generator/data/tables/columns.py), plus ``per players <type>``: a mapping from a player count to
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
            problems.append((path, f"expected {kind.describe()}, got {said(value)}"))
    return problems


def _per_players(path: tuple[Hashable, ...], kind: ColumnType, value: Any
                 ) -> list[tuple[tuple[Hashable, ...], str]]:
    wanted = f"a mapping of player count (1-12) to {kind.describe()}"
    if not isinstance(value, Mapping) or not value:
        return [(path, f"expected {wanted}, got {said(value)}")]
    problems: list[tuple[tuple[Hashable, ...], str]] = []
    for players, each in value.items():
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 12:
            problems.append((path, f"expected {wanted}; {said(players)} is not a player "
                                   "count"))
        elif not kind.accepts(each):
            problems.append((path + (str(players),), f"expected {kind.describe()}, got "
                                                     f"{said(each)}"))
    return problems

