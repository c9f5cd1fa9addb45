"""A game with no Python: no ``rules:`` module, its set checked by the data file's ``verify``
list (generator/rules/declarative.py, docs/declarative-checks.md). Each kind of check passes on
a good set and fails on a broken one, naming the check, what it expected, what it found and the
line of the check; a bad check or a missing rules module is a clean exit-2 error."""
from __future__ import annotations

import copy
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core import paths
from generator.core.errors import CompositionError, DataError
from generator.core.model import Component, Game, Item, Size
from generator.data import load_game
from generator.frontends.cli import main
from generator.orchestration.build import build_pdf
from generator.orchestration.composition import verify
from generator.orchestration.options import BuildOptions
from generator.rules.declarative import findings

SUITS = [{"id": "M", "name": "Moons", "icon": "spade", "colour": "suit_spades"},
         {"id": "S", "name": "Suns", "icon": "heart", "colour": "suit_hearts"},
         {"id": "K", "name": "Knots", "icon": "club", "colour": "suit_clubs"}]
NAMES = ["One", "Two", "Three", "Four", "Five", "Six"]
RANKS = [{"id": str(v), "name": NAMES[v - 1], "value": v, "pips": [[0.5, 0.5]] * v}
         for v in range(1, 7)]

# The game of docs/declarative-checks.md: a generated 18-card deck and a token sheet.
# The checks both decks below must pass: counts, per value, per combination, the product.
DECK_CHECKS: list[dict[str, Any]] = [
        {"name": "18 cards in the deck", "component": "deck", "count": 18},
        {"name": "each suit appears 6 times", "component": "deck", "per": "suit", "count": 6},
        {"name": "each suit and rank once", "component": "deck", "per": ["suit", "rank"],
         "count": 1},
        {"name": "every suit x rank card", "component": "deck",
         "product": {"suit": "suits", "rank": "ranks"}},
]

GAME: dict[str, Any] = {
    "id": "three-suits", "title": "Three Suits", "credit": "A test game.", "theme": "boxes",
    "players": [2, 4],
    "tables": {"suits": SUITS, "ranks": RANKS},
    "components": [
        {"id": "deck", "kind": "card", "name": "Cards", "size": "poker",
         "face": "playing-card", "back": "playing-card-back",
         "label": "{{ item.rank.name }} of {{ item.suit.name }}",
         "generate": {"product": {"suit": "suits", "rank": "ranks"}}},
        {"id": "tokens", "kind": "token", "name": "Tokens", "size": {"diameter": 20},
         "shape": "round", "face": "snack-token",
         "items": [{"name": "Star", "value": 2, "count": 6},
                   {"name": "Coin", "value": 1, "count": 12}]},
    ],
    "verify": [
        *DECK_CHECKS,
        {"name": "the values add up to 63", "component": "deck", "total": "rank.value",
         "is": 63},
        {"name": "no two cards share a name", "component": "deck",
         "unique": "{{ item.rank.name ~ ' of ' ~ item.suit.name }}"},
        {"name": "6 stars and 12 coins", "component": "tokens", "per": "name",
         "counts": {"Star": 6, "Coin": 12}},
        {"name": "tokens are worth 24", "component": "tokens", "total": "value", "is": 24},
        {"name": "3 high cards per suit", "component": "deck",
         "where": "{{ item.rank.value >= 4 }}", "per": "suit.name", "count": {"min": 3}},
    ],
}


def hand_deck() -> dict[str, Any]:
    """The same deck written card by card (plain values, not table rows): the shape of a deck
    a designer keeps in a list, where a card can go missing or be written twice. Its face reads
    nothing of the items (playing-card reads a suit's and a rank's rows: it would refuse these
    plain values at load, generator/data/tables/fields.py)."""
    game = copy.deepcopy(GAME)
    game["components"][0] = {
        "id": "deck", "kind": "card", "name": "Cards", "size": "poker",
        "face": "playing-card-back",
        "items": [{"name": f"{rank['name']} of {suit['name']}", "suit": suit["id"],
                   "rank": rank["value"], "points": rank["value"]}
                  for suit in SUITS for rank in RANKS]}
    game["verify"] = [
        *DECK_CHECKS,
        {"name": "the points add up to 63", "component": "deck", "total": "points", "is": 63},
        {"name": "no two cards share a name", "component": "deck", "unique": "name"},
    ]
    return game


