"""A data file's ``deal:`` questions checked when the game is loaded, before anything answers
them: the component each deals exists (or a default deck does), enough cards are there for
every hand, and each expression compiles. A problem is a DataError at the question's line
(exit 2), so a typo never reads as a figure. The questions are answered at verify time, in
the rules layer (generator/rules/deal.py); the syntax is in docs/deal-statistics.md.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from generator.core.model import Component
from generator.core.words import said
from generator.expressions import ExpressionError, compile_value

from .columns import as_bool, as_number, cell_text
from .schema import MAX_DEAL_TRIALS, DealQuestion
from .verify_list import NoField, ident, is_expression, path_value

# The fields looked for, in this order, as a deck's "suit" when none is named: the first
# one every card has is used, and the report says which.
SUIT_FIELDS = ("suit", "suits", "colour", "color")
# Cards one question's Monte Carlo may deal (deals x cards of a deal): its work, counted.
MAX_DEALT_CARDS = 5_000_000
# Cards all the deal questions of one build (a verify, a studio save, a pnp deal) may deal
# together: 30 questions at the bound of one would deal 150,000,000 (70 s of CPU). A question
# answered exactly deals none; one read from the cache spends what dealing it spent.
MAX_BUILD_DEALT = 5_000_000


def default_deck(components: Sequence[Component]) -> Component | None:
    """The deck a question or ``pnp deal`` deals when none is named: the card component of
    the most pieces (the first of those), else the component of the most pieces."""
    cards = [c for c in components if c.kind == "card"] or list(components)
    return max(cards, key=lambda c: c.total, default=None)


def deck_of(components: Sequence[Component], component: str | None) -> Component:
    """The component named (or the default deck); ValueError naming the ids otherwise."""
    if component is None:
        found = default_deck(components)
        if found is None:
            raise ValueError("this game has no component to deal")
        return found
    for comp in components:
        if comp.id == component:
            return comp
    raise ValueError(f"unknown component {said(component)}; components: "
                     f"{', '.join(c.id for c in components)}")


def default_suit(component: Component) -> str | None:
    """The first of ``SUIT_FIELDS`` that every item of ``component`` has, or None."""
    return next((name for name in SUIT_FIELDS
                 if component.items and all(name in item.data for item in component.items)),
                None)


def asked(fields: Mapping[str, Any]) -> DealQuestion:
    """The question ``pnp deal``'s options make, checked as a ``deal:`` entry is: a value
    past its bound is a ValueError naming the option (``--at-least``), one line, as the
    command's other refusals are (pydantic's own text spans four lines and a web address)."""
    from pydantic import ValidationError

    try:
        return DealQuestion.model_validate(fields)
    except ValidationError as exc:
        error = exc.errors()[0]
        option = "--" + "-".join(str(part) for part in error["loc"]).replace("_", "-")
        raise ValueError(f"{option}: {error['msg']} (got {said(error.get('input'))})") from None


def check_hands(deck: Component, players: int, hand: int) -> None:
    """Every hand must be dealt from the deck: ValueError when ``players`` hands of
    ``hand`` cards need more cards than it has."""
    if players * hand > deck.total:
        raise ValueError(f"{players} hands of {hand} cards need {players * hand} cards; "
                         f"{deck.id} has {deck.total}")


def check_draws(deck: Component, players: int, hand: int, draws: int | None) -> None:
    """The draws after the deal must come from the cards left: ValueError otherwise."""
    if draws is not None and players * hand + draws > deck.total:
        raise ValueError(f"{players} hands of {hand} cards and {draws} draws need "
                         f"{players * hand + draws} cards; {deck.id} has {deck.total}")


def check_work(players: int, hand: int, trials: int, anyone: bool) -> None:
    """Refuse a Monte Carlo past ``MAX_DEALT_CARDS`` (or past ``MAX_DEAL_TRIALS`` deals):
    ValueError saying how many deals are allowed."""
    if not 1 <= trials <= MAX_DEAL_TRIALS:
        raise ValueError(f"trials must be a whole number from 1 to {MAX_DEAL_TRIALS} "
                         f"(got {trials})")
    per = hand * (players if anyone else 1)
    if trials * per > MAX_DEALT_CARDS:
        raise ValueError(f"{trials} deals of {per} cards deal {trials * per} cards; at most "
                         f"{MAX_DEALT_CARDS}: ask for at most {MAX_DEALT_CARDS // per} deals")


def check_dealt(cards: int, per: int, left: int) -> None:
    """Refuse a Monte Carlo of ``cards`` cards (``per`` a deal) when fewer than that are
    ``left`` of the build's ``MAX_BUILD_DEALT``: ValueError saying how many deals still fit."""
    if cards > left:
        fits = left // max(per, 1)
        ask = (f"ask for at most {fits} deals here, or fewer in the questions above" if fits
               else "ask for fewer deals in the questions above")
        raise ValueError(f"the deal questions of one build may deal {MAX_BUILD_DEALT} cards "
                         f"in all, {left} are left, and this one deals {cards}: {ask}")


