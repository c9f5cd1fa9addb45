"""Moving Day / Monster Day (P.D. Magnus): the rules engine, one for both themes.

Seeds: ``../shared/seeds/moving-day-decktet.txt`` and ``../shared/seeds/monster-day.txt``. The
cards come from the ``decktet_cards`` table, the four tokens (which die face moves each, what it
counts, its points) from ``moving_day_tokens``, and the options from ``settings``: ``hand_size``,
``village_spaces``, ``dice`` (``d6``, or ``d4`` for the Tetrahedra variant) and ``extended``.

The board is a line of ``2 * village_spaces`` spaces: seat 0 owns spaces ``0..v-1`` (its far
end is space 0), seat 1 owns ``v..2v-1``, and the gap lies between spaces ``v-1`` and ``v``.
A token's position is ``GAP`` (-1) until it first moves.

Actions are ints ``card * 8 + space``: play that card (an index in the deck table) beside the
Ace on that space. The dice roll and the draw follow inside ``apply``, from ``state.rng``.

Readings where the seeds allow more than one (each has a test in ``tests/rules``):

- *Odd and even totals*: the numerals 3, 5, 7, 9 (odd) and 2, 4, 6, 8 (even); Crowns count for
  neither. A Pawn or Court, whose rank is the sum of two dice rolled each time it matters, counts
  in the odd total when the roll is odd and in the even total when it is even (11 and 12
  included: the seed's parenthesis lists the ranks the basic deck has).
- *Personality total*: cards whose types include personality, a Crown personality counting 10;
  a Pawn or Court that is a personality counts its rolled rank.
- *Rolling for Pawns and Courts*: one fresh roll of both dice per Pawn/Court for every token
  the roll is about to move, in both villages; with two tokens moving, each has its own rolls.
  "Both dice" are the game's dice: 2d6, or 2d4 under Tetrahedra (ranks 2-8).
- *Two tokens in one turn*: they move one after the other, lower die first. The order cannot
  change the outcome (totals do not depend on tokens), only which random numbers are used.
- *Tetrahedra*: with ``dice: d4`` a double moves nothing; two different faces move both.
- *Excuse*: plays beside any Ace and counts 0 in every total (it is no personality).
- *End*: the game ends after the turn in which the last card is played: the draw pile and both
  hands are empty. A token still in the gap scores for no one.
- *Scores*: the points of the tokens in each village; the higher score wins, equal is a draw.
- *First player*: seat 0 (the seeds choose by life story or by a die roll; both are outside
  the game and random, so a simulation's seat 0 is simply the first player).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import per_data

GAP = -1
POINTS = True
FAMILIES = ("odd", "even", "personality", "all")
DEFAULTS: dict[str, Any] = {"hand_size": 3, "village_spaces": 3, "dice": "d6",
                            "extended": False}


@dataclass(frozen=True)
class Card:
    name: str
    suits: int          # bit mask over the suit order of the Ace table
    value: tuple[int, int, int, int]  # fixed contribution to each family (0 when rolled)
    rolled: bool        # a Pawn or Court: rank = both dice, rolled each time it matters
    personality: bool
    excuse: bool


@dataclass(frozen=True)
class Rules:
    """Everything read from the data file, computed once per process."""

    cards: tuple[Card, ...]
    aces: tuple[int, ...]        # suit index of each Ace, in table order
    deck: tuple[int, ...]        # card indices shuffled into the draw pile
    token_die: tuple[int, ...]   # die face that moves each token
    token_family: tuple[int, ...]
    token_points: tuple[int, ...]
    hand_size: int
    spaces: int                  # per village
    dice_sides: int


def _card_value(row: Mapping[str, Any]) -> tuple[int, int, int, int]:
    kind, rank = row["kind"], row.get("rank") or 0
    if kind in ("excuse", "pawn", "court"):
        return (0, 0, 0, 0)
    numeral = kind == "numeral"
    odd = rank if numeral and rank % 2 else 0
    even = rank if numeral and not rank % 2 else 0
    personality = rank if "personality" in row.get("types", []) else 0
    return (odd, even, personality, rank)


def build_rules(data: Mapping[str, Any]) -> Rules:
    cfg = {**DEFAULTS, **data.get("settings", {})}
    tables = data.get("tables", {})
    suit_ids = [s["id"] for s in tables["decktet_suits"]]
    rows = tables["decktet_cards"]
    cards, aces, deck = [], [], []
    for index, row in enumerate(rows):
        mask = sum(1 << suit_ids.index(s) for s in row["suits"])
        cards.append(Card(row["name"], mask, _card_value(row),
                          row["kind"] in ("pawn", "court"),
                          "personality" in row.get("types", []), row["kind"] == "excuse"))
        if row["kind"] == "ace":
            aces.append(suit_ids.index(row["suits"][0]))
        elif row["deck"] == "basic" or cfg["extended"]:
            deck.append(index)
    tokens = sorted(tables["moving_day_tokens"], key=lambda t: t["die"])
    return Rules(tuple(cards), tuple(aces), tuple(deck), tuple(t["die"] for t in tokens),
                 tuple(FAMILIES.index(t["counts"]) for t in tokens),
                 tuple(t["points"] for t in tokens), int(cfg["hand_size"]),
                 int(cfg["village_spaces"]), 4 if cfg["dice"] == "d4" else 6)


rules_for = per_data(build_rules)  # built once per data mapping, reused by every game of a run


@dataclass
class State:
    rules: Rules
    rng: random.Random
    aces: list[int]              # suit index of the Ace on each space
    top: list[int]               # the visible card beside each space, -1 for none
    hands: list[list[int]]
    pile: list[int]
    tokens: list[int]            # position of each token, GAP before its first move
    player: int = 0
    turn: int = 1
    players: int = 2
    last_roll: tuple[int, int] = (0, 0)
    moves: Counter[str] = field(default_factory=Counter)

    def clone(self) -> State:
        copy = State(self.rules, random.Random(), self.aces[:], self.top[:],
                     [h[:] for h in self.hands], self.pile[:], self.tokens[:], self.player,
                     self.turn, self.players, self.last_roll, Counter(self.moves))
        copy.rng.setstate(self.rng.getstate())
        return copy


def owner(rules: Rules, space: int) -> int:
    return 0 if space < rules.spaces else 1


def new_game(players: int, seed: int, data: Mapping[str, Any] | None = None) -> State:
    if players != 2:
        raise ValueError("Moving Day / Monster Day is a game for 2 players")
    rules = rules_for(data)
    rng = random.Random(seed)
    aces = list(rules.aces)
    rng.shuffle(aces)
    pile = list(rules.deck)
    rng.shuffle(pile)
    hands = [pile[:rules.hand_size], pile[rules.hand_size:2 * rules.hand_size]]
    del pile[:2 * rules.hand_size]
    return State(rules, rng, aces[:2 * rules.spaces], [-1] * 2 * rules.spaces, hands, pile,
                 [GAP] * len(rules.token_die))


def current_player(state: State) -> int:
    return state.player


def is_over(state: State) -> bool:
    return not state.pile and not state.hands[0] and not state.hands[1]


def legal_actions(state: State) -> list[int]:
    cards, aces = state.rules.cards, state.aces
    actions = []
    for card in state.hands[state.player]:
        info = cards[card]
        for space, suit in enumerate(aces):
            if info.excuse or info.suits >> suit & 1:
                actions.append(card * 8 + space)
    return actions


def total(state: State, seat: int, family: int) -> int:
    """A seat's total for one family; Pawns and Courts roll both dice each time they count."""
    return int(_village_total(state, seat, family, expected=False))