def write(folder: Path, game: dict[str, Any], name: str = "three-suits.yaml") -> Path:
    file = folder / name
    file.write_text(yaml.safe_dump(game, sort_keys=False, width=200), encoding="utf-8")
    return file


def line_of(file: Path, text: str) -> int:
    """The line of the first ``name: TEXT`` in the file: where a check is written."""
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
        if re.search(rf"name: ['\"]?{re.escape(text)}", line):
            return number
    raise AssertionError(f"{text!r} is not in {file}")


def report(file: Path) -> dict[str, Any]:
    """The declarative findings of a data file, by check name."""
    return {f.check: f for f in verify(load_game(str(file))) if f.basis == "design"}


# -- a game with no rules module --------------------------------------------------------------

@pytest.mark.slow
def test_game_without_rules_builds_and_verifies(tmp_path, capsys):
    file = write(tmp_path, GAME)
    game = load_game(str(file))
    assert game.rules is None
    found = report(file)
    assert [name for name in found if name in {c["name"] for c in GAME["verify"]}] == [
        c["name"] for c in GAME["verify"]]
    assert all(found[c["name"]].ok for c in GAME["verify"]), [f.line() for f in found.values()]
    assert found["18 cards in the deck"].detail == "18 pieces"
    assert found["every suit x rank card"].detail == "all 18 suit x rank combinations present"

    target, pages = build_pdf(str(file), BuildOptions(out_dir=tmp_path / "out"))
    assert target == tmp_path / "out" / "three-suits" / "three-suits.pdf"
    assert target.read_bytes().startswith(b"%PDF") and pages >= 4

    assert main(["verify", str(file)]) == 0
    out = capsys.readouterr().out
    assert "Three Suits (three-suits): OK" in out
    assert "[ok  ] [design] each suit appears 6 times: 3 values of suit, 6 pieces each" in out

    assert main(["png", str(file), "--out", str(tmp_path / "png"), "--dpi", "72",
                 "--jobs", "1"]) == 0
    assert len(list((tmp_path / "png" / "three-suits").rglob("*.png"))) >= 20


def test_the_documented_example_passes(tmp_path):
    """docs/declarative-checks.md's complete example loads and every check holds."""
    text = (paths.ROOT / "docs" / "declarative-checks.md").read_text(encoding="utf-8")
    example = text.split("## A complete example", 1)[1].split("```yaml\n", 1)[1]
    file = tmp_path / "three-suits.yaml"
    file.write_text(example.split("```", 1)[0], encoding="utf-8")
    found = report(file)
    checks = [f for f in found.values() if f.where.startswith(str(file) + ":")]
    assert len(checks) == 9 and all(f.ok for f in checks), [f.line() for f in checks]


def test_a_failing_check_fails_verify_and_stops_the_build(tmp_path, capsys):
    game = copy.deepcopy(GAME)
    game["components"][1]["items"][0]["count"] = 5  # one Star short
    file = write(tmp_path, game)
    assert main(["verify", str(file)]) == 1
    out = capsys.readouterr().out
    line = line_of(file, "6 stars and 12 coins")
    star = line_of(file, "Star")  # the token item, whose five copies are one short
    assert (f"[FAIL] [design] 6 stars and 12 coins: name Star: 5 pieces, 6 expected "
            f"({file}:{star} x5) ({file}:{line})") in out
    assert "[FAIL] [design] tokens are worth 24: expected total value 24, found 22" in out
    assert "Three Suits (three-suits): 2 FAILED" in out

    with pytest.raises(CompositionError, match="6 stars and 12 coins"):
        build_pdf(str(file), BuildOptions(out_dir=tmp_path / "out"))
    assert not (tmp_path / "out" / "three-suits" / "three-suits.pdf").exists()
    assert main(["build", str(file), "--out", str(tmp_path / "out")]) == 2
    assert "6 stars and 12 coins" in capsys.readouterr().err
    target, _ = build_pdf(str(file), BuildOptions(out_dir=tmp_path / "out", force=True))
    assert target.exists()


