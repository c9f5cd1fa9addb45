"""Deal statistics without code: how a deck falls when dealt (``pnp deal``, a data file's
``deal:`` questions shown by verify and the preview; docs/deal-statistics.md).

A designer's first questions about a card game need only the deck: "dealt 8 each among 4,
how often is someone void in a suit?", "how often does a starting hand hold no card above
7?". Each figure says how it was found:

- **exact** where one hand's composition decides the question: a hand of ``h`` cards from a
  deck of ``N`` is a uniformly random ``h``-subset, so the number of its cards of a kind with
  ``K`` copies is hypergeometric, P(j) = C(K, j)·C(N-K, h-j) / C(N, h); a void in some suit
  counts the hands that meet every suit, the coefficient of x^h in Π_s ((1+x)^K_s − 1)
  (whole numbers throughout, a ``Fraction`` at the end: no rounding until it is printed);
- **Monte Carlo** otherwise (a question about any of several hands, which are not
  independent; a card of two suits at once), with a seeded ``random.Random`` so a report is
  the same every run, and the 95 % Wilson interval of its hit rate (rules/stats.py).

Cards are read, and ``where:`` conditions matched, by the declarative checks' reader
(rules/declarative.py: the one sandbox, its bounds): once per distinct item, never per deal.
Work is bounded by counts, never seconds: ``MAX_DEALT_CARDS`` cards dealt by one question's
Monte Carlo, ``MAX_BUILD_DEALT`` by all the questions of one build together (counted in the
build's ``context.Budget``: a verify, a studio save, a ``pnp deal``), ``MAX_EXACT_WORK``
products in one exact polynomial (past that it deals instead). Answers are kept in the on-disk
cache (generator/core/cache.py) under the question, the deck's items and the language read, so
the studio does not deal again on a save that changed none of them; an answer read from there
spends the cards and the work dealing it spent, so a build stops at the same question cold or
warm.
"""
from __future__ import annotations

import contextlib
import math
import random
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from generator.core import cache, context
from generator.core.findings import DESIGN, Finding
from generator.core.model import Component, Game
from generator.data.tables.deal_list import (
    MAX_BUILD_DEALT,
    SUIT_FIELDS,
    ConditionError,
    asked,
    check_dealt,
    check_draws,
    check_hands,
    check_work,
    condition_words,
    deck_of,
    default_suit,
    typed_where,
)
from generator.data.tables.schema import MAX_DEAL_PLAYERS, DealExpect, DealQuestion
from generator.data.translation import i18n
from generator.data.translation.i18n import message
from generator.expressions import ExpressionError

from .base import at
from .declarative import Reader, ident, pieces_of
from .stats import wilson_interval

MAX_EXACT_WORK = 1_000_000   # coefficient products of one exact void polynomial (hand x deck)
DEFAULT_TRIALS = 10_000


@dataclass(frozen=True)
class Figure:
    """One probability and how it was found: ``exact`` (a Fraction) or ``hits`` of
    ``trials`` seeded deals."""

    label: str
    exact: Fraction | None = None
    hits: int = 0
    trials: int = 0
    seed: int = 0

    @property
    def value(self) -> float:
        return float(self.exact) if self.exact is not None else self.hits / self.trials

    def interval(self) -> tuple[float, float]:
        """The 95 % interval: the value itself when exact, Wilson's around a Monte Carlo."""
        if self.exact is not None:
            return self.value, self.value
        return wilson_interval(self.hits, self.trials)

    def method(self) -> str:
        if self.exact is not None:
            return message("deal.exact")
        low, high = self.interval()
        return message("deal.monte_carlo", trials=self.trials, seed=self.seed,
                       low=_number(100 * low), high=_number(100 * high))

    def rate(self) -> str:
        return f"{_number(100 * self.value)} %"

    def text(self) -> str:
        return message("deal.figure", question=self.label, rate=self.rate(),
                       method=self.method())


def _number(percent: float) -> str:
    """Three significant figures, never in exponent form; under 0.001 % as "< 0.001"."""
    if 0 < percent < 0.001:
        return "< 0.001"
    if percent == 0 or percent >= 100:
        return f"{percent:.0f}" if percent in (0, 100) else f"{percent:.1f}"
    digits = max(1, 2 - math.floor(math.log10(percent)))
    return f"{percent:.{digits}f}"


