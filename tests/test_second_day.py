"""Issue 27's "Done when", in one designer's day: from `pnp init`, a game whose cards come
from a CSV and whose suits from an XLSX sheet, French by columns, a join, an overlap warned
about, a failing check during watch, then a French and an English kit, a Tabletop Simulator
deck and cut files. Each step goes through the command line (in-process), as typed."""
from __future__ import annotations

import json

import openpyxl
import pytest

from generator.frontends.cli import main
from generator.frontends.watch import build_with, find_target, run_build
from generator.orchestration.options import BuildOptions

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes


def test_a_designers_second_day(in_tmp, capsys, page_texts):
    assert main(["init", "g"]) == 0
    folder = in_tmp / "g"
    data = folder / "game.yaml"
    text = data.read_text(encoding="utf-8")
    # The suits move to a workbook (with their French names), the cards to a CSV (with theirs).
    start, end = text.index("  suits:\n"), text.index("# Column types")
    text = (text[:start] + "  suits: {file: deck.xlsx, sheet: Suits}\n"
            "  cards: {file: cards.csv}\n\n" + text[end:])
    text = text.replace("suits: {id: str, name: str, icon: name, colour: name}",
                        'suits: {id: str, name: str, icon: name, colour: name, '
                        'name@fr: "str?"}')
    text = text.replace('cards: {name: str, suit: {table: suits}, value: "int 1..9"}',
                        'cards: {name: str, suit: {table: suits}, value: "int 1..9", '
                        'name@fr: "str?"}')
    data.write_text(text, encoding="utf-8")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Suits"
    sheet.append(["id", "name", "icon", "colour", "name@fr"])
    for row in (["sun", "Sun", "sun", "suit_sun", "Soleil"],
                ["moon", "Moon", "suit-moons", "suit_moon", "Lune"],
                ["leaf", "Leaf", "leaf", "suit_leaf", "Feuille"]):
        sheet.append(row)
    book.save(folder / "deck.xlsx")
    names = {"sun": ["Dawn", "Morning", "Noon", "Afternoon", "Dusk", "Eclipse"],
             "moon": ["New Moon", "Crescent", "Half Moon", "Gibbous", "Full Moon", "Blue Moon"],
             "leaf": ["Seed", "Sprout", "Sapling", "Bush", "Tree", "Forest"]}
    french = {"Dawn": "Aube", "Dusk": "Crépuscule", "Forest": "Forêt"}
    rows = [f"{n},{s},{v},{french.get(n, '')}" for s, ns in names.items()
            for v, n in enumerate(ns, 1)]
    cards = folder / "cards.csv"
    cards.write_text("name,suit,value,name@fr\n" + "\n".join(rows) + "\n", encoding="utf-8")

    # An overlap: a band painted over the corner value is a pre-flight warning.
    face = folder / "faces" / "card.yaml"
    face_text = face.read_text(encoding="utf-8")
    face.write_text(face_text + '  - rect: {x: 0, y: 8, w: "{{ W }}", h: 5, '
                                'fill: "#888888"}\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", "g"]) == 0
    out = capsys.readouterr().out
    assert "pre-flight overlap" in out and "faces/card.yaml" in out
    face.write_text(face_text, encoding="utf-8")  # fixed

    # Halfway through adding a suit: watch still builds, marked; a plain build refuses.
    cards.write_text(cards.read_text(encoding="utf-8").replace("Forest,leaf,6,Forêt\n", ""),
                     encoding="utf-8")
    lines: list[str] = []
    opts = BuildOptions(out_dir=folder / "output")
    assert run_build(find_target(str(folder)), build_with(opts), lines.append, first=True)
    assert any("NOT VERIFIED" in line for line in lines), lines
    assert main(["build", "g"]) == 2
    cards.write_text(cards.read_text(encoding="utf-8") + "Forest,leaf,6,Forêt\n",
                     encoding="utf-8")

    # The French and the English kit, a TTS deck and cut files.
    capsys.readouterr()
    assert main(["build", "g", "--lang", "fr"]) == 0
    assert main(["build", "g", "--cut-svg"]) == 0
    assert main(["tts", "g"]) == 0
    kits = folder / "output" / "g"
    fr = "\n".join(page_texts(kits / "g.fr.pdf"))
    en = "\n".join(page_texts(kits / "g.pdf"))
    assert "Aube" in fr and "Soleil" in fr and "Forêt" in fr and "Noon" in fr
    assert "Dawn" in en and "Aube" not in en and "NOT VERIFIED" not in en
    assert sorted(p.name for p in (kits / "g-cut").glob("*.svg"))
    saved = json.loads((kits / "tts" / "g.json").read_text(encoding="utf-8"))
    assert saved["ObjectStates"]
    capsys.readouterr()
    assert main(["i18n", "g", "--lang", "fr"]) == 0
    catalogue = (folder / "messages" / "fr.yaml").read_text(encoding="utf-8")
    assert '"Cards": ""' in catalogue  # a text of the data file's own, to translate
    out, err = capsys.readouterr()
    assert "@fr column" in out  # card names left untranslated: a column says it
    assert "Traceback" not in err