# -- each kind, on a good and a broken deck ----------------------------------------------------

def test_hand_written_deck_passes(tmp_path):
    found = report(write(tmp_path, hand_deck()))
    assert all(f.ok for f in found.values()), [f.line() for f in found.values()]


def _without(suit: str, rank: int) -> dict[str, Any]:
    game = hand_deck()
    items = game["components"][0]["items"]
    items[:] = [i for i in items if (i["suit"], i["rank"]) != (suit, rank)]
    return game


def _duplicate() -> dict[str, Any]:
    """The Four of Moons printed as a second Three of Moons."""
    game = hand_deck()
    for item in game["components"][0]["items"]:
        if (item["suit"], item["rank"]) == ("M", 4):
            item.update(name="Three of Moons", rank=3, points=3)
    return game


def _points(delta: int) -> dict[str, Any]:
    game = hand_deck()
    game["components"][0]["items"][0]["points"] += delta
    return game


def _stray() -> dict[str, Any]:
    game = hand_deck()
    game["components"][0]["items"][0]["suit"] = "X"
    return game


BROKEN = [
    # (how the deck is broken, check, expected and found as the finding words them)
    (_without("M", 4), "18 cards in the deck", "expected 18 pieces, found 17"),
    (_without("M", 4), "each suit appears 6 times", "expected 6 pieces per suit, found M 5"),
    (_without("M", 4), "every suit x rank card",
     "expected all 18 suit x rank combinations, missing (M, 4)"),
    (_without("M", 4), "the points add up to 63", "expected total points 63, found 59"),
    (_duplicate(), "no two cards share a name",
     "expected no two pieces with the same name, found Three of Moons 2 times"),
    (_duplicate(), "each suit and rank once",
     "expected 1 piece per (suit, rank), found (M, 3) 2"),
    (_duplicate(), "every suit x rank card", "missing (M, 4)"),
    (_points(+2), "the points add up to 63", "expected total points 63, found 65"),
    (_stray(), "every suit x rank card", "deck item 1 (One of Moons): suit X is no row of "
                                         "suits"),
]


@pytest.mark.parametrize(("game", "check", "detail"), BROKEN,
                         ids=[f"{c}: {d[:30]}" for _, c, d in BROKEN])
def test_each_kind_fails_naming_check_expected_and_found(tmp_path, game, check, detail):
    file = write(tmp_path, game)
    finding = report(file)[check]
    assert not finding.ok
    assert detail in finding.detail
    assert finding.where == f"{file}:{line_of(file, check)}"
    assert finding.line().startswith(f"  [FAIL] [design] {check}: ")


def test_product_with_a_count_and_a_range(tmp_path):
    game = _duplicate()
    game["verify"] = [
        {"name": "each card once", "component": "deck", "count": 1,
         "product": {"suit": "suits", "rank": "ranks"}},
        {"name": "two to six per suit", "component": "deck", "per": "suit",
         "count": {"min": 2, "max": 6}},
        {"name": "at most 5 per suit", "component": "deck", "per": "suit",
         "count": {"max": 5}},
        {"name": "moons only", "component": "deck", "where": {"suit": "M"}, "count": 6},
    ]
    file = write(tmp_path, game)
    found = report(file)
    assert found["each card once"].detail == (
        "expected each of the 18 suit x rank combinations on 1 piece, found (M, 3) 2, (M, 4) 0")
    assert found["two to six per suit"].ok
    lines = {name: line_of(file, name) for name in ("One of Moons", "One of Suns",
                                                     "One of Knots")}
    # Each suit's six cards, by the lines of their items (four lines each, in order).
    runs = [", ".join(str(lines[first] + 4 * k) for k in range(6)) for first in lines]
    assert found["at most 5 per suit"].detail == (
        f"expected at most 5 pieces per suit, found M 6 ({file}: lines {runs[0]}), "
        f"S 6 ({file}: lines {runs[1]}), K 6 ({file}: lines {runs[2]})")
    assert found["moons only"].ok


