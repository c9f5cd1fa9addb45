"""Moving Day / Monster Day rules on hand-built positions, one test per rule of the seeds."""
from __future__ import annotations

import shutil

import pytest

from generator.core.paths import CARD_DATA
from generator.data import load_game
from generator.orchestration.drawing import DrawnKit
from generator.rules import decktet_moving_day as dmd
from generator.rules.decktet_moving_day import engine as md
from generator.rules.decktet_moving_day.reference import verify_decktet
from tests.rules.scripted import FixedDice

GAME = load_game("monster-day")
RULES = md.rules_for(GAME.data)
NAMES = [c.name for c in RULES.cards]
SUITS = [s["id"] for s in GAME.data["tables"]["decktet_suits"]]
ODD, EVEN, PERSONALITY, ALL = range(4)
# Token index by die face 1-4: 1 odd (Catoblepas), 2 even, 3 personality, 4 all (worth 2).


def card(name: str) -> int:
    return NAMES.index(name)


def board(cards_by_space=None, rolls=(), hands=None, pile=None, aces=None, data=None):
    rules = md.rules_for(data or GAME.data)
    state = md.State(rules, FixedDice(rolls), list(aces or range(6)), [-1] * 6,
                     hands or [[], []], pile or [], [md.GAP] * 4)
    for space, name in (cards_by_space or {}).items():
        state.top[space] = card(name)
    return state


def test_a_card_plays_beside_an_ace_sharing_a_suit_in_either_village():
    # Aces in suit order: space 0 Moons, 1 Suns, 2 Waves, 3 Leaves, 4 Wyrms, 5 Knots.
    state = board(hands=[[card("the AUTHOR")], []])  # Moons and Knots
    spaces = sorted(a % 8 for a in md.legal_actions(state))
    assert spaces == [SUITS.index("moons"), SUITS.index("knots")]


def test_the_excuse_plays_anywhere_and_counts_zero():
    state = board({0: "the EXCUSE"}, hands=[[card("the EXCUSE")], []])
    assert sorted(a % 8 for a in md.legal_actions(state)) == list(range(6))
    assert [md.total(state, 0, f) for f in range(4)] == [0, 0, 0, 0]


def test_a_new_card_covers_the_old_one():
    state = board({0: "the JOURNEY"}, rolls=[5, 6], hands=[[card("the AUTHOR")], []])
    md.apply(state, card("the AUTHOR") * 8 + 0)
    assert state.top[0] == card("the AUTHOR")
    assert md.total(state, 0, ODD) == 0 and md.total(state, 0, EVEN) == 2


def test_totals_odd_even_personality_all_with_crowns():
    # Seat 0: the PAINTER (3, personality), the MOUNTAIN (4), the HUNTRESS (Crown personality).
    state = board({0: "the PAINTER", 1: "the MOUNTAIN", 2: "the HUNTRESS"})
    assert md.total(state, 0, ODD) == 3          # Crowns count for neither odd nor even
    assert md.total(state, 0, EVEN) == 4
    assert md.total(state, 0, PERSONALITY) == 13  # Crown personality = 10
    assert md.total(state, 0, ALL) == 17
    assert md.total(state, 1, ALL) == 0           # no cards: total zero


def test_first_move_goes_next_to_the_gap_then_skips_it():
    state = board({0: "the PAINTER"})             # seat 0 leads the odd total
    md.move_token(state, 0)
    assert state.tokens[0] == 2                   # seat 0's space nearest the gap
    state = board({5: "the PAINTER"})
    md.move_token(state, 0)
    assert state.tokens[0] == 3
    state.top[5], state.top[0] = -1, card("the PAINTER")
    md.move_token(state, 0)
    assert state.tokens[0] == 2                   # from 3 straight to 2: the gap is skipped


def test_a_token_at_the_far_end_stays_and_ties_do_not_move():
    state = board({0: "the PAINTER"})
    state.tokens[0] = 0
    md.move_token(state, 0)
    assert state.tokens[0] == 0
    state = board({0: "the PAINTER", 3: "the SAVAGE"})  # 3 against 3
    state.tokens[0] = 4
    md.move_token(state, 0)
    assert state.tokens[0] == 4


