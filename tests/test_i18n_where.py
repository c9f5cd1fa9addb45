"""Issue 36.2: translations reported where they are missing. A 40-card deck from a CSV with a
``name@fr`` column whose names repeat in every suit (row 35's "Four" is row 5's too): a blank
French cell is reported at its own row and column, also when its English is written as
another row's French ("Six" is French too)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.designer import run

EN = ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"]
FR = ["Un", "Deux", "Trois", "Quatre", "Cinq", "Six", "Sept", "Huit", "Neuf", "Dix"]
SUITS = ["sun", "moon", "leaf", "star"]
BLANK = (27, 35, 38)  # CSV rows (the header is row 1): Six of leaves, Four and Seven of stars


def trick_game(folder: Path, blank: tuple[int, ...] = BLANK) -> None:
    """The starter turned into a 40-card deck (4 suits x 10) read from cards.csv."""
    rows = ["name,name@fr,suit,value"]
    for suit in SUITS:
        for value, (en, fr) in enumerate(zip(EN, FR, strict=True), 1):
            rows.append(f"{en},{'' if len(rows) + 1 in blank else fr},{suit},{value}")
    (folder / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    data = folder / "game.yaml"
    text = data.read_text(encoding="utf-8")
    start, end = text.index("  # The card list"), text.index("# Column types")
    text = text[:start] + "  cards: {file: cards.csv}\n\n" + text[end:]
    leaf = "    - {id: leaf, name: Leaf, icon: leaf, colour: suit_leaf}\n"
    assert leaf in text and '"int 1..9"' in text
    text = text.replace(leaf, leaf + "    - {id: star, name: Star, icon: sun, colour: suit_sun}\n")
    text = text.replace('"int 1..9"', '"int 1..10"')
    text = text[:text.index("verify:")] + "verify:\n  - name: 40 cards\n    component: deck\n" \
                                          "    count: 40\n"
    data.write_text(text, encoding="utf-8")


@pytest.fixture
def game(in_tmp, capsys) -> Path:
    assert run(capsys, "init", "g")[0] == 0
    trick_game(in_tmp / "g")
    return in_tmp / "g"


def test_a_blank_french_cell_is_reported_at_its_own_row_and_column(game, capsys):
    code, out, err = run(capsys, "verify", "g", "--lang", "fr")
    assert code == 0, out + err
    cards = [line for line in out.splitlines() if "cards.csv" in line]
    said = [re.findall(r"'(\w+)' \((.*)\)$", line)[0] for line in cards]
    assert said == [
        ("Six", "g/cards.csv: row 27, column name@fr"),  # "Six" is row 7's French as well
        ("Four", "g/cards.csv: row 35, column name@fr"),
        ("Seven", "g/cards.csv: row 38, column name@fr"),
    ], out
    assert all("blank cell of a translated column" in line for line in cards)
    assert "row 5," not in out and "column name)" not in out


def test_a_filled_column_reports_no_cell(in_tmp, capsys):
    assert run(capsys, "init", "g")[0] == 0
    trick_game(in_tmp / "g", blank=())
    code, out, err = run(capsys, "verify", "g", "--lang", "fr")
    assert code == 0, out + err
    assert "cards.csv" not in out
    code, out, err = run(capsys, "i18n", "g", "--lang", "fr")
    assert code == 0 and "blank" not in out, out + err


def test_pnp_i18n_sends_the_translator_to_the_blank_cells_not_the_catalogue(game, capsys):
    code, out, err = run(capsys, "i18n", "g", "--lang", "fr")
    assert code == 0, out + err
    assert "3 cells of <column>@fr columns are blank: fill them in their tables" in out
    written = (game / "messages" / "fr.yaml").read_text(encoding="utf-8")
    assert '"Four"' not in written and '"Six"' not in written and '"Seven"' not in written
