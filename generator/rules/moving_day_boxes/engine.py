"""Moving Day (Mads Fløe, Piatnik 2024): take groups of boxes and friends, load three vehicles.

Seed: ``../shared/seeds/moving-day-boxes.fr.txt`` (English summary in
``../shared/reference/moving-day-boxes.en.md``). Pieces come from the tables of
``card_data/moving-day-boxes-tables.yaml`` (our reconstruction of unpublished distributions):
``box_tiles``, ``friend_cards`` (expanded by ``count``), ``vehicles`` (left to right) and
``vehicle_sets``; the fixed options from ``settings``: ``rounds``, ``extra_groups``,
``boxes_per_group`` and ``snack_per_neighbour``. Damage and points live in
``scoring``.

A turn is three kinds of decision, each an int (``describe`` names them):

- ``g`` (0 <= g < groups): take the group at place ``g`` of the display row.
- ``place_action(which, vehicle, col)`` = ``PLACE + (which * 4 + vehicle) * 4 + col``: put the
  still-held box ``which`` (0 or 1: the player may place either box first) into ``vehicle``,
  column ``col`` of that vehicle's lowest row that is not full.
- ``FRIEND + vehicle`` puts the friend card beside that vehicle; ``OUT`` removes it from play.

Readings where the rulebook allows more than one (each has a test in ``tests/rules``):

- *Display*: the groups lie in one row, places 0..n-1; a group's neighbours are the places
  either side (the two ends have one). The tile stacks are all face down, so "a pair from a
  stack of your choice" is a blind draw: one shuffled pile serves.
- *Bottom-up*: a box goes into a free slot of the lowest row of its vehicle that is not full; the
  player chooses the column. The two boxes may go to different vehicles.
- *Capacity*: a vehicle's friends are the sum of ``friends`` on its cards and may never exceed
  its capacity. *Out of the game*: the rulebook offers removal to a player whose card "exceeds
  the maximum for a vehicle", so ``OUT`` is legal when the card would overflow at least one of
  the player's vehicles, and illegal when all three have room (then it must be placed).
- *Snacks*: the taker gets the snacks lying on the taken group; then each group next to it gets
  ``snack_per_neighbour`` (1). The supply is unlimited (the rulebook says so).
- *Refill*: the taken place gets 2 tiles and 1 card only if another turn follows; with 4
  players that uses 5 + 31 = 36 cards, exactly the deck (a refill after the last turn would
  need a 37th).
- *Order*: seat 0 starts (the rulebook just says "choose a first player", seed line 47; the
  simulations let seat 0 start every game, so a first-seat edge would show in the win rates),
  seats in order; 8 rounds, so the game ends after ``8 * players`` turns.
- *Crushed* (step 1): every box with a heavier box anywhere above it in its column of the same
  vehicle. Equal weights do not crush.
- *Clumsy* (step 2): the rulebook says "chaque ami possédant l'icône Verre cassé abîme un
  carton fragile" (seed line 143: EACH FRIEND having the icon), and the icon makes every friend
  on its card clumsy, so: Each clumsy friend breaks one fragile box of its vehicle (a card
  with the icon and 2 friends breaks 2; ``scoring.CLUMSY_RULE``, the words the rules page,
  the aid and the cards print). Only boxes still face up can be chosen: boxes damaged in step
  1 are turned face down, hiding their fragile mark. It is not optional; with fewer face-up
  fragile boxes than clumsy friends, the extra friends break nothing. The owner chooses,
  knowing step 3: the engine takes the choice with the best final score.
- *Strength* (step 3): the strengths of a vehicle's cards are added; a box is damaged when it
  weighs MORE than that total (the sentence that says what is damaged says "heavier"; the
  example has 6 against 5). A box weighing exactly the total survives. A vehicle without
  friends has strength 0, so all its boxes are damaged.
- *Points*: icons of undamaged boxes; 1 point per undamaged box orthogonally adjacent (same
  vehicle) to another undamaged box of the same shape, at most 1 per box however many such
  neighbours it has; the same for colour; snack values.
- *Ties*: most points, then most snack points; then the tied players share the win
  (``outcome`` "draw"). ``scores`` returns points, so ``simulate`` splits a win decided by
  snacks between the players tied on points; ``winners`` and the counter say when it happens.

Why random play scores low (about 25 points a player against the greedy policy's 42-45; 400
seeded 2-player games, measured with this engine): it stacks blindly, so 5 of its 16 boxes are
crushed (greedy: under 3); and it throws friends away. The out-of-the-game option is legal
whenever the card would overflow ANY vehicle, which is true in about 4 of a player's 8 friend
decisions (the scooter takes only 3 friends), and there it is one of only 2-4 choices, so
random play discards 1.6 cards a game, a fifth of its friends' strength: 2.9 of its boxes end
too heavy for their friends (1.7 when it may discard only if no vehicle has room, which lifts
random play from 24.8 to 27.8 points). Greedy discards as often but only cards that cost more
than they carry (clumsy friends beside fragile boxes, or a group with no room left).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import per_data
from . import scoring
from .scoring import EMPTY, Breakdown, Friends, Tile, Vehicle, score_vehicle

POINTS = True
PLACE, FRIEND = 10, 50
OUT = FRIEND + 9
TAKE_PHASE, BOX_PHASE, FRIEND_PHASE = 0, 1, 2


@dataclass(frozen=True)
class Rules:
    """Everything read from the data file, computed once per process."""

    tiles: tuple[Tile, ...]
    cards: tuple[Friends, ...]
    vehicles: tuple[Vehicle, ...]
    sets: int
    rounds: int
    extra_groups: int
    per_group: int
    snack_per_neighbour: int
    heavier: tuple[float, ...]    # by weight: the share of tiles heavier (greedy's crush risk)


def build_rules(data: Mapping[str, Any]) -> Rules:
    cfg, tables = data["settings"], data["tables"]
    shapes = [s["id"] for s in tables["box_shapes"]]
    colours = [c["id"] for c in tables["box_colours"]]
    tiles = tuple(Tile(shapes.index(t["shape"]), colours.index(t["colour"]), int(t["weight"]),
                       int(t["icons"]), bool(t["fragile"])) for t in tables["box_tiles"])
    cards = tuple(Friends(int(c["friends"]), int(c["strength"]), bool(c["clumsy"]))
                  for c in tables["friend_cards"] for _ in range(int(c.get("count", 1))))
    vehicles = tuple(Vehicle(v["name"], int(v["cols"]), int(v["rows"]), int(v["capacity"]))
                     for v in tables["vehicles"])
    top = max(t.weight for t in tiles)
    heavier = tuple(sum(t.weight > w for t in tiles) / len(tiles) for w in range(top + 1))
    return Rules(tiles, cards, vehicles, len(tables["vehicle_sets"]), int(cfg["rounds"]),
                 int(cfg["extra_groups"]), int(cfg["boxes_per_group"]),
                 int(cfg["snack_per_neighbour"]), heavier)


rules_for = per_data(build_rules)  # built once per data mapping, reused by every game of a run


@dataclass
class Group:
    """One place of the display: a pair of boxes, a friend card and the snacks lying on it."""

    boxes: list[int]
    card: int
    snacks: int = 0


@dataclass
class Seat:
    """A player's three vehicles (slot lists, row-major from the bottom row), friends, snacks."""

    slots: list[list[int]]
    friends: list[list[int]]
    snacks: int = 0
    out: list[int] = field(default_factory=list)


