"""Deal figures against brute force (generator/rules/deal.py): on small decks every exact
figure (no card matching, at least k, a void in some suit, suit lengths, the first D draws
after the deal) equals the count over every hand (or every ordering of the deal and the
draws) enumerated here, independently of the formulas; and over 200 seeds the Monte Carlo's
95 % intervals hold the exact value about 95 times in 100 (within a binomial tolerance; the
seeds are fixed, so the run is the same every time)."""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.model import Component, Item, Size
from generator.data.tables.schema import DealQuestion
from generator.rules import deal
from generator.rules.declarative import Piece, Reader

SUITS = "ABC"


def small_deck(cards: list[tuple[str, bool, int]]) -> deal.Deck:
    """A deck of distinct items (suit, fog, copies), dealt as a game's deck is."""
    items = tuple(Item({"suit": suit, "fog": fog}, count) for suit, fog, count in cards)
    component = Component("deck", "card", "Cards", Size(63, 88), "x", items)
    pieces = [Piece(f"deck item {k + 1}", item.data, item.count)
              for k, item in enumerate(items)]
    return deal.Deck(component, pieces, Reader(("test", None, "deal", "piece")),
                     [k for k, piece in enumerate(pieces) for _ in range(piece.count)])


def _ask(deck: deal.Deck, **kind: Any) -> deal.Answer:
    return deal.answer(deck, DealQuestion.model_validate({"name": "q", **kind}))


def _exact(deck: deal.Deck, **kind: Any) -> Fraction:
    [figure] = _ask(deck, **kind).figures
    assert figure.exact is not None
    return figure.exact


@st.composite
def decks(draw: Any) -> tuple[list[tuple[str, bool, int]], int, int, int, int]:
    """Up to 7 cards (items of 1 or 2 copies) of suits A-C, some in fog; players, hand,
    draws after the deal and k, all fitting in the deck."""
    cards = draw(st.lists(st.tuples(st.sampled_from(SUITS), st.booleans(), st.integers(1, 2)),
                          min_size=1, max_size=5))
    total = sum(count for *_, count in cards)
    if total > 7:
        cards = cards[:1]
        total = cards[0][2]
    hand = draw(st.integers(1, total))
    players = draw(st.integers(1, total // hand))
    draws = draw(st.integers(0, total - players * hand))
    k = draw(st.integers(1, 3))
    return cards, players, hand, draws, k


def _cards(deck: deal.Deck) -> list[dict[str, Any]]:
    return [deck.pieces[k].data for k in deck.card_piece]


@settings(max_examples=120)
@given(decks())
def test_every_exact_figure_is_the_count_over_every_hand(case):
    cards, players, hand, _draws, k = case
    deck = small_deck(cards)
    each = _cards(deck)
    n = len(each)
    hands = list(itertools.combinations(range(n), hand))
    fog = [card["fog"] for card in each]
    has_fog = any(fog)

    def share(test: Any) -> Fraction:
        return Fraction(sum(1 for h in hands if test(h)), len(hands))

    base = {"players": players, "hand": hand}
    if has_fog:
        assert _exact(deck, **base, none={"fog": True}) == share(
            lambda h: not any(fog[c] for c in h))
        assert _exact(deck, **base, at_least=k, where={"fog": "yes"}) == share(
            lambda h: sum(fog[c] for c in h) >= k)
    suits = {card["suit"] for card in each}
    assert _exact(deck, **base, void="suit") == share(
        lambda h: {each[c]["suit"] for c in h} != suits)
    found = _ask(deck, **base, lengths="suit")
    for _names, size, figures in found.groups:
        suit = next(s for s in sorted(suits) if sum(c["suit"] == s for c in each) == size)
        for figure in figures:
            j = int(figure.label)
            assert figure.exact == share(lambda h, s=suit, j=j: sum(
                each[c]["suit"] == s for c in h) == j)


@settings(max_examples=60)
@given(decks())
def test_the_first_draws_after_the_deal_are_the_count_over_every_ordering(case):
    """Every ordering of the cards dealt and drawn: the hands take the first players x hand
    places, the draws the next ones; the figure is the share of orderings whose draws hold
    the cards asked for."""
    cards, players, hand, draws, k = case
    deck = small_deck(cards)
    fog = [card["fog"] for card in _cards(deck)]
    if not draws or not any(fog):
        return
    dealt = players * hand
    orders = list(itertools.permutations(range(len(fog)), dealt + draws))

    def share(test: Any) -> Fraction:
        return Fraction(sum(1 for o in orders if test(o[dealt:])), len(orders))

    base = {"players": players, "hand": hand, "draws": draws}
    assert _exact(deck, **base, none={"fog": True}) == share(
        lambda d: not any(fog[c] for c in d))
    assert _exact(deck, **base, at_least=k, where={"fog": True}) == share(
        lambda d: sum(fog[c] for c in d) >= k)


def _binomial_tail_bounds(n: int, p: float, tail: float) -> tuple[int, int]:
    """The least and most successes of n trials at rate p outside which either tail holds
    less than ``tail`` of the chance."""
    pmf = [math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
    low = next(i for i in range(n + 1) if sum(pmf[:i + 1]) >= tail)
    high = next(i for i in range(n, -1, -1) if sum(pmf[i:]) >= tail)
    return low, high


def test_monte_carlo_intervals_hold_the_exact_value_at_their_stated_rate():
    # 10 cards, 3 in fog; 2 players of 3: is some hand without fog? Exact by every deal.
    deck = small_deck([("A", True, 2), ("B", True, 1), ("A", False, 3), ("C", False, 4)])
    fog = [card["fog"] for card in _cards(deck)]
    deals = [(first, second) for first in itertools.combinations(range(10), 3)
             for second in itertools.combinations(sorted(set(range(10)) - set(first)), 3)]
    exact = Fraction(sum(any(not any(fog[c] for c in h) for h in d) for d in deals),
                     len(deals))
    assert 0.3 < exact < 0.9
    seeds = 200
    held = 0
    for seed in range(seeds):
        [figure] = _ask(deck, players=2, hand=3, none={"fog": True}, who="anyone",
                        trials=400, seed=seed).figures
        assert figure.exact is None and figure.trials == 400
        low, high = figure.interval()
        held += low <= exact <= high
    low, high = _binomial_tail_bounds(seeds, 0.95, 0.001)
    assert low <= held <= high, (held, low, high)