# -- exact: one hand -------------------------------------------------------------------------

def hypergeometric(deck: int, kind: int, hand: int, j: int) -> Fraction:
    """P(a hand of ``hand`` cards from ``deck`` holds exactly ``j`` of ``kind`` copies)."""
    if not 0 <= j <= min(kind, hand) or hand - j > deck - kind:
        return Fraction(0)
    return Fraction(math.comb(kind, j) * math.comb(deck - kind, hand - j),
                    math.comb(deck, hand))


def at_least(deck: int, kind: int, hand: int, k: int) -> Fraction:
    """P(a hand holds ``k`` or more of ``kind`` copies): the hands summed as whole numbers,
    one division at the end."""
    hands = sum(math.comb(kind, j) * math.comb(deck - kind, hand - j)
                for j in range(max(0, k), min(kind, hand) + 1) if hand - j <= deck - kind)
    return Fraction(hands, math.comb(deck, hand))


def void_in_some(sizes: Sequence[int], hand: int) -> Fraction:
    """P(a hand misses at least one suit), the suits a partition of the deck of ``sizes``:
    1 − (hands meeting every suit) / C(N, h), the count being the coefficient of x^h in
    Π_s ((1+x)^K_s − 1)."""
    deck = sum(sizes)
    poly = [1] + [0] * hand
    for size in sizes:
        factor = [math.comb(size, j) for j in range(min(size, hand) + 1)]
        factor[0] = 0  # (1+x)^K - 1: at least one card of this suit
        out = [0] * (hand + 1)
        for i, a in enumerate(poly):
            if a:
                for j, b in enumerate(factor[:hand + 1 - i]):
                    out[i + j] += a * b
        poly = out
    return 1 - Fraction(poly[hand], math.comb(deck, hand))


# -- Monte Carlo: several hands --------------------------------------------------------------

def monte_carlo(cards: int, players: int, hand: int, trials: int, seed: int,
                hit: Callable[[list[int]], bool], anyone: bool) -> int:
    """Deals in which ``hit`` holds for the first hand (``anyone``: for some hand) of
    ``players`` hands of ``hand`` cards, out of ``trials`` seeded deals."""
    rng = random.Random(seed)
    order = range(cards)
    dealt = players * hand if anyone else hand
    hits = 0
    for _ in range(trials):
        cards_dealt = rng.sample(order, dealt)
        hands = [cards_dealt[k:k + hand] for k in range(0, dealt, hand)]
        hits += any(hit(h) for h in hands)
    return hits


# -- the deck as cards -------------------------------------------------------------------------

@dataclass
class Deck:
    """A component dealt as cards: each copy of each item is a card, read through the
    declarative checks' ``Reader`` once per item."""

    component: Component
    pieces: list[Any]
    reader: Reader
    card_piece: list[int] = field(default_factory=list)  # card -> its item

    @classmethod
    def of(cls, game: Game, component: Component, who: tuple[str, int | None, str]
           ) -> Deck:
        pieces = pieces_of(game, component.id)
        deck = cls(component, pieces, Reader((*who, "piece")))
        deck.card_piece = [k for k, piece in enumerate(pieces) for _ in range(piece.count)]
        return deck

    @property
    def size(self) -> int:
        return len(self.card_piece)

    def suits(self, ref: str) -> list[frozenset[Hashable]]:
        """Each card's suits: the value of ``ref`` (a list is a card of several suits)."""
        per_piece = []
        for piece in self.pieces:
            value = self.reader.value(ref, piece)
            parts = value if isinstance(value, (list, tuple)) else [value]
            per_piece.append(frozenset(ident(part) for part in parts))
        return [per_piece[k] for k in self.card_piece]

    def matches(self, where: Mapping[str, Any] | str) -> list[bool]:
        per_piece = [self.reader.keeps(where, piece) for piece in self.pieces]
        return [per_piece[k] for k in self.card_piece]


def _suit_sizes(suits: Sequence[frozenset[Hashable]]) -> dict[Hashable, int]:
    sizes: dict[Hashable, int] = {}
    for card in suits:
        for suit in card:
            sizes[suit] = sizes.get(suit, 0) + 1
    return sizes


