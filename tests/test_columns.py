"""Declared column types: a bad table value fails at the data file's own line and field."""
from __future__ import annotations

import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.core import paths
from generator.core.errors import DataError
from generator.data import load_game
from generator.data.tables.columns import parse_type


@pytest.mark.parametrize(("old", "new", "field", "expected"), [
    ("{id: \"4\", name: Four, value: 4,", "{id: \"4\", name: Four, value: many,",
     "tables.ranks[3].value", "a whole number from 1 to 13"),
    ("{id: J, name: Jack, value: 11,", "{id: J, name: Jack, value: 14,",
     "tables.ranks[10].value", "a whole number from 1 to 13, got 14"),
    ("{id: A, name: Ace, value: 1, pips: [], ace: true}",
     "{id: A, name: Ace, value: 1, pips: 3, ace: true}", "tables.ranks[0].pips",
     "a list of an [x, y] pair"),
    ("{id: A, name: Ace, value: 1, pips: [], ace: true}",
     "{id: A, name: Ace, value: 1, pips: [], ace: yes please}", "tables.ranks[0].ace",
     "true or false"),
    ("{id: S, name: Spades, icon: spade, colour: suit_spades}",
     "{id: S, name: Spades, icon: ../../etc/passwd, colour: suit_spades}",
     "tables.suits[0].icon", "a name"),
    ("{id: S, name: Spades, icon: spade, colour: suit_spades}",
     "{id: S, name: Spades, icon: spade, colour: suit_spades, colur: red}",
     "tables.suits[0].colur", "unknown column 'colur'"),
    ("{id: S, name: Spades, icon: spade, colour: suit_spades}",
     "{id: S, name: Spades, colour: suit_spades}", "tables.suits[0]",
     "missing column 'icon'"),
])
def test_bad_value_is_reported_at_its_row(game_file, old, new, field, expected):
    file, lines = game_file((old, new))
    with pytest.raises(DataError) as info:
        load_game(str(file))
    errors = getattr(info.value, "errors", [info.value])
    hit = [e for e in errors if e.field == field]
    assert hit, [e.message() for e in errors]
    assert hit[0].file == str(file) and hit[0].line == lines[0]
    assert expected in hit[0].expected


def test_error_in_an_included_deck_names_that_file(tmp_path):
    for name in ("monster-day.yaml", "decktet.yaml", "decktet-moving-day.yaml"):
        shutil.copy(paths.CARD_DATA / name, tmp_path / name)
    deck = tmp_path / "decktet.yaml"
    text = deck.read_text(encoding="utf-8")
    old = "{name: the AUTHOR, kind: numeral, rank: 2,"
    line = text[: text.index(old)].count("\n") + 1
    deck.write_text(text.replace(old, "{name: the AUTHOR, kind: numeral, rank: 12,"),
                    encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_game(str(tmp_path / "monster-day.yaml"))
    errors = getattr(info.value, "errors", [info.value])
    assert [(e.file, e.line, e.field) for e in errors] == [
        (str(deck), line, "tables.decktet_cards[6].rank")]


@pytest.mark.parametrize("bad", ["", "integer", "int 5..1", "int one..two", "bool 1..3",
                                 "str 0.5..3", "list of", "one of",
                                 "list of int, at most many", "list of int, at least 3, at most 2",
                                 7])
def test_bad_type_declarations_are_refused(bad):
    with pytest.raises(ValueError):
        parse_type(bad)


@given(st.integers(-50, 50), st.integers(0, 50), st.integers(-1000, 1000))
def test_int_ranges_accept_exactly_their_members(low, span, value):
    kind = parse_type(f"int {low}..{low + span}")
    assert kind.accepts(value) == (low <= value <= low + span)
    assert not kind.accepts(float(value) + 0.5)
    assert not kind.accepts(True) and not kind.accepts(str(value))


@given(st.lists(st.tuples(st.floats(-5, 5), st.floats(-5, 5)), max_size=12))
def test_point_lists_respect_their_limit(points):
    kind = parse_type("list of point, at most 10")
    assert kind.accepts([list(p) for p in points]) == (len(points) <= 10)
    assert parse_type("list of point?").optional