@dataclass
class State:
    rules: Rules
    rng: random.Random
    players: int
    tile_pile: list[int]
    card_pile: list[int]
    display: list[Group]
    seats: list[Seat]
    player: int = 0
    turn: int = 1
    done: int = 0                     # turns completed
    phase: int = TAKE_PHASE
    taken: int = -1                   # display place of the group being placed
    held: list[int] = field(default_factory=list)   # boxes still to place this turn
    card: int = -1                    # friend card still to place this turn

    def clone(self) -> State:
        copy = State(self.rules, random.Random(), self.players, self.tile_pile[:],
                     self.card_pile[:],
                     [Group(g.boxes[:], g.card, g.snacks) for g in self.display],
                     [Seat([s[:] for s in seat.slots], [f[:] for f in seat.friends], seat.snacks,
                           seat.out[:]) for seat in self.seats],
                     self.player, self.turn, self.done, self.phase, self.taken, self.held[:],
                     self.card)
        copy.rng.setstate(self.rng.getstate())
        return copy


def place_action(which: int, vehicle: int, col: int) -> int:
    return PLACE + (which * 4 + vehicle) * 4 + col


def empty_seat(rules: Rules) -> Seat:
    return Seat([[EMPTY] * v.slots for v in rules.vehicles], [[] for _ in rules.vehicles])


