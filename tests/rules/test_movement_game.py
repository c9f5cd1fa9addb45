"""Untitled Movement Game rules on hand-built positions: one test per rule of the seed."""
from __future__ import annotations

import dataclasses
import random

import pytest

from generator.data import load_game
from generator.orchestration.drawing import DrawnKit
from generator.rules import movement_game as movement
from generator.rules.movement_game import engine as mg
from generator.rules.movement_game import playouts
from generator.rules.movement_game.boards import board_findings, parse_board
from generator.rules.movement_game.engine import (
    DISCARD_HAND,
    DISCARD_ONE,
    PLACE,
    ROLL,
    STOP,
    position,
)
from tests.rules.scripted import FixedDice

GAME = load_game("movement-game")
DATA = GAME.data
OPEN = ["......."] * 7


def act(state, direction, token, steps):
    """The action playing a ``direction`` card to move ``token`` by ``steps``."""
    return state.rules.names.index(direction) << 8 | token << 4 | steps


def moves(state):
    """{(direction, token, steps): (row, col) where the token ends} for every card move."""
    out = {}
    for a in mg.legal_actions(state):
        if 0 <= a < PLACE:
            d, token, steps = a >> 8, a >> 4 & 15, a & 15
            start = state.tokens[state.player][token]
            end = state.rules.rays[state.player][d][start][steps - 1]
            out[state.rules.names[d], token, steps] = divmod(end, state.rules.board.width)
    return out


def cell(state, row, col):
    return row * state.rules.board.width + col


def test_setup_each_player_places_the_first_token_of_the_player_across():
    state = mg.new_game(2, seed=4, data=DATA)
    assert [len(h) for h in state.hands] == [3, 3] and len(state.deck) == 44
    homes = state.rules.homes
    assert mg.legal_actions(state) == [PLACE + c for c in homes[1]]  # seat 0 places north's
    mg.apply(state, PLACE + homes[1][2])
    assert state.player == 1 and mg.legal_actions(state) == [PLACE + c for c in homes[0]]
    mg.apply(state, PLACE + homes[0][0])
    assert state.tokens == [[homes[0][0], -1, -1, -1], [homes[1][2], -1, -1, -1]]
    assert (state.player, state.turn, mg.legal_actions(state)) == (0, 1, [ROLL, DISCARD_HAND])
    four = mg.new_game(4, seed=4, data=DATA)
    for seat in range(4):  # S places N's, W places E's, N places S's, E places W's
        assert mg.legal_actions(four) == [PLACE + c for c in four.rules.homes[(seat + 2) % 4]]
        mg.apply(four, mg.legal_actions(four)[0])
    assert all(t[0] in four.rules.homes[s] for s, t in enumerate(four.tokens))
    with pytest.raises(ValueError):
        mg.new_game(3, seed=1, data=DATA)


def test_card_directions_turn_with_the_seat():
    hand = ["forward", "right", "forward-right", "backward-left"]
    expected = {  # seat: where forward, right, forward-right, backward-left lead from (3, 3)
        0: [(2, 3), (3, 4), (2, 4), (4, 2)],   # south faces north
        1: [(3, 4), (4, 3), (4, 4), (2, 2)],   # west faces east
        2: [(4, 3), (3, 2), (4, 2), (2, 4)],   # north faces south
        3: [(3, 2), (2, 3), (2, 2), (4, 4)],   # east faces west
    }
    for seat, ends in expected.items():
        tokens = [[] for _ in range(4)]
        tokens[seat] = [(3, 3)]
        state = position(4, tokens, [hand] * 4, DATA, rows=OPEN, player=seat, roll=1)
        assert moves(state) == {(d, 0, 1): end for d, end in zip(hand, ends, strict=True)}


def test_closed_spaces_and_the_edge_stop_a_move():
    rows = [".......", "...#...", ".......", ".......", ".......", ".......", "......."]
    state = position(2, [[(3, 3), (0, 6)], []], [["forward", "right"], []], DATA, rows=rows,
                     roll=3)
    # Forward stops below the wall (no jumping it); right from the corner leaves the board.
    assert moves(state) == {("forward", 0, 1): (2, 3), ("right", 0, 1): (3, 4),
                            ("right", 0, 2): (3, 5), ("right", 0, 3): (3, 6)}