def _village_total(state: State, seat: int, family: int, expected: bool) -> float:
    """Sum one family over a village. A Pawn or Court rolls its rank on both dice (2d6, or 2d4
    under Tetrahedra), or with ``expected`` counts its mean: ``sides + 1``, or half of it
    towards odd or even (on two equal dice the odd and even sums share the mean equally)."""
    rules, cards = state.rules, state.rules.cards
    sides = rules.dice_sides
    first = seat * rules.spaces
    result = 0.0
    for card in state.top[first:first + rules.spaces]:
        if card < 0:
            continue
        info = cards[card]
        if not info.rolled:
            result += info.value[family]
        elif family == 2 and not info.personality:
            continue
        elif expected:
            result += (sides + 1.0) if family >= 2 else (sides + 1.0) / 2
        else:
            rank = state.rng.randint(1, sides) + state.rng.randint(1, sides)
            if family >= 2 or (family == 0) == (rank % 2 == 1):
                result += rank
    return result


def move_token(state: State, token: int) -> None:
    """One step towards the seat with the higher total for this token's family; ties stay."""
    family = state.rules.token_family[token]
    diff = total(state, 0, family) - total(state, 1, family)
    if diff == 0:
        return
    spaces = state.rules.spaces
    pos = state.tokens[token]
    if diff > 0:   # towards seat 0, whose far end is space 0
        state.tokens[token] = spaces - 1 if pos == GAP else max(0, pos - 1)
    else:
        state.tokens[token] = spaces if pos == GAP else min(2 * spaces - 1, pos + 1)
    state.moves[f"moves of token {token + 1}"] += 1


