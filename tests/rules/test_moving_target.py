"""Moving Target rules on hand-built positions: one test per sentence of the seed."""
from __future__ import annotations

import pytest

from generator.data import load_game
from generator.rules import moving_target as target
from generator.rules.moving_target import engine as mt
from generator.rules.moving_target.engine import DRAW, REMOVE, parse_card, position


def placements(state):
    return {(a // 64, mt.card_name(a % 64)) for a in mt.legal_actions(state)}


def cell(row, col):
    return row * 5 + col


def test_new_game_deals_and_starts_the_centre():
    for players, hand in ((2, 10), (3, 7)):
        state = mt.new_game(players, seed=3)
        assert [h.bit_count() for h in state.hands] == [hand] * players
        assert state.on_grid == 1 and state.grid[cell(2, 2)] >= 0
        assert len(state.deck) == 52 - players * hand - 1
        held = sum(state.hands) | 1 << state.grid[cell(2, 2)]
        assert held.bit_count() == players * hand + 1  # no card dealt twice
    with pytest.raises(ValueError):
        mt.new_game(4, seed=1)


def test_placement_must_touch_a_card_and_match_suit_or_value():
    state = position(2, {(2, 2): "7H"}, [["7S", "2H", "9C"], ["KD"]])
    # 7S matches by value, 2H by suit, 9C matches nothing; only the 4 orthogonal cells.
    expected = {(cell(r, c), name) for r, c in ((1, 2), (3, 2), (2, 1), (2, 3))
                for name in ("7S", "2H")}
    assert placements(state) == expected


def test_card_must_match_every_neighbour():
    # The cell between 7H (left) and 7S (right): 7D matches both by value; 2H matches only
    # the left one by suit, so it may not go there.
    state = position(2, {(2, 1): "7H", (2, 3): "7S"}, [["7D", "2H"], ["KD"]])
    between = {name for c, name in placements(state) if c == cell(2, 2)}
    assert between == {"7D"}
    # One neighbour sharing the suit and the other the value is enough.
    state = position(2, {(2, 1): "7H", (2, 3): "2S"}, [["2H"], ["KD"]])
    assert (cell(2, 2), "2H") in placements(state)


def test_cards_stay_inside_the_grid():
    state = position(2, {(0, 0): "5C"}, [["5D"], ["KD"]])
    assert placements(state) == {(cell(0, 1), "5D"), (cell(1, 0), "5D")}


def test_unable_to_place_draws_then_places_the_drawn_card():
    state = position(2, {(2, 2): "7H"}, [["9C"], ["KD"]], deck=["KS", "3H"])
    assert mt.legal_actions(state) == [DRAW]
    mt.apply(state, DRAW)  # draws 3H (the deck's top is its end), which fits by suit
    assert state.drawn == parse_card("3H")
    assert {name for _, name in placements(state)} == {"3H"}


def test_three_fruitless_draws_forfeit_the_turn():
    state = position(2, {(2, 2): "7H"}, [["9C"], ["7D"]], deck=["QS", "KS", "JS", "2C"])
    for _ in range(3):
        assert mt.legal_actions(state) == [DRAW]
        mt.apply(state, DRAW)
    assert state.player == 1 and state.turn == 2
    assert state.hands[0].bit_count() == 4 and state.deck == [parse_card("QS")]


def test_thirteenth_card_forces_a_removal_but_not_of_the_card_just_placed():
    grid = {(0, c): n for c, n in enumerate(["2S", "3S", "4S", "5S", "6S"])}
    grid |= {(1, c): n for c, n in enumerate(["2H", "3H", "4H", "5H", "6H"])}
    grid |= {(2, 0): "2D", (2, 1): "3D"}
    state = position(2, grid, [["4D", "KC"], ["KD"]])
    assert state.on_grid == 12
    mt.apply(state, cell(2, 2) * 64 + parse_card("4D"))
    removals = mt.legal_actions(state)
    assert all(a >= REMOVE for a in removals) and len(removals) == 12
    assert REMOVE + cell(2, 2) not in removals
    mt.apply(state, REMOVE + cell(0, 0))
    assert state.on_grid == 12 and state.discards == [parse_card("2S")]
    assert state.player == 1


def test_last_card_must_touch_the_same_value_to_win():
    state = position(2, {(2, 2): "7H"}, [["7S"], ["KD"]])
    mt.apply(state, cell(2, 1) * 64 + parse_card("7S"))
    assert mt.is_over(state) and mt.outcome(state) == "win" and mt.scores(state) == [1, 0]


def test_last_card_matching_only_by_suit_draws_and_waits():
    state = position(2, {(2, 2): "7H"}, [["2H"], ["KD"]], deck=["9C"])
    mt.apply(state, cell(2, 1) * 64 + parse_card("2H"))
    assert not mt.is_over(state)
    assert state.hands[0] == 1 << parse_card("9C") and state.player == 1


def test_empty_deck_reshuffles_the_discards():
    state = position(2, {(2, 2): "7H"}, [["9C"], ["KD"]], deck=[], discards=["3H"])
    mt.apply(state, DRAW)
    assert state.drawn == parse_card("3H") and state.discards == []


def test_no_card_anywhere_to_draw_forfeits():
    state = position(2, {(2, 2): "7H"}, [["9C"], ["KD"]], deck=[], discards=[])
    mt.apply(state, DRAW)
    assert state.player == 1


def test_deadlock_is_a_draw():
    # On a 3x3 grid the four sevens on the edges leave every empty cell needing a seven, and
    # every seven is on the grid: no one can ever move again.
    small = {"settings": {"grid_size": 3}}
    sevens = {(0, 1): "7H", (1, 0): "7S", (1, 2): "7D", (2, 1): "7C"}
    state = position(2, sevens, [["9C"], ["KD"]], deck=["QD"], data=small)
    assert mt.deadlocked(state)
    mt.apply(state, DRAW)      # QD does not fit
    assert not state.deadlocked and state.player == 0
    mt.apply(state, DRAW)      # nothing left to draw: the turn is forfeited, the lock found
    assert state.deadlocked and mt.is_over(state) and mt.outcome(state) == "draw"
    assert mt.scores(state) == [0.5, 0.5] and mt.legal_actions(state) == []
    # Take one seven off: the cell it leaves can take hearts again, so the game goes on.
    del sevens[(0, 1)]
    assert not mt.deadlocked(position(2, sevens, [["9C"], ["KD"]], data=small))


def test_verify_passes_on_the_data_file():
    findings = target.verify(load_game("moving-target"))
    assert findings and all(f.ok for f in findings), [f.line() for f in findings if not f.ok]


def test_verify_catches_a_missing_card():
    game = load_game("moving-target")
    deck = game.component("deck")
    short = type(deck)(**{**deck.__dict__, "items": deck.items[:-1]})
    broken = type(game)(**{**game.__dict__, "components": (short, *game.components[1:])})
    failed = {f.check for f in target.verify(broken) if not f.ok}
    assert {"deck size", "unique cards", "13 cards per suit", "4 cards per rank"} <= failed


def test_random_games_always_end_and_replay_exactly():
    from generator.orchestration import simulate

    first = simulate.run(target, players=2, n=60, seed=5, jobs=1)
    again = simulate.run(target, players=2, n=60, seed=5, jobs=2)
    assert first.results == again.results
    assert first.count("win") + first.count("draw") + first.count("stall") == 60
    assert first.count("stall") == 0
    assert min(first.lengths) >= 19  # a 10-card hand needs at least 10 of its own turns


def test_verify_compares_the_drawn_grid_with_the_printed_board(game_file):
    """Not a number with itself: the template's cells against the board's printed size."""
    from generator.orchestration.composition import verify

    file, _ = game_file(("size: {grid: {cell: poker, rows: 5, cols: 5, gap: 3, border: 8}}",
                         "size: {grid: {cell: poker, rows: 4, cols: 5, gap: 3, border: 8}}"))
    failed = {f.check: f.detail for f in verify(load_game(str(file))) if not f.ok}
    assert "play grid cells fill the printed board" in failed
    assert "board printed 345.5 x 380.6 mm" in failed["play grid cells fill the printed board"]


def test_failed_findings_name_the_data_line(game_file):
    """Composition findings point at the data they are about, as file:line."""
    from generator.orchestration.composition import verify

    file, _ = game_file(("    - {id: C, name: Clubs, icon: club, colour: suit_clubs}\n", ""))
    failed = [f for f in verify(load_game(str(file))) if not f.ok]
    suits = next(f for f in failed if f.check == "suits")
    text = file.read_text(encoding="utf-8").splitlines()
    assert suits.where.startswith(f"{file}:")
    assert text[int(suits.where.rsplit(":", 1)[1]) - 1].strip() == "suits:"
    assert f"({file}:" in suits.line()