def test_a_diagonal_step_squeezes_between_two_closed_spaces():
    rows = [".......", "..#....", ".#.....", ".......", ".......", ".......", "......."]
    state = position(2, [[(2, 2)], []], [["forward-left", "forward", "left"], []], DATA,
                     rows=rows, roll=2)
    assert moves(state) == {("forward-left", 0, 1): (1, 1), ("forward-left", 0, 2): (0, 0)}


def test_tokens_hop_over_tokens_but_a_card_may_not_end_on_one():
    state = position(2, [[(3, 3), (2, 3)], [(0, 3)]], [["forward"], []], DATA, rows=OPEN,
                     roll=3)
    # One step lands on its own token, three on the opponent's: only the hop of two is legal.
    assert moves(state) == {("forward", 0, 2): (1, 3), ("forward", 1, 1): (1, 3)}
    mg.apply(state, act(state, "forward", 0, 2))
    assert state.occupied[cell(state, 1, 3)] == 0 and state.occupied[cell(state, 3, 3)] == -1
    assert state.moves_left == 1


def test_side_players_starting_spaces_are_off_limits_with_four_players_only():
    rows = [".......", "W......", "W......", ".......", ".......", ".......", "......."]
    hand = ["left", "forward", "forward-left"]
    four = position(4, [[(3, 0)], [], [], []], [hand] * 4, DATA, rows=rows, roll=2)
    assert moves(four) == {}  # forward enters W's space, even when passing through
    two = position(2, [[(3, 0)], []], [hand] * 2, DATA, rows=rows, roll=2)
    assert moves(two) == {("forward", 0, 1): (2, 0), ("forward", 0, 2): (1, 0)}
    beside = position(4, [[(2, 1)], [], [], []], [hand] * 4, DATA, rows=rows, roll=1)
    assert set(moves(beside)) == {("forward", 0, 1)}


def test_tokens_on_the_goal_are_frozen_but_can_be_hopped():
    rows = [".N.N.NN", "......."] + ["......."] * 5
    state = position(2, [[(0, 1), (0, 0), (1, 5)], []], [["right", "forward"], []], DATA,
                     rows=rows, roll=3)
    found = moves(state)
    assert not any(token == 0 for _, token, _ in found)          # arrived: never moves again
    assert found["right", 1, 2] == (0, 2)                          # hops the arrived token
    mg.apply(state, act(state, "forward", 2, 1))                   # (1, 5) onto a goal
    assert not any(token == 2 for _, token, _ in moves(state))


def test_a_three_may_introduce_a_token_instead_of_moving():
    rows = [".NN.NN."] + ["......."] * 5 + [".SS.SS."]
    hand = ["forward", "left", "right"]
    state = position(2, [[(6, 1)], [(6, 4)]], [hand, hand], DATA, rows=rows, roll=3,
                     deck=["left"] * 5)
    places = sorted(a - PLACE for a in mg.legal_actions(state) if a >= PLACE)
    assert places == [cell(state, 6, 2), cell(state, 6, 5)]      # free spaces of its own edge
    mg.apply(state, PLACE + cell(state, 6, 5))
    assert state.tokens[0][:2] == [cell(state, 6, 1), cell(state, 6, 5)]
    # Seed 2.d: "If you choose not to move any of your tokens after rolling, you must discard 1
    # (and only 1) of your navigation cards", and line 37: "Remember, you must use or discard
    # at least 1 card each turn". Placing a token is not moving one: one card must still go.
    names = state.rules.names
    assert state.player == 0 and state.phase == mg.PLACED
    assert mg.legal_actions(state) == [DISCARD_ONE - names.index(n)
                                       for n in ("left", "right", "forward")]
    assert mg.greedy_action(mg.clone(state)) <= DISCARD_ONE
    mg.apply(state, DISCARD_ONE - names.index("right"))
    assert state.player == 1 and state.turn == 2
    assert [names[d] for d in state.discards] == ["right"]         # exactly one card spent
    assert len(state.hands[0]) == 3 and state.counts["idle rolls"] == 0
    assert state.counts["introductions"] == 1
    empty = position(2, [[(6, 1)], []], [[], []], DATA, rows=rows, roll=3, deck=[])
    mg.apply(empty, PLACE + cell(empty, 6, 2))
    assert mg.legal_actions(empty) == [STOP]                       # nothing left to discard
    two = position(2, [[(6, 1)], []], [hand, hand], DATA, rows=rows, roll=2)
    assert not [a for a in mg.legal_actions(two) if a >= PLACE]
    moved = position(2, [[(6, 1)], []], [hand, hand], DATA, rows=rows, roll=3)
    mg.apply(moved, act(moved, "forward", 0, 1))
    assert not [a for a in mg.legal_actions(moved) if a >= PLACE]  # only instead of moving
    full = position(2, [[(6, 1), (3, 0), (3, 2), (3, 4)], []], [hand, hand], DATA, rows=rows,
                    roll=3)
    assert not [a for a in mg.legal_actions(full) if a >= PLACE]   # no token left off-board