def test_a_missing_field_fails_naming_the_piece(tmp_path):
    game = hand_deck()
    game["verify"] = [{"name": "per colour", "component": "deck", "per": "colour", "count": 6}]
    finding = report(write(tmp_path, game))["per colour"]
    assert not finding.ok
    assert finding.detail == ("deck item 1 (One of Moons) has no field 'colour' (its fields: "
                              "name, suit, rank, points)")


# -- bad checks and missing rules: exit 2, file:line:field ------------------------------------

BAD_SPECS = [
    ({"name": "x", "component": "dek", "count": 1}, "verify[0].component",
     "unknown component 'dek'; components: deck, tokens"),
    ({"name": "x", "component": "deck", "count": 1, "unique": "name"}, "verify[0]",
     "'count' does not go with 'unique'"),
    ({"name": "x", "component": "deck", "counts": {"M": 6}}, "verify[0]",
     "'counts' needs 'per' naming one field"),
    ({"name": "x", "component": "deck", "total": "points"}, "verify[0]",
     "'total' and 'is' go together"),
    ({"name": "x", "component": "deck", "product": {"suit": "suitz"}},
     "verify[0].product.suit", "unknown table 'suitz'"),
    ({"name": "x", "component": "deck", "per": "{{ item. }}", "count": 1}, "verify[0].per",
     "invalid expression"),
    ({"name": "x", "component": "deck", "count": {"min": 3, "max": 1}}, "verify[0].count",
     "min (3) is more than max (1)"),
    ({"name": "x", "component": "deck", "count": 18, "colour": "red"}, "verify[0].colour",
     "unknown field"),
    ({"component": "deck", "count": 18}, "verify[0].name", "required field is missing"),
]


@pytest.mark.parametrize(("spec", "field", "expected"), BAD_SPECS,
                         ids=[e[:30] for _, _, e in BAD_SPECS])
