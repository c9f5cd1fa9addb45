"""Moving Day (Fløe) rules on hand-built positions: the rulebook's worked example, then one
test per rule and per reading named in ``generator/rules/moving_day_boxes/engine.py``."""
from __future__ import annotations

import copy
import dataclasses
import random
from types import SimpleNamespace

import pytest

from generator.data import load_game
from generator.orchestration import simulate
from generator.rules import moving_day_boxes as boxes
from generator.rules.moving_day_boxes import engine as md
from generator.rules.moving_day_boxes import scoring as sc

DATA = load_game("moving-day-boxes").data
RULES = md.rules_for(DATA)
SHAPES = [s["id"] for s in DATA["tables"]["box_shapes"]]
COLOURS = [c["id"] for c in DATA["tables"]["box_colours"]]
ICONS = {1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 6: 3, 7: 3}   # as in the tables file
SCOOTER, CAR, TRUCK = range(3)


def box(shape: str, colour: str, weight: int, fragile: bool = False) -> sc.Tile:
    return sc.Tile(SHAPES.index(shape), COLOURS.index(colour), weight, ICONS[weight], fragile)


def friend(friends: int, strength: int, clumsy: bool = False) -> sc.Friends:
    return sc.Friends(friends, strength, clumsy)


def position(*seats: dict) -> md.State:
    """End positions: per seat, ``vehicles`` = {vehicle: rows from the bottom, each a list of
    boxes or None}, ``friends`` = {vehicle: [cards]} and ``snacks``."""
    tiles: list[sc.Tile] = []
    cards: list[sc.Friends] = []
    built = []
    for spec in seats:
        seat = md.empty_seat(RULES)
        for v, rows in spec.get("vehicles", {}).items():
            cols = RULES.vehicles[v].cols
            for r, row in enumerate(rows):
                for c, tile in enumerate(row):
                    if tile is not None:
                        seat.slots[v][r * cols + c] = len(tiles)
                        tiles.append(tile)
        for v, group in spec.get("friends", {}).items():
            for card in group:
                seat.friends[v].append(len(cards))
                cards.append(card)
        seat.snacks = spec.get("snacks", 0)
        built.append(seat)
    rules = dataclasses.replace(RULES, tiles=tuple(tiles), cards=tuple(cards))
    return md.State(rules, random.Random(0), len(built), [], [], [], built)


def vehicle(state: md.State, v: int, seat: int = 0) -> sc.VehicleScore:
    return md.score_breakdown(state, seat).vehicles[v]


# --- the rulebook's worked example --------------------------------------------------------------

def worked_example_spec() -> dict:
    return {
        "vehicles": {
            # Left: the weight-6 box on top crushes the three lighter boxes under it.
            SCOOTER: [[box("circle", "green", 5)], [box("circle", "green", 3, True)],
                      [box("circle", "green", 2)], [box("circle", "green", 6)]],
            # Middle: strength 5, so the weight-6 box (bottom left) is damaged.
            CAR: [[box("square", "green", 6), box("square", "green", 2)],
                  [box("triangle", "blue", 2), box("star", "green", 1)],
                  [box("triangle", "red", 1), box("hexagon", "green", 1)]],
            # Right: two clumsy friends break the two fragile boxes of the top row.
            TRUCK: [[box("triangle", "red", 7), box("square", "blue", 5), box("circle", "red", 4)],
                    [box("triangle", "red", 3, True), box("square", "yellow", 1),
                     box("circle", "red", 2, True)]],
        },
        "friends": {SCOOTER: [friend(2, 4), friend(1, 3)],
                    CAR: [friend(2, 3), friend(1, 2)],
                    TRUCK: [friend(3, 4, True), friend(2, 3, True), friend(1, 1)]},
        "snacks": 8,
    }


def worked_example() -> md.State:
    return position(worked_example_spec())


def test_worked_example_scores_31_with_the_rulebooks_parts():
    parts = md.score_breakdown(worked_example(), 0)
    assert [v.icons for v in parts.vehicles] == [3, 5, 8]
    assert [v.shapes for v in parts.vehicles] == [0, 2, 2]
    assert [v.colours for v in parts.vehicles] == [0, 3, 0]
    assert (parts.icons, parts.shapes, parts.colours, parts.snacks) == (16, 4, 3, 8)
    assert parts.total == 31 and md.scores(worked_example()) == [31.0]
    damage = (parts.damaged(sc.CRUSHED), parts.damaged(sc.CLUMSY), parts.damaged(sc.WEAK))
    assert damage == (3, 2, 1)
    assert parts.vehicles[CAR].damage[0] == sc.WEAK                    # the weight-6 box
    assert parts.vehicles[TRUCK].damage[3] == parts.vehicles[TRUCK].damage[5] == sc.CLUMSY


