"""Moving Target's kit content: the engine-drawn worked example, the printed deck checked card
by card against the standard deck (moving_target/reference.py), the player aids, seat 0."""
from __future__ import annotations

import json

import pytest

from generator.core.errors import CompositionError, DataError
from generator.core.findings import DESIGN, RULEBOOK
from generator.data import load_game
from generator.orchestration.composition import check_composition
from generator.rules import moving_target as target
from generator.rules.moving_target import engine as mt
from generator.rules.moving_target import worked as mte
from generator.rules.moving_target.reference import load_reference, reference_findings

SEVEN = 'value: 7,\n       pips: [[0, 0], [1, 0], [0.5, 0.25], '
SEVEN_MISSING_PIP = 'value: 7,\n       pips: [[0, 0], [1, 0], '
PIP_CHECK = 'expect: "{{ row.pips | length == row.value }}"'
HEARTS = "{id: H, name: Hearts, icon: heart, colour: suit_hearts}"
DIAMONDS = "{id: D, name: Diamonds, icon: diamond, colour: suit_diamonds}"


@pytest.fixture(scope="module")
def game():
    return load_game("moving-target")


@pytest.fixture(scope="module")
def example(game):
    return target.examples(game)["moving_target"]


# -- the worked example -----------------------------------------------------------------------

RANK_VALUE = {"A": 1, "J": 11, "Q": 12, "K": 13}


def value_of(rank: str) -> int:
    return RANK_VALUE.get(rank) or int(rank)


def near(example, cell):
    """The cards orthogonally next to a cell of the example's grid, read from its cells."""
    grid = {(c["row"], c["col"]): c for c in example["cells"]}
    row, col = cell["row"], cell["col"]
    return [grid[p] for p in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if p in grid and grid[p]["card"]]


def test_the_example_is_the_engines_game_won_by_value(example):
    assert (example["seed"], example["turn"], example["player"], example["winner"]) == (9, 21, 1, 1)
    assert (example["card"], example["value"], example["cell"]) == ("Ace of Clubs", 1, "B1")
    assert example["same_value"] == ["Ace of Hearts"]
    assert example["same_suit"] == ["Two of Clubs"]
    assert example["suit_only_cell"] == "B4" and example["suit_only_touches"] == ["Three of Clubs"]
    assert example["on_grid"] == 13 and example["hands_left"] == [0, 1]
    assert example["hand_after_suit_only"] == 1
    assert "Player 1 has emptied their hand with a same-value match and wins" in \
        example["lines"][1]


def test_the_example_speaks_to_players(example):
    """No engine jargon (seed, turn), the kit's readings labelled, the lone cards explained."""
    text = " ".join(example["lines"])
    assert example["lines"][0].startswith(
        "From a real 2-player game (worked out by the kit's own game code when this page was "
        "printed): Player 1 holds one card, the Ace of Clubs")
    for jargon in ("rules engine", "seed", "turn 21"):
        assert jargon not in text
    assert "the same suit (a mix our reading allows)" in text
    assert "by our reading no card is removed, though it is the 13th card" in text
    assert ("would draw a card (now holding 1), then, as it is the 13th card, remove a card, "
            "and wait for another turn.") in text
    assert example["lines"][-1] == ("Earlier removals have left some cards without "
                                    "neighbours; that is allowed.")


def test_lone_cards_are_found_on_the_grid():
    state = mt.new_game(2, seed=1)
    assert not mte._apart(state)  # the first card, alone on the grid, was not left by a removal
    centre = state.grid.index(max(state.grid))
    state.grid[centre + 1], state.on_grid = mt.parse_card("QH"), 2
    assert not mte._apart(state)  # two cards side by side
    state.grid[0], state.on_grid = mt.parse_card("KH"), 3
    assert mte._apart(state)  # a corner card touching nothing


