"""Declarative composition checks: the data file's ``verify:`` list, so a game with no Python
still has its set checked ("18 cards", "each suit 6 times", "every suit x rank card exists").

The syntax is documented in docs/declarative-checks.md and validated by
``generator.data.tables.schema.CompositionCheck``. This module does two things:

- at load time (``generator.data.tables.verify_list.check_specs``, below this layer): every
  component and table a check names exists, every expression compiles, a table product stays
  bounded; a problem is a DataError at the check's line (exit 2), so a typo never reads as a
  failed check;
- here, ``findings`` at verify time (``generator.orchestration.composition.verify``, so
  before every build too): one ``Finding`` per check, ``basis=DESIGN``, ``where`` = the
  check's line, naming what was expected and what was found.

Values are read from each component's items weighted by their ``count``, which is what
``Component.expanded()`` yields copy by copy (an item with ``count: 3`` is three pieces) without
evaluating the same item three times. Expressions (``"{{ item.rank.value * 2 }}"``) run in the
sandbox of face templates, each under its limits, the whole ``verify`` list of a game under
``MAX_EVALUATIONS``, and all of them spending the build's work budget (each check as its own
line's: generator/expressions/limits.py), counted the same on every machine.
"""
from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from generator.core.context import Spender
from generator.core.errors import DataError, location
from generator.core.findings import DESIGN, Finding
from generator.core.model import Game, ItemRef
from generator.core.words import said
from generator.expressions import ExpressionError, Spending, evaluate

from ..data.tables.schema import CompositionCheck, CountRange, ValueRange
from ..data.tables.verify_list import NoField, component_ids, ident, is_expression, path_value
from ..data.tables.verify_list import canon as _canon
from ..data.translation.origin import game_value
from .base import at

MAX_LISTED = 10  # wrong values or missing combinations named in one finding (and rows per value)
MAX_EVALUATIONS = 200_000  # expression evaluations by one game's verify list


class _Missing(Exception):
    """A piece without the field a check reads: the check fails, naming the piece."""


class Outcome(NamedTuple):
    """What one check found: whether it holds, the detail, and whether a failure is only a
    warning (it fails ``verify --strict``, never a build)."""

    ok: bool
    detail: str
    warn: bool = False


@dataclass(frozen=True)
class Piece:
    """One distinct item of a component and its number of copies (its printed pieces)."""

    name: str  # "deck item 3 (Fox)", for findings
    data: Mapping[str, Any]
    count: int
    # Where the item was written (its CSV row, its sheet's row, its YAML entry): a failed
    # check names it (``rows``), so the designer goes to the card, not to the check.
    ref: ItemRef | None = None


# -- verify time -----------------------------------------------------------------------------

def findings(game: Game) -> list[Finding]:
    """One finding per check of the game's ``verify`` list (none for a game without one)."""
    out = []
    budget = _Budget()
    doc = (getattr(game, "docs", None) or {}).get("game")
    for index, raw in enumerate(game.data.get("verify") or []):
        check = CompositionCheck.model_validate(raw)
        where = at(game, "verify", index)
        budget.who = (str(doc.file) if doc is not None else str(game.source),
                      doc.line_of(("verify", index)) if doc is not None else None,
                      f"verify[{index}]", "piece")
        try:
            ok, detail, warn = _run(game, check, budget)
        except ExpressionError as exc:
            raise _error(game, index, f"{said(check.name)}: {exc}") from None
        out.append(Finding(check.name, ok, detail, warn=warn, where=where, basis=DESIGN))
    return out


class _Budget:
    """Bounds the expressions of one game's checks: MAX_EVALUATIONS evaluations (each
    expression is bounded on its own by the sandbox, and all of them by the build's work
    budget, spent as the check's running now: ``who``). Counts, never seconds: a set that
    verifies on one machine verifies on every one."""

    def __init__(self) -> None:
        self.used = 0
        self.who: Spender = ("", None, "verify", "piece")

    def spend(self) -> None:
        self.used += 1
        if self.used > MAX_EVALUATIONS:
            raise ExpressionError(f"the verify list evaluates more than {MAX_EVALUATIONS} "
                                  "expressions; use plain fields or fewer checks")


def _error(game: Game, index: int, expected: str) -> DataError:
    doc = (getattr(game, "docs", None) or {}).get("game")
    if doc is not None:
        return doc.error(("verify", index), expected)
    return DataError(game.source, None, f"verify[{index}]", expected)