def test_each_die_1_to_4_moves_its_token_doubles_once_5_6_nothing():
    cards = {0: "the PAINTER", 1: "the MOUNTAIN"}  # seat 0 leads every family
    state = board(cards, rolls=[1, 4])
    md.roll_and_move(state)
    assert state.tokens == [2, md.GAP, md.GAP, 2]
    state = board(cards, rolls=[2, 2])
    md.roll_and_move(state)
    assert state.tokens == [md.GAP, 2, md.GAP, md.GAP]
    state.tokens[1] = 2
    state.rng = FixedDice([2, 2])
    md.roll_and_move(state)
    assert state.tokens[1] == 1                   # a double moves it once, not twice
    state = board(cards, rolls=[5, 6])
    md.roll_and_move(state)
    assert state.tokens == [md.GAP] * 4


def test_tetrahedra_doubles_do_nothing_otherwise_both_move():
    data = {**GAME.data, "settings": {**GAME.data["settings"], "dice": "d4"}}
    cards = {0: "the PAINTER", 1: "the MOUNTAIN"}
    state = board(cards, rolls=[3, 3], data=data)
    md.roll_and_move(state)
    assert state.tokens == [md.GAP] * 4
    state = board(cards, rolls=[1, 3], data=data)
    md.roll_and_move(state)
    assert state.tokens == [2, md.GAP, 2, md.GAP]


def test_pawn_rank_is_rolled_by_2d6_every_time_it_matters():
    # The WATCHMAN (Pawn, personality) in seat 1's village: rolls decide its rank.
    state = board({0: "the MOUNTAIN", 3: "the WATCHMAN"}, rolls=[6, 5])
    assert md.total(state, 1, ALL) == 11
    state.rng = FixedDice([1, 1])
    assert md.total(state, 1, ALL) == 2           # rolled again: a different rank
    state.rng = FixedDice([3, 4])                 # 7 is odd: counts for odd, not even
    assert md.total(state, 1, ODD) == 7
    state.rng = FixedDice([3, 4])
    assert md.total(state, 1, EVEN) == 0
    state.rng = FixedDice([2, 2])
    assert md.total(state, 1, PERSONALITY) == 4
    # the HARVEST is a Pawn but an event: no roll for the personality total.
    state = board({3: "the HARVEST"}, rolls=[])
    assert md.total(state, 1, PERSONALITY) == 0


def test_game_ends_after_the_turn_the_last_card_is_played_and_scores():
    state = board({0: "the PAINTER"}, rolls=[4, 6], hands=[[card("the SAILOR")], []])
    state.tokens = [0, 1, 5, md.GAP]
    md.apply(state, card("the SAILOR") * 8 + SUITS.index("waves"))  # space 2: seat 0
    assert md.is_over(state)
    # Winged Horse (die 4, worth 2) moved to seat 0's side: 1 + 1 + 2 against 1.
    assert md.scores(state) == [4.0, 1.0] and md.outcome(state) == "win"


def test_drawing_continues_until_the_pile_is_empty():
    state = board(rolls=[5, 5, 5, 5], hands=[[card("the AUTHOR")], [card("the DESERT")]],
                  pile=[card("the ORIGIN")])
    md.apply(state, card("the AUTHOR") * 8 + 0)
    assert state.hands[0] == [card("the ORIGIN")] and not md.is_over(state)
    md.apply(state, card("the DESERT") * 8 + 1)
    assert state.hands[1] == [] and not md.is_over(state)  # "gesture as if drawing"


def test_a_tie_in_points_is_a_draw():
    state = board()
    state.tokens = [0, md.GAP, 5, md.GAP]
    assert md.scores(state) == [1.0, 1.0] and md.outcome(state) == "draw"