def test_the_example_agrees_with_a_hand_reading_of_the_rules(example):
    """Read the drawn grid as a player would: the last card touches every neighbour by suit or
    value (seed line 25) and one by value (line 43), so it wins; on the dashed cell it would
    touch cards of its suit only, which does not win."""
    [last] = [c for c in example["cells"] if c["last"]]
    [other] = [c for c in example["cells"] if c["suit_only"]]
    neighbours = near(example, last)
    assert neighbours and all(n["rank"] == last["rank"] or n["icon"] == last["icon"]
                              for n in neighbours)
    assert any(value_of(n["rank"]) == value_of(last["rank"]) for n in neighbours)
    assert value_of(last["rank"]) == example["value"]
    around = near(example, other)
    assert around and all(n["icon"] == last["icon"] and n["rank"] != last["rank"]
                          for n in around)
    assert sum(c["card"] for c in example["cells"]) == example["on_grid"] == 13


def test_the_example_replays_from_its_seed(game, example):
    """The same game replayed move by move with the engine ends with the drawn grid."""
    state = mt.new_game(2, example["seed"], game.data)
    while not mt.is_over(state):
        mt.apply(state, mt.greedy_action(state))
    assert state.winner + 1 == example["winner"] and state.turn == example["turn"]
    drawn = [c["card"] for c in example["cells"]]
    assert [card >= 0 for card in state.grid] == drawn


@pytest.mark.slow
def test_the_example_follows_the_engine(game, monkeypatch):
    """Change the engine's winning rule (a suit match would do) and the example changes."""
    monkeypatch.setattr(mt, "SAME_VALUE", mt.MATCH)
    changed = mte.worked_example(game).get("moving_target")
    assert changed is None or changed["seed"] != 9 or changed["cell"] != "B1"


def test_rules_page_prints_the_engines_sentences(kit_a4, page_texts, example):
    manifest = json.loads(kit_a4.path.with_name("moving-target.kit.json").read_text("utf-8"))
    [page] = [p["page"] for p in manifest["pages"] if p["content"] == "rules"]
    [text] = page_texts(kit_a4.path, [page], use_text_flow=True)
    text = " ".join(text.split())
    for line in example["lines"]:
        assert " ".join(line.split()) in text


# -- the printed deck against the standard deck -----------------------------------------------

def failing(findings):
    return [f for f in findings if not f.ok]


def test_reference_has_the_52_cards_with_their_source():
    ref = load_reference()
    assert len(ref) == 52 and len({r["card"] for r in ref}) == 52
    assert sum(r["pips"] for r in ref) == 4 * (1 + sum(range(2, 11)))
    assert all(r["pips"] == 0 for r in ref if r["rank"] in ("J", "Q", "K"))


def test_every_finding_says_where_its_expectation_comes_from(game):
    findings = target.verify(game)
    assert findings and all(f.ok for f in findings)
    assert all(f.basis in (RULEBOOK, DESIGN) for f in findings)
    assert [f.check for f in findings if f.basis == DESIGN] == [
        "play grid cells fill the printed board"]
    assert len([f for f in findings if "standard deck" in f.check or "reference" in f.check]) == 4


def test_a_removed_pip_fails_even_when_the_check_beside_it_is_edited(game_file):
    """The 7 loses a pip and the data file's own pips check is edited to pass: the reference
    (its own file) still catches it, naming the card and the data line."""
    file, (line, _) = game_file((SEVEN, SEVEN_MISSING_PIP), (PIP_CHECK, 'expect: "{{ true }}"'))
    broken = load_game(str(file))
    [finding] = failing(target.verify(broken))
    assert finding.basis == RULEBOOK
    assert "the 7 of Spades prints 6 pips, expected 7" in finding.detail
    assert "the 7 of Hearts prints 6 pips, expected 7" in finding.detail
    assert finding.where == f"{file}:{line + 1}"  # the 7's pips
    with pytest.raises(CompositionError, match="7 of Hearts prints 6 pips"):
        check_composition(broken, force=False)


FIVE = '{id: "5", name: Five, value: 5, pips: [[0, 0], [1, 0], [0.5, 0.5], [0, 1], [1, 1]]}'


