"""A data file's ``deal:`` questions checked when the game is loaded, before anything answers
them: the component each deals exists (or a default deck does), enough cards are there for
every hand, and each expression compiles. A problem is a DataError at the question's line
(exit 2), so a typo never reads as a figure. The questions are answered at verify time, in
the rules layer (generator/rules/deal.py); the syntax is in docs/deal-statistics.md.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from generator.core.model import Component
from generator.core.words import said
from generator.expressions import ExpressionError, compile_value

from .schema import MAX_DEAL_TRIALS, DealQuestion
from .verify_list import is_expression

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


def check_hands(deck: Component, players: int, hand: int) -> None:
    """Every hand must be dealt from the deck: ValueError when ``players`` hands of
    ``hand`` cards need more cards than it has."""
    if players * hand > deck.total:
        raise ValueError(f"{players} hands of {hand} cards need {players * hand} cards; "
                         f"{deck.id} has {deck.total}")


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
    return [question.model_dump(exclude_none=True) for question in questions]


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