# --- taking, placing, snacks, refill ------------------------------------------------------------

def test_boxes_fill_each_vehicle_bottom_up_in_any_column_of_the_open_row():
    state = md.new_game(2, seed=1, data=DATA)
    md.apply(state, 0)
    first = md.legal_actions(state)
    expected = [md.place_action(w, v, c) for w in (0, 1)
                for v, cols in ((SCOOTER, 1), (CAR, 2), (TRUCK, 3)) for c in range(cols)]
    assert first == expected                        # row 0 only, every column, either box first
    box_two = state.held[1]
    md.apply(state, md.place_action(1, CAR, 1))     # the second box first, car bottom right
    assert state.seats[0].slots[CAR][1] == box_two and len(state.held) == 1
    md.apply(state, md.place_action(0, CAR, 0))
    assert state.phase == md.FRIEND_PHASE
    md.apply(state, md.legal_actions(state)[0])
    md.apply(state, 0)                              # seat 1's turn: both boxes on its scooter
    for action in (md.place_action(0, SCOOTER, 0), md.place_action(0, SCOOTER, 0)):
        md.apply(state, action)
    md.apply(state, md.legal_actions(state)[0])
    md.apply(state, 1)                              # seat 0 again: its car's row 0 is full
    car = [a for a in md.legal_actions(state) if (a - md.PLACE) % 16 // 4 == CAR]
    assert car == [md.place_action(0, CAR, 0), md.place_action(0, CAR, 1),
                   md.place_action(1, CAR, 0), md.place_action(1, CAR, 1)]
    md.apply(state, md.place_action(0, CAR, 1))
    assert state.seats[0].slots[CAR][3] != md.EMPTY  # row 1 (slot 2 + col 1), row 0 being full


def test_a_full_vehicle_takes_no_more_boxes():
    state = md.new_game(2, seed=2, data=DATA)
    state.seats[0].slots[SCOOTER] = [0, 1, 2, 3]
    md.apply(state, 0)
    assert all((a - md.PLACE) % 16 // 4 != SCOOTER for a in md.legal_actions(state))


def card_with(friends: int) -> int:
    return next(i for i, c in enumerate(RULES.cards) if c.friends == friends)


def friend_phase(card: int, held: dict[int, list[int]]) -> md.State:
    state = md.new_game(2, seed=3, data=DATA)
    state.phase, state.card, state.taken = md.FRIEND_PHASE, card, 0
    for v, cards in held.items():
        state.seats[0].friends[v] = list(cards)
    return state


def test_capacity_refuses_a_card_and_out_of_the_game_is_allowed_only_on_an_overflow():
    two, three = card_with(2), card_with(3)
    everywhere = friend_phase(two, {})
    assert md.legal_actions(everywhere) == [md.FRIEND + v for v in range(3)]  # no OUT
    scooter_busy = friend_phase(two, {SCOOTER: [two]})          # 2 + 2 > 3
    assert md.legal_actions(scooter_busy) == [md.FRIEND + CAR, md.FRIEND + TRUCK, md.OUT]
    exact = friend_phase(three, {CAR: [three]})                 # 3 + 3 = 6 fits the car
    assert md.FRIEND + CAR in md.legal_actions(exact)
    full = friend_phase(three, {SCOOTER: [three], CAR: [three, three], TRUCK: [three] * 3})
    assert md.legal_actions(full) == [md.OUT]
    md.apply(full, md.OUT)
    assert full.seats[0].out == [three] and full.done == 1


def test_the_taker_gets_the_groups_snacks_and_each_neighbour_gets_one():
    state = md.new_game(3, seed=4, data=DATA)
    assert [g.snacks for g in state.display] == [0, 0, 0, 0]
    for g, snacks in enumerate([2, 0, 3, 0]):
        state.display[g].snacks = snacks
    md.apply(state, 2)
    assert state.seats[0].snacks == 3
    assert [g.snacks for g in state.display] == [2, 1, 0, 1]
    end = md.new_game(3, seed=4, data=DATA)
    md.apply(end, 0)                                 # an end group has one neighbour
    assert [g.snacks for g in end.display] == [0, 1, 0, 0] and end.seats[0].snacks == 0


def play(state: md.State, seed: int = 0) -> md.State:
    chooser = random.Random(seed)
    while not md.is_over(state):
        md.apply(state, chooser.choice(md.legal_actions(state)))
    return state


def test_the_taken_place_is_refilled_from_the_piles_only_if_another_turn_follows():
    state = md.new_game(2, seed=5, data=DATA)
    tiles, cards = state.tile_pile[-2:], state.card_pile[-1]
    for _ in range(4):
        md.apply(state, md.legal_actions(state)[0])
    assert sorted(state.display[0].boxes) == sorted(tiles) and state.display[0].card == cards
    assert state.display[0].snacks == 0 and state.player == 1 and state.turn == 2
    four = play(md.new_game(4, seed=6, data=DATA))
    assert four.turn == 32 and len(four.card_pile) == 0 and len(four.tile_pile) == 75 - 72
    assert sum(not g.boxes for g in four.display) == 1  # the last turn's place stays empty
    for seat in four.seats:
        assert all(md.EMPTY not in slots for slots in seat.slots)     # 16 boxes each
        assert sum(map(len, seat.friends)) + len(seat.out) == 8
        for v, vehicle in enumerate(four.rules.vehicles):
            assert md.friends_in(four, seat, v) <= vehicle.capacity
    assert md.legal_actions(four) == []


def test_two_to_four_players():
    for players in (1, 5):
        with pytest.raises(ValueError):
            md.new_game(players, seed=1, data=DATA)


# --- end of game: damage ------------------------------------------------------------------------

STRONG = {SCOOTER: [friend(3, 4), friend(3, 4), friend(3, 4)]}  # strength 12: never too weak


def test_a_heavier_box_anywhere_above_crushes_equal_weights_do_not():
    state = position({"vehicles": {SCOOTER: [[box("circle", "green", 3)], [box("star", "red", 2)],
                                             [box("square", "blue", 1)],
                                             [box("hexagon", "violet", 6)]]},
                      "friends": STRONG},
                     {"vehicles": {SCOOTER: [[box("circle", "green", 2)], [box("star", "red", 4)],
                                             [box("square", "blue", 4)],
                                             [box("hexagon", "violet", 1)]]},
                      "friends": STRONG})
    assert vehicle(state, SCOOTER).damage == (sc.CRUSHED, sc.CRUSHED, sc.CRUSHED, sc.INTACT)
    assert vehicle(state, SCOOTER, seat=1).damage == (sc.CRUSHED, "", "", "")


def test_columns_are_independent():
    state = position({"vehicles": {CAR: [[box("circle", "green", 1), box("star", "red", 1)],
                                         [box("square", "blue", 1), box("hexagon", "red", 7)]]},
                      "friends": {CAR: [friend(3, 4), friend(3, 4)]}})
    assert vehicle(state, CAR).damage[:4] == ("", sc.CRUSHED, "", "")


def test_clumsy_friends_break_the_fragile_box_whose_loss_costs_least():
    # Three fragile boxes: a lone 1-icon box, a 3-icon box, and a 2-icon box in a colour pair.
    # One clumsy friend (a 1-friend card with the icon) breaks one box: the cheapest loss.
    state = position({"vehicles": {TRUCK: [
        [box("circle", "green", 1, True), box("star", "red", 6, True),
         box("square", "blue", 3, True)],
        [None, None, box("hexagon", "blue", 2)]]},
        "friends": {TRUCK: [friend(1, 3, True), friend(3, 4)]}})
    score = vehicle(state, TRUCK)
    assert score.damage[:3] == (sc.CLUMSY, "", "") and score.points == 3 + 2 + 1 + 2


def test_each_clumsy_friend_breaks_a_box_so_a_clumsy_card_of_n_friends_breaks_n():
    # The reading of "chaque ami possédant l'icône" (seed line 143): every friend on a card with
    # the icon is clumsy. Same vehicle, same three fragile boxes: 1, 2 and 3 clumsy friends.
    def broken(card: sc.Friends) -> int:
        state = position({"vehicles": {TRUCK: [
            [box("circle", "green", 1, True), box("star", "red", 6, True),
             box("square", "blue", 3, True)],
            [None, None, box("hexagon", "blue", 2)]]},
            "friends": {TRUCK: [card, friend(3, 4)]}})
        return vehicle(state, TRUCK).count(sc.CLUMSY)
    assert [broken(friend(n, 3, True)) for n in (1, 2, 3)] == [1, 2, 3]
    assert broken(friend(3, 3)) == 0
    assert sc.clumsy_friends([friend(2, 3, True), friend(1, 2, True), friend(3, 4)]) == 3


def test_the_best_choice_knows_the_strength_step():
    # Strength 4: the fragile weight-5 box will be damaged anyway, so the clumsy friend breaks
    # it, not the 1-icon box a naive "cheapest box" rule would choose.
    state = position({"vehicles": {CAR: [[box("circle", "green", 5, True),
                                          box("star", "red", 1, True)]]},
                      "friends": {CAR: [friend(1, 4, True)]}})
    score = vehicle(state, CAR)
    assert score.damage[:2] == (sc.CLUMSY, "") and score.icons == 1


def test_a_crushed_fragile_box_is_face_down_and_cannot_absorb_a_clumsy_friend():
    state = position({"vehicles": {SCOOTER: [[box("circle", "green", 2, True)],
                                             [box("star", "red", 4)],
                                             [box("square", "blue", 1, True)]]},
                      "friends": {SCOOTER: [friend(1, 3, True), friend(2, 3)]}})
    assert vehicle(state, SCOOTER).damage[:3] == (sc.CRUSHED, "", sc.CLUMSY)


def test_clumsy_cards_beyond_the_face_up_fragile_boxes_break_nothing():
    state = position({"vehicles": {TRUCK: [[box("circle", "green", 2, True),
                                            box("star", "red", 4), box("square", "blue", 1)]]},
                      "friends": {TRUCK: [friend(3, 4, True), friend(2, 4, True)]}})
    assert vehicle(state, TRUCK).damage[:3] == (sc.CLUMSY, "", "")


def test_strength_equal_to_the_weight_carries_the_box_one_less_does_not():
    def weight5(strength: int) -> str:
        state = position({"vehicles": {CAR: [[box("circle", "green", 5), None]]},
                          "friends": {CAR: [friend(1, strength)] if strength else []}})
        return vehicle(state, CAR).damage[0]
    assert weight5(5) == sc.INTACT       # reading: only boxes heavier than the total
    assert weight5(4) == sc.WEAK
    assert weight5(0) == sc.WEAK         # no friends: strength 0, nothing is carried


# --- end of game: points and ties ----------------------------------------------------------------

def test_adjacency_counts_each_box_once_and_only_between_undamaged_boxes():
    # A T of four same-shape, same-colour boxes: each box scores 1, not 1 per neighbour.
    tee = position({"vehicles": {TRUCK: [[box("circle", "green", 3)] * 3,
                                         [None, box("circle", "green", 3), None]]},
                    "friends": {TRUCK: [friend(3, 4)]}})
    assert (vehicle(tee, TRUCK).shapes, vehicle(tee, TRUCK).colours) == (4, 4)
    # A pair where the lower box is crushed: no adjacency points at all.
    pair = position({"vehicles": {CAR: [[box("circle", "green", 2), None],
                                        [box("circle", "green", 3), None]]},
                     "friends": {CAR: [friend(2, 4)]}})
    assert vehicle(pair, CAR).damage[0] == sc.CRUSHED
    assert (vehicle(pair, CAR).shapes, vehicle(pair, CAR).colours) == (0, 0)
    # Diagonal neighbours and boxes in different vehicles never count.
    apart = position({"vehicles": {CAR: [[box("circle", "green", 3), None],
                                         [box("star", "red", 2), box("circle", "green", 2)]],
                                   SCOOTER: [[box("circle", "green", 1)]]},
                      "friends": {CAR: [friend(2, 4)], SCOOTER: [friend(1, 3)]}})
    assert md.score_breakdown(apart, 0).shapes == md.score_breakdown(apart, 0).colours == 0


def test_ties_go_to_most_snacks_then_share_the_win():
    seat = {"vehicles": {SCOOTER: [[box("circle", "green", 6)]]},
            "friends": {SCOOTER: [friend(2, 4), friend(1, 3)]}}
    richer = position({**seat, "snacks": 5}, {"vehicles": {SCOOTER: [[box("star", "red", 1)]]},
                                              "friends": {SCOOTER: [friend(1, 1)]}, "snacks": 7})
    assert md.scores(richer) == [8.0, 8.0]
    assert md.winners(richer) == [1] and md.outcome(richer) == "win"
    assert md.counters(richer)["wins decided by snacks"] == 1
    shared = position({**seat, "snacks": 5}, {**seat, "snacks": 5})
    assert md.winners(shared) == [0, 1] and md.outcome(shared) == "draw"


def test_counters_sum_the_damage_over_players():
    state = position(*[worked_example_spec() for _ in range(2)])
    totals = md.counters(state)
    assert totals["boxes crushed"] == 6 and totals["boxes broken by clumsy friends"] == 4
    assert totals["boxes damaged by weak friends"] == 2


# --- the printed set ------------------------------------------------------------------------------

def fake_game(data=DATA) -> SimpleNamespace:
    """The kit without printed components: verify falls back to the tables."""
    return SimpleNamespace(data=data, components=(), players=(2, 4))


def failed(data) -> set[str]:
    return {f.check for f in boxes.verify(fake_game(data)) if not f.ok}


def test_verify_passes_on_the_tables():
    findings = boxes.verify(fake_game())
    assert all(f.ok for f in findings), [f.line() for f in findings if not f.ok]
    summary = {f.check: f.detail for f in findings if f.check.startswith("summary")}
    assert "w3: 15 tiles" in summary["summary: tiles by weight"]
    supply = {f.check: f.detail for f in findings}
    assert supply["friend cards suffice for 4 players"].endswith("= 36 of 36")


def test_verify_passes_on_the_kit():
    game = load_game("moving-day-boxes")
    findings = boxes.verify(game)
    assert all(f.ok for f in findings), [f.line() for f in findings if not f.ok]
    # Table rows with `count` print that many copies.
    assert game.component("friends").total == 36 and game.component("snacks").total == 34


def test_verify_fails_on_broken_data():
    def broken(change) -> set[str]:
        data = copy.deepcopy(dict(DATA))
        change(data["tables"], data["settings"])
        return failed(data)

    def heavy(t, s):
        t["box_tiles"][0]["weight"] = 8
    assert "weights within 1-7" in broken(heavy)

    def recolour(t, s):
        t["box_tiles"][0]["colour"] = t["box_tiles"][3]["colour"] = "red"
    assert "each shape x colour pair equally present" in broken(recolour)

    def lose_card(t, s):
        t["friend_cards"][0]["count"] -= 1
    assert {"friend cards (table 'friend_cards')",
            "friend cards suffice for 4 players"} <= broken(lose_card)

    def tight(t, s):
        s["slot_mm"] = s["tile_mm"] - 1
    assert "vehicle slot fits the printed tile" in broken(tight)

    def loose(t, s):
        s["slot_mm"] = s["tile_mm"] + 5
    assert "vehicle slot fits the printed tile" in broken(loose)

    def fewer_slots(t, s):
        t["vehicles"][0]["rows"] = 3
    assert "slots per vehicle set = boxes per player" in broken(fewer_slots)

    def snacks(t, s):
        t["snacks"][1]["count"] = 7
    assert "snacks by value (table 'snacks')" in broken(snacks)

    def unfragile(t, s):
        for tile in t["box_tiles"][:15]:
            tile["fragile"] = False
    assert {"fragile tiles (a third)", "fragile tiles spread over shapes and colours"} \
        <= broken(unfragile)


# --- seeded simulation ----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_replay_identically_whatever_the_number_of_jobs(players):
    one = simulate.run(boxes, players, n=8, seed=3, data=DATA, jobs=1)
    two = simulate.run(boxes, players, n=8, seed=3, data=DATA, jobs=2)
    assert one.results == two.results
    assert set(one.lengths) == {8 * players} and one.count("stall") == 0
    assert all(dict(r.extra)["boxes crushed"] >= 0 for r in one.results)


def test_greedy_plays_legal_moves_and_beats_random():
    state = md.new_game(3, seed=9, data=DATA)
    while not md.is_over(state):
        action = md.greedy_action(state)
        assert action in md.legal_actions(state)
        md.apply(state, action)
    greedy = simulate.run(boxes, 2, n=10, seed=4, data=DATA, policy="greedy")
    rand = simulate.run(boxes, 2, n=10, seed=4, data=DATA)
    assert sum(greedy.mean_scores()) > sum(rand.mean_scores()) + 10