def check_questions(doc: Any, questions: Sequence[DealQuestion],
                    components: Sequence[Component]) -> list[dict[str, Any]]:
    """What the questions name, checked against the loaded game; returns them as plain
    data."""
    for index, question in enumerate(questions):
        path = ("deal", index)
        try:
            deck = deck_of(components, question.component)
        except ValueError as exc:
            raise doc.error(path + ("component",), str(exc)) from None
        try:
            check_hands(deck, question.players, question.hand)
        except ValueError as exc:
            raise doc.error(path + ("hand",), str(exc)) from None
        try:
            check_draws(deck, question.players, question.hand, question.draws)
        except ValueError as exc:
            raise doc.error(path + ("draws",), str(exc)) from None
        try:  # the most a question may deal (a question answered exactly deals nothing)
            check_work(question.players, question.hand, question.trials,
                       question.who == "anyone")
        except ValueError as exc:
            raise doc.error(path + ("trials",), str(exc)) from None
        for key, ref in refs(question):
            if is_expression(ref):
                try:
                    compile_value(ref)
                except ExpressionError as exc:
                    raise doc.error(path + (key,), str(exc)) from None
    out = []
    for index, question in enumerate(questions):
        plain = question.model_dump(exclude_none=True)
        for key in ("none", "where"):
            if key in plain:
                try:
                    plain[key] = typed_where(deck_of(components, question.component),
                                             plain[key])
                except ConditionError as exc:
                    raise doc.error(("deal", index, key, exc.field), str(exc)) from None
        out.append(plain)
    return out


# -- conditions typed by their column ------------------------------------------------------------

class ConditionError(ValueError):
    """A condition on a field no card has, or for a value no card holds (or that is no value
    of the field's type); ``field`` names the condition's field."""

    def __init__(self, field: str, text: str, argument: str = "") -> None:
        super().__init__(text)
        self.field = field
        self.argument = argument  # pnp deal's option that gave it ("none", "where")


MAX_SHOWN_VALUES = 12  # the values an error lists of the ones the cards hold


