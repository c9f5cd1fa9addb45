"""Issue 27.1-2, as a designer drives it: French by columns (``name@fr`` beside ``name`` in a
CSV, an XLSX sheet and YAML rows), ``pnp i18n`` writing the catalogue, verify naming cells,
and a face's error naming the cell its text came from."""
from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core.yamlfile import load_yaml
from generator.data.translation.i18n_files import collapse, load_catalogue
from generator.data.translation.i18n_skeleton import update
from tests.designer import edit, run

MOONS = ["New Moon", "Crescent", "Half Moon", "Gibbous", "Full Moon", "Blue Moon"]
LEAVES = ["Seed", "Sprout", "Sapling", "Bush", "Tree", "Forest"]
SUNS = [("Dawn", "Aube"), ("Morning", "Matin"), ("Noon", ""), ("Afternoon", "Après-midi"),
        ("Dusk", "Crépuscule"), ("Eclipse", "Éclipse")]




@pytest.fixture
def game(in_tmp, capsys) -> Path:
    """The starter with its cards in a CSV (suns translated by a name@fr column, Noon left
    out), its moons and leaves in an XLSX sheet, the suits' YAML rows with a name@fr."""
    assert run(capsys, "init", "g")[0] == 0
    folder = in_tmp / "g"
    data = folder / "game.yaml"
    text = data.read_text(encoding="utf-8")
    start, end = text.index("  # The card list"), text.index("# Column types")
    text = text[:start] + ("  suncards: {file: suns.csv}\n"
                           "  nightcards: {file: night.xlsx, sheet: Night}\n\n") + text[end:]
    columns = 'cards: {name: str, suit: {table: suits}, value: "int 1..9"}'
    assert columns in text
    text = text.replace(columns,
                        'suncards: {name: str, suit: {table: suits}, value: "int 1..9"}\n'
                        '  nightcards: {name: "str 1..40", suit: {table: suits}, '
                        'value: "int 1..9"}')
    text = text.replace("suits: {id: str, name: str, icon: name, colour: name}",
                        'suits: {id: str, name: str, icon: name, colour: name, '
                        'name@fr: "str?"}')
    text = text.replace("{id: sun, name: Sun, icon: sun, colour: suit_sun}",
                        "{id: sun, name: Sun, icon: sun, colour: suit_sun, name@fr: Soleil}")
    data.write_text(text, encoding="utf-8")
    (folder / "suns.csv").write_text(
        "name,name@fr,suit,value\n" + "".join(
            f"{en},{fr},sun,{i}\n" for i, (en, fr) in enumerate(SUNS, 1)), encoding="utf-8")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Night"
    sheet.append(["name", "suit", "value", "name@fr"])
    for i, name in enumerate(MOONS, 1):
        sheet.append([name, "moon", i, "Nouvelle lune" if i == 1 else None])
    for i, name in enumerate(LEAVES, 1):
        sheet.append([name, "leaf", i, None])
    book.save(folder / "night.xlsx")
    # Two components, one per table (the starter's deck made of both).
    edit(data, "    generate:\n      table: cards\n",
         "    generate:\n      table: suncards\n"
         "  - id: night\n    kind: card\n    name: Night cards\n    size: poker\n"
         "    face: card\n    back: card-back\n    label: \"{{ item.name }}\"\n"
         "    generate:\n      table: nightcards\n")
    # The starter's checks count one deck of 18: now 6 + 12.
    text = data.read_text(encoding="utf-8")
    data.write_text(text[:text.index("verify:")] + "verify:\n  - name: 6 suns\n"
                    "    component: deck\n    count: 6\n", encoding="utf-8")
    return folder


@pytest.mark.slow
def test_french_by_columns_prints_the_translation_and_english_never_shows_it(
        game, capsys, page_texts):
    code, out, err = run(capsys, "build", "g", "--lang", "fr", "--out", "out")
    assert code == 0, out + err
    fr = "\n".join(page_texts(Path("out/g/g.fr.pdf")))
    assert "Aube" in fr and "Crépuscule" in fr and "Nouvelle lune" in fr and "Soleil" in fr
    assert "Noon" in fr and "Crescent" in fr  # no translation: the English
    assert "Dawn" not in fr
    code, out, err = run(capsys, "build", "g", "--out", "out")
    assert code == 0, out + err
    en = "\n".join(page_texts(Path("out/g/g.pdf")))
    assert "Dawn" in en and "New Moon" in en and "Sun" in en
    assert not {"Aube", "Nouvelle lune", "Soleil", "Crépuscule"} & set(re.findall(r"\w+", en))


