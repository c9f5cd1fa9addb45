"""Deal statistics without code (generator/rules/deal.py, docs/deal-statistics.md): the
figures of Moving Target's standard 52-card deck against exact hypergeometric values worked
out here independently, the Monte Carlo within its interval of an exact value at a fixed
seed, hostile numbers refused with one line (exit 2), and the data file's ``deal:`` section
checked like its other sections (file:line: field)."""
from __future__ import annotations

import copy
import math
from fractions import Fraction
from typing import Any

import pytest

from generator.core import context
from generator.core.errors import DataError
from generator.data import load_game
from generator.data.tables.schema import DealQuestion
from generator.frontends.cli import main
from generator.rules import deal
from tests.test_declarative import GAME, write

C = math.comb


def _answer(players: int, hand: int, **kind: Any) -> deal.Answer:
    with context.building():
        game = load_game("moving-target")
        deck = deal.Deck.of(game, game.component("deck"), ("test", None, "deal"))
        question = DealQuestion.model_validate({"name": "q", "players": players,
                                                "hand": hand, **kind})
        return deal.answer(deck, question)


def _exact(players: int, hand: int, **kind: Any) -> Fraction:
    [figure] = _answer(players, hand, **kind).figures
    assert figure.exact is not None and figure.method() == "exact"
    return figure.exact


def test_a_13_card_hand_without_a_spade_is_the_hypergeometric_value():
    p = _exact(4, 13, none={"suit": "S"})
    assert p == Fraction(C(39, 13), C(52, 13))
    assert round(float(p), 5) == 0.01279


def test_void_in_a_given_suit_and_in_some_suit():
    assert _exact(4, 5, none={"suit": "H"}) == Fraction(C(39, 5), C(52, 5))
    # Inclusion-exclusion over the suits missed: 4 ways to miss one, 6 two, 4 three.
    some = Fraction(4 * C(39, 13) - 6 * C(26, 13) + 4 * C(13, 13), C(52, 13))
    assert _exact(4, 13, void="suit") == some
    assert round(float(some), 4) == 0.0511  # the bridge figure: 5.1 % of hands have a void
    five = Fraction(4 * C(39, 5) - 6 * C(26, 5) + 4 * C(13, 5), C(52, 5))
    assert _exact(4, 5, void="suit") == five
    # ... which is 1 - P(all four suits): one suit twice, the others once.
    assert five == 1 - Fraction(4 * C(13, 2) * 13**3, C(52, 5))


def test_at_least_k_of_a_kind():
    assert _exact(4, 13, at_least=4, where={"rank": "A"}) == Fraction(C(48, 9), C(52, 13))
    court = _exact(2, 10, at_least=1, where="{{ item.rank.value > 10 }}")
    assert court == 1 - Fraction(C(40, 10), C(52, 10))


def test_suit_lengths_are_the_hypergeometric_distribution_of_one_hand():
    found = _answer(4, 13, lengths="suit")
    [(suits, cards, figures)] = found.groups
    assert suits == "S, H, D, C" and cards == 13
    assert [f.exact for f in figures] == [Fraction(C(13, j) * C(39, 13 - j), C(52, 13))
                                          for j in range(14)]
    assert sum(f.exact for f in figures if f.exact is not None) == 1


def _anyone_without_spades() -> Fraction:
    """P(some hand of 4 x 13 has no spade): hands i and j both spadeless is their 26 cards
    all from the 39 others, and so on (inclusion-exclusion over the hands)."""
    return (4 * Fraction(C(39, 13), C(52, 13)) - 6 * Fraction(C(39, 26), C(52, 26))
            + 4 * Fraction(C(39, 39), C(52, 39)))


@pytest.mark.slow
def test_monte_carlo_of_any_player_lies_within_its_interval_of_the_exact_value():
    found = _answer(4, 13, none={"suit": "S"}, who="anyone", trials=20_000, seed=7)
    [figure] = found.figures
    assert figure.exact is None and figure.trials == 20_000
    low, high = figure.interval()
    assert low <= float(_anyone_without_spades()) <= high
    assert "Monte Carlo, 20000 deals, seed 7, 95 % interval" in figure.method()
    again = _answer(4, 13, none={"suit": "S"}, who="anyone", trials=20_000, seed=7)
    assert again.figures[0].hits == figure.hits  # seeded: the same deals every run


def test_pnp_deal_prints_each_figure_with_its_method(capsys):
    assert main(["deal", "moving-target", "--players", "4", "--hand", "13", "--none",
                 "suit=S", "--trials", "2000"]) == 0
    out = capsys.readouterr().out
    assert "deck: 52 cards, 4 hands of 13 (0 left over); suit: suit (the default" in out
    assert "a given player is void in some suit: 5.11 % [exact]" in out
    assert "a given player's hand has no card where suit = S: 1.28 % [exact]" in out
    assert "some player is void in some suit: " in out and "[Monte Carlo, 2000 deals" in out
    # The data file's own questions follow.
    assert "deal: a 2-player starting hand (10 cards) without a court card: 5.36 % [exact]" \
        in out