def total_turns(state: State) -> int:
    return state.rules.rounds * state.players


def new_game(players: int, seed: int, data: Mapping[str, Any] | None = None) -> State:
    if data is None:
        raise ValueError("Moving Day needs its data: the settings and tables of "
                         "card_data/moving-day-boxes.yaml")
    rules = rules_for(data)
    if not 2 <= players <= min(4, rules.sets):
        raise ValueError("Moving Day is a game for 2 to 4 players")
    groups = players + rules.extra_groups
    turns = rules.rounds * players
    if (len(rules.tiles) < (groups + turns - 1) * rules.per_group
            or len(rules.cards) < groups + turns - 1):
        raise ValueError("not enough box tiles or friend cards for this many players")
    rng = random.Random(seed)
    tiles, cards = list(range(len(rules.tiles))), list(range(len(rules.cards)))
    rng.shuffle(tiles)
    rng.shuffle(cards)
    state = State(rules, rng, players, tiles, cards, [],
                  [empty_seat(rules) for _ in range(players)])
    state.display = [_draw_group(state) for _ in range(groups)]
    return state


def _draw_group(state: State) -> Group:
    boxes = [state.tile_pile.pop() for _ in range(state.rules.per_group)]
    return Group(boxes, state.card_pile.pop())


def current_player(state: State) -> int:
    return state.player


def is_over(state: State) -> bool:
    return state.done >= total_turns(state)


def open_row(vehicle: Vehicle, slots: list[int]) -> int:
    """The lowest row with a free slot, or -1 when the vehicle is full."""
    for row in range(vehicle.rows):
        if EMPTY in slots[row * vehicle.cols:(row + 1) * vehicle.cols]:
            return row
    return -1


def friends_in(state: State, seat: Seat, vehicle: int) -> int:
    return sum(state.rules.cards[c].friends for c in seat.friends[vehicle])


def legal_actions(state: State) -> list[int]:
    if is_over(state):
        return []
    seat = state.seats[state.player]
    if state.phase == TAKE_PHASE:
        return [g for g, group in enumerate(state.display) if group.boxes]
    if state.phase == BOX_PHASE:
        actions = []
        for which in range(len(state.held)):
            for v, vehicle in enumerate(state.rules.vehicles):
                row = open_row(vehicle, seat.slots[v])
                if row >= 0:
                    actions += [place_action(which, v, col) for col in range(vehicle.cols)
                                if seat.slots[v][row * vehicle.cols + col] == EMPTY]
        return actions
    size = state.rules.cards[state.card].friends
    fits = [FRIEND + v for v, vehicle in enumerate(state.rules.vehicles)
            if friends_in(state, seat, v) + size <= vehicle.capacity]
    return fits + [OUT] if len(fits) < len(state.rules.vehicles) else fits