def test_a_bad_check_is_a_data_error_at_its_line(tmp_path, capsys, spec, field, expected):
    game = copy.deepcopy(GAME)
    game["verify"] = [spec]
    file = write(tmp_path, game)
    with pytest.raises(DataError) as caught:
        load_game(str(file))
    error = caught.value
    assert error.file == str(file) and error.field == field and expected in error.expected
    lines = file.read_text(encoding="utf-8").splitlines()
    assert error.line is not None and lines.index("verify:") < error.line <= len(lines)
    assert main(["verify", str(file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {file}:{error.line}: {field}:") and "Traceback" not in err


def test_an_expression_that_fails_on_a_piece_is_a_data_error(tmp_path):
    game = copy.deepcopy(GAME)
    game["verify"] = [{"name": "odd", "component": "deck", "per": "{{ item.nope }}",
                       "count": 1}]
    file = write(tmp_path, game)
    with pytest.raises(DataError, match=re.escape("'odd': in '{{ item.nope }}'")) as caught:
        verify(load_game(str(file)))
    assert caught.value.line == line_of(file, "odd")


def test_a_missing_rules_module_is_a_clean_error(tmp_path, capsys):
    game = {"rules": "no_such_game", **copy.deepcopy(GAME)}
    file = write(tmp_path, game)
    assert main(["build", str(file), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {file}:1: rules: no rules module 'no_such_game'")
    assert "Traceback" not in err and "ModuleNotFoundError" not in err
    assert not (tmp_path / "out").exists()


def test_a_rules_module_that_cannot_be_imported_names_the_rules_line(tmp_path):
    """The loader checks the name; should the module still fail to import, the error points
    at the ``rules:`` line, never a traceback."""
    from dataclasses import replace

    from generator import rules

    lines = yaml.safe_dump(GAME, sort_keys=False, width=200).splitlines()
    lines.insert(3, "rules: moving_target")
    file = tmp_path / "three-suits.yaml"
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    game = replace(load_game(str(file)), rules="gone_missing")
    with pytest.raises(DataError) as caught:
        rules.engine(game)
    assert (caught.value.file, caught.value.line, caught.value.field) == (str(file), 4, "rules")
    assert "cannot load the rules module 'gone_missing'" in caught.value.expected


# -- simulate and preview without an engine ---------------------------------------------------

NO_ENGINE = "three-suits has no play engine (no `rules:` module); nothing to simulate"


def test_simulate_says_there_is_no_engine(tmp_path, capsys):
    file = write(tmp_path, GAME)
    assert main(["simulate", str(file), "--n", "5", "--out", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == f"error: {NO_ENGINE}"
    assert not list(tmp_path.rglob("*.png"))


def test_simulate_every_game_skips_one_without_engine(tmp_path, capsys, monkeypatch):
    card_data = tmp_path / "card_data"
    card_data.mkdir()
    write(card_data, GAME)
    shutil.copy(paths.CARD_DATA / "moving-target.yaml", card_data)
    monkeypatch.setattr(paths, "CARD_DATA", card_data)
    code = main(["simulate", "--n", "5", "--players", "2", "--jobs", "1",
                 "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0
    assert NO_ENGINE in out.splitlines()
    assert "== Moving Target, 2 players ==" in out


@pytest.mark.slow
def test_preview_shows_the_kit_without_simulation(tmp_path):
    from generator.orchestration.exporters.preview import write_preview

    file = write(tmp_path, GAME)
    page = write_preview(BuildOptions(out_dir=tmp_path / "out"), n_games=5,
                         games_wanted=[str(file)])
    html = page.read_text(encoding="utf-8")
    assert NO_ENGINE.replace("`", "&#96;") in html or NO_ENGINE in html
    assert "Three Suits" in html and "18 pieces" in html and "each suit appears 6 times" in html
    assert len(list((tmp_path / "out" / "three-suits" / "png" / "deck").glob("*.png"))) >= 3
    assert not list(page.parent.glob("three-suits-sim*.png"))


# -- properties --------------------------------------------------------------------------------

def _game(values: list[tuple[str, int, int]], checks: list[dict[str, Any]]) -> Game:
    """A game in memory: one component of items (suit, points, count)."""
    items = tuple(Item({"name": f"card {i}", "suit": suit, "points": points}, count)
                  for i, (suit, points, count) in enumerate(values))
    comp = Component("deck", "card", "Cards", Size(63.5, 88.9), "playing-card", items)
    return Game("g", "G", "c", None, (2, 2), (comp,), "standard",
                {"verify": checks, "tables": {}}, Path("g.yaml"))


PIECES = st.lists(st.tuples(st.sampled_from("ABCDE"), st.integers(-5, 9), st.integers(1, 4)),
                  min_size=1, max_size=25)


@settings(max_examples=60, deadline=None)
@given(values=PIECES, n=st.integers(1, 8))
def test_counts_per_value_match_a_plain_count(values, n):
    per_suit: Counter[str] = Counter()
    for suit, _, count in values:
        per_suit[suit] += count
    total = sum(points * count for _, points, count in values)
    checks = [{"name": "per", "component": "deck", "per": "suit", "count": n},
              {"name": "exact", "component": "deck", "per": "suit", "counts": dict(per_suit)},
              {"name": "all", "component": "deck", "count": sum(per_suit.values())},
              {"name": "total", "component": "deck", "total": "points", "is": total},
              {"name": "unique", "component": "deck", "unique": "name"}]
    found = {f.check: f for f in findings(_game(values, checks))}
    assert found["per"].ok == all(c == n for c in per_suit.values())
    if not found["per"].ok:
        wrong = [f"{s} {c} (" for s, c in per_suit.items() if c != n]
        assert found["per"].detail.startswith(f"expected {n} piece")
        assert all(part in found["per"].detail for part in wrong)
    assert found["exact"].ok and found["all"].ok and found["total"].ok
    assert found["unique"].ok == all(count == 1 for _, _, count in values)


@settings(max_examples=40, deadline=None)
@given(values=PIECES, extra=st.sampled_from("ABCDEF"))
def test_exact_counts_name_the_value_off(values, extra):
    per_suit: Counter[str] = Counter()
    for suit, _, count in values:
        per_suit[suit] += count
    wanted = dict(per_suit)
    wanted[extra] = wanted.get(extra, 0) + 1
    checks = [{"name": "exact", "component": "deck", "per": "suit", "counts": wanted}]
    finding = findings(_game(values, checks))[0]
    assert not finding.ok
    have = per_suit.get(extra, 0)
    assert (f"suit {extra}: {have} card{'' if have == 1 else 's'}, {wanted[extra]} expected"
            in finding.detail)


def test_the_expressions_of_a_verify_list_are_bounded(tmp_path, monkeypatch):
    from generator.rules import declarative

    monkeypatch.setattr(declarative, "MAX_EVALUATIONS", 5)
    file = write(tmp_path, GAME)  # its "no two cards share a name" evaluates 18 expressions
    with pytest.raises(DataError, match="evaluates more than 5 expressions") as caught:
        verify(load_game(str(file)))
    assert caught.value.line == line_of(file, "no two cards share a name")


# -- complete: every combination, not only those that occur ---------------------------------

def _complete(complete: Any, game: dict[str, Any] | None = None) -> dict[str, Any]:
    game = game or _without("M", 4)
    check: dict[str, Any] = {"name": "each suit and rank once", "component": "deck",
                             "per": ["suit", "rank"], "count": 1}
    if complete is not None:
        check["complete"] = complete
    game["verify"] = [check]
    return game


@pytest.mark.slow
def test_a_per_check_missing_a_combination_warns_and_complete_fails(tmp_path, capsys):
    """`per: [suit, rank]`, `count: 1` holds for the 17 combinations that occur, so with a
    card missing it warns (verify exits 0, --strict 1, a build goes on); with `complete:
    true` the Four of Moons is missing and the build stops."""
    file = write(tmp_path, _complete(None))
    found = report(file)["each suit and rank once"]
    assert (found.ok, found.warn) == (False, True)
    assert found.detail == (
        "17 values of (suit, rank), 1 piece each, but only 17 of the 3 x 6 = 18 combinations "
        "of (suit, rank) occur, missing (M, 4): add 'complete: true' to require them all, or "
        "'complete: false' if the gaps are meant")
    assert found.line().startswith("  [WARN] [design] each suit and rank once: ")
    assert main(["verify", str(file)]) == 0
    assert main(["verify", str(file), "--strict"]) == 1
    capsys.readouterr()
    assert main(["build", str(file), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "three-suits" / "three-suits.pdf").is_file()

    file = write(tmp_path, _complete(True))
    found = report(file)["each suit and rank once"]
    assert (found.ok, found.warn) == (False, False)
    assert found.detail == ("expected 1 piece per (suit, rank), for each of the 3 x 6 = 18 "
                            "combinations of (suit, rank), missing (M, 4)")
    assert main(["build", str(file), "--out", str(tmp_path / "out2")]) == 2
    assert "missing (M, 4)" in capsys.readouterr().err

    found = report(write(tmp_path, _complete(False)))["each suit and rank once"]
    assert found.ok and found.detail == "17 values of (suit, rank), 1 piece each"
    found = report(write(tmp_path, _complete(True, hand_deck())))["each suit and rank once"]
    assert found.ok and found.detail == (
        "all the 3 x 6 = 18 combinations of (suit, rank), 1 piece each")


def test_complete_takes_a_fields_values_from_a_table_or_a_range(tmp_path):
    """Values that never occur are missed only when declared: a suit of the table with no
    card at all, ranks 1-7 where the deck stops at 6; a value outside the declared ones fails
    too."""
    game = hand_deck()
    game["components"][0]["items"] = [i for i in game["components"][0]["items"]
                                      if i["suit"] != "K"]  # no Knots at all
    found = report(write(tmp_path, _complete({"suit": "suits"}, game)))
    assert found["each suit and rank once"].detail == (
        "expected 1 piece per (suit, rank), for each of the 3 x 6 = 18 combinations of "
        "(suit, rank), missing (K, 1), (K, 2), (K, 3), (K, 4), (K, 5), (K, 6)")
    found = report(write(tmp_path, _complete({"rank": {"min": 1, "max": 7}}, hand_deck())))
    assert found["each suit and rank once"].detail == (
        "expected 1 piece per (suit, rank), for each of the 3 x 7 = 21 combinations of "
        "(suit, rank), missing (M, 7), (S, 7), (K, 7)")
    file = write(tmp_path, _complete({"rank": {"min": 1, "max": 5}}, hand_deck()))
    found = report(file)
    six = [line_of(file, f"Six of {suit}") for suit in ("Moons", "Suns", "Knots")]
    assert found["each suit and rank once"].detail.endswith(
        f"found values outside it: (M, 6) ({file}:{six[0]}), (S, 6) ({file}:{six[1]}), "
        f"(K, 6) ({file}:{six[2]})")
    many = _complete({"suit": {"min": 0, "max": 9999}, "rank": {"min": 0, "max": 9999}},
                     hand_deck())
    detail = report(write(tmp_path, many))["each suit and rank once"].detail
    assert "100000000 combinations" in detail and "and 99999990 more" in detail


COMPLETE_SPECS = [
    ({"name": "x", "component": "deck", "count": 18, "complete": True}, "verify[0]",
     "'complete' goes with 'per' and 'count'"),
    ({"name": "x", "component": "deck", "per": ["suit", "rank"], "count": 1,
      "complete": {"colour": "suits"}}, "verify[0]",
     "'complete' names 'colour', which is not one of 'per' (suit, rank)"),
    ({"name": "x", "component": "deck", "per": ["suit", "rank"], "count": 1,
      "complete": {"suit": "suitz"}}, "verify[0].complete.suit", "unknown table 'suitz'"),
    ({"name": "x", "component": "deck", "per": ["suit", "rank"], "count": 1,
      "complete": {"rank": {"min": 0, "max": 10**5}}}, "verify[0].complete",
     "a range of at most 10000 values"),
]


@pytest.mark.parametrize(("spec", "field", "expected"), COMPLETE_SPECS,
                         ids=[e[:30] for _, _, e in COMPLETE_SPECS])
def test_a_bad_complete_is_a_data_error_at_its_line(tmp_path, spec, field, expected):
    game = copy.deepcopy(GAME)
    game["verify"] = [spec]
    file = write(tmp_path, game)
    with pytest.raises(DataError) as caught:
        load_game(str(file))
    assert caught.value.field.startswith(field) and expected in caught.value.expected, \
        (caught.value.field, caught.value.expected)
    assert caught.value.line is not None


@settings(max_examples=60, deadline=None)
@given(values=PIECES, complete=st.sampled_from([None, True, False]))
def test_complete_fails_exactly_when_a_combination_of_the_values_seen_is_missing(values,
                                                                                 complete):
    """Against the plain definition: the combinations of the suits seen and the points
    seen, each printed at least once."""
    per: Counter[tuple[str, int]] = Counter()
    for suit, points, count in values:
        per[suit, points] += count
    suits, points = {s for s, _ in per}, {p for _, p in per}
    missing = [(s, p) for s in suits for p in points if (s, p) not in per]
    check = {"name": "c", "component": "deck", "per": ["suit", "points"],
             "count": {"min": 1}}
    if complete is not None:
        check["complete"] = complete
    finding = findings(_game(values, [check]))[0]
    assert finding.ok == (not missing or complete is False)
    assert finding.warn == bool(missing and complete is None)
    if missing and complete is not False:
        if len(missing) > 10:  # the first ten named, and how many more
            assert f" and {len(missing) - 10} more" in finding.detail
        else:
            assert all(f"({s}, {p})" in finding.detail for s, p in missing)
        assert f"{len(suits)} x {len(points)} = {len(suits) * len(points)}" in finding.detail
