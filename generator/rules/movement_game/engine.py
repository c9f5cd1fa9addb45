"""Untitled Movement Game: the rules engine and its greedy policy.

Seed: ``../shared/seeds/untitled-movement-game.txt``. Everything comes from the ``data`` of
``card_data/movement-game.yaml``: ``settings`` (hand size, die, tokens, the introducing roll,
seats, ``board``: the board's name, default the first) and ``tables`` (``navigation`` cards,
``boards`` as text grids, ``tokens``). ``setup.variants`` gives one data set per board;
parsing and checking boards lives in ``boards``.

Seats sit clockwise from the south edge (2 players S and N; 4 players S, W, N, E). A card's
``(dx, dy)`` is seen from its holder's edge: forward (``dy = -1``) leads away from it, ``dx = +1``
to the holder's right; so south's forward-right is north-east and west's forward is east. Cells
are ints ``row * width + col``, row 0 at the north edge.

Actions are ints: ``ROLL`` or ``DISCARD_HAND`` starts a turn; ``STOP`` forgoes the moves left
after a move; ``DISCARD_ONE - d`` discards a card of direction ``d`` (its navigation table index)
after a roll that moved nothing or placed a token; ``PLACE + cell`` puts a token on a starting
space (in the set-up the first token of the player across, in play an introduced token of one's
own);
``d << 8 | token << 4 | steps`` plays a card of direction ``d`` to move own ``token`` (0-3)
``steps`` spaces. Actions name a direction, not a hand slot: identical cards are one choice.

Readings where the seed allows more than one (each has a test in ``tests/rules``):

- *Set-up*: seats choose in turn from seat 0, each placing the first token of the player across
  on any of that player's starting spaces; these choices are not turns (``state.turn`` stays 1).
  The die roll for first player is outside the game (random, independent of play), so seat 0
  goes first.
- *Moving*: a card moves one token in a straight line, step by step. Every step must stay on the
  board and enter an open space that is not a starting space of the players to the holder's
  left or right (passing through counts, not only stopping). A diagonal step needs only its two
  ends open: it may squeeze between two closed spaces (so also pass beside one). Tokens hop
  over any tokens (own, others', arrived); a card's move may not end on an occupied space.
- *Two players*: no one sits to the left or right, so E and W starting spaces are ordinary open
  spaces. A token may also move back onto a free starting space of its own edge.
- *Arrival*: a token ending a card's move on a starting space of the player across has arrived
  and never moves again; passing over such a space does not stop it.
- *Introducing*: on a roll of ``introduce_on`` (3), before using any card, the player may place
  an off-board token on a free starting space of their own edge instead of moving, then must
  discard exactly 1 card (phase ``PLACED``) and the turn ends. The seed says so twice: 2.d "If
  you choose not to move any of your tokens after rolling, you must discard 1 (and only 1)" and
  line 37 "Remember, you must use or discard at least 1 card each turn".
- *Rolled, did not move*: the player discards exactly one card of their choice; that discard is
  how one declines to move (``STOP`` exists only after a move), so a roll never leaves a player
  without an action.
- *Discarding the hand*: all 3 cards go; the end-of-turn refill then draws 3 from the deck.
- *Refill*: at the end of every turn, back up to the hand size; an empty deck is replaced by the
  shuffled discards.
- *Who starts and game length*: seat 0 (South) always takes the first turn (after the set-up
  placements, which are not turns). ``state.turn`` counts turns from 1 and is the game length
  the simulator reports (the number of the turn the winner finished in). A deadlocked turn,
  where the roll allows no move and the player can only discard a card, or a turn spent
  discarding the hand, still counts: every turn ends in ``_end_turn``, which adds one.
- *Winning*: checked after every card's move; the game ends at once. There are no draws: a game
  that never ends is a stall (the simulator's turn limit). Scores: 1 for the winner, 0 others.
"""
from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .boards import ACROSS
from .setup import FAR, Plan, Rules, rules_for