def test_verify_names_each_untranslated_cell_in_full(game, capsys):
    long = "A long name, longer than verify ever cut a text before, for a card (its name " \
           "printed small on its face, below its icon) "
    edit(game / "suns.csv", "Noon,,", f'"{long.strip()}",,')
    edit(game / "game.yaml", "suncards: {name: str,", "suncards: {name: str 1..200,")
    edit(game / "faces" / "card.yaml", "size: 13, min_size: 7,", "size: 13, min_size: 2,")
    edit(game / "faces" / "card.yaml", 'item: {name: "str 1..40",', 'item: {name: "str 1..200",')
    code, out, err = run(capsys, "verify", "g", "--lang", "fr")
    assert code == 0, out + err
    assert len(long.strip()) > 100
    # Whole, at its blank cell (the translated column's, where the French goes).
    assert f"{long.strip()!r} (g/suns.csv: row 4, column name@fr)" in out
    assert "'Crescent' (g/night.xlsx: sheet Night, row 3, column name@fr)" in out
    assert "'New Moon'" not in out and "'Dawn'" not in out
    assert "None)" not in out
    # A YAML row without the column its table's other rows have: its line and the column.
    assert "'Moon' (g/game.yaml:14: tables.suits[1].name@fr)" in out


@pytest.mark.parametrize(("where", "header", "words"), [
    ("csv", "name,name@xx,suit,value", "g/suns.csv: row 1, column B: column 'name@xx': no kit "
                                       "language 'xx'"),
    ("csv", "name,nom@fr,suit,value", "column 'nom@fr' translates a column 'nom' the table "
                                      "does not have"),
    ("yaml", "", "tables.suits[0].name@de: column 'name@de': no kit language 'de'"),
])
def test_a_translated_column_in_an_unknown_language_is_an_error_at_its_header(
        game, capsys, where, header, words):
    if where == "csv":
        edit(game / "suns.csv", "name,name@fr,suit,value", header)
    else:
        edit(game / "game.yaml", "name@fr: Soleil}", "name@de: Sonne}")
    code, _, err = run(capsys, "build", "g", "--out", "out")
    assert code == 2 and words in err, err
    assert "Traceback" not in err


def test_a_translated_column_is_typed_as_its_base(game, capsys):
    edit(game / "suns.csv", "Aube", "x" * 41)
    edit(game / "game.yaml", "suncards: {name: str,", "suncards: {name: str 1..40,")
    code, _, err = run(capsys, "build", "g", "--out", "out")
    assert code == 2
    assert "g/suns.csv: row 2, column name@fr:" in err


def test_pnp_i18n_writes_keeps_and_marks_obsolete(game, capsys):
    code, out, err = run(capsys, "i18n", "g", "--lang", "fr")
    assert code == 0, err
    catalogue = game / "messages" / "fr.yaml"
    first = catalogue.read_text(encoding="utf-8")
    assert '"Night cards": ""' in first and '"Cards": ""' in first
    assert "# game.yaml:" in first
    # The hint: Noon, 5 moons, 6 leaves, 2 suits.
    assert "\n14 cells of <column>@fr columns are blank: fill them in" in out
    # Translated, then a wording changes: the old translation is kept as obsolete.
    edit(catalogue, '"Night cards": ""', '"Night cards": "Cartes de nuit"')
    edit(catalogue, '"Cards": ""', '"Cards": "Cartes"')
    edit(game / "game.yaml", "name: Night cards", "name: Cards of the night")
    code, out, _ = run(capsys, "i18n", "g", "--lang", "fr")
    assert code == 0
    second = catalogue.read_text(encoding="utf-8")
    assert '"Cards": "Cartes"' in second.split("obsolete:")[0]
    assert '"Cards of the night": ""' in second
    # It moves with the comment above it (where the text was).
    assert re.fullmatch(r'# game\.yaml:\d+\n  "Night cards": "Cartes de nuit"',
                        second.split("obsolete:")[1].strip()), second
    assert (game / "messages" / "fr.yaml.bak").read_text(encoding="utf-8").count("Cartes") == 2
    # Run again: the same bytes.
    code, out, _ = run(capsys, "i18n", "g", "--lang", "fr")
    assert "up to date" in out and catalogue.read_text(encoding="utf-8") == second
    # The catalogue builds: the translations are printed, the empty ones are English.
    code, out, err = run(capsys, "verify", "g", "--lang", "fr")
    assert code == 0 and "'Cards'" not in out and "'Cards of the night'" in out