def test_rolling_and_not_moving_discards_exactly_one_card():
    state = position(2, [[(3, 3)], []], [["left", "left", "right"], []], DATA, rows=OPEN,
                     roll=2, deck=["backward", "forward"])
    actions = mg.legal_actions(state)
    left, right = (state.rules.names.index(n) for n in ("left", "right"))
    assert STOP not in actions
    assert [a for a in actions if a <= DISCARD_ONE] == [DISCARD_ONE - left, DISCARD_ONE - right]
    mg.apply(state, DISCARD_ONE - left)
    assert state.discards == [left] and state.player == 1
    assert sorted(state.hands[0]) == sorted([left, right, state.rules.names.index("forward")])


def test_discarding_the_whole_hand_then_drawing_three():
    state = position(2, [[(3, 3)], []], [["left", "backward", "right"], []], DATA, rows=OPEN,
                     deck=["backward-left", "forward", "forward-left", "forward-right"])
    mg.apply(state, DISCARD_HAND)
    names = state.rules.names
    assert [names[d] for d in state.discards] == ["left", "backward", "right"]
    assert [names[d] for d in state.hands[0]] == ["forward-right", "forward-left", "forward"]
    assert state.player == 1 and state.turn == 2


def test_moves_left_after_a_card_then_stop_and_refill_from_reshuffled_discards():
    state = position(2, [[(5, 3), (5, 5)], []], [["forward", "right", "left"], []], DATA,
                     rows=OPEN, deck=["backward"])
    state.rng = FixedDice([3])
    mg.apply(state, ROLL)
    assert state.moves_left == 3
    mg.apply(state, act(state, "forward", 0, 1))
    assert state.moves_left == 2 and STOP in mg.legal_actions(state)
    assert max(steps for _, _, steps in moves(state)) == 2
    mg.apply(state, act(state, "left", 1, 1))                    # another card, another token
    assert state.player == 0 and state.moves_left == 1
    mg.apply(state, STOP)
    # Two cards to draw: the deck's last one, then the reshuffled discards.
    assert len(state.hands[0]) == 3 and len(state.deck) == 1 and state.discards == []
    assert state.player == 1 and state.turn == 2


def test_using_all_the_moves_ends_the_turn():
    state = position(2, [[(5, 3)], []], [["forward", "right", "left"], []], DATA, rows=OPEN,
                     roll=2, deck=["backward"] * 3)
    mg.apply(state, act(state, "forward", 0, 2))
    assert state.player == 1 and state.phase == mg.CHOOSE and len(state.hands[0]) == 3


def test_all_four_tokens_on_the_goal_spaces_across_win():
    rows = [".NN.NN."] + ["......."] * 5 + [".SS.SS."]
    state = position(2, [[(0, 1), (0, 2), (0, 4), (1, 5)], [(5, 1)]], [["forward"], []], DATA,
                     rows=rows, roll=1)
    assert not mg.is_over(state)
    mg.apply(state, act(state, "forward", 3, 1))
    assert mg.is_over(state) and mg.outcome(state) == "win"
    assert mg.scores(state) == [1.0, 0.0] and mg.legal_actions(state) == []
    short = position(2, [[(0, 1), (0, 2), (1, 5)], []], [["forward"], []], DATA, rows=rows,
                     roll=1)
    mg.apply(short, act(short, "forward", 2, 1))
    assert not mg.is_over(short) and mg.outcome(short) == "stall"