ROLL, DISCARD_HAND, STOP = -1, -2, -3
DISCARD_ONE = -10          # minus the direction index
PLACE = 10_000             # plus the cell
OFF = -1                   # a token's position before it enters the board
SETUP, CHOOSE, MOVE, PLACED = range(4)   # PLACED: a token was introduced, discard 1
POINTS = False
@dataclass
class State:
    rules: Rules
    rng: random.Random
    players: int
    tokens: list[list[int]]        # per seat, each token's cell or OFF
    occupied: list[int]            # per cell, the seat of the token there or -1
    hands: list[list[int]]         # direction indices
    deck: list[int]
    discards: list[int] = field(default_factory=list)
    player: int = 0
    turn: int = 1
    phase: int = CHOOSE
    roll: int = 0
    moves_left: int = 0
    moved: bool = False
    winner: int = -1
    counts: Counter[str] = field(default_factory=Counter)

    def clone(self) -> State:
        copy = State(self.rules, random.Random(), self.players, [t[:] for t in self.tokens],
                     self.occupied[:], [h[:] for h in self.hands], self.deck[:],
                     self.discards[:], self.player, self.turn, self.phase, self.roll,
                     self.moves_left, self.moved, self.winner, Counter(self.counts))
        copy.rng.setstate(self.rng.getstate())
        return copy


def _empty_state(rules: Rules, players: int, rng: random.Random) -> State:
    return State(rules, rng, players, [[OFF] * rules.tokens for _ in range(players)],
                 [-1] * len(rules.board.open), [[] for _ in range(players)], list(rules.deck))


def new_game(players: int, seed: int, data: Mapping[str, Any] | None = None) -> State:
    state = _empty_state(rules_for(data or {}, players), players, random.Random(seed))
    state.rng.shuffle(state.deck)
    for hand in state.hands:
        _refill(state, hand)
    state.phase = SETUP
    return state


def position(players: int, tokens: list[list[tuple[int, int]]], hands: list[list[str]],
             data: Mapping[str, Any], rows: list[str] | None = None, player: int = 0,
             roll: int = 0, deck: list[str] | None = None, seed: int = 0) -> State:
    """A hand-built position for tests: ``tokens[seat]`` lists (row, col) of the tokens on the
    board (the rest are off it), hands are direction names, ``rows`` an optional board of one's
    own. With ``roll`` the player has just rolled it; otherwise the turn is about to start."""
    if rows is not None:
        data = {**data, "settings": {**data.get("settings", {}), "board": "test"},
                "tables": {**data["tables"], "boards": [{"name": "test", "rows": rows}]}}
    rules = rules_for(data, players)
    state = _empty_state(rules, players, random.Random(seed))
    for seat, cells in enumerate(tokens):
        for index, (r, c) in enumerate(cells):
            state.tokens[seat][index] = r * rules.board.width + c
            state.occupied[r * rules.board.width + c] = seat
    state.hands = [[rules.names.index(n) for n in hand] for hand in hands]
    if deck is not None:
        state.deck = [rules.names.index(n) for n in deck]
    state.player = player
    if roll:
        state.phase, state.roll, state.moves_left = MOVE, roll, roll
    return state


def current_player(state: State) -> int:
    return state.player


def is_over(state: State) -> bool:
    return state.winner >= 0


def outcome(state: State) -> str:
    return "win" if state.winner >= 0 else "stall"


def scores(state: State) -> list[float]:
    return [1.0 if seat == state.winner else 0.0 for seat in range(state.players)]


def counters(state: State) -> dict[str, int]:
    """Per-game tallies for the simulation report."""
    return dict(state.counts)


def across(state: State, seat: int) -> int:
    """The seat across the board from ``seat``."""
    return state.rules.seats.index(ACROSS[state.rules.seats[seat]])


def _moves(state: State, limit: int) -> list[int]:
    """Every card move of the current player using at most ``limit`` steps."""
    rules, seat = state.rules, state.player
    rays, arrived, occupied = rules.rays[seat], rules.is_goal[seat], state.occupied
    out = []
    for d in sorted(set(state.hands[seat])):
        paths = rays[d]
        for token, cell in enumerate(state.tokens[seat]):
            if cell < 0 or arrived[cell]:
                continue
            path = paths[cell]
            for k in range(min(limit, len(path))):
                if occupied[path[k]] < 0:
                    out.append(d << 8 | token << 4 | (k + 1))
    return out


