"""Table joins (issue 27.7): a column declared ``{table: suits}`` holds, once every table is
read, the row it names, so a face reads ``item.suit.colour`` without Jinja's selectattr;
a value naming no row is an error at its own cell or line. The starter uses it."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.errors import DataError
from generator.data import load_game
from generator.frontends.cli import main
from tests.designer import edit

CARDS = 'cards: {name: str, suit: {table: suits}, value: "int 1..9"}'


def cards(join: str) -> tuple[str, str]:
    """The starter's card columns, and the same with another join for the suit."""
    return CARDS, CARDS.replace("{table: suits}", join)


def starter(tmp_path: Path) -> Path:
    assert main(["init", str(tmp_path / "g")]) == 0
    return tmp_path / "g" / "game.yaml"



def error(file: Path) -> DataError:
    with pytest.raises(DataError) as caught:
        load_game(str(file))
    return caught.value


def test_the_starter_joins_each_card_to_its_suit(tmp_path):
    game = load_game(str(starter(tmp_path)))
    dawn = game.data["tables"]["cards"][0]
    assert dawn["suit"] == {"id": "sun", "name": "Sun", "icon": "sun", "colour": "suit_sun"}
    deck = next(c for c in game.components if c.id == "deck")
    assert deck.items[0].data["suit"]["colour"] == "suit_sun"


def test_a_card_of_no_suit_is_an_error_at_its_line(tmp_path, capsys):
    data = starter(tmp_path)
    line = edit(data, "{name: Dawn, suit: sun, value: 1}", "{name: Dawn, suit: star, value: 1}")
    found = error(data)
    assert (found.line, found.field) == (line, "tables.cards[0].suit")
    assert "an id of table suits (leaf, moon, sun), got 'star'" in found.expected
    assert main(["build", str(data.parent)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {data}:{line}: tables.cards[0].suit: ")
    assert "Traceback" not in err


def test_a_join_by_another_column_and_from_a_csv_table(tmp_path):
    data = starter(tmp_path)
    text = data.read_text(encoding="utf-8")
    start = text.index("  cards:\n")
    end = text.index("\n\n", start)
    data.write_text(text[:start] + "  cards: {file: cards.csv}" + text[end:], encoding="utf-8")
    (data.parent / "cards.csv").write_text(
        "name,suit,value\nDawn,Sun,1\nNew Moon,Moon,1\n", encoding="utf-8")
    edit(data, *cards("{table: suits, by: name}"))
    game = load_game(str(data))
    rows = game.data["tables"]["cards"]
    assert [r["suit"]["id"] for r in rows] == ["sun", "moon"]
    (data.parent / "cards.csv").write_text("name,suit,value\nDawn,Sunne,1\n", encoding="utf-8")
    found = error(data)
    assert str(found.file).endswith("cards.csv") and "got 'Sunne'" in found.expected


def test_an_optional_join_may_be_left_empty(tmp_path):
    """The join lets a card go without a suit; the card face still needs one, and says so at
    the card's line (its ``fields:``), not while drawing."""
    data = starter(tmp_path)
    edit(data, *cards("{table: suits, optional: true}"))
    line = edit(data, "{name: Dawn, suit: sun, value: 1}", "{name: Dawn, value: 1}")
    found = error(data)
    assert (found.line, found.field) == (line, "tables.cards[0].suit"), str(found)


@pytest.mark.parametrize(("old", "new", "expected"), [
    (*cards("{table: suits, colour: red}"),
     "a join is {table: T} with optional 'by' and 'optional'; unknown colour"),
    (*cards("{table: suitz}"), "the game has no table 'suitz'"),
    (*cards("{table: suits, by: 3}"), "a join's 'by' is a column's name"),
    ("suits: {id: str, name: str, icon: name, colour: name}",
     "suits: {id: str, name: str, icon: name, colour: name, twin: {table: suits, "
     "optional: true}}",
     "joins table 'suits', which joins tables itself; a join is one level"),
    (*cards("{table: suits, by: icon}"), "an icon of table suits (leaf, suit-moons, sun), got "
                                         "'moon'"),
])
def test_a_bad_join_is_an_error_at_its_declaration(tmp_path, old, new, expected):
    data = starter(tmp_path)
    edit(data, old, new)
    found = error(data)
    assert expected in str(found), str(found)


BOARD_FACE = """\
vars:
  g: "{{ component.grid }}"
elements:
  - each: "{{ range(g.rows * g.cols) }}"
    as: n
    do:
      - rect: {x: "{{ g.border + (n % g.cols) * (g.cell.w + g.gap) }}",
               y: "{{ g.border + (n // g.cols) * (g.cell.h + g.gap) }}",
               w: "{{ g.cell.w }}", h: "{{ g.cell.h }}", stroke: "#000000", width: 0.3}
  - text: {x: 0, y: 0, w: "{{ component.size.w }}", h: 4, size: 8,
           text: "{{ g.rows }} x {{ g.cols }}, {{ component.size.w }} mm"}
"""


@pytest.mark.slow
def test_a_grid_boards_face_reads_the_grid_it_is_drawn_on(tmp_path, page_shapes, page_texts):
    """A board's size is written once (``size: {grid: ...}``): its face reads the rows,
    columns, gap, border and cell size as ``component.grid`` and its trim as
    ``component.size`` instead of repeating them in ``params``."""
    data = starter(tmp_path)
    (data.parent / "faces" / "my-board.yaml").write_text(BOARD_FACE, encoding="utf-8")
    text = data.read_text(encoding="utf-8")
    board = ("  - id: board\n    kind: board\n    name: Board\n    face: my-board\n"
             "    assembly: Cut out the board.\n"
             "    size: {grid: {cell: {w: 20, h: 15}, rows: 3, cols: 4, gap: 2, border: 5}}\n")
    assert text.count("\n# What a correct set") == 1
    data.write_text(text.replace("\n# What a correct set", board + "\n# What a correct set"),
                    encoding="utf-8")
    game = load_game(str(data))
    grid = next(c for c in game.components if c.id == "board").grid
    assert grid == {"rows": 3, "cols": 4, "gap": 2, "border": 5, "cell": {"w": 20, "h": 15}}
    assert main(["build", str(data.parent), "--out", str(tmp_path / "out")]) == 0
    pdf = tmp_path / "out" / "g" / "g.pdf"
    page = next(n for n, t in enumerate(page_texts(pdf), 1) if "3 x 4, 96.0 mm" in t)
    rects = page_shapes(pdf, page)["rects"]
    cells = [r for r in rects if abs(r["width"] - 20 * 72 / 25.4) < 0.05
             and abs(r["height"] - 15 * 72 / 25.4) < 0.05]
    assert len(cells) == 12


def test_a_bad_column_type_is_one_error_not_one_per_row(tmp_path, capsys):
    """The declaration is wrong, not the 18 rows: one line, at the declaration."""
    data = starter(tmp_path)
    edit(data, *cards('{table: suits, by: "../x"}'))
    capsys.readouterr()
    assert main(["verify", str(data.parent)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a join's 'by' is a column's name, got '../x'" in err[0], err