def _show(value: Hashable) -> str:
    return "(" + ", ".join(map(str, value)) + ")" if isinstance(value, tuple) else str(value)


# -- the questions ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    """A question's figures (suit lengths: one per suit size and length), under its name."""

    name: str
    figures: list[Figure]
    groups: list[tuple[str, int, list[Figure]]] = field(default_factory=list)  # lengths
    dealt: int = 0  # cards its Monte Carlo dealt (none when exact)
    per: int = 0  # cards of one of its deals
    # A condition's (none, at_least, draws): (cards matching it, cards of the deck), so a
    # condition that matched no card, or every card, shows beside its figure.
    matching: tuple[int, int] | None = None

    def detail(self) -> str:
        """One line for a verify finding."""
        if self.groups:
            return "; ".join(
                f"{suits} ({cards}): " + ", ".join(f"{f.label} {f.rate()}" for f in figures)
                + f" [{figures[0].method()}]" for suits, cards, figures in self.groups)
        return "; ".join([f"{f.rate()} [{f.method()}]" for f in self.figures]
                         + self.matched())

    def matched(self) -> list[str]:
        """"K of N cards match", for an answer about a condition."""
        if self.matching is None:
            return []
        return [message("deal.matching", matching=self.matching[0], cards=self.matching[1])]


def answer(deck: Deck, question: DealQuestion, label: str | None = None,
           left: int = MAX_BUILD_DEALT) -> Answer:
    """The figures answering ``question`` about ``deck`` (ValueError for what cannot be
    dealt or asked: too many cards, more than the ``left`` of the build's, too much work, a
    card without the field)."""
    check_hands(deck.component, question.players, question.hand)
    check_draws(deck.component, question.players, question.hand, question.draws)
    anyone = question.who == "anyone" and question.players > 1
    n, h = deck.size, question.hand
    trials, seed = question.trials, question.seed
    per = h * (question.players if anyone else 1)
    name = label or question.name
    if question.lengths is not None:
        return _lengths(deck, question.lengths, h, name)
    if question.void is not None:
        suits = deck.suits(question.void)
        sizes = _suit_sizes(suits)
        partition = all(len(card) == 1 for card in suits)
        if not anyone and partition and h * n <= MAX_EXACT_WORK:
            return Answer(name, [Figure(name, void_in_some(list(sizes.values()), h))])
        every = len(sizes)

        def void(hand: list[int]) -> bool:
            met: set[Hashable] = set()
            for card in hand:
                met |= suits[card]
            return len(met) < every

        check_work(question.players, h, trials, anyone)
        check_dealt(trials * per, per, left)
        hits = monte_carlo(n, question.players, h, trials, seed, void, anyone)
        return Answer(name, [Figure(name, None, hits, trials, seed)], dealt=trials * per,
                      per=per)
    where = question.none if question.none is not None else question.where
    assert where is not None
    matching = deck.matches(typed_where(deck.component, where))
    kind = sum(matching)
    matched = (kind, n)
    k = 1 if question.none is not None else (question.at_least or 1)
    if question.draws is not None:
        # The first D cards drawn after the deal: whatever the hands hold, any D places of
        # the shuffled deck are a uniformly random D-subset of it, so hypergeometric as a
        # hand of D (a given player's own next D draws too, at any number of players).
        exact = at_least(n, kind, question.draws, k)
        return Answer(name, [Figure(name, 1 - exact if question.none is not None else exact)],
                      matching=matched)
    if not anyone:
        exact = at_least(n, kind, h, k)
        return Answer(name, [Figure(name, 1 - exact if question.none is not None else exact)],
                      matching=matched)

    if question.none is not None:
        def hit(hand: list[int]) -> bool:
            return not any(matching[card] for card in hand)
    else:
        def hit(hand: list[int]) -> bool:
            return sum(matching[card] for card in hand) >= k

    check_work(question.players, h, trials, anyone)
    check_dealt(trials * per, per, left)
    hits = monte_carlo(n, question.players, h, trials, seed, hit, anyone)
    return Answer(name, [Figure(name, None, hits, trials, seed)], dealt=trials * per, per=per,
                  matching=matched)


