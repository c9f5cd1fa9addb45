"""__TITLE__: the rules as code, so `pnp simulate` can play the game and the rules page can
print an example taken from a real game. A tiny trick-taking game on the 18 cards of
game.yaml (three suits, values 1 to 6):

- Deal the cards out evenly (2 players: 9 each, 3: 6 each, 4: 4 each, 2 left out).
- The first player leads any card; the others play in turn and must follow the led suit if
  they can. The highest card of the led suit wins the trick, and its winner leads the next.
- When the hands are empty, whoever won the most tricks wins (equal most: shared).

pnp runs this file only once you trust its folder (`pnp trust FOLDER`). What pnp calls, and
when, is in docs/engines.md of pnp. The rules of the game are yours to change: every
function below is one part of the interface.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from generator.rules import Finding  # what verify() reports, one check each

POINTS = True  # scores are tricks: a mean per seat is worth reporting


@dataclass
class State:
    """Everything about one game. All chance comes from ``rng`` (seeded by new_game), so a
    seed replays the same game: pnp checks that it does."""

    cards: list[tuple[str, int, str]]       # (suit, value, name) per card, game.yaml's order
    hands: list[list[int]]                  # card numbers each seat holds
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) played so far
    player: int = 0                         # whose move it is
    tricks: list[int] = field(default_factory=list)  # tricks won per seat
    turn: int = 1                           # the trick being played, from 1 (pnp reads it)
    rng: random.Random = field(default_factory=random.Random)


def _cards(data: Any) -> list[tuple[str, int, str]]:
    """The card list of game.yaml (``tables: cards``), so editing it edits the game."""
    rows = (data or {}).get("tables", {}).get("cards") or []
    # game.yaml's columns join a card's suit to its row of the suits table: its id is the suit
    cards = [(_suit_id(row["suit"]), row["value"], row["name"])
             for row in rows for _ in range(row.get("count", 1))]
    if not cards:
        raise ValueError("game.yaml has no card list (tables: cards)")
    return cards


def _suit_id(suit: Any) -> str:
    """A card's suit: its joined row's id (or the id itself, without the join)."""
    return str(suit["id"]) if isinstance(suit, dict) else str(suit)


def new_game(players: int, seed: int, data: Any = None) -> State:
    """A shuffled, dealt game. A ValueError refuses a player count the game cannot take."""
    if not 2 <= players <= 4:
        raise ValueError(f"this game is for 2 to 4 players, not {players}")
    cards = _cards(data)
    rng = random.Random(seed)
    deck = list(range(len(cards)))
    rng.shuffle(deck)
    each = len(deck) // players
    hands = [sorted(deck[seat * each:(seat + 1) * each]) for seat in range(players)]
    return State(cards, hands, tricks=[0] * players, rng=rng)


def current_player(state: State) -> int:
    return state.player


def legal_actions(state: State) -> list[int]:
    """The cards the player may play: any when leading, else the led suit if they hold it."""
    hand = state.hands[state.player]
    if state.trick:
        led = state.cards[state.trick[0][1]][0]
        same = [card for card in hand if state.cards[card][0] == led]
        if same:
            return same
    return list(hand)


def apply(state: State, action: int) -> State:
    """Play card ``action``; the last card of a trick decides it. (It changes ``state`` and
    returns it: pnp clones a state when it needs the old one.)"""
    seat = state.player
    state.hands[seat].remove(action)
    state.trick.append((seat, action))
    players = len(state.hands)
    if len(state.trick) < players:
        state.player = (seat + 1) % players
        return state
    led = state.cards[state.trick[0][1]][0]
    winner = max((s for s, c in state.trick if state.cards[c][0] == led),
                 key=lambda s: next(state.cards[c][1] for t, c in state.trick if t == s))
    state.tricks[winner] += 1
    state.trick = []
    state.player = winner
    state.turn += 1
    return state


def describe(state: State, action: int) -> str:
    """An action in words (card ``action``'s name): pnp names an action this way when it
    reports a fault, beside its number (none for a number that is no card)."""
    if not 0 <= action < len(state.cards):
        raise ValueError(f"no card {action}")
    return state.cards[action][2]


def clone(state: State) -> State:
    copy = State(state.cards, [list(h) for h in state.hands], list(state.trick), state.player,
                 list(state.tricks), state.turn, random.Random())
    copy.rng.setstate(state.rng.getstate())
    return copy


def is_over(state: State) -> bool:
    return not any(state.hands) and not state.trick


def scores(state: State) -> list[float]:
    return [float(t) for t in state.tricks]


def outcome(state: State) -> str:
    return "draw" if len(set(state.tricks)) == 1 else "win"


def greedy_action(state: State) -> int:
    """The greedy player: win the trick as cheaply as possible, else throw the lowest card."""
    legal = legal_actions(state)
    value = lambda card: state.cards[card][1]  # noqa: E731 (short on purpose)
    if not state.trick:
        return max(legal, key=value)
    led = state.cards[state.trick[0][1]][0]
    best = max(value(c) for s, c in state.trick if state.cards[c][0] == led)
    winning = [c for c in legal if state.cards[c][0] == led and value(c) > best]
    return min(winning, key=value) if winning else min(legal, key=value)


def verify(game: Any, printed: Any) -> list[Finding]:
    """Checks of the printed set that need the rules: run by `pnp verify` and before every
    build. A finding with ok=False stops the build (unless --force)."""
    cards = _cards(game.data)
    suits = sorted({suit for suit, _, _ in cards})
    sizes = {suit: sum(s == suit for s, _, _ in cards) for suit in suits}
    fair = len(set(sizes.values())) == 1
    return [Finding("every suit has as many cards (each suit can be followed alike)", fair,
                    ", ".join(f"{s} {n}" for s, n in sizes.items()), basis="design")]


def _off_suit_trick(state: State) -> list[tuple[int, int]] | None:
    """Play ``state`` on greedily until a trick in which someone cannot follow suit: that
    trick's cards (seat, card), its last card not played yet; None if no trick is one."""
    while not is_over(state):
        if len(state.trick) == len(state.hands) - 1:  # the trick's last card comes next
            played = [*state.trick, (state.player, greedy_action(state))]
            led = state.cards[played[0][1]][0]
            if any(state.cards[card][0] != led for _, card in played):
                return played
        apply(state, greedy_action(state))
    return None


def examples(game: Any) -> dict[str, Any]:
    """A worked example for the rules page, from a real game: the first trick (3 players,
    greedy play, seeds from 1) in which someone cannot follow suit. faces/trick-example.yaml
    draws it. Plain data only (names, numbers, lists, mappings)."""
    suits = {row["id"]: row for row in game.data["tables"]["suits"]}
    for seed in range(1, 50):
        state = new_game(3, seed, game.data)
        played = _off_suit_trick(state)
        if played is None:
            continue
        winner = apply(clone(state), played[-1][1]).player  # who leads next: the winner
        led = state.cards[played[0][1]][0]
        shown = []
        for seat, card in played:
            suit, value, name = state.cards[card]
            shown.append({"seat": seat + 1, "name": name, "value": value,
                          "suit": suits[suit]["name"], "icon": suits[suit]["icon"],
                          "colour": suits[suit]["colour"], "won": seat == winner,
                          "followed": suit == led})
        first, off = shown[0], next(c for c in shown if not c["followed"])
        text = (f"Player {first['seat']} leads {first['name']} ({first['value']} of "
                f"{first['suit']}). Player {off['seat']} has no {first['suit']} card, so "
                f"plays {off['name']}, which cannot win. Player {winner + 1} wins the trick "
                f"with the highest {first['suit']} card and leads the next one.")
        return {"trick": {"cards": shown, "text": text, "seed": seed}}
    return {}