def test_new_game_deals_three_each_from_30_or_39_cards():
    state = md.new_game(2, seed=4, data=GAME.data)
    assert [len(h) for h in state.hands] == [3, 3] and len(state.pile) == 24
    assert sorted(state.aces) == list(range(6))
    extended = {**GAME.data, "settings": {**GAME.data["settings"], "extended": True}}
    assert len(md.new_game(2, seed=4, data=extended).pile) == 33
    with pytest.raises(ValueError):
        md.new_game(3, seed=1, data=GAME.data)


@pytest.mark.parametrize("game_id", ["monster-day", "moving-day"])
def test_verify_passes_for_both_themes(game_id):
    game = load_game(game_id)
    findings = dmd.verify(game, DrawnKit(game))
    assert all(f.ok for f in findings), [f.line() for f in findings if not f.ok]


def test_verify_catches_a_broken_decktet():
    rows = [dict(r) for r in GAME.data["tables"]["decktet_cards"]]
    first, second = [r for r in rows if r["rank"] == 7][:2]
    first["suits"] = list(second["suits"])  # two sevens with the same suits
    failed = {f.check for f in verify_decktet(rows) if not f.ok}
    assert "each suit once per rank 2-9" in failed


def _printed_failures(game):
    return [f for f in dmd.verify(game, DrawnKit(game)) if not f.ok]


def _swap_suits(rows, a="the MOUNTAIN", b="the BATTLE"):
    ra = next(r for r in rows if r["name"] == a)
    rb = next(r for r in rows if r["name"] == b)
    ra["suits"], rb["suits"] = rb["suits"], ra["suits"]
    return rows


@pytest.mark.parametrize("game_id", ["monster-day", "moving-day"])
def test_a_swapped_suit_fails_verify_naming_both_cards(game_id, tmp_path):
    """Two fours swap suits: every count still holds (three per rank, each suit once per rank),
    but the printed cards no longer match the reference list, and verify names them."""
    broken = _broken_kit(game_id, tmp_path, _swap_suits)
    failed = _printed_failures(broken)
    assert [f.check for f in failed] == ["printed card suits match the reference"]
    assert "the MOUNTAIN" in failed[0].detail and "the BATTLE" in failed[0].detail
    assert failed[0].basis == "rulebook" and "decktet.yaml" in failed[0].where


def test_a_wrong_rank_or_a_missing_card_fails_verify_naming_it(tmp_path):
    def wrong_rank(rows):
        next(r for r in rows if r["name"] == "the CAVE")["rank"] = 8
        return rows

    failed = _printed_failures(_broken_kit("monster-day", tmp_path, wrong_rank))
    ranks = [f for f in failed if f.check == "printed card rank match the reference"]
    assert ranks and "the CAVE: rank 8 printed, the reference says 7" in ranks[0].detail
    gone = _printed_failures(_broken_kit(
        "monster-day", tmp_path / "b", lambda rows: [r for r in rows if r["name"] != "the BARD"]))
    missing = [f for f in gone if f.check.startswith("every card of the reference list")]
    assert missing and "the BARD: not printed" in missing[0].detail


def test_token_points_are_checked_against_the_seed(tmp_path):
    text = (CARD_DATA / "decktet-moving-day.yaml").read_text(encoding="utf-8")
    (tmp_path / "decktet-moving-day.yaml").write_text(
        text.replace("{die: 4, counts: all, points: 2}", "{die: 4, counts: all, points: 3}"),
        encoding="utf-8")
    for name in ("decktet.yaml", "monster-day.yaml"):
        shutil.copy(CARD_DATA / name, tmp_path / name)
    failed = _printed_failures(load_game("monster-day", tmp_path))
    points = [f for f in failed if f.check.startswith("token points per die face")]
    assert points and "die 4: 3 printed, the seed says 2" in points[0].detail
    assert points[0].basis == "rulebook"


def _broken_kit(game_id, folder, change):
    """The kit rebuilt from a temporary copy of its data whose card table ``change`` altered:
    the printed cards (components generated from the table) change with it."""
    import yaml

    folder.mkdir(parents=True, exist_ok=True)
    deck = yaml.safe_load((CARD_DATA / "decktet.yaml").read_text(encoding="utf-8"))
    deck["tables"]["decktet_cards"] = change(deck["tables"]["decktet_cards"])
    (folder / "decktet.yaml").write_text(yaml.safe_dump(deck, sort_keys=False), encoding="utf-8")
    for name in ("decktet-moving-day.yaml", f"{game_id}.yaml"):
        shutil.copy(CARD_DATA / name, folder / name)
    return load_game(game_id, folder)