def test_variants_give_one_board_each_and_new_game_plays_it():
    names = [b["name"] for b in DATA["tables"]["boards"]]
    found = movement.variants(DATA)
    assert [name for name, _ in found] == names
    for name, data in found:
        assert mg.new_game(2, 1, data).rules.board.name == name
    assert mg.new_game(2, 1, DATA).rules.board.name == names[0]


def test_a_player_always_has_an_action_and_clones_replay():
    for seed in range(12):
        players = 2 if seed % 2 else 4
        state = mg.new_game(players, seed, movement.variants(DATA)[seed % 4][1])
        chooser = random.Random(seed)
        for step in range(400):
            actions = mg.legal_actions(state)
            assert actions
            if step == 200:
                twin = mg.clone(state)
                assert mg.legal_actions(twin) == actions
            mg.apply(state, chooser.choice(actions))
            if mg.is_over(state):
                break


@pytest.mark.slow  # over tests/lanes.py's budget
def test_verify_passes_on_the_data_file():
    findings = movement.verify(GAME, DrawnKit(GAME))
    assert findings and all(f.ok for f in findings), [f.line() for f in findings if not f.ok]
    details = [f.detail for f in findings if f.check.startswith("standard-deck conversion")]
    assert "forward: standard deck 9, navigation deck 10 (-1)" in details
    assert "backward-left: standard deck 2, navigation deck 3 (-1)" in details
    assert details[-1] == "42 vs 50" and len(details) == 9


def with_boards(game, change):
    boards = [dict(b, rows=list(b["rows"])) for b in game.data["tables"]["boards"]]
    change(boards)
    data = {**game.data, "tables": {**game.data["tables"], "boards": boards}}
    return dataclasses.replace(game, data=data)


def test_verify_catches_broken_boards():
    def break_two(boards):
        lattice, saltire = boards[0], boards[1]
        lattice["rows"][0] = lattice["rows"][0].replace("N", ".", 1)   # 3 north starts
        saltire["rows"][1] = "#" + saltire["rows"][1][1:]               # symmetry broken
    broken = with_boards(GAME, break_two)
    failed = {f.check for f in movement.verify(broken, DrawnKit(broken)) if not f.ok}
    assert failed == {"board Lattice: 4 starting spaces per side, on its edge, not in corners",
                      "board Lattice: horizontal symmetry", "board Saltire: horizontal symmetry"}


def test_board_checks_catch_cut_off_starts_and_spaces():
    rows = ["..NN.NN..", "#########", "W.......E", "W.......E", "W.......E", "W.......E",
            ".........", "##.......", ".#SS.SS.."]
    found = {f.check: f for f in board_findings(parse_board({"name": "x", "rows": rows}))}
    assert not found["board x: every start reaches every start across"].ok
    assert not found["board x: every open space reachable"].ok  # (8, 0) is walled in
    assert "(8, 0)" in found["board x: every open space reachable"].detail
    ragged = board_findings(parse_board({"name": "y", "rows": ["....", "..."]}))
    assert [f.ok for f in ragged] == [False]


def test_random_games_replay_exactly():
    from generator.orchestration import simulate

    data = movement.variants(DATA)[1][1]
    for players in (2, 4):
        first = simulate.run(movement, players=players, n=16, seed=5, jobs=1, data=data,
                             max_turns=150)
        again = simulate.run(movement, players=players, n=16, seed=5, jobs=2, data=data,
                             max_turns=150)
        assert first.results == again.results
    greedy = simulate.run(movement, players=2, n=20, seed=5, jobs=1, data=data, policy="greedy")
    assert greedy.count("win") == 20 and min(greedy.lengths) > 20


def _printed_rules() -> str:
    """The rules pages' words (the `kind: rules` component's text), whitespace-normalised."""
    [rules] = [c for c in GAME.components if c.kind == "rules"]
    words = " ".join(s.get("text", "") for page in rules.items for s in page.data["sections"])
    return " ".join(words.split())