def apply(state: State, action: int) -> State:
    seat, rules = state.seats[state.player], state.rules
    if state.phase == TAKE_PHASE:
        group = state.display[action]
        seat.snacks += group.snacks
        for near in (action - 1, action + 1):
            if 0 <= near < len(state.display):
                state.display[near].snacks += rules.snack_per_neighbour
        state.held, state.card, state.taken = group.boxes, group.card, action
        state.display[action] = Group([], -1)
        state.phase = BOX_PHASE
    elif state.phase == BOX_PHASE:
        which, rest = divmod(action - PLACE, 16)
        v, col = divmod(rest, 4)
        vehicle = rules.vehicles[v]
        row = open_row(vehicle, seat.slots[v])
        seat.slots[v][row * vehicle.cols + col] = state.held.pop(which)
        if not state.held:
            state.phase = FRIEND_PHASE
    else:
        if action == OUT:
            seat.out.append(state.card)
        else:
            seat.friends[action - FRIEND].append(state.card)
        state.card = -1
        state.done += 1
        state.phase = TAKE_PHASE
        if not is_over(state):
            state.display[state.taken] = _draw_group(state)
            state.player = (state.player + 1) % state.players
            state.turn += 1
    return state


def clone(state: State) -> State:
    return state.clone()


def score_breakdown(state: State, seat: int) -> Breakdown:
    """A player's score in parts (icons, shapes, colours, snacks) and damage by cause."""
    rules, s = state.rules, state.seats[seat]
    return Breakdown(tuple(score_vehicle(vehicle, s.slots[v], rules.tiles,
                                         [rules.cards[c] for c in s.friends[v]])
                           for v, vehicle in enumerate(rules.vehicles)), s.snacks)


def scores(state: State) -> list[float]:
    return [float(score_breakdown(state, seat).total) for seat in range(state.players)]


def winners(state: State) -> list[int]:
    """Seats ranked first: most points, then most snack points; several when still tied."""
    parts = [score_breakdown(state, seat) for seat in range(state.players)]
    best = max((b.total, b.snacks) for b in parts)
    return [seat for seat, b in enumerate(parts) if (b.total, b.snacks) == best]


def outcome(state: State) -> str:
    return "win" if len(winners(state)) == 1 else "draw"


def counters(state: State) -> dict[str, int]:
    """Per-game totals over all players, for the simulation report."""
    parts = [score_breakdown(state, seat) for seat in range(state.players)]
    top = max(b.total for b in parts)
    return {
        "boxes crushed": sum(b.damaged(scoring.CRUSHED) for b in parts),
        "boxes broken by clumsy friends": sum(b.damaged(scoring.CLUMSY) for b in parts),
        "boxes damaged by weak friends": sum(b.damaged(scoring.WEAK) for b in parts),
        "friend cards out of the game": sum(len(s.out) for s in state.seats),
        "wins decided by snacks": int(sum(b.total == top for b in parts) > 1
                                      and len(winners(state)) == 1),
    }


def describe(state: State, action: int) -> str:
    names = [v.name for v in state.rules.vehicles]
    if action == OUT:
        return "friend card out of the game"
    if action >= FRIEND:
        return f"friend card beside the {names[action - FRIEND]}"
    if action >= PLACE:
        which, rest = divmod(action - PLACE, 16)
        return f"box {which + 1} into the {names[rest // 4]}, column {rest % 4 + 1}"
    return f"take group {action + 1}"


# --- greedy policy: cheap look-ahead-free heuristics ------------------------------------------