def test_pnp_i18n_leaves_a_broken_catalogue_alone(game, capsys):
    (game / "messages").mkdir()
    broken = 'strings:\n  "Cards": [1\n'
    (game / "messages" / "fr.yaml").write_text(broken, encoding="utf-8")
    code, _, err = run(capsys, "i18n", "g", "--lang", "fr")
    assert code == 2 and "fr.yaml:" in err and "Traceback" not in err
    assert (game / "messages" / "fr.yaml").read_text(encoding="utf-8") == broken
    code, _, err = run(capsys, "i18n", "g")
    assert code == 2 and "--lang fr" in err


@pytest.mark.parametrize(("table", "cell", "bad", "where"), [
    ("csv", "Dusk", "Dusk :nosuchicon:", "the text comes from g/suns.csv: row 6, column name"),
    ("xlsx", "Gibbous", "Gibbous :nosuchicon:",
     "the text comes from g/night.xlsx: sheet Night, row 5, column name"),
    ("csv", "Dusk", "Dusk \u0f00\u0f01", "the text comes from g/suns.csv: row 6, column name"),
])
def test_an_error_in_a_face_names_the_cell_its_text_came_from(game, capsys, table, cell, bad,
                                                              where):
    if table == "csv":
        edit(game / "suns.csv", f"{cell},", f"{bad},")
    else:
        book = openpyxl.load_workbook(game / "night.xlsx")
        for row in book["Night"].iter_rows():
            if row[0].value == cell:
                row[0].value = bad
        book.save(game / "night.xlsx")
    code, _, err = run(capsys, "build", "g", "--out", "out")
    assert code == 2, err
    assert "faces/card.yaml:" in err and "elements[" in err  # the template line, and beside:
    assert where in err, err
    assert "Traceback" not in err


def test_an_error_in_a_joined_rows_text_names_the_row_joined(game, capsys):
    edit(game / "game.yaml", "{id: moon, name: Moon,", '{id: moon, name: "Moon :nosuchicon:",')
    lines = (game / "game.yaml").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if ":nosuchicon:" in text)
    code, _, err = run(capsys, "build", "g", "--out", "out")
    assert code == 2
    assert f"the text comes from g/game.yaml:{line}" in err, err


def test_a_text_too_long_for_its_box_names_its_cell(game, capsys):
    edit(game / "faces" / "card.yaml", "size: 13, min_size: 7,", "size: 13, min_size: 12,")
    edit(game / "faces" / "card.yaml", 'item: {name: "str 1..40",', 'item: {name: "str 1..200",')
    edit(game / "game.yaml", 'nightcards: {name: "str 1..40",', 'nightcards: {name: "str 1..200",')
    book = openpyxl.load_workbook(game / "night.xlsx")
    book["Night"]["A4"] = "Half Moon over the long and winding river of forgotten names"
    book.save(game / "night.xlsx")
    code, _, err = run(capsys, "build", "g", "--out", "out")
    assert code == 2
    assert "the text comes from g/night.xlsx: sheet Night, row 4, column name" in err, err


def test_verify_names_the_cell_of_a_missing_glyph(game, capsys):
    edit(game / "suns.csv", "Dusk,", "Dusk \u0f00,")
    code, out, _ = run(capsys, "verify", "g")
    assert code == 1
    line = next(line for line in out.splitlines() if "pre-flight glyph" in line)
    assert "faces/card.yaml:" in line and "on Dusk \u0f00" in line
    assert line.endswith("the text comes from g/suns.csv: row 6, column name"), line


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"),
                             blacklist_characters="\u202a\u202b\u202c\u202d\u202e\u2066\u2067"
                                                  "\u2068\u2069\x85\ufeff"),
               min_size=1, max_size=1500).filter(lambda t: t.strip()))
def test_any_text_is_written_as_a_catalogue_key_that_reads_back(tmp_path, text):
    file = tmp_path / "fr.yaml"
    file.unlink(missing_ok=True)
    update(file, "fr", [(text, "cards.csv: row 2, column name")], set())
    assert load_yaml(file).data["strings"] == {text: ""}
    file.write_text(file.read_text(encoding="utf-8").replace(': ""', ': "x"'),
                    encoding="utf-8")
    assert load_catalogue(file).strings[collapse(text)][0] == "x"


def test_pnp_i18n_refuses_a_built_in_game_and_a_failing_set(game, capsys):
    code, _, err = run(capsys, "i18n", "moving-target", "--lang", "fr")
    assert code == 2 and "name a project folder" in err
    edit(game / "game.yaml", "    count: 6\n", "    count: 7\n")
    code, _, err = run(capsys, "i18n", "g", "--lang", "fr")
    assert code == 2 and "fails its checks" in err
    assert not (game / "messages").exists()