def _lengths(deck: Deck, ref: str, hand: int, name: str) -> Answer:
    """The number of cards of each suit in one hand, exact, suits of one size together."""
    sizes = _suit_sizes(deck.suits(ref))
    by_size: dict[int, list[Hashable]] = {}
    for suit, size in sizes.items():
        by_size.setdefault(size, []).append(suit)
    groups = []
    for size, suits in sorted(by_size.items(), key=lambda kv: -kv[0]):
        figures = [Figure(str(j), hypergeometric(deck.size, size, hand, j))
                   for j in range(min(size, hand) + 1)]
        groups.append((", ".join(_show(s) for s in suits), size, figures))
    return Answer(name, [f for _, _, figures in groups for f in figures], groups)


# -- answers within the build's cards, from the cache ------------------------------------------

CACHE_KIND = "deal-answer"


def answered(deck: Deck, question: DealQuestion, label: str | None = None) -> Answer:
    """``answer``, within the cards the build has left (``MAX_BUILD_DEALT``, shared by its
    questions), from the on-disk cache when the same question was asked of the same deck."""
    with context.budgeted() as budget:
        left = MAX_BUILD_DEALT - budget.dealt
        found = _cached(deck, question, label, left)
        check_dealt(found.dealt, found.per, left)  # a cached answer spends what dealing spent
        budget.dealt += found.dealt
    return found


def _cached(deck: Deck, question: DealQuestion, label: str | None, left: int) -> Answer:
    """The answer, kept in the cache under what decides it: the question, the deck's items
    (data and copies) and the language files read (an expression may translate). A hit
    spends again the work reading the cards spent (the build's budget)."""
    from generator.expressions import spend

    folder = cache.cache_dir() if cache.enabled() else None
    key = None
    if folder is not None:
        parts = [question.model_dump(), label, deck.component.id,
                 [[dict(item.data), item.count] for item in deck.component.items],
                 sorted(i18n.current().read.items())]
        with contextlib.suppress(cache.Uncacheable, RecursionError):
            key = cache.entry_key(CACHE_KIND, parts, __name__)
    if folder is not None and key is not None:
        hit, plain = cache.lookup(folder, CACHE_KIND, key, _valid)
        if hit:
            for file, line, name, what, units, runs in plain[1]:
                spend(None if file is None else (file, line, name, what), units, runs)
            return _unplain(plain[0])
    with context.budgeted() as budget, budget.recording() as work:
        found = answer(deck, question, label, left)
    if folder is not None and key is not None:
        spent = [[*(who or (None, None, None, None)), units, runs]
                 for who, (units, runs) in work.items()]
        cache.store(folder, CACHE_KIND, key, [_plain(found), spent])
    return found


_HEX = re.compile(r"0|[1-9a-f][0-9a-f]{0,9999}")  # a whole number as _plain writes it


def _valid(value: Any) -> bool:
    """An entry's shape, [answer, work], as ``_plain`` and ``_cached`` write it: the file
    is untrusted, anything else is a miss."""
    def count(n: Any) -> bool:
        return type(n) is int and n >= 0

    def figure(f: Any) -> bool:
        if type(f) is not list or len(f) != 5 or type(f[0]) is not str \
                or not all(map(count, f[2:])):
            return False
        exact = f[1]
        if exact is None:
            return bool(f[3] >= 1 and f[2] <= f[3])  # hits of at least one deal
        return (type(exact) is list and len(exact) == 2 and type(exact[0]) is str
                and type(exact[1]) is str and _HEX.fullmatch(exact[0]) is not None
                and _HEX.fullmatch(exact[1]) is not None and exact[1] != "0")

    def spent(w: Any) -> bool:
        return (type(w) is list and len(w) == 6 and all(map(count, w[4:]))
                and (w[:4] == [None] * 4 or (type(w[0]) is str and type(w[2]) is str
                                             and type(w[3]) is str
                                             and (w[1] is None or type(w[1]) is int))))

    def group(g: Any) -> bool:
        return (type(g) is list and len(g) == 3 and type(g[0]) is str and type(g[1]) is int
                and type(g[2]) is list and all(map(figure, g[2])))

    if type(value) is not list or len(value) != 2 or type(value[1]) is not list:
        return False
    found = value[0]
    return (type(found) is list and len(found) == 6 and type(found[0]) is str
            and count(found[1]) and count(found[2])
            and type(found[3]) is list and all(map(figure, found[3]))
            and type(found[4]) is list and all(map(group, found[4]))
            and (found[5] is None or (type(found[5]) is list and len(found[5]) == 2
                                      and all(map(count, found[5]))))
            and all(map(spent, value[1])))