def typed_where(deck: Component, where: Mapping[str, Any] | str
                ) -> dict[str, list[Any]] | str:
    """A ``where:`` condition (a deal question's, ``pnp deal``'s ``FIELD=VALUE``) with each
    wanted value read as the type its field has on the deck's cards, as the readers typed
    the column: on a boolean field ``true``/``yes``/``1`` in any case is True
    (columns.as_bool, the readers' own reading), on a number field ``7`` and ``7.0`` are the
    number 7; on any other field (text, a table row by its id) the value must be one a card
    holds. ConditionError for a field no card has, a value of the wrong type, or one no card
    holds: such a condition would match no card, and "100 %" would read as an answer. An
    expression (a field or the whole condition) is left as it is: it says its own type.
    Typing a typed condition again changes nothing."""
    if isinstance(where, str):
        return where
    typed: dict[str, list[Any]] = {}
    for ref, wanted in where.items():
        if is_expression(ref):
            typed[ref] = wanted if isinstance(wanted, list) else [wanted]
            continue
        held = _held(deck, ref)
        # A column declared bool holds bools; one left undeclared holds the words as text
        # (every one of them a boolean word: the same column, written without columns:).
        kind = ("bool" if all(isinstance(v, bool) for v in held)
                else "number" if all(_is_number(v) for v in held)
                else "bool" if all(as_bool(v) is not None for v in held) else "value")
        known = dict.fromkeys(ident(v) for v in held)
        typed[ref] = list(dict.fromkeys(
            found for value in (wanted if isinstance(wanted, list) else [wanted])
            for found in _typed(deck, ref, kind, value, known)))
    return typed


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _held(deck: Component, ref: str) -> list[Any]:
    """The values of ``ref`` the deck's cards hold (a card without it holds none)."""
    held, fields = [], {}
    for item in deck.items:
        fields.update(dict.fromkeys(item.data))
        try:
            held.append(path_value(item.data, ref))
        except NoField:
            continue
    if not held:
        names = ", ".join(map(str, list(fields)[:MAX_SHOWN_VALUES]))
        raise ConditionError(ref, f"no card of {deck.id} has a field {said(ref)} "
                                  f"(its fields: {names or 'none'})")
    return held


def _typed(deck: Component, ref: str, kind: str, value: Any, known: dict[Hashable, None]
           ) -> list[Any]:
    """The values a card may hold to meet ``value``: the one it reads as, and on a boolean
    field written as text, every word of the cards that reads as the same boolean."""
    if kind == "bool":
        found: Any = as_bool(value)
        if found is None:
            raise ConditionError(ref, f"{ref} is true or false (true/false, yes/no or 1/0), "
                                      f"got {said(value)}")
        words = [v for v in known if not isinstance(v, bool) and as_bool(v) is found]
        if found in {as_bool(v) for v in known}:
            return [found, *words]
        candidates = [found]
    elif kind == "number":
        found = as_number(value)
        if found is None:
            raise ConditionError(ref, f"{ref} is a number, got {said(value)}")
        candidates = [found]
    else:  # text or a row by its id: as written, or as the number or text it also reads as
        candidates = [value]
        if isinstance(value, str) and as_number(value) is not None:
            candidates.append(as_number(value))
        elif not isinstance(value, str):
            candidates.append(cell_text(value))
    for candidate in candidates:
        if kind != "bool" and isinstance(candidate, Hashable) and candidate in known:
            return [candidate]
    shown = [_shown(v) for v in list(known)[:MAX_SHOWN_VALUES]]
    more = ", ..." if len(known) > MAX_SHOWN_VALUES else ""
    raise ConditionError(ref, f"no card of {deck.id} has {ref} = {_shown(candidates[0], said)} "
                              f"(its cards have: {', '.join(shown)}{more})")


def condition_words(where: Mapping[str, Any] | str) -> str:
    """A condition in words for a report line: ``fog = true``, ``rank = J or Q``."""
    if isinstance(where, str):
        return where

    def shown(value: Any) -> str:
        if isinstance(value, list):  # any of these (a boolean's words: the boolean alone)
            value = [v for v in value if isinstance(v, bool)] or value
            return " or ".join(dict.fromkeys(_shown(v) for v in value))
        return _shown(value)

    return ", ".join(f"{key} = {shown(value)}" for key, value in where.items())


def _shown(value: Any, text: Any = str) -> str:
    """A value as a condition writes it: a bool as true/false, a whole float as a whole."""
    if isinstance(value, bool) or (isinstance(value, float) and value.is_integer()):
        return cell_text(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(_shown(v, text) for v in value) + ")"
    return str(text(value))


def refs(question: DealQuestion) -> Iterator[tuple[str, str]]:
    """(key, reference) of every field name or expression a question reads."""
    for key in ("lengths", "void"):
        value = getattr(question, key)
        if value is not None:
            yield key, value
    for key in ("none", "where"):
        value = getattr(question, key)
        if isinstance(value, str):
            yield key, value
        for field in value if isinstance(value, dict) else ():
            yield key, field