def _printed_aid() -> str:
    from pathlib import Path

    text = (Path(__file__).parents[2] / "templates/faces/movement-aid.yaml").read_text()
    return " ".join(text.split())


def test_placing_a_token_costs_one_card_on_the_page_the_aid_and_in_the_engine():
    # Seed 2.d: "If you choose not to move any of your tokens after rolling, you must discard 1
    # (and only 1) of your navigation cards"; line 37: "Remember, you must use or discard at
    # least 1 card each turn". The kit reads a turn spent placing a token as such a turn.
    page, aid = _printed_rules(), _printed_aid()
    assert ("On a 3 you may instead place a new token on a free starting space of your edge; "
            "then discard exactly 1 card") in page
    assert "Remember, you must use or discard at least 1 card each turn." in page
    assert "uses no card" not in page
    assert "put a new token on a free ring of your edge, then discard 1 card" in aid
    rows = [".NN.NN."] + ["......."] * 5 + [".SS.SS."]
    state = position(2, [[(6, 1)], []], [["forward", "left"], []], DATA, rows=rows, roll=3)
    mg.apply(state, PLACE + cell(state, 6, 2))
    assert state.player == 0 and all(a <= DISCARD_ONE for a in mg.legal_actions(state))


def test_an_empty_draw_pile_is_the_shuffled_discards_as_printed():
    assert ("When the draw pile runs out, shuffle the discards to make a new one (our reading"
            in _printed_rules())
    assert "pile empty: shuffle the discards" in _printed_aid()
    state = position(2, [[(5, 3)], []], [["forward", "right", "left"], []], DATA, rows=OPEN,
                     roll=1, deck=[])
    state.discards = [state.rules.names.index("backward")] * 2
    mg.apply(state, act(state, "forward", 0, 1))
    # The played card joined the discards, which became the new pile; one card was drawn.
    names = state.rules.names
    assert len(state.hands[0]) == 3 and len(state.deck) == 2 and state.discards == []
    assert sorted(names[d] for d in state.hands[0] + state.deck) == [
        "backward", "backward", "forward", "left", "right"]


def test_readings_about_side_spaces_and_own_edge_are_printed_and_labelled():
    page = _printed_rules()
    assert ("may not enter or pass through the starting spaces of the players to your left and "
            "right (our reading") in page
    assert "With 2 players nobody sits there, so those spaces are open (our reading)." in page
    assert "No move may leave the board (our reading)." in page
    assert "other tokens may still hop over it (our reading)" in page
    assert "A token may move back onto a free starting space of its own edge (our reading)." in page
    assert "never enter or pass through the rings at your left and right" in _printed_aid()
    # The engine: a token one row above its own free starting space may step back onto it.
    rows = [".NN.NN."] + ["......."] * 5 + [".SS.SS."]
    state = position(2, [[(5, 2)], []], [["backward"], []], DATA, rows=rows, roll=1)
    assert moves(state) == {("backward", 0, 1): (6, 2)}


@pytest.mark.parametrize(("wins", "stalls", "ok", "words"), [
    ([123.0, 77.0], 0, False, "seat 1 is favoured: its 95 % interval excludes a fair 50.0 %"),
    ([77.0, 123.0], 0, False, "seat 2 is favoured"),
    ([102.0, 98.0], 0, True, "seat 1 (first player) wins 51.0 % (44.1-57.8 %)"),
    ([90.0, 80.0], 30, False, "more than 1 game in 10 stalls"),
    ([110.0, 50.0], 40, False, "seat 1 is favoured: its 95 % interval excludes a fair 40.0 %"),
])
def test_a_seat_advantage_is_a_design_warning_naming_board_and_seat(wins, stalls, ok, words):
    """2-player Saltire once gave the first seat 61.5 % (54.6-68.0): verify said so as a note
    that passed. An interval that excludes a fair share now warns (fails --strict)."""
    finding = playouts.simulation_finding({"wins": wins, "stalls": stalls, "n": 200}, "Saltire")
    assert finding.check == "board Saltire: simulation, 2 players"
    assert finding.ok is ok and finding.warn is (not ok) and words in finding.detail