def pieces_of(game: Game, cid: str) -> list[Piece]:
    """Every distinct item of component ``cid`` as a ``Piece``, named for findings."""
    pieces = []
    comp = game.component(cid)
    for position, item in enumerate(comp.items):
        hint = next((item.data[k] for k in ("name", "id", "label")
                     if isinstance(item.data.get(k), (str, int))), None)
        name = f"{cid} item {position + 1}" + (f" ({_show(hint)})" if hint is not None
                                               else "")
        ref = comp.sources[position] if position < len(comp.sources) else None
        pieces.append(Piece(name, item.data, item.count, ref))
    return pieces


def rows(game: Game, pieces: Sequence[Piece]) -> str:
    """Where the offending pieces of a failed check were written, as messages say it:
    ``cards.csv: rows 3, 6``, ``roles.xlsx: sheet Roles, row 4``, ``game.yaml: lines 31 x2,
    40`` (``xN``: that place makes N copies; the pieces of one place, as a generated
    product's, named once): the first ``MAX_LISTED`` places, then how many more. Worked out
    only for a failure: a passing set never pays for it."""
    # (the file [and sheet] with its separator, "row" / "line" / "", its number): copies
    places: dict[tuple[str, str, str], int] = {}
    for piece in pieces:
        place = (piece.name, "", "")
        if piece.ref is not None:
            file, line, field = game_value(game, piece.ref.whole)
            row = _ROW.fullmatch(field)
            if line is not None:
                place = (location(file, None) + ": ", "line", str(line))
            elif row is not None:
                place = (location(file, None, row[1] or "") + (", " if row[1] else ": "),
                         "row", row[2])
            else:
                place = (location(file, line, field), "", "")
        places[place] = places.get(place, 0) + piece.count
    runs: list[tuple[str, str, list[str]]] = []  # places of one file (and sheet) in a row
    for (head, unit, number), n in list(places.items())[:MAX_LISTED]:
        copies = f" x{n}" if n > 1 else ""
        if unit and runs and runs[-1][:2] == (head, unit):
            runs[-1][2].append(number + copies)
        else:
            runs.append((head, unit, [number + copies]))
    shown = ", ".join(_run_of(*run) for run in runs)
    more = len(places) - MAX_LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _run_of(head: str, unit: str, numbers: list[str]) -> str:
    """One file's places: ``game.yaml:31``, ``game.yaml: lines 31, 40``, ``cards.csv: row 6``,
    ``cards.xlsx: sheet Roles, rows 2, 4``; a piece with no known place by its name."""
    if not unit:
        return head + numbers[0]
    if unit == "line" and len(numbers) == 1:
        return f"{head.removesuffix(': ')}:{numbers[0]}"
    return f"{head}{unit}{'s' if len(numbers) > 1 else ''} {', '.join(numbers)}"


# The row of a spreadsheet's cell as its errors name it (data/tables/spreadsheet.py, Sheet.where):
# ``row 6``, or ``sheet Roles, row 6``.
_ROW = re.compile(r"(?:(.+), )?row (\d+)")


def _pieces(game: Game, check: CompositionCheck, budget: _Budget) -> list[Piece]:
    return [piece for cid in component_ids(check.component) for piece in pieces_of(game, cid)
            if check.where is None or _keeps(check.where, piece, budget)]


class Reader:
    """Reads pieces the way the checks do, for another part of the rules layer (the deal
    questions of rules/deal.py): a FIELD (``value``) and a ``where:`` condition (``keeps``),
    in the one sandbox, under the same bounds (MAX_EVALUATIONS, the build's budget spent as
    ``who``). A piece without the field raises ValueError naming the piece and its fields."""

    def __init__(self, who: Spender) -> None:
        self.budget = _Budget()
        self.budget.who = who

    def value(self, ref: str, piece: Piece) -> Any:
        try:
            return _value(ref, piece, self.budget)
        except _Missing as exc:
            raise ValueError(str(exc)) from None

    def keeps(self, where: Mapping[str, Any] | str, piece: Piece) -> bool:
        return _keeps(where, piece, self.budget)


def _keeps(where: Mapping[str, Any] | str, piece: Piece, budget: _Budget) -> bool:
    if isinstance(where, str):
        return bool(_value(where, piece, budget))
    for ref, wanted in where.items():
        allowed = wanted if isinstance(wanted, list) else [wanted]
        try:
            value = _value(ref, piece, budget)
        except _Missing:
            return False
        if value not in allowed and ident(value) not in allowed:
            return False
    return True


