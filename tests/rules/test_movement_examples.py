"""The movement game's worked examples, reference checks and board symmetries.

The seed's three example turns are played by the engine (generator/rules/movement_game/
worked.py); these tests check the outcomes the seed describes (lines 48, 52, 58). Verify
compares the printed kit with card_data/movement-reference.yaml: broken variants must fail
naming the card, colour or square. The asymmetry check must try all seven symmetries of the
square."""
from __future__ import annotations

import pytest

from generator.core.findings import DESIGN, RULEBOOK
from generator.data import load_game
from generator.orchestration.drawing import DrawnKit
from generator.rules import movement_game as movement
from generator.rules.movement_game import engine as mg
from generator.rules.movement_game.boards import (
    SYMMETRIES,
    board_findings,
    parse_board,
    symmetries,
)
from generator.rules.movement_game.worked import examples
from tests.rules.scripted import FixedDice

GAME = load_game("movement-game")


@pytest.fixture(scope="module")
def made():
    return examples(GAME)


def test_example_1_you_roll_1_and_move_one_space_left(made):
    turn = made["turns"][0]
    assert (turn["name"], turn["roll"]) == ("South", 1)
    [move] = turn["moves"]
    # Left for South (facing north) is west: one column down the alphabet, same row.
    assert (move["card"], move["steps"], move["heading"]) == ("left", 1, "west")
    assert (move["from"], move["to"]) == ("e3", "d3")
    assert turn["drawn"] == 1 and turn["hand"] == 3 and turn["forgone"] == 0
    assert turn["next"] == "West"  # clockwise from South


def test_example_2_across_rolls_3_and_moves_two_tokens_forward_right(made):
    turn = made["turns"][1]
    assert (turn["name"], turn["roll"]) == ("North", 3)  # across from South
    first, second = turn["moves"]
    assert [m["card"] for m in turn["moves"]] == ["forward-right", "forward-right"]
    assert first["token"] != second["token"]                  # a different token
    assert (first["steps"], second["steps"]) == (2, 1)
    # Forward-right for North (facing south) is south-west: each step a row down, a column left.
    assert first["heading"] == "south-west"
    assert [tuple(p) for p in first["path"]] == [(0, 6), (1, 5), (2, 4)]
    assert (first["to"], second["from"], second["to"]) == ("e7", "d9", "c8")
    assert turn["drawn"] == 2 and turn["hand"] == 3


def test_example_3_right_player_moves_forward_then_left_and_forgoes_one(made):
    turn = made["turns"][2]
    assert (turn["name"], turn["roll"]) == ("East", 3)  # to South's right
    forward, left = turn["moves"]
    assert (forward["card"], forward["heading"], forward["steps"]) == ("forward", "west", 1)
    assert (left["card"], left["heading"], left["steps"]) == ("left", "south", 1)
    assert forward["token"] == left["token"] and forward["to"] == left["from"]
    assert (forward["from"], left["to"]) == ("i7", "h6")
    assert turn["forgone"] == 1 and turn["drawn"] == 2 and turn["next"] == "South"


def test_captions_are_the_engines_facts_and_the_rules_page_prints_them(made):
    text = " ".join(made["turns"][1]["caption"])
    assert "forward-right for North is south-west" in text and "g9 to e7" in text
    assert "Draws 2 cards" in text


def test_an_example_the_rules_forbid_fails_the_build(tmp_path):
    """Named at the play's line of movement-examples.yaml."""
    from generator.core.errors import DataError

    game = broken(tmp_path, "", "")
    examples_file = tmp_path / "movement-examples.yaml"
    text = examples_file.read_text(encoding="utf-8")
    old = "plays: [{card: left, token: 0, steps: 1}]"
    examples_file.write_text(text.replace(old, old.replace("steps: 1", "steps: 3")),
                             encoding="utf-8")
    with pytest.raises(DataError, match="may not play") as raised:
        examples(game)
    assert (raised.value.file, raised.value.line) == (str(examples_file),
                                                      text[:text.index(old)].count("\n") + 1)
    assert raised.value.field == "turns[0].plays[0]"


def test_seat_compass_matches_the_engine(made):
    seats = {s["side"]: s for s in made["seats"]}
    assert [s["side"] for s in made["seats"]] == ["S", "W", "N", "E"]
    assert (seats["W"]["left"], seats["W"]["right"], seats["W"]["across"]) == \
        ("North", "South", "East")
    heading = {s: {d["direction"]: d["heading"] for d in seat["directions"]}
               for s, seat in seats.items()}
    assert [heading[s]["forward"] for s in "SWNE"] == ["north", "east", "south", "west"]
    assert heading["E"]["forward-right"] == "north-west"
    assert seats["S"]["next_2"] == "North" and seats["W"]["next_2"] == ""


# -- verify against the reference -----------------------------------------------------------

def broken(tmp_path, old, new):
    """The kit loaded from a copy of its data files with ``old`` replaced by ``new``."""
    import shutil

    from generator.core import paths

    for name in ("movement-game.yaml", "movement-reference.yaml", "movement-examples.yaml"):
        shutil.copy(paths.CARD_DATA / name, tmp_path / name)
    data = tmp_path / "movement-game.yaml"
    text = data.read_text(encoding="utf-8")
    assert old in text
    data.write_text(text.replace(old, new, 1), encoding="utf-8")
    return load_game("movement-game", tmp_path)


def failed(game):
    return {f.check: f for f in movement.verify(game, DrawnKit(game)) if not f.ok}