def legal_actions(state: State) -> list[int]:
    if state.winner >= 0:
        return []
    seat = state.player
    if state.phase == SETUP:
        return [PLACE + c for c in state.rules.homes[across(state, seat)]
                if state.occupied[c] < 0]
    if state.phase == CHOOSE:
        return [ROLL, DISCARD_HAND]
    discards = [DISCARD_ONE - d for d in sorted(set(state.hands[seat]))]
    if state.phase == PLACED:
        return discards or [STOP]
    actions = _moves(state, state.moves_left)
    if state.moved:
        return [*actions, STOP]
    if state.roll == state.rules.introduce_on and OFF in state.tokens[seat]:
        actions += [PLACE + c for c in state.rules.homes[seat] if state.occupied[c] < 0]
    return actions + (discards or [STOP])


def _refill(state: State, hand: list[int]) -> None:
    while len(hand) < state.rules.hand_size:
        if not state.deck:
            if not state.discards:
                return
            state.deck, state.discards = state.discards, []
            state.rng.shuffle(state.deck)
        hand.append(state.deck.pop())


def _end_turn(state: State) -> None:
    _refill(state, state.hands[state.player])
    state.player = (state.player + 1) % state.players
    state.turn += 1
    state.phase, state.roll, state.moves_left, state.moved = CHOOSE, 0, 0, False


def _put(state: State, seat: int, cell: int) -> None:
    state.tokens[seat][state.tokens[seat].index(OFF)] = cell
    state.occupied[cell] = seat


def _discard(state: State, direction: int) -> None:
    state.hands[state.player].remove(direction)
    state.discards.append(direction)


def apply(state: State, action: int) -> State:
    """Perform ``action`` for the current player (mutates and returns ``state``)."""
    seat = state.player
    if state.phase == SETUP:
        _put(state, across(state, seat), action - PLACE)
        state.player = (seat + 1) % state.players
        if state.player == 0:
            state.phase = CHOOSE
    elif action == ROLL:
        state.roll = state.moves_left = state.rng.randint(1, state.rules.die_sides)
        state.phase, state.moved = MOVE, False
    elif action == DISCARD_HAND:
        state.discards += state.hands[seat]
        state.hands[seat] = []
        state.counts["hand discards"] += 1
        _end_turn(state)
    elif action == STOP:
        _end_turn(state)
    elif action >= PLACE:
        _put(state, seat, action - PLACE)
        state.counts["introductions"] += 1
        state.phase = PLACED
    elif action <= DISCARD_ONE:
        _discard(state, DISCARD_ONE - action)
        if state.phase != PLACED:
            state.counts["idle rolls"] += 1
        _end_turn(state)
    else:
        d, token, steps = action >> 8, action >> 4 & 15, action & 15
        _discard(state, d)
        start = state.tokens[seat][token]
        end = state.rules.rays[seat][d][start][steps - 1]
        state.occupied[start], state.occupied[end] = -1, seat
        state.tokens[seat][token] = end
        state.moves_left -= steps
        state.moved = True
        state.counts["cards played"] += 1
        goal = state.rules.is_goal[seat]
        if goal[end] and all(c >= 0 and goal[c] for c in state.tokens[seat]):
            state.winner = seat
        elif state.moves_left <= 0:
            _end_turn(state)
    return state


def clone(state: State) -> State:
    return state.clone()


def goal_map(state: State, seat: int) -> tuple[int, ...]:
    """For each cell, the fewest die pips a token of ``seat`` needs to reach a goal space its
    own tokens have not taken yet, given the right cards: straight card moves of up to
    ``die_sides`` steps that may hop tokens but never stop on an arrived one. Other tokens are
    ignored (they move on). Computed once per set of taken goals and kept in the rules."""
    return _plan(state, seat).dist


def _plan(state: State, seat: int) -> Plan:
    """The seat's Plan for the goals its tokens have taken now (see ``Plan``)."""
    rules = state.rules
    standing = rules.standing[seat](state.occupied)  # one goal: a bare int, not a tuple
    found = rules.seen.get((seat, standing))
    if found is None:
        taken = tuple(state.occupied[g] == seat for g in rules.goals[seat])
        found = rules.maps.get((seat, taken))
        if found is None:
            found = rules.maps[seat, taken] = _make_plan(rules, seat, _goal_map(rules, seat,
                                                                                taken))
        rules.seen[seat, standing] = found
    return found


def _make_plan(rules: Rules, seat: int, dist: tuple[int, ...]) -> Plan:
    return Plan(dist, [[None] * len(dist) for _ in rules.names], seat)