def roll_and_move(state: State) -> None:
    sides = state.rules.dice_sides
    move_for_roll(state, state.rng.randint(1, sides), state.rng.randint(1, sides))


def move_for_roll(state: State, a: int, b: int) -> None:
    """Move the tokens the dice ``a`` and ``b`` name (each once; faces 5-6 move nothing)."""
    rules = state.rules
    state.last_roll = (a, b)
    if rules.dice_sides == 4 and a == b:
        return  # Tetrahedra: doubles do nothing
    for face in sorted({a, b}):
        if face in rules.token_die:
            move_token(state, rules.token_die.index(face))


def apply(state: State, action: int) -> State:
    card, space = divmod(action, 8)
    hand = state.hands[state.player]
    hand.remove(card)
    state.top[space] = card
    roll_and_move(state)
    if state.pile:
        hand.append(state.pile.pop())
    state.player ^= 1
    if not is_over(state):
        state.turn += 1
    return state


def clone(state: State) -> State:
    return state.clone()


def scores(state: State) -> list[float]:
    points = [0.0, 0.0]
    for token, pos in enumerate(state.tokens):
        if pos != GAP:
            points[owner(state.rules, pos)] += state.rules.token_points[token]
    return points


def outcome(state: State) -> str:
    first, second = scores(state)
    return "draw" if first == second else "win"


def counters(state: State) -> dict[str, int]:
    """Per-game figures for the simulation report: tokens left in the gap at the end."""
    return {"tokens never moved": sum(pos == GAP for pos in state.tokens)}


def greedy_action(state: State) -> int:
    """Play where the expected totals favour this seat most, weighting each family by the
    points of the token it moves."""
    seat, rules = state.player, state.rules
    best, best_value = -1, float("-inf")
    for action in legal_actions(state):
        card, space = divmod(action, 8)
        before = state.top[space]
        state.top[space] = card
        value = 0.0
        for token, family in enumerate(rules.token_family):
            diff = (_village_total(state, seat, family, expected=True)
                    - _village_total(state, 1 - seat, family, expected=True))
            value += rules.token_points[token] * ((diff > 0) - (diff < 0))
        state.top[space] = before
        if value > best_value:
            best, best_value = action, value
    return best


def describe(state: State, action: int) -> str:
    card, space = divmod(action, 8)
    return f"{state.rules.cards[card].name} beside space {space + 1}"