def _value(ref: str, piece: Piece, budget: _Budget) -> Any:
    """A FIELD of a piece: an expression over ``item``, or a (dotted) field name."""
    if is_expression(ref):
        budget.spend()
        with Spending(budget.who):
            return evaluate(ref, {"item": piece.data})
    try:
        return path_value(piece.data, ref)
    except NoField as exc:
        raise _Missing(f"{piece.name} has no field {said(ref)} (its fields: {exc})") from None


def _key(refs: Sequence[str], piece: Piece, budget: _Budget) -> Hashable:
    values = tuple(ident(_value(ref, piece, budget)) for ref in refs)
    return values[0] if len(values) == 1 else values


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = value if isinstance(value, str) else repr(value) if value is None else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _listed(parts: list[str]) -> str:
    more = len(parts) - MAX_LISTED
    return ", ".join(parts[:MAX_LISTED]) + (f" and {more} more" if more > 0 else "")


def _fits(count: int | CountRange, n: int) -> bool:
    if isinstance(count, CountRange):
        return (count.min is None or n >= count.min) and (count.max is None or n <= count.max)
    return n == count


def _wanted(count: int | CountRange) -> str:
    if not isinstance(count, CountRange):
        return str(count)
    if count.min is not None and count.max is not None:
        return f"{count.min}-{count.max}"
    return f"at least {count.min}" if count.min is not None else f"at most {count.max}"


def _run(game: Game, check: CompositionCheck, budget: _Budget) -> Outcome:
    """What one check found."""
    pieces = _pieces(game, check, budget)
    try:
        return Outcome(*KINDS[check.kind](check, pieces, game, budget))
    except _Missing as exc:
        return Outcome(False, str(exc))


def _refs_of(value: str | list[str] | None) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def _label(refs: Sequence[str]) -> str:
    """How a report names the grouped fields ("suit", "(suit, rank)"); an expression is
    "value" (the finding's line points at the check that spells it out)."""
    names = ["value" if is_expression(ref) else ref for ref in refs]
    return names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"


def _pieces_word(count: int | CountRange) -> str:
    return "piece" if count == 1 else "pieces"


def _groups(refs: Sequence[str], pieces: Sequence[Piece], budget: _Budget
            ) -> tuple[Counter[Hashable], dict[Hashable, list[Piece]]]:
    """The pieces by their value (or combination) of ``refs``: how many copies each value
    has, and which pieces hold it (a failure names their rows)."""
    groups: Counter[Hashable] = Counter()
    members: dict[Hashable, list[Piece]] = {}
    for piece in pieces:
        key = _key(refs, piece, budget)
        groups[key] += piece.count
        members.setdefault(key, []).append(piece)
    return groups, members


def _with_rows(keys: Sequence[Hashable], shown: Callable[[Hashable], str],
               members: Mapping[Hashable, Sequence[Piece]], game: Game) -> list[str]:
    """Each offending value as ``shown`` says it, the first ``MAX_LISTED`` with the places
    of their pieces (those after them are only counted: ``_listed``)."""
    return [shown(key) + (f" ({rows(game, members[key])})" if index < MAX_LISTED else "")
            for index, key in enumerate(keys)]


def _count(check: CompositionCheck, pieces: list[Piece], game: Game, budget: _Budget
           ) -> Outcome:
    assert check.count is not None
    refs = _refs_of(check.per)
    if not refs:
        n = sum(piece.count for piece in pieces)
        if _fits(check.count, n):
            return Outcome(True, f"{n} pieces")
        found = f" ({rows(game, pieces)})" if pieces else ""
        return Outcome(False, f"expected {_wanted(check.count)} pieces, found {n}{found}")
    groups, members = _groups(refs, pieces, budget)
    label = _label(refs)
    per = f"{_wanted(check.count)} {_pieces_word(check.count)} per {label}"
    if not groups and not check.complete:
        return Outcome(False, f"expected {per}, found no pieces")
    wrong = _with_rows([key for key, n in groups.items() if not _fits(check.count, n)],
                       lambda key: f"{_show(key)} {groups[key]}", members, game)
    gaps = _Gaps(check, refs, groups, game)
    if check.complete:
        problems = ([f"found {_listed(wrong)}"] if wrong else []) + gaps.problems(
            check.count, lambda key: rows(game, members[key]))
        if problems:
            return Outcome(False, f"expected {per}, for each of {gaps.described}, "
                                  + "; ".join(problems))
        return Outcome(True, f"all {gaps.described}, {_wanted(check.count)} "
                             f"{_pieces_word(check.count)} each")
    if wrong:
        return Outcome(False, f"expected {per}, found {_listed(wrong)}")
    held = (f"{len(groups)} values of {label}, {_wanted(check.count)} "
            f"{_pieces_word(check.count)} each")
    if len(refs) > 1 and check.complete is None and gaps.missing:
        return Outcome(False, f"{held}, but only {len(groups)} of {gaps.described} occur, "
                              f"missing {gaps.listed()}: add 'complete: true' to require "
                              f"them all, or 'complete: false' if the gaps are meant",
                       warn=True)
    return Outcome(True, held)