def _plain(found: Answer) -> list[Any]:
    """An answer as plain JSON (exact fractions in hexadecimal: no limit on their digits)."""
    def figure(f: Figure) -> list[Any]:
        exact = None if f.exact is None else [f"{f.exact.numerator:x}",
                                                f"{f.exact.denominator:x}"]
        return [f.label, exact, f.hits, f.trials, f.seed]

    return [found.name, found.dealt, found.per, [figure(f) for f in found.figures],
            [[suits, cards, [figure(f) for f in figures]]
             for suits, cards, figures in found.groups],
            None if found.matching is None else list(found.matching)]


def _unplain(plain: list[Any]) -> Answer:
    name, dealt, per, figures, groups, matching = plain

    def figure(value: list[Any]) -> Figure:
        label, exact, hits, trials, seed = value
        return Figure(label, None if exact is None else Fraction(int(exact[0], 16),
                                                                 int(exact[1], 16)),
                      hits, trials, seed)

    return Answer(name, [figure(f) for f in figures],
                  [(suits, cards, [figure(f) for f in fs]) for suits, cards, fs in groups],
                  dealt, per, None if matching is None else (matching[0], matching[1]))


# -- verify and pnp deal ------------------------------------------------------------------------

def findings(game: Game) -> list[Finding]:
    """One finding per question of the game's ``deal`` list (ok: a figure is no failure),
    at the question's line; a question that cannot be answered (a card without the field it
    reads) is a failed finding naming why."""

    out = []
    doc = (getattr(game, "docs", None) or {}).get("game")
    for index, raw in enumerate(game.data.get("deal") or []):
        question = DealQuestion.model_validate(raw)
        where = at(game, "deal", index)
        who = (str(doc.file) if doc is not None else str(game.source),
               doc.line_of(("deal", index)) if doc is not None else None, f"deal[{index}]")
        try:
            deck = Deck.of(game, deck_of(game.components, question.component), who)
            found = answered(deck, question)
        except (ValueError, ExpressionError) as exc:
            out.append(Finding(f"deal: {question.name}", False, str(exc), where=where,
                               basis=DESIGN))
            continue
        ok, warn, note = expected(found, question.expect)
        out.append(Finding(f"deal: {question.name}", ok, found.detail() + note, warn=warn,
                           where=where, basis=DESIGN))
    return out


def expected(found: Answer, expect: DealExpect | None) -> tuple[bool, bool, str]:
    """(ok, warn, words) of a figure against its question's ``expect``: an exact figure
    past a bound fails; a Monte Carlo figure fails when its whole 95 % interval is past one,
    and warns (failing ``verify --strict``) when the interval straddles one, since more
    deals would decide it. Compared as exact fractions where the figure is exact."""
    if expect is None or not found.figures:
        return True, False, ""
    figure = found.figures[0]
    bound = (message("deal.expect_range", low=_percent(expect.min), high=_percent(expect.max))
             if expect.min is not None and expect.max is not None
             else message("deal.expect_min", rate=_percent(expect.min))
             if expect.min is not None else message("deal.expect_max",
                                                     rate=_percent(expect.max)))
    low, high = expect.low, expect.high
    if figure.exact is not None:
        first = last = figure.exact
    else:
        first, last = (Fraction(v) for v in figure.interval())
    inside = (low is None or first >= low) and (high is None or last <= high)
    outside = (low is not None and last < low) or (high is not None and first > high)
    if inside:
        return True, False, "; " + message("deal.expect_ok", bound=bound)
    if outside or figure.exact is not None:
        return False, False, "; " + message("deal.expect_failed", bound=bound)
    return False, True, "; " + message("deal.expect_unsure", bound=bound)


def _percent(text: str | None) -> str:
    """A bound as written (``40%``, ``40 %``) in the report's form, ``40 %``."""
    return (text or "").rstrip("%").strip()