@pytest.mark.parametrize(("pips", "words"), [
    ("[[0, 0], [1, 0], [1, 1], [0, 1], [1, 1]]", "two pips at (1, 1) and (1, 1)"),
    ("[[0, 0], [1, 0], [0.2, 0.5], [0, 1], [1, 1]]", "not the same left to right"),
])
def test_a_five_with_misplaced_pips_fails(game_file, pips, words):
    """Five pips that print as four (one repeated) or lopsided: the count is right, the check
    beside the table passes, the layout check names the card and line. (A pip off the card is
    refused at load, below: the data file and playing-card.yaml type a pip as ``point 0..1``.)"""
    file, (line,) = game_file((FIVE, FIVE.replace(FIVE[FIVE.index("[["):-1], pips)))
    [finding] = failing(target.verify(load_game(str(file))))
    assert finding.basis == RULEBOOK and "laid out as a printed deck's" in finding.check
    assert finding.detail.startswith("the 5 of Spades") and words in finding.detail
    assert finding.where == f"{file}:{line}"


def test_a_pip_off_the_card_is_refused_at_its_line(game_file):
    file, (line,) = game_file((FIVE, FIVE.replace("[0.5, 0.5]", "[0.5, 1.4]")))
    with pytest.raises(DataError) as caught:
        load_game(str(file))
    assert caught.value.line == line and caught.value.field == "tables.ranks[4].pips[2]"
    assert "from 0 to 1, got [0.5, 1.4]" in caught.value.expected


def test_a_wrong_value_with_matching_pips_fails(game_file):
    """Value and pips edited together pass the row check, not the reference."""
    file, _ = game_file((SEVEN, SEVEN_MISSING_PIP.replace("7", "6")))
    problems = failing(target.verify(load_game(str(file))))
    details = " | ".join(f.detail for f in problems)
    assert "the 7 of Hearts has value 6, expected 7" in details
    assert "the 7 of Hearts prints 6 pips, expected 7" in details


def test_a_swapped_suit_fails_naming_the_cards(game_file):
    """Hearts and Diamonds swap their names: every invariant of counts holds, but the cards
    called Hearts print diamonds."""
    file, (line, _) = game_file(
        (HEARTS, HEARTS.replace("Hearts", "Diamonds")),
        (DIAMONDS, DIAMONDS.replace("Diamonds", "Hearts")))
    findings = target.verify(load_game(str(file)))
    [finding] = failing(findings)
    assert finding.basis == RULEBOOK
    assert "the Ace of Diamonds prints the heart symbol, expected diamond" in finding.detail
    assert finding.detail.endswith("and 22 more")  # 26 cards, 4 named
    assert finding.where == f"{file}:{line}"
    counts = [f for f in findings if f.check in ("deck size", "unique cards", "suits")]
    assert counts and all(f.ok for f in counts)


def test_a_missing_card_fails_the_card_list(game):
    ref = load_reference()
    extra = [*ref, {**ref[0], "rank": "11", "card": "11S"}]
    [finding] = failing(reference_findings(game, extra))
    assert "the 11 of Spades is missing" in finding.detail


# -- aids and seats -----------------------------------------------------------------------------

def test_one_player_aid_per_player_with_the_turn_and_the_end(game, kit_a4, page_texts):
    [aid] = [c for c in game.components if c.kind == "aid"]
    assert aid.total == game.players[1] == 3
    manifest = json.loads(kit_a4.path.with_name("moving-target.kit.json").read_text("utf-8"))
    pages = [p["page"] for p in manifest["pages"]
             if any(piece["component"] == "aid" for piece in p.get("pieces", []))]
    text = " ".join(" ".join(page.split())
                    for page in page_texts(kit_a4.path, pages, use_text_flow=True))
    for words in ("Place one card", "At most 3 cards", "Never more than 12",
                  "the last card must touch a card of the same value"):
        assert text.count(words) == 3, words


def test_seat_0_starts():
    assert "Seat 0 starts" in mt.__doc__
    for players in (2, 3):
        assert mt.current_player(mt.new_game(players, seed=5)) == 0


def test_docstring_and_build_still_agree(kit_letter):
    assert kit_letter.path.exists() and kit_letter.pages == 24
