"""YAML errors in plain words, at the line of the slip, with a hint (issue 27, item 4).

generator/core/yamlhints.py words what PyYAML reports for the slips designers make: an unquoted
``?`` or ``: `` inside a value, a `` #`` that makes the rest of a line a comment, a tab, a line
indented to no column above it. Each gives one error line naming file:line and saying what to
write; the line is the slip's, never the line where the parser gave up (two lines late for a
``{`` left open by a comment before a blank line). The starter project quotes what needs it."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core import paths, yamlfile
from generator.core.errors import DataError
from generator.frontends import cli

# (a slip written as one line, a word its error must hold): each would be a valid line with
# the value quoted.
SLIPS = [
    ("types: {name: str, done: bool?}", '"bool?"'),
    ("title: Moving: Target", '"Moving: Target"'),
    ("row: {text: Draw 2: discard 1}", "\"Draw 2: discard 1\""),
    ("row: {name: Card #3, suit: sun}", '"Card #3"'),
    ("list: [x, y?, z]", '"y?"'),
    ("\tkey: value", "spaces"),
    ("   key: value", "line up"),
    ("quote: 'it's'", "it''s"),
]
VALID = st.lists(st.sampled_from([
    "a: 1", "b: text with words", "c: {x: 1, y: two}", "d: [1, 2, 3]", "", "# a comment",
    "e: \"quoted: #?\"", "f:\n  - one\n  - {k: v}", "g:\n  h: 2",
]), min_size=0, max_size=8)


def error_of(tmp_path: Path, text: str) -> DataError:
    file = tmp_path / "game.yaml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        yamlfile.load_yaml(file)
    return info.value


@pytest.mark.parametrize(("slip", "hint"), SLIPS)
def test_each_slip_is_one_line_at_its_line_with_a_hint(tmp_path, slip, hint):
    text = f"id: x\ntitle: A game\n{slip}\n\n# notes\n\nplayers: [2, 4]\n"
    message = error_of(tmp_path, text).message()
    assert "\n" not in message
    assert message.startswith(f"{tmp_path / 'game.yaml'}:3: invalid YAML: ")
    assert hint in message
    assert "expected ','" not in message and "not allowed here" not in message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(before=VALID, after=VALID, slip=st.sampled_from(SLIPS))
def test_a_slip_on_any_line_is_reported_at_that_line(tmp_path, before, after, slip):
    head = "\n".join(["id: x", *before])  # a data file's first line (an indented first
    # line is no slip: YAML takes the whole file as indented)
    text = head + "\n" + slip[0] + "\n" + "\n".join(after) + "\n"
    line = head.count("\n") + 2
    message = error_of(tmp_path, text).message()
    assert message.startswith(f"{tmp_path / 'game.yaml'}:{line}: invalid YAML: ")
    assert slip[1] in message


def test_a_brace_left_open_is_reported_where_it_was_left(tmp_path):
    err = error_of(tmp_path, "a: 1\nrow: {x: 1\n\n# more\nb: 2\n")
    assert err.line == 2
    assert 'the { opened on line 2 is not closed on this line: a missing "}"' in err.message()


def test_a_quote_left_open_is_reported_where_it_opened(tmp_path):
    err = error_of(tmp_path, 'a: 1\nname: "Card\nb: 2\nc: 3\n')
    assert (err.line, err.column) == (2, 7)
    assert "never closed" in err.message()


def test_the_starter_quotes_every_type_that_needs_it():
    """Inside { } every type with a space or a sign is written in quotes, so a designer who
    copies ``int 1..9`` into ``bool?`` keeps the quotes (and each file reads as before)."""
    plain = []
    for file in sorted(paths.STARTER.rglob("*.yaml")):
        events = yaml.parse(file.read_text(encoding="utf-8"))
        depth = 0
        for event in events:
            if isinstance(event, yaml.CollectionStartEvent):
                depth += bool(event.flow_style)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= depth > 0
            elif isinstance(event, yaml.ScalarEvent) and depth and event.style is None \
                    and "{{" not in event.value and any(c in event.value for c in " ?#:."):
                plain.append(f"{file.name}: {event.value}")
    assert [p for p in plain if any(t in p for t in ("1..", " of ", "?"))] == []


@pytest.mark.slow
def test_a_designer_slip_in_the_project_fails_the_build_with_the_line(tmp_path, monkeypatch,
                                                                     capsys):
    folder = tmp_path / "mygame"
    assert cli.main(["init", str(folder)]) == 0
    game = folder / "game.yaml"
    lines = game.read_text(encoding="utf-8").splitlines()
    at = next(i for i, text in enumerate(lines) if text.startswith("  cards: {name: str"))
    lines[at] = "  cards: {name: str, suit: str, value: \"int 1..9\", wild: bool?}"
    game.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    monkeypatch.chdir(folder)
    assert cli.main(["build"]) == 2  # the project here
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert err.startswith(f"error: game.yaml:{at + 1}: invalid YAML: ")  # as seen from here
    assert 'put the value in quotes: "bool?"' in err