def _box_value(state: State, seat: Seat, tile: int, v: int, col: int) -> float:
    """Points the box should bring, less what it costs now and risks later."""
    rules = state.rules
    vehicle, slots, box = rules.vehicles[v], seat.slots[v], rules.tiles[tile]
    row = open_row(vehicle, slots)
    slot = row * vehicle.cols + col
    value = float(box.icons)
    for below in range(row):                     # lighter boxes under it are crushed for good
        other = slots[below * vehicle.cols + col]
        if other != EMPTY and rules.tiles[other].weight < box.weight:
            value -= rules.tiles[other].icons + 1
    above = vehicle.rows - 1 - row               # later, heavier boxes may crush this one
    value -= 0.6 * above * rules.heavier[box.weight] * box.icons
    cards = [rules.cards[c] for c in seat.friends[v]]
    strength = sum(c.strength for c in cards)
    room = vehicle.capacity - sum(c.friends for c in cards)
    if box.weight > strength:                    # friends can still come, but not without room
        reach = strength + 1.4 * room
        value -= box.icons if box.weight > reach else 0.25 * (box.weight - strength)
    if box.fragile:
        value -= 0.4 + box.icons * scoring.clumsy_friends(cards)
    for near in scoring.neighbours(vehicle)[slot]:
        other = slots[near]
        if other != EMPTY:
            value += 0.9 * (rules.tiles[other].shape == box.shape)
            value += 0.9 * (rules.tiles[other].colour == box.colour)
    return value


def _friend_value(state: State, seat: Seat, card: int, v: int) -> float:
    """What the card changes in this vehicle's score now, plus its use for boxes to come."""
    rules = state.rules
    vehicle, slots, info = rules.vehicles[v], seat.slots[v], rules.cards[card]
    cards = [rules.cards[c] for c in seat.friends[v]]
    before = score_vehicle(vehicle, slots, rules.tiles, cards).points
    after = score_vehicle(vehicle, slots, rules.tiles, [*cards, info]).points
    free = slots.count(EMPTY)
    future = 0.12 * info.strength * free - (0.25 * free * info.friends if info.clumsy else 0.0)
    return after - before + future - 0.05 * info.friends


def _best_box(state: State, seat: Seat, tile: int) -> tuple[float, int, int]:
    best = (float("-inf"), -1, -1)
    for v, vehicle in enumerate(state.rules.vehicles):
        row = open_row(vehicle, seat.slots[v])
        if row < 0:
            continue
        for col in range(vehicle.cols):
            if seat.slots[v][row * vehicle.cols + col] == EMPTY:
                value = _box_value(state, seat, tile, v, col)
                if value > best[0]:
                    best = (value, v, col)
    return best


def _group_value(state: State, seat: Seat, group: Group) -> float:
    rules = state.rules
    value = float(group.snacks)
    placed: list[tuple[int, int]] = []
    for tile in sorted(group.boxes, key=lambda t: -rules.tiles[t].weight):
        gain, v, col = _best_box(state, seat, tile)
        value += gain
        vehicle = rules.vehicles[v]
        slot = open_row(vehicle, seat.slots[v]) * vehicle.cols + col
        seat.slots[v][slot] = tile
        placed.append((v, slot))
    value += max(0.0, max(_friend_value(state, seat, group.card, v)
                          for v in range(len(rules.vehicles))))
    for v, slot in placed:
        seat.slots[v][slot] = EMPTY
    return value


def greedy_action(state: State) -> int:
    """Take the group worth most (icons, fit, snacks, friend); put each box where it scores
    best and risks least; put the friend where it adds most (or out, if that is best)."""
    seat = state.seats[state.player]
    actions = legal_actions(state)
    if state.phase == TAKE_PHASE:
        return max(actions, key=lambda g: _group_value(state, seat, state.display[g]))
    if state.phase == BOX_PHASE:
        best, choice = float("-inf"), actions[0]
        for which, tile in enumerate(state.held):
            value, v, col = _best_box(state, seat, tile)
            value += 0.05 * state.rules.tiles[tile].weight   # heavier box first, lower down
            if value > best:
                best, choice = value, place_action(which, v, col)
        return choice

    def worth(action: int) -> float:
        return 0.0 if action == OUT else _friend_value(state, seat, state.card, action - FRIEND)
    return max(actions, key=worth)