class _Gaps:
    """The combinations a ``per`` check could see, against those that occur: each field's
    values are what its ``complete:`` declares (a table's rows, a range) or else the values
    that occur. Counted, not listed: a few fields of many values make more combinations
    than could be walked, so only the first ``MAX_LISTED`` missing ones are found, walking
    at most as many combinations as occur plus those."""

    def __init__(self, check: CompositionCheck, refs: Sequence[str],
                 groups: Mapping[Hashable, int], game: Game) -> None:
        self.keys: list[tuple[Hashable, ...]] = [
            key if isinstance(key, tuple) and len(refs) > 1 else (key,) for key in groups]
        declared: Mapping[str, Any] = (
            check.complete if isinstance(check.complete, dict)
            else {refs[0]: check.complete} if isinstance(check.complete, list) else {})
        self.domains: list[list[Hashable]] = []
        for position, ref in enumerate(refs):
            domain = declared.get(ref)
            seen = [key[position] for key in self.keys]
            if isinstance(domain, str):
                values = [ident(row) for row in game.data["tables"][domain]]
            elif isinstance(domain, ValueRange):
                values = list(range(domain.min, domain.max + 1))
            elif isinstance(domain, list):
                # A listed value stands for the value seen that reads the same (a column's
                # 7 for a listed "7"), as ``counts:`` keys do.
                shown = {_show(value): value for value in seen}
                values = [shown.get(_show(value), value) for value in domain]
            else:
                values = seen
            self.domains.append(list(dict.fromkeys(values)))
        allowed = [set(domain) for domain in self.domains]
        self.strays = [key for key in self.keys
                       if not all(v in ok for v, ok in zip(key, allowed, strict=True))]
        self.total = math.prod(len(domain) for domain in self.domains)
        self.missing = self.total - (len(self.keys) - len(self.strays))
        sizes = " x ".join(str(len(domain)) for domain in self.domains)
        self.described = (f"the {sizes} = {self.total} combinations of {_label(refs)}"
                          if len(refs) > 1 else f"the {self.total} values of {_label(refs)}")

    def _absent(self) -> Iterator[tuple[Hashable, ...]]:
        present = set(self.keys)
        for combo in itertools.product(*self.domains):
            if combo not in present:
                yield combo

    def listed(self) -> str:
        shown = [_show(c if len(c) > 1 else c[0])
                 for c in itertools.islice(self._absent(), MAX_LISTED)]
        more = self.missing - len(shown)
        return ", ".join(shown) + (f" and {more} more" if more > 0 else "")

    def problems(self, count: int | CountRange, where: Callable[[Hashable], str]
                 ) -> list[str]:
        """What a ``complete`` check finds wrong: the combinations missing, and those
        outside the declared values, each with ``where`` its pieces were written."""
        found = []
        if self.missing and not _fits(count, 0):
            found.append(f"missing {self.listed()}")
        if self.strays:
            found.append("found values outside it: " + _listed(
                [f"{_show(k if len(k) > 1 else k[0])} ({where(k if len(k) > 1 else k[0])})"
                 for k in self.strays]))
        return found


def _counts(check: CompositionCheck, pieces: list[Piece], game: Game, budget: _Budget
            ) -> tuple[bool, str]:
    assert check.counts is not None and isinstance(check.per, str)
    found: Counter[str] = Counter()
    members: dict[str, list[Piece]] = {}
    groups, held = _groups([check.per], pieces, budget)
    for key, n in groups.items():
        found[_show(key)] += n
        members.setdefault(_show(key), []).extend(held[key])
    expected = {_show(key): n for key, n in check.counts.items()}
    label = _label([check.per])
    noun = "card" if all(game.component(cid).kind == "card"
                         for cid in component_ids(check.component)) else "piece"

    def wrong(key: str, wanted: str) -> str:
        n = found.get(key, 0)
        where = f" ({rows(game, members[key])})" if key in members else ""
        return f"{label} {key}: {n} {noun}{'' if n == 1 else 's'}, {wanted}{where}"

    off = [(key, f"{n} expected") for key, n in expected.items() if found.get(key, 0) != n]
    off += [(key, "none expected") for key in found if key not in expected]
    if off:
        more = len(off) - MAX_LISTED
        return False, "; ".join(wrong(*pair) for pair in off[:MAX_LISTED]) + (
            f"; and {more} more values" if more > 0 else "")
    return True, ", ".join(f"{key} {n}" for key, n in expected.items())