def report(game: Game, players: int, hand: int, component: str | None = None,
           suit: str | None = None, trials: int = DEFAULT_TRIALS, seed: int = 1,
           none: Mapping[str, Any] | str | None = None, at_least_k: int | None = None,
           where: Mapping[str, Any] | str | None = None, draws: int | None = None
           ) -> list[str]:
    """``pnp deal``'s lines: the deck dealt, suit lengths of one hand, a void for a given
    player (exact) and for anyone (Monte Carlo), the optional ``none`` / ``at_least_k``
    with ``where`` questions (and the same of the first ``draws`` cards drawn after the
    deal), then the data file's own ``deal:`` questions. ValueError for
    what cannot be dealt (named in words, for the command's one error line)."""
    if not 1 <= players <= MAX_DEAL_PLAYERS:
        raise ValueError(f"players must be a whole number from 1 to {MAX_DEAL_PLAYERS} "
                         f"(got {players})")
    if hand < 1:
        raise ValueError(f"hand must be a whole number of cards, at least 1 (got {hand})")
    if not 0 <= seed < 2**31:
        raise ValueError(f"seed must be a whole number from 0 to {2**31 - 1} (got {seed})")
    deck_component = deck_of(game.components, component)
    check_hands(deck_component, players, hand)
    check_draws(deck_component, players, hand, draws)
    check_work(players, hand, trials, players > 1)
    deck = Deck.of(game, deck_component, (str(game.source), None, "pnp deal"))
    field_name = suit or default_suit(deck_component)
    fields = ", ".join(SUIT_FIELDS)
    suit_words = (suit if suit else message("deal.suit_default", field=field_name,
                                            fields=fields)) if field_name else \
        message("deal.no_suit", fields=fields)
    lines = [message("deal.heading", component=deck_component.id, cards=deck.size,
                     players=players, hand=hand, left=deck.size - players * hand,
                     suit=suit_words)]
    base = {"name": "pnp deal", "players": players, "hand": hand, "trials": trials,
            "seed": seed}

    def ask(label: str, option: str = "", **kind: Any) -> None:
        try:
            found = answered(deck, asked({**base, **kind}), label)
        except ExpressionError as exc:  # a condition's expression: named by its option
            if not option:
                raise
            raise ConditionError("", str(exc), option) from None
        lines.extend(found_lines(found))

    def typed(option: str, condition: Mapping[str, Any] | str | None
              ) -> Mapping[str, Any] | str | None:
        """The option's condition typed by the deck's own fields: a typo or a value no
        card has is refused here, named by its option."""
        try:
            return None if condition is None else typed_where(deck_component, condition)
        except ConditionError as exc:
            raise ConditionError(exc.field, str(exc), option) from None

    if field_name:
        lines.append(message("deal.lengths", suits=field_name))
        ask("", lengths=field_name)
        ask(message("deal.void_one"), void=field_name)
        if players > 1:
            ask(message("deal.void_anyone"), void=field_name, who="anyone")
    none, where = typed("none", none), typed("where", where)
    if none is not None:
        words = condition_words(none)
        ask(message("deal.none_one", where=words), "none", none=none)
        if players > 1:
            ask(message("deal.none_anyone", where=words), "none", none=none, who="anyone")
    if at_least_k is not None and where is not None:
        words = condition_words(where)
        ask(message("deal.at_least_one", k=at_least_k, where=words), "where",
            at_least=at_least_k, where=where)
        if players > 1:
            ask(message("deal.at_least_anyone", k=at_least_k, where=words), "where",
                at_least=at_least_k, where=where, who="anyone")
    if draws is not None and none is not None:
        ask(message("deal.none_draws", where=condition_words(none), draws=draws), "none",
            none=none, draws=draws)
    if draws is not None and at_least_k is not None and where is not None:
        ask(message("deal.at_least_draws", k=at_least_k, where=condition_words(where),
                    draws=draws), "where", at_least=at_least_k, where=where, draws=draws)
    for finding in findings(game):
        lines.append(finding.line().strip())
    return lines


def found_lines(found: Answer) -> list[str]:
    """An answer as report lines: a figure per line, suit lengths as a small table."""
    if not found.groups:
        return ["; ".join([f.text(), *found.matched()]) for f in found.figures]
    lines = []
    for suits, cards, figures in found.groups:
        lines.append("  " + message("deal.lengths_group", suits=suits, cards=cards,
                                    method=figures[0].method()))
        lines += ["    " + message("deal.length_row", length=f.label, rate=f.rate())
                  for f in figures]
    return lines
