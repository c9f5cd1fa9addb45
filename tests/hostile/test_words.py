"""Words that cannot hurt (issue 35, deliver 5): a stranger's keys and values reach a message
escaped for the terminal and shortened (generator/core/words.py).

A terminal acts on what it is sent: ``ESC [ 2 J`` clears the screen, ``ESC ] 0 ; … BEL``
retitles the window, U+202E reverses the text after it. A message quoting a project's key,
value or file name must carry none of them, and a 1.9 MB value must not make a 1.9 MB line.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.core import paths
from generator.core.errors import DataError, reported
from generator.core.findings import Finding
from generator.core.words import LIMIT, plain, printable, safe_lines, said
from generator.core.yamlfile import format_path
from tests.designer import edit, run

HOSTILE = ["\x1b[2J", "\x1b]0;pwned\x07", "\x9b31m", "\u202eevil", "a\nb", "a\rb", "\x00",
           "\ud800"]
# What a terminal acts on: C0 and C1 controls (ESC, BEL, CSI), DEL, the bidirectional
# controls, line breaks.
ACTS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@pytest.mark.parametrize("text", HOSTILE, ids=[repr(t) for t in HOSTILE])
def test_nothing_a_terminal_acts_on_survives(text):
    for shown in (printable(text), plain(text), said(text), said([text, {text: 1}]),
                  safe_lines(text).replace("\n", " "), format_path(("tables", text, 3))):
        assert not ACTS.search(shown), repr(shown)
    assert printable("Dawn & Dusk, 10 ♠ é") == "Dawn & Dusk, 10 ♠ é"  # printable text kept


def test_values_and_keys_are_shortened():
    huge = "p" * 1_900_000
    assert said(huge) == "'" + "p" * (LIMIT - 1) + "…'"
    assert len(plain(huge)) == LIMIT and plain(huge).endswith("…")
    assert len(said(list(range(100_000)))) <= LIMIT
    assert len(said("\x1b" * 500)) <= LIMIT + 2  # escapes count: the cut is of what is shown
    assert said("Dawn") == "'Dawn'" and said(3) == "3" and said(None) == "None"
    assert said("it's") == '"it\'s"'  # quoted as repr quotes
    assert len(format_path(("tables", "k" * 10_000, 0))) < 2 * LIMIT
    assert all(len(line) <= 2000 for line in safe_lines(huge + "\n" + huge).split("\n"))


def test_a_reported_error_is_safe_whatever_it_quotes():
    exc = DataError("g\x1b]0;x\x07/game.yaml", 3, "cards[0].\x1b[2Jname", "got " + "x" * 10**6)
    text, code = reported(exc)
    assert code == 2 and not ACTS.search(text) and len(text) <= 2000
    assert "\\x1b]0;x\\x07/game.yaml:3: cards[0].\\x1b[2Jname: got xxx" in text


def test_a_finding_line_is_escaped_and_kept_whole():
    long = "an untranslated rules paragraph " * 100
    line = Finding("translation (fr)", False, f"\x1b[31m{long}", where="g/game.yaml:4").line()
    assert not ACTS.search(line) and long in line and "\\x1b[31m" in line


# -- through the command line --------------------------------------------------------------

@pytest.fixture
def project(in_tmp, capsys) -> Path:
    assert run(capsys, "init", "g")[0] == 0
    return in_tmp / "g"


def test_a_key_holding_an_escape_sequence_is_shown_escaped(project, capsys):
    line = edit(project / "game.yaml", "{name: Dawn, suit: sun, value: 1}",
                '{name: Dawn, suit: sun, value: 1, "\\e]0;pwned\\a\\e[2Jkey": 2}')
    code, out, err = run(capsys, "verify", "g")
    assert code == 2
    assert not ACTS.search(err.replace("\n", "")) and not ACTS.search(out.replace("\n", ""))
    assert f"g/game.yaml:{line}: tables.cards[0].\\x1b]0;pwned\\x07\\x1b[2Jkey: " in err


def test_a_huge_value_is_quoted_shortened(project, capsys):
    game = project / "game.yaml"
    line = edit(game, "size: poker ", 'size: "' + "p" * 1_900_000 + '" ')
    code, _, err = run(capsys, "verify", "g")
    assert code == 2
    [said_line] = [x for x in err.splitlines() if x.startswith("error:")]
    assert said_line.startswith(f"error: g/game.yaml:{line}: components[0].size: unknown size "
                                "preset 'ppp")
    assert len(said_line) < 400


def test_a_project_folder_named_with_escapes_is_shown_escaped(in_tmp, capsys):
    folder = "g\x1b]0;pwned\x07"
    assert run(capsys, "init", folder)[0] == 0
    edit(in_tmp / folder / "game.yaml", "players: [2, 4]", "players: [2, nine]")
    code, out, err = run(capsys, "verify", folder)
    assert code == 2
    assert not ACTS.search(err.replace("\n", "")) and not ACTS.search(out.replace("\n", ""))
    assert "g\\x1b]0;pwned\\x07/game.yaml:" in err


# -- one way of quoting ------------------------------------------------------------------------

# The ``!r`` left in the code, each for a reason: a value quoted in a message goes through
# ``said`` (shortened, escaped), never ``!r``.
KEPT_REPR = {
    "generator/data/translation/i18n.py":
        "the English of an untranslated text, whole for the translator",
    "generator/frontends/studio/state.py": "a digest's input, not a message",
}


def test_messages_quote_values_with_said_not_repr():
    found = {}
    for file in sorted(paths.ROOT.joinpath("generator").rglob("*.py")):
        rel = file.relative_to(paths.ROOT).as_posix()
        text = file.read_text(encoding="utf-8")
        if re.search(r"!r[}:]", text):
            found[rel] = text.count("!r")
    assert set(found) == set(KEPT_REPR), found
    assert all(count == 1 for count in found.values()), found