@pytest.mark.slow
@pytest.mark.parametrize(("args", "expected"), [
    (["--players", str(10**9)], "players must be a whole number from 1 to 100"),
    (["--hand", "100"], "4 hands of 100 cards need 400 cards; deck has 52"),
    (["--hand", "-3"], "hand must be a whole number of cards, at least 1"),
    (["--trials", str(10**12)], "trials must be a whole number from 1 to 100000"),
    (["--hand", "13", "--trials", "100000"], "at most 5000000: ask for at most 96153 deals"),
    (["--component", "nope"], "unknown component 'nope'; components: deck, grid"),
    (["--suit", "nope"], "deck item 1 has no field 'nope'"),
    (["--at-least", "2"], "--at-least K needs --where"),
    (["--none", "x"], "a condition is FIELD=VALUE or an expression"),
    (["--none", "{{ item. }}"], "invalid expression"),
    (["--seed", "-1"], "seed must be a whole number from 0"),
])
def test_hostile_numbers_are_one_line_and_exit_2(capsys, args, expected):
    assert main(["deal", "moving-target", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: ") and expected in captured.err
    assert "Traceback" not in captured.err and captured.err.count("\n") == 1
    assert captured.out == ""


@pytest.mark.slow
def test_verify_shows_the_deal_questions_of_the_data_file(capsys):
    assert main(["verify", "moving-target"]) == 0
    out = capsys.readouterr().out
    assert "[ok  ] [design] deal: a 3-player starting hand (7 cards) void in some suit: " \
           "43.0 % [exact]" in out
    assert "deal: some 3-player starting hand (7 cards) void in some suit: " in out
    assert "[Monte Carlo, 10000 deals, seed 1, 95 % interval" in out


BAD_QUESTIONS = [
    ({"name": "x", "players": 4, "hand": 8, "component": "dek", "void": "suit"},
     "deal[0].component", "unknown component 'dek'; components: deck, tokens"),
    ({"name": "x", "players": 4, "hand": 8, "void": "suit", "none": {"suit": "M"}},
     "deal[0]", "void and none are several"),
    ({"name": "x", "players": 4, "hand": 8}, "deal[0]", "ask one thing"),
    ({"name": "x", "players": 4, "hand": 8, "at_least": 2}, "deal[0]",
     "'at_least' and 'where' go together"),
    ({"name": "x", "players": 4, "hand": 5, "void": "suit"}, "deal[0].hand",
     "4 hands of 5 cards need 20 cards; deck has 18"),
    ({"name": "x", "players": 10**9, "hand": 1, "void": "suit"}, "deal[0].players",
     "less than or equal to 100"),
    ({"name": "x", "players": 2, "hand": 3, "void": "suit", "trials": 10**9},
     "deal[0].trials", "less than or equal to 100000"),
    ({"name": "x", "players": 2, "hand": 3, "none": "{{ item. }}"}, "deal[0].none",
     "invalid expression"),
    ({"name": "x", "players": 2, "hand": 3, "lengths": "suit", "who": "anyone"}, "deal[0]",
     "'lengths' is about one hand"),
    ({"name": "x", "players": 2, "hand": 3, "void": "suit", "colour": "red"},
     "deal[0].colour", "unknown field"),
]


@pytest.mark.parametrize(("spec", "field", "expected"), BAD_QUESTIONS,
                         ids=[e[:30] for _, _, e in BAD_QUESTIONS])
def test_a_bad_deal_question_is_a_data_error_at_its_line(tmp_path, capsys, spec, field,
                                                         expected):
    game = copy.deepcopy(GAME)
    game["deal"] = [spec]
    file = write(tmp_path, game)
    with pytest.raises(DataError) as caught:
        load_game(str(file))
    error = caught.value
    assert error.file == str(file) and error.field == field and expected in error.expected
    lines = file.read_text(encoding="utf-8").splitlines()
    assert error.line is not None and lines.index("deal:") < error.line <= len(lines)
    assert main(["verify", str(file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {file}:{error.line}: {field}:") and "Traceback" not in err


def test_a_project_game_answers_its_questions_and_a_card_without_the_field_fails(
        tmp_path, capsys):
    game = copy.deepcopy(GAME)
    game["deal"] = [
        {"name": "a hand of 6 without a Moon", "players": 3, "hand": 6,
         "none": {"suit": "M"}},
        {"name": "tokens by colour", "component": "tokens", "players": 2, "hand": 3,
         "void": "colour"},
    ]
    file = write(tmp_path, game)
    assert main(["verify", str(file)]) == 1
    out = capsys.readouterr().out
    no_moon = Fraction(C(12, 6), C(18, 6))
    assert f"deal: a hand of 6 without a Moon: {100 * float(no_moon):.2f} % [exact]" in out
    assert "[FAIL] [design] deal: tokens by colour: tokens item 1 (Star) has no field " \
           "'colour'" in out


def test_the_monte_carlo_work_is_capped_in_cards_dealt():
    from generator.data.tables.deal_list import MAX_DEALT_CARDS, check_work

    check_work(4, 13, MAX_DEALT_CARDS // 52, anyone=True)
    check_work(4, 13, 100_000, anyone=False)  # one hand a deal: 1,300,000 cards
    with pytest.raises(ValueError, match="ask for at most 96153 deals"):
        check_work(4, 13, 96_154, anyone=True)
    with pytest.raises(ValueError, match="from 1 to 100000"):
        check_work(1, 1, 0, anyone=False)