@pytest.mark.slow
def test_verify_is_clean_and_says_its_basis():
    findings = movement.verify(GAME, DrawnKit(GAME))
    assert all(f.ok for f in findings), [f.line() for f in findings if not f.ok]
    assert all(f.basis in (RULEBOOK, DESIGN) for f in findings)
    by_check = {f.check: f.basis for f in findings}
    assert by_check["forward navigation cards"] == RULEBOOK
    assert by_check["red token symbol"] == DESIGN


@pytest.mark.slow
def test_a_wrong_card_count_fails_naming_the_direction(tmp_path):
    game = broken(tmp_path, "dx: -1, dy: -1, count: 5}", "dx: -1, dy: -1, count: 4}")
    bad = failed(game)
    found = bad["forward-left navigation cards"]
    assert found.detail == "expected 5, found 4 (seed lines 70-78)" and found.basis == RULEBOOK
    assert found.where.startswith(str(tmp_path / "movement-game.yaml"))
    assert "navigation cards, total" in bad


@pytest.mark.slow
def test_a_turned_arrow_and_a_swapped_symbol_fail(tmp_path):
    game = broken(tmp_path, "{direction: left, word: LEFT, dx: -1,",
                  "{direction: left, word: LEFT, dx: 1,")
    assert "left card arrow (dx, dy)" in failed(game)
    game = broken(tmp_path, "{colour: red, symbol: circle,", "{colour: red, symbol: star,")
    assert failed(game)["red token symbol"].basis == DESIGN


@pytest.mark.slow
def test_a_moved_closed_space_fails_naming_the_square(tmp_path):
    # Saltire row 1 is ".#.....#.": move its west closed square one column east.
    game = broken(tmp_path, '        - ".#.....#."\n        - "W.#...#.E"',
                  '        - "..#....#."\n        - "W.#...#.E"')
    found = failed(game)[
        "board Saltire: printed closed squares and starting rings match the reference"]
    assert "closed square missing at (row 1, col 1)" in found.detail
    assert "closed square not in the design at (row 1, col 2)" in found.detail
    assert found.basis == DESIGN


@pytest.mark.slow
def test_a_lost_starting_ring_fails_on_the_printed_board(tmp_path):
    game = broken(tmp_path, '        - ".N.NN.N.."', '        - ".N.N..N.."')  # Pinwheel
    bad = failed(game)
    assert "N starting ring missing at (row 0, col 4)" in \
        bad["board Pinwheel: printed closed squares and starting rings match the reference"].detail
    assert bad["board Pinwheel: printed starting spaces per side"].basis == RULEBOOK


@pytest.mark.slow
def test_a_board_template_that_stops_drawing_rings_fails(monkeypatch):
    """The boards are read from the rendered faces: a template change shows up too."""
    from generator.rules.movement_game import reference as ref

    real = ref.read_board

    def no_rings(face, palette, colour_side):
        closed, _ = real(face, palette, colour_side)
        return closed, {}
    monkeypatch.setattr(ref, "read_board", no_rings)
    bad = failed(GAME)
    assert "board Lattice: printed starting spaces per side" in bad


# -- symmetries -----------------------------------------------------------------------------

def test_all_seven_symmetries_of_the_square_are_tried():
    assert len(SYMMETRIES) == 7
    rows = ("ab.", "c..", "...")
    images = {how: symmetries(rows) for how in SYMMETRIES}
    assert all(found == [] for found in images.values())  # nothing holds for this board
    assert symmetries(("#.#", "...", "#.#")) == list(SYMMETRIES)


MIRROR = ["..N.N.NN.", "W.#...#..", "W..#.#...", "...###..E", "W.......E",  # mirrored below
          "W..#.#..E", "...###..E", "W..#.#...", "..S.S.SS."]


def mirror_board():
    """A board equal to its left-right mirror (E and W swapped), and no other symmetry."""
    rows = []
    for row in MIRROR:
        half = row[:4]
        mid = row[4]
        rows.append(half + mid + half[::-1].translate(str.maketrans("WE", "EW")))
    return rows


def test_a_left_right_mirror_board_is_not_asymmetrical():
    rows = mirror_board()
    assert symmetries(tuple(rows)) == ["mirror left-right"]
    found = {f.check: f for f in board_findings(parse_board(
        {"name": "m", "symmetry": "none", "rows": rows}))}
    check = found["board m: asymmetrical"]
    assert not check.ok and "mirror left-right" in check.detail and check.basis == RULEBOOK
    # Before, only the top-bottom mirror and the half turn were tried: both fail here.
    assert "rotation 180" not in symmetries(tuple(rows))


def test_declared_symmetry_must_be_the_one_that_holds():
    rows = mirror_board()
    found = {f.check: f for f in board_findings(parse_board(
        {"name": "m", "symmetry": "horizontal", "rows": rows}))}
    assert not found["board m: horizontal symmetry"].ok


# -- docstring readings ---------------------------------------------------------------------

def test_seat_0_starts_and_a_deadlocked_turn_counts_in_game_length():
    state = mg.new_game(2, seed=3, data=GAME.data)
    while state.phase == mg.SETUP:
        mg.apply(state, mg.legal_actions(state)[0])
    assert state.player == 0 and state.turn == 1
    # A token walled in on every side: a roll allows no move, only a discard.
    rows = [".......", ".###...", ".#.#...", ".###...", ".......", ".......", "......."]
    stuck = mg.position(2, [[(2, 2)], []], [["left", "forward", "right"], []], GAME.data,
                        rows=rows, deck=["backward"] * 3)
    stuck.rng = FixedDice([2])
    mg.apply(stuck, mg.ROLL)
    actions = mg.legal_actions(stuck)
    assert actions and all(a <= mg.DISCARD_ONE for a in actions)
    mg.apply(stuck, actions[0])
    assert (stuck.player, stuck.turn) == (1, 2)  # the deadlocked turn counted