def _gains(rules: Rules, plan: Plan, d: int, cell: int) -> tuple[tuple[int, int, int], ...]:
    """``plan.gains[d][cell]``, worked out on first use: a game visits few of the cells."""
    dist, here = plan.dist, plan.dist[cell]
    moves = [(here - dist[end], steps, end)
             for steps, end in enumerate(rules.rays[plan.seat][d][cell], 1)
             if here - dist[end] > 0]
    moves.sort(key=lambda m: (-m[0], m[1]))
    found = plan.gains[d][cell] = tuple(moves)
    return found


def _goal_map(rules: Rules, seat: int, taken: tuple[bool, ...]) -> tuple[int, ...]:
    stops = {g for g, t in zip(rules.goals[seat], taken, strict=True) if t}
    back: list[list[tuple[int, int]]] = [[] for _ in rules.board.open]
    for paths in rules.rays[seat]:
        for start, path in enumerate(paths):
            for steps, end in enumerate(path, 1):
                if end not in stops:
                    back[end].append((start, steps))
    dist = [FAR] * len(back)
    heap = [(0, g) for g in rules.goals[seat] if g not in stops]
    for _, g in heap:
        dist[g] = 0
    while heap:
        d, cell = heapq.heappop(heap)
        if d == dist[cell]:
            for start, steps in back[cell]:
                if d + steps < dist[start]:
                    dist[start] = d + steps
                    heapq.heappush(heap, (d + steps, start))
    return tuple(dist)


def _best_move(state: State, plan: Plan, limit: int) -> tuple[int, int]:
    """(gain, action) of the card move of at most ``limit`` steps that gains most distance,
    fewest steps on a tie, the first in (direction, token) order on a full tie; gain 0 and
    ``STOP`` when no move gains. Each path's moves come best first (``Plan``), so a path is
    left at its first free move, or as soon as the rest cannot beat the best so far."""
    seat, rules = state.player, state.rules
    arrived, occupied = rules.is_goal[seat], state.occupied
    movable = [(token << 4, cell) for token, cell in enumerate(state.tokens[seat])
               if cell >= 0 and not arrived[cell]]
    best, best_gain, best_steps = STOP, 0, 0
    if not movable:
        return best_gain, best
    for d in sorted(set(state.hands[seat])):
        by_cell = plan.gains[d]
        for token, cell in movable:
            moves = by_cell[cell]
            if moves is None:
                moves = _gains(rules, plan, d, cell)
            for gain, steps, end in moves:
                if gain < best_gain or (gain == best_gain and steps >= best_steps):
                    break
                if steps <= limit and occupied[end] < 0:
                    best, best_gain, best_steps = d << 8 | token | steps, gain, steps
                    break
    return best_gain, best


def greedy_action(state: State) -> int:
    """Introduce when possible (onto the home space nearest a goal by ``goal_map``), else play
    the card move gaining most distance (fewest steps on a tie); stop when nothing gains. In the
    set-up, put the opponent's first token farthest from its goals. Roll when some card could
    gain with the highest roll, else discard the hand; after an idle roll or an introduction
    discard the most backward card."""
    seat, rules, phase = state.player, state.rules, state.phase
    if phase == SETUP:
        far = goal_map(state, across(state, seat))
        return max(legal_actions(state), key=lambda a: far[a - PLACE])
    if phase == PLACED:
        return _worst_discard(state)
    plan = _plan(state, seat)
    if phase == CHOOSE:
        hopeful = OFF in state.tokens[seat] or _best_move(state, plan, rules.die_sides)[0] > 0
        return ROLL if hopeful else DISCARD_HAND
    if not state.moved and state.roll == rules.introduce_on and OFF in state.tokens[seat]:
        free = [c for c in rules.homes[seat] if state.occupied[c] < 0]
        if free:
            dist = plan.dist
            return PLACE + min(free, key=lambda c: dist[c])
    gain, best = _best_move(state, plan, state.moves_left)
    if gain > 0 or state.moved or not state.hands[seat]:
        return best
    return _worst_discard(state)


def _worst_discard(state: State) -> int:
    """Discard the most backward card (``STOP`` with an empty hand)."""
    hand = sorted(set(state.hands[state.player]))
    if not hand:
        return STOP
    return DISCARD_ONE - max(hand, key=lambda d: state.rules.backward[d])
