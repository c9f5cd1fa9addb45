"""Moving Target (Andrew Gonsalves, 2011): the rules engine.

Seed: ``../shared/seeds/moving-target.txt``. Numbers (grid size, hand sizes, the 12-card limit,
the 3-draw limit) come from the ``settings`` of ``card_data/moving-target.yaml``.

The engine is built for speed (simulation targets >1,200 games/s on one core): a card is an
int ``suit * 13 + rank``, a hand is a 52-bit mask, and every empty cell keeps the mask of cards
that may legally go there, updated only around the cell that changed.

Actions are ints: ``cell * 64 + card`` places a card, ``DRAW`` draws one card, and
``REMOVE + cell`` takes a card off a full grid.

Seats and turns: the seed does not say who plays first. Seat 0 starts (the printed rules: the
player to the dealer's left), then seats 1, 2 ... in order, clockwise; ``turn`` counts every
turn taken, a forfeited one included.

Readings where the seed allows more than one (each has a test in ``tests/rules``):

- *Drawing*: a player draws only when no card in hand can be placed (the seed: "if a player is
  unable to place a card ... they must draw"). After each draw only the drawn card can newly
  fit, so the player places that card or draws again; after the third fruitless draw the turn
  is forfeited.
- *Neighbours*: "shares a suit or value with all adjacent cards" is checked against every
  orthogonal neighbour, each one separately (one may share the suit, another the value).
- *Winning*: the last card must have at least one orthogonal neighbour of the same value. If it
  does not, the player draws one card at once (before any removal, as the seed's tip says) and
  play goes on. A player whose hand is empty but who has not won draws at the start of the turn.
- *Removal*: when a placement makes 13 cards on the grid the placer removes one card, any but the
  one just placed; a winning placement ends the game first, so no removal follows it.
- *Empty deck*: the discards are reshuffled into a new deck; if both are empty the draw is
  impossible and counts as a fruitless draw (the turn is forfeited).
- *Deadlock*: a draw is declared when no card outside the grid (in any hand, the deck or the
  discards) fits any empty cell: the grid changes only by placement, so no one can ever move
  again. It is checked whenever a turn is forfeited.
- *Scores*: 1 for the winner, 0 for the others; a deadlock scores ``1/players`` each.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SUITS = 4
RANKS = 13
CARDS = SUITS * RANKS
DRAW = -1
REMOVE = 10_000
POINTS = False  # scores are win/loss, not points

DEFAULTS: dict[str, Any] = {"grid_size": 5, "hand_size": {2: 10, 3: 7}, "max_on_grid": 12,
                            "max_draws": 3}

# MATCH[c]: every card sharing a suit or a value with card c.
_SUIT_MASK = [sum(1 << (s * RANKS + r) for r in range(RANKS)) for s in range(SUITS)]
_RANK_MASK = [sum(1 << (s * RANKS + r) for s in range(SUITS)) for r in range(RANKS)]
MATCH = [_SUIT_MASK[c // RANKS] | _RANK_MASK[c % RANKS] for c in range(CARDS)]
SAME_VALUE = [_RANK_MASK[c % RANKS] & ~(1 << c) for c in range(CARDS)]
ALL_CARDS = (1 << CARDS) - 1


def card_name(card: int) -> str:
    rank = "A23456789TJQK"[card % RANKS]
    return rank + "SHDC"[card // RANKS]


def parse_card(text: str) -> int:
    """``"QH"`` -> the card int; used by tests to build positions by hand."""
    return "SHDC".index(text[-1]) * RANKS + "A23456789TJQK".index(text[0])


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _neighbours(size: int) -> list[tuple[int, ...]]:
    out = []
    for cell in range(size * size):
        row, col = divmod(cell, size)
        near = []
        if row > 0:
            near.append(cell - size)
        if row < size - 1:
            near.append(cell + size)
        if col > 0:
            near.append(cell - 1)
        if col < size - 1:
            near.append(cell + 1)
        out.append(tuple(near))
    return out


@dataclass
class State:
    """Everything on the table. ``fits[cell]`` is the mask of cards that may go in an empty
    cell (0 when the cell has no neighbour yet or is occupied)."""

    players: int
    size: int
    max_on_grid: int
    max_draws: int
    rng: random.Random
    grid: list[int]
    fits: list[int]
    hands: list[int]
    deck: list[int]
    discards: list[int] = field(default_factory=list)
    neighbours: list[tuple[int, ...]] = field(default_factory=list)
    player: int = 0
    turn: int = 1
    draws: int = 0          # cards drawn this turn
    drawn: int = -1         # the last card drawn this turn, the only one that may now fit
    must_remove: int = -1   # the cell just placed, while a removal is pending
    on_grid: int = 0
    winner: int = -1
    deadlocked: bool = False

    def clone(self) -> State:
        copy = State(**{**self.__dict__})
        copy.grid, copy.fits, copy.hands = self.grid[:], self.fits[:], self.hands[:]
        copy.deck, copy.discards = self.deck[:], self.discards[:]
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        return copy


def settings(data: Mapping[str, Any] | None) -> dict[str, Any]:
    merged = dict(DEFAULTS)
    if data:
        merged.update(data.get("settings", {}))
    merged["hand_size"] = {int(k): int(v) for k, v in merged["hand_size"].items()}
    return merged


def _refresh(state: State, cell: int) -> None:
    """Recompute which cards fit ``cell`` from its occupied neighbours."""
    if state.grid[cell] >= 0:
        state.fits[cell] = 0
        return
    mask, any_near = ALL_CARDS, False
    grid = state.grid
    for near in state.neighbours[cell]:
        card = grid[near]
        if card >= 0:
            any_near = True
            mask &= MATCH[card]
    state.fits[cell] = mask if any_near else 0


def _set(state: State, cell: int, card: int) -> None:
    state.grid[cell] = card
    state.on_grid += 1 if card >= 0 else -1
    _refresh(state, cell)
    for near in state.neighbours[cell]:
        _refresh(state, near)


def position(players: int, grid: Mapping[tuple[int, int], str], hands: list[list[str]],
             deck: list[str] | None = None, discards: list[str] | None = None,
             data: Mapping[str, Any] | None = None, seed: int = 0) -> State:
    """A hand-built position for tests: ``grid`` maps (row, col) to card names like ``"QH"``."""
    cfg = settings(data)
    size = int(cfg["grid_size"])
    state = State(players, size, int(cfg["max_on_grid"]), int(cfg["max_draws"]),
                  random.Random(seed), [-1] * size * size, [0] * size * size,
                  [sum(1 << parse_card(c) for c in hand) for hand in hands],
                  [parse_card(c) for c in deck or []], [parse_card(c) for c in discards or []],
                  _neighbours(size))
    for (row, col), name in grid.items():
        _set(state, row * size + col, parse_card(name))
    return state


def new_game(players: int, seed: int, data: Mapping[str, Any] | None = None) -> State:
    cfg = settings(data)
    if players not in cfg["hand_size"]:
        raise ValueError(f"Moving Target is for {sorted(cfg['hand_size'])} players")
    size = int(cfg["grid_size"])
    rng = random.Random(seed)
    deck = list(range(CARDS))
    rng.shuffle(deck)
    hand = cfg["hand_size"][players]
    hands = []
    for _ in range(players):
        dealt, deck = deck[:hand], deck[hand:]
        hands.append(sum(1 << c for c in dealt))
    state = State(players, size, int(cfg["max_on_grid"]), int(cfg["max_draws"]), rng,
                  [-1] * size * size, [0] * size * size, hands, deck, [], _neighbours(size))
    centre = (size // 2) * size + size // 2
    _set(state, centre, state.deck.pop(0))
    return state


def current_player(state: State) -> int:
    return state.player


def is_over(state: State) -> bool:
    return state.winner >= 0 or state.deadlocked


def outcome(state: State) -> str:
    if state.winner >= 0:
        return "win"
    return "draw" if state.deadlocked else "stall"


def scores(state: State) -> list[float]:
    if state.winner >= 0:
        return [1.0 if seat == state.winner else 0.0 for seat in range(state.players)]
    return [1.0 / state.players] * state.players


def _placements(state: State, cards: int) -> list[int]:
    actions = []
    fits = state.fits
    for cell in range(len(fits)):
        mask = fits[cell] & cards
        while mask:
            low = mask & -mask
            actions.append(cell * 64 + low.bit_length() - 1)
            mask ^= low
    return actions


def legal_actions(state: State) -> list[int]:
    if is_over(state):
        return []
    if state.must_remove >= 0:
        return [REMOVE + cell for cell, card in enumerate(state.grid)
                if card >= 0 and cell != state.must_remove]
    cards = (1 << state.drawn) if state.drawn >= 0 else state.hands[state.player]
    return _placements(state, cards) or [DRAW]


def _draw_card(state: State) -> int:
    if not state.deck:
        if not state.discards:
            return -1
        state.deck, state.discards = state.discards, []
        state.rng.shuffle(state.deck)
    return state.deck.pop()


def _end_turn(state: State) -> None:
    state.player = (state.player + 1) % state.players
    state.turn += 1
    state.draws = 0
    state.drawn = -1


def _off_grid(state: State) -> int:
    mask = 0
    for card in state.grid:
        if card >= 0:
            mask |= 1 << card
    return ALL_CARDS & ~mask


def deadlocked(state: State) -> bool:
    """No card outside the grid fits any empty cell: no one can ever move again."""
    open_mask = 0
    for mask in state.fits:
        open_mask |= mask
    return not open_mask & _off_grid(state)


def apply(state: State, action: int) -> State:
    """Perform ``action`` for the current player (mutates and returns ``state``)."""
    seat = state.player
    if action >= REMOVE:
        cell = action - REMOVE
        state.discards.append(state.grid[cell])
        _set(state, cell, -1)
        state.must_remove = -1
        _end_turn(state)
        return state
    if action == DRAW:
        card = _draw_card(state)
        state.draws += 1
        if card >= 0:
            state.hands[seat] |= 1 << card
            state.drawn = card
            if any(fit >> card & 1 for fit in state.fits):
                return state
        if card < 0 or state.draws >= state.max_draws:
            _end_turn(state)
            if deadlocked(state):
                state.deadlocked = True
        return state
    cell, card = divmod(action, 64)
    state.hands[seat] &= ~(1 << card)
    _set(state, cell, card)
    if not state.hands[seat]:
        if any(state.grid[near] >= 0 and SAME_VALUE[card] >> state.grid[near] & 1
               for near in state.neighbours[cell]):
            state.winner = seat
            return state
        extra = _draw_card(state)
        if extra >= 0:
            state.hands[seat] |= 1 << extra
    if state.on_grid > state.max_on_grid:
        state.must_remove = cell
        return state
    _end_turn(state)
    return state


def clone(state: State) -> State:
    return state.clone()


def _open_after(state: State, cell: int, card: int, unseen: int) -> int:
    """How many (cell, unseen card) placements exist once ``cell`` holds ``card`` (-1 empties
    it); the grid is restored afterwards, so no clone is needed."""
    before, count = state.grid[cell], state.on_grid
    _set(state, cell, card)
    score = sum((fit & unseen).bit_count() for fit in state.fits)
    _set(state, cell, before)
    state.on_grid = count
    return score


def greedy_action(state: State) -> int:
    """The seed's strategy tip, "limit the number of moves available": take a winning placement
    if there is one, else the placement (or removal) that leaves the fewest open placements for
    the cards this player has not seen."""
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    hand = state.hands[state.player]
    unseen = _off_grid(state) & ~hand
    best, best_score = actions[0], -1
    for action in actions:
        if action >= REMOVE:
            score = _open_after(state, action - REMOVE, -1, unseen)
        else:
            cell, card = divmod(action, 64)
            if hand == 1 << card and any(
                    state.grid[n] >= 0 and SAME_VALUE[card] >> state.grid[n] & 1
                    for n in state.neighbours[cell]):
                return action
            score = _open_after(state, cell, card, unseen)
        if best_score < 0 or score < best_score:
            best, best_score = action, score
    return best


def describe(action: int) -> str:
    if action == DRAW:
        return "draw"
    if action >= REMOVE:
        return f"remove cell {action - REMOVE}"
    cell, card = divmod(action, 64)
    return f"{card_name(card)} to cell {cell}"