def test_the_worked_example_matches_a_hand_count():
    """The rules pages print ``examples(game)``; here its numbers are counted by hand from the
    cards it shows. Seat A: the CALAMITY (Crown, event), the JOURNEY (3), the MILL (8); seat B:
    the DIPLOMAT (8, personality), the BETRAYAL (8), the DISCOVERY (5)."""
    ex = dmd.examples(GAME)["village"]
    cards = [s["card"]["name"] for s in ex["spaces"]]
    assert cards == ["the CALAMITY", "the JOURNEY", "the MILL",
                     "the DIPLOMAT", "the BETRAYAL", "the DISCOVERY"]
    rows = {t["die"]: (t["a"], t["b"], t["towards"], t["at"], t["to"]) for t in ex["tokens"]}
    assert rows[1] == (3, 5, "B", "3", "4")        # odd: 3 v 5; from A's space 3 over the gap
    assert rows[2] == (8, 16, "B", "6", "6")       # even: 8 v 8 + 8; already at B's end
    assert rows[3] == (0, 8, "B", "6", "6")        # personality: only the DIPLOMAT
    assert rows[4] == (21, 21, "", "gap", "gap")   # all: 10 + 3 + 8 = 8 + 8 + 5, a tie
    assert ex["roll"] == [1, 4] and ex["scores"] == [1, 2] and ex["scores_after_roll"] == [0, 3]


def test_the_example_follows_the_engine():
    """The example is the engine's: changing what a token counts changes the printed totals."""
    tokens = [dict(t) for t in GAME.data["tables"]["moving_day_tokens"]]
    tokens[0]["counts"] = "all"
    data = {**GAME.data, "tables": {**GAME.data["tables"], "moving_day_tokens": tokens}}
    from generator.rules.decktet_moving_day.worked import village_example

    ex = village_example(data)
    first, last = ex["tokens"][0], ex["tokens"][3]
    assert (first["a"], first["b"]) == (last["a"], last["b"])
    shown = [s["card"] for s in ex["spaces"]]
    assert ex["tokens"][0]["a"] == sum(c["rank"] for c in shown[:3])  # all ranks, Crowns 10


def test_tetrahedra_pawn_and_court_ranks_are_rolled_on_2d4():
    """Seed (moving-day-decktet.txt, lines 65 and 68): "the player who owns the box with the Pawn
    or Court on it rolls both dice. The card's rank is counted as the sum of both dice", and
    under Tetrahedra the dice are four-sided: a Pawn's rank is 2d4, never more than 8."""
    data = {**GAME.data, "settings": {**GAME.data["settings"], "dice": "d4"}}
    state = board({3: "the WATCHMAN"}, rolls=[4, 3], data=data)
    assert md.total(state, 1, ALL) == 7            # FixedDice refuses a value over 4
    state.rng = FixedDice([4, 4])
    assert md.total(state, 1, PERSONALITY) == 8
    state.rng = FixedDice([5, 1])
    with pytest.raises(AssertionError):            # a d6 face is not a d4 roll
        md.total(state, 1, ALL)
    state = board({3: "the WATCHMAN"}, rolls=[6, 6])
    assert md.total(state, 1, ALL) == 12           # with d6, still 2d6


def test_a_random_game_lasts_30_turns_and_hands_out_5_points_at_most():
    from generator.orchestration import simulate

    report = simulate.run(dmd, players=2, n=200, seed=2, data=GAME.data)
    assert set(report.lengths) == {30}
    assert all(sum(r.scores) <= 5 for r in report.results)
    greedy = simulate.run(dmd, players=2, n=50, seed=2, data=GAME.data, policy="greedy")
    assert greedy.n == 50 and greedy.count("stall") == 0
