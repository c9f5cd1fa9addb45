"""Issue 36.2: translations reported where they are missing, catalogues kept as written, and
pieces named in the kit's language. A 40-card deck from a CSV with a
``name@fr`` column whose names repeat in every suit (row 35's "Four" is row 5's too): a blank
French cell is reported at its own row and column, also when its English is written as
another row's French ("Six" is French too)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.designer import edit, run

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


# A translator's own catalogue: comments of theirs, a folded block, an EOL comment, one text
# left to do, in their order (not the tool's).
HAND = '''\
# Traduction de G, relue à la main.
strings:
  # Le titre reste le même.
  "G": G
  "Score tokens": Jetons de score
  "A print-and-play game by you. Made with pnp.": >
    Un jeu à imprimer et à jouer,
    fait par vous avec pnp.
  Cards: Cartes   # le paquet

  # Pas encore : l'accord du pluriel.
  "{{ item.value }} point{{ 's' if item.value > 1 else '' }}": ""
'''


@pytest.mark.slow  # over tests/lanes.py's budget
def test_pnp_i18n_leaves_a_hand_written_catalogue_as_it_was_written(game, capsys):
    catalogue = game / "messages" / "fr.yaml"
    catalogue.parent.mkdir()
    catalogue.write_bytes(HAND.encode("utf-8"))
    code, out, err = run(capsys, "i18n", "g", "--lang", "fr")
    assert code == 0, out + err
    assert "up to date (1 texts to translate)" in out, out
    assert catalogue.read_bytes() == HAND.encode("utf-8")  # nothing changed: the same bytes
    assert not catalogue.with_name("fr.yaml.bak").exists()
    code, out, err = run(capsys, "verify", "g", "--lang", "fr")
    assert code == 0 and "'Cards'" not in out and "A print-and-play" not in out, out

    # A wording changes: the new text is added, the old translation goes to obsolete with
    # its comment; everything else stays as the translator wrote it.
    edit(game / "game.yaml", "name: Cards\n", "name: Playing cards\n")
    code, out, err = run(capsys, "i18n", "g", "--lang", "fr")
    assert code == 0, out + err
    assert "2 texts to translate, 3 translations kept, 1 marked obsolete" in out, out
    written = catalogue.read_text(encoding="utf-8")
    strings, obsolete = written.split("\nobsolete:\n")
    assert strings == HAND.replace("  Cards: Cartes   # le paquet\n", "") + (
        "  # game.yaml:32\n"
        '  "Playing cards": ""\n'
        "# Texts the kit no longer prints (a wording changed): kept for reference.")
    assert obsolete == "  Cards: Cartes   # le paquet\n"
    assert catalogue.with_name("fr.yaml.bak").read_bytes() == HAND.encode("utf-8")


FRENCH = '''\
strings:
  "G": Le jeu G
  "Cards": Cartes
  "Score tokens": Jetons de score
  "A print-and-play game by you. Made with pnp.": Un jeu à imprimer, fait par vous.
  "{{ item.value }} point{{ 's' if item.value > 1 else '' }}": "jeton de {{ item.value }}"
'''


@pytest.mark.slow  # over tests/lanes.py's budget
def test_a_french_tts_export_names_its_decks_pieces_and_save_in_french(game, capsys):
    (game / "messages").mkdir()
    (game / "messages" / "fr.yaml").write_text(FRENCH, encoding="utf-8")
    code, out, err = run(capsys, "tts", "g", "--lang", "fr", "--out", "out")
    assert code == 0, out + err
    save = json.loads((game.parent / "out" / "g" / "tts.fr" / "g.json").read_text("utf-8"))
    assert save["SaveName"] == save["GameMode"] == "Le jeu G"
    objects = save["ObjectStates"]
    (deck,) = [o for o in objects if o["Name"] == "DeckCustom"]
    assert (deck["Nickname"], deck["Description"]) == ("Cartes", "Cartes")
    cards = [card["Nickname"] for card in deck["ContainedObjects"]]
    assert cards[:4] == ["Un", "Deux", "Trois", "Quatre"]  # the name@fr column
    assert cards[33] == "Four"  # row 35: its cell is blank
    tokens = [o for o in objects if o["Name"] != "DeckCustom"]
    assert {(o["Nickname"], o["Description"]) for o in tokens} == {
        ("jeton de 1", "Jetons de score"), ("jeton de 5", "Jetons de score")}
    # The English export keeps the English names.
    code, out, err = run(capsys, "tts", "g", "--out", "out")
    assert code == 0, out + err
    save = json.loads((game.parent / "out" / "g" / "tts" / "g.json").read_text("utf-8"))
    assert save["SaveName"] == "G"
    assert {o["Nickname"] for o in save["ObjectStates"]} >= {"Cards", "1 point", "5 points"}


def test_a_label_without_a_translation_is_reported_at_its_line(game, capsys):
    line = next(n for n, text in enumerate(
        (game / "game.yaml").read_text(encoding="utf-8").splitlines(), 1)
        if text.strip().startswith("label: \"{{ item.value }} point"))
    code, out, err = run(capsys, "verify", "g", "--lang", "fr")
    assert code == 0, out + err
    assert "no fr translation (template text): \"{{ item.value }} point{{ 's' if item.value " \
           f"> 1 else '' }}}}\" (g/game.yaml:{line})" in out, out