def _total(check: CompositionCheck, pieces: list[Piece], game: Game, budget: _Budget
           ) -> tuple[bool, str]:
    assert check.total is not None and check.is_ is not None
    total: float = 0
    for piece in pieces:
        value = _value(check.total, piece, budget)
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            return False, f"{piece.name}: {check.total} is {_show(value)}, not a number"
        total += value * piece.count
    if math.isclose(total, check.is_, rel_tol=1e-9, abs_tol=1e-9):
        return True, f"total {check.total} {_show(float(total))}"
    return False, f"expected total {check.total} {_show(check.is_)}, found {_show(float(total))}"


def _unique(check: CompositionCheck, pieces: list[Piece], game: Game, budget: _Budget
            ) -> tuple[bool, str]:
    refs = _refs_of(check.unique)
    groups, members = _groups(refs, pieces, budget)
    label = _label(refs)
    twice = _with_rows([key for key, n in groups.items() if n > 1],
                       lambda key: f"{_show(key)} {groups[key]} times", members, game)
    if twice:
        return False, f"expected no two pieces with the same {label}, found {_listed(twice)}"
    return True, f"{len(groups)} pieces, each {label} once"


def _row_index(rows: Sequence[Mapping[str, Any]]) -> dict[Hashable, int]:
    """How a piece's value finds its row: the whole row, its ``id``, then its ``name``."""
    index: dict[Hashable, int] = {}
    for key in ("name", "id"):  # ids win over names when both match
        for position, row in enumerate(rows):
            if key in row and isinstance(row[key], Hashable):
                index[("text", str(row[key]))] = position
    for position, row in enumerate(rows):
        index[("row", _canon(row))] = position
    return index


def _find_row(index: Mapping[Hashable, int], value: Any) -> int | None:
    if isinstance(value, Mapping):
        found = index.get(("row", _canon(value)))
        if found is not None:
            return found
        value = ident(value)
    if isinstance(value, (list, tuple)) or not isinstance(value, Hashable):
        return None
    return index.get(("text", str(value)))


def _product(check: CompositionCheck, pieces: list[Piece], game: Game, budget: _Budget
             ) -> tuple[bool, str]:
    assert check.product is not None
    tables = game.data["tables"]
    fields = list(check.product)
    rows = [tables[check.product[field]] for field in fields]
    indexes = [_row_index(table) for table in rows]
    found: Counter[tuple[int, ...]] = Counter()
    strays = []
    for piece in pieces:
        combo = []
        for field, index in zip(fields, indexes, strict=True):
            value = _value(field, piece, budget)
            position = _find_row(index, value)
            if position is None:
                strays.append(f"{piece.name}: {field} {_show(ident(value))} is no row of "
                              f"{check.product[field]}")
                break
            combo.append(position)
        else:
            found[tuple(combo)] += piece.count
    names = " x ".join(fields)
    total = math.prod(len(table) for table in rows)

    def shown(combo: tuple[int, ...]) -> str:
        return _show(tuple(ident(rows[i][p]) for i, p in enumerate(combo)))

    combos = itertools.product(*(range(len(table)) for table in rows))
    if check.count is None:
        wrong = [shown(c) for c in combos if not found.get(c)]
        expected = f"expected all {total} {names} combinations"
        problem = f"missing {_listed(wrong)}" if wrong else ""
    else:
        count = check.count
        wrong = [f"{shown(c)} {found.get(c, 0)}" for c in combos
                 if not _fits(count, found.get(c, 0))]
        expected = (f"expected each of the {total} {names} combinations on {_wanted(count)} "
                    f"{_pieces_word(count)}")
        problem = f"found {_listed(wrong)}" if wrong else ""
    if strays:
        problem += ("; " if problem else "found ") + _listed(strays)
    if problem:
        return False, f"{expected}, {problem}"
    return True, f"all {total} {names} combinations present"


Check = Callable[[CompositionCheck, list[Piece], Game, _Budget], tuple[bool, str] | Outcome]
KINDS: dict[str, Check] = {"count": _count, "counts": _counts, "total": _total,
                           "unique": _unique, "product": _product}
