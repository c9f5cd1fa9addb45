"""Moving Day (Fløe) in French, the language of its rulebook (issue 13, item 5).

``--lang fr`` must give a kit a French player can use without the English one: rules pages,
aids, score pad, example diagram and every piece in the rulebook's own words (« cartons »,
« Casse-croûtes », « Verre cassé »...), no English left, French typography (no line starting
with the colon of « Poids : 1 »), and the same game: the example's numbers are the engine's
in both languages. The English kit must stay English. Catalogue:
card_data/messages/moving-day-boxes.fr.yaml.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from generator.core import paths
from generator.data import load_game
from generator.data.design.themes import load_theme
from generator.data.translation import i18n
from generator.data.translation.i18n_files import collapse
from generator.frontends.app import verify_report
from generator.orchestration.build import build_kit
from generator.orchestration.drawing import render_faces
from generator.orchestration.options import BuildOptions
from generator.rules.moving_day_boxes import scoring as sc

GAME = "moving-day-boxes"
CATALOGUE = paths.CARD_DATA / "messages" / f"{GAME}.fr.yaml"
NBSP = "\u00a0"

# English words that must not be left on a French page (case-sensitive where the French has
# the same letters with another meaning: « car » (because), « set » (the rulebook's word)).
ENGLISH = [r"Weights?", r"Snacks?", r"snacks?", r"Your turn", r"[Ff]riends?", r"FRIENDS",
           r"[Dd]amage[sd]?", r"[Ss]trength", r"[Bb]ox(es)?", r"[Vv]ehicles?",
           r"[Pp]layers?", r"[Ss]hape", r"Colou?r", r"[Cc]rushed", r"[Bb]roken", r"too heavy",
           r"[Cc]lumsy", r"our reading", r"[Rr]ules", r"Goal", r"Setup", r"[Ss]core pad",
           r"Car", r"Truck", r"Yellow", r"Teal", r"Purple", r"Green", r"Red", r"Blue",
           r"Circle", r"Star", r"Square", r"Hexagon", r"GREEN", r"CIRCLE", r"up to", r"the",
           r"and", r"of", r"Points and winner", r"What the pieces show"]


def flat(text: str) -> str:
    """Words as a reader sees them: line breaks and no-break spaces as plain spaces."""
    return " ".join(text.split())


def words_of(text: str) -> str:
    """The page without file names (``moving-day-boxes-calibration.fr.pdf`` is no English)."""
    return re.sub(r"\S+\.pdf\b", " ", text)


@pytest.fixture(scope="module")
def pdfs(kits) -> dict[str, Path]:
    """The kit's PDF in each language (conftest's shared ``kits``)."""
    return {lang: kits(GAME, lang=lang).pdf for lang in ("en", "fr")}


@pytest.fixture(scope="module")
def french(pdfs, page_texts) -> list[str]:
    return list(page_texts(pdfs["fr"]))


@pytest.fixture(scope="module")
def english(pdfs, page_texts) -> list[str]:
    return list(page_texts(pdfs["en"]))


@pytest.fixture(scope="module")
def catalogue() -> dict[str, str]:
    return yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))["strings"]


def rules_pages(texts: list[str]) -> list[str]:
    found = [t for t in texts if "Moving Day (Fløe) : règles du jeu" in t
             or "Moving Day (Fløe) : exemple de décompte et nos lectures" in t]
    assert len(found) == 2
    return found


def test_the_rules_pages_are_in_the_rulebooks_french(french):
    text = flat(" ".join(rules_pages(french)))
    for words in ("Moving Day (Fløe) : règles du jeu", "But du jeu et matériel", "Mise en place",
                  "À ton tour, action 1 : choisis des cartons et des amis",
                  "À ton tour, action 2 : distribue des casse-croûtes",
                  "Fin de partie : la casse, dans cet ordre", "Points et vainqueur",
                  "75 tuiles Cartons, 36 cartes Amis, 12 véhicules",
                  "26 casse-croûtes de valeur 1", "4. Casse-croûtes : leur valeur",
                  "l'icône « Fragile » correspond à notre verre à vin", "« Verre cassé »",
                  "dans l'icône de poids", "de ce kit. D'abord, la casse.",
                  "dans nos simulations, le joueur en première place commence",
                  "si elle tient à côté de chacun des trois, place-la",
                  "(notre lecture)", "Nos lectures, là où la règle en permet plusieurs",
                  "« chaque ami possédant l'icône »", "poids du carton (1–7)",
                  "Points", "Casse-croûtes", "Voiture",
                  "Camion", "3 écrasés (étape 1)", "1 trop lourd pour les amis (étape 3)"):
        assert words in text, words


@pytest.mark.parametrize("words", ENGLISH)
def test_no_english_is_left_anywhere_in_the_french_kit(french, words):
    found = [(n + 1, m.group(0)) for n, page in enumerate(french)
             for m in re.finditer(rf"(?<![\w-]){words}(?![\w-])", words_of(page))]
    assert not found, f"English {words!r} on pages {found[:5]}"


def test_the_aids_score_pad_and_pieces_are_in_french(french):
    text = flat(" ".join(french))
    for words in (
            # player aid
            "Moving Day · aide de jeu", "À ton tour", "Fin : la casse, dans cet ordre",
            "1. Écrasé : sous un carton plus lourd, même colonne.",
            "Carton abîmé : face cachée, aucun point.", "force des amis (1–4)",
            "Égalité : le plus de casse-croûtes, sinon victoire partagée.",
            # score pad
            "Moving Day (Fløe) · feuille de score", "Joueur :", "Somme", "Casse-croûtes",
            # tiles: colour and shape named in French on the band
            "VERT · CERCLE", "VIOLET · HEXAGONE", "JAUNE · ÉTOILE", "ROUGE · CARRÉ",
            "BLEU · TRIANGLE",
            # friend cards and their backs
            "1 ami", "3 amis", "force 4", "Maladroit ! Chaque ami maladroit",
            "cette carte en abîme 2.", "AMIS",
            # vehicles
            "SCOOTER", "VOITURE", "6 amis max. · de bas en haut, rangée par rangée", "Set jaune",
            "Set turquoise", "Set orange", "Set mauve"):
        assert words in text, words


def test_the_clumsy_rule_reads_the_same_in_french_everywhere(french, catalogue):
    """As in English (tests/rules/test_moving_day_boxes_kit.py): one wording of the rule on
    the rules pages, the clumsy cards and the player aids."""
    rule = catalogue[sc.CLUMSY_RULE]
    assert rule == "Chaque ami maladroit abîme un carton fragile de son véhicule"
    # After a colon French goes on in lower case (« donc : chaque ami... »): the sentence is
    # the same but for its first letter.
    lower = rule[0].lower() + rule[1:]
    rules_text = flat(" ".join(rules_pages(french)))
    assert rules_text.count(lower) == 2 and rule not in rules_text  # damage, our readings
    assert f"2. Amis maladroits : {lower}" in rules_text.replace(NBSP, " ")
    game = load_game(GAME)
    theme = load_theme("boxes")

    def faces(component: str) -> list[str]:
        fronts, _ = render_faces(game, game.component(component), theme,
                                 BuildOptions(lang="fr"))
        return [flat(" ".join(" ".join(line[2] for line in p.lines) for p in face.prims
                              if hasattr(p, "lines"))) for face in fronts]

    cards = [c for c in faces("friends") if "Maladroit" in c]
    assert len(cards) == 9 and all(rule in c for c in cards)
    assert sum("Maladroits ! " + rule + " : cette carte en abîme" in c for c in cards) == 6
    aids = faces("aids")
    assert len(aids) == 4 and all(f"2. Cassé : {lower}." in a for a in aids)


def test_french_lines_never_start_with_closing_punctuation(french):
    """French sets a space before : ; ! ? and inside « »: a no-break space, so a line never
    starts with the colon of « Poids : 1 » nor ends with an opening «."""
    bad = [(n + 1, line) for n, page in enumerate(french) for line in page.split("\n")
           if re.match(r"\s*[:;!?»]", line) or re.search(r"«\s*$", line)]
    assert not bad


def test_the_catalogue_keeps_french_typography(catalogue):
    for english, french in catalogue.items():
        assert not re.search(r" [:;!?»]|« ", french), (english, french)
        assert not re.search(r"[^\s(]:(?=\s)", re.sub(r"\{[{%].*?[}%]\}", "", french)), \
            (english, french)  # « Poids : 1 », never « Poids: 1 »


@pytest.mark.slow
def test_every_catalogue_entry_is_used_by_the_kit(catalogue, monkeypatch):
    """A stale entry (its English changed in the data or a template) would leave English on
    the page and a dead translation in the file: every key is looked up by a French build
    that draws its faces (not one that takes them from the face cache)."""
    monkeypatch.setenv("PNP_CACHE", "0")
    game = load_game(GAME)
    with i18n.session(game, "fr") as session:
        build_kit(game, BuildOptions(lang="fr"))
    # what the faces found comes back as the game catalogue's hits (Session.record)
    looked_up = {collapse(text) for text in session.memo} | session.hits
    assert not [key for key in catalogue if collapse(key) not in looked_up]


@pytest.mark.slow
def test_verify_in_french_finds_no_missing_text_and_every_rule_printed():
    _, english = verify_report(GAME, BuildOptions())
    _, french = verify_report(GAME, BuildOptions(lang="fr"))
    assert [f for f in french if not f.ok] == []
    checks = {f.check: f for f in french}
    assert checks["translation (fr)"].detail == "every text the kit prints has a translation"
    coverage = next(f for f in french if f.check.startswith("rules pages carry every rule"))
    assert coverage.check.endswith(", in fr") and coverage.detail == "52 rules, each printed"
    assert not any(f.check.startswith("coverage in fr") for f in french)
    # No new pre-flight finding: the same checks pass in both languages.
    same = {f.check for f in english} - {coverage.check.removesuffix(", in fr")}
    assert same <= set(checks)


def test_the_english_kit_stays_english(english):
    text = flat(" ".join(english))
    for words in ("Moving Day (Fløe): rules", "Your turn, action 1: choose boxes and friends",
                  "Each clumsy friend breaks one fragile box of its vehicle",
                  "Moving Day · player aid", "GREEN · CIRCLE", "1 friend", "strength 4",
                  "FRIENDS", "up to 6 friends · fill from row 1 up", "Yellow set",
                  "Moving Day (Fløe) · score pad", "3 crushed (step 1)"):
        assert words in text, words
    for words in ("Casse-croûte", "casse-croûte", "cartons", "amis", "Règles", "Maladroit"):
        assert words not in text, words


def diagram_figures(pdf: Path, page_texts, page_words) -> list[str]:
    """The figures of the scoring example (tile weights, card corners, strengths, the table):
    the digits between the diagram's first vehicle label and the next heading, leaving out
    the caption beside it, whose sentences differ by language (its regular 8 pt type)."""
    page = next(n for n, text in enumerate(page_texts(pdf), start=1)
                if re.search(r"scoring example|exemple de décompte", text))
    words = page_words(pdf, page, extra_attrs=["size", "fontname"])
    top = min(w["top"] for w in words if w["text"] == "Scooter" and abs(w["size"] - 9) < 0.01)
    bottom = min(w["top"] for w in words if w["top"] > top and abs(w["size"] - 13) < 0.01)
    return sorted(w["text"] for w in words
                  if re.fullmatch(r"\d+", w["text"]) and top <= w["top"] < bottom
                  and not ("Regular" in w["fontname"] and w["size"] > 7.9))


def test_the_example_diagram_has_the_same_numbers_in_both_languages(pdfs, page_texts,
                                                                    page_words):
    english, french = (diagram_figures(pdfs[lang], page_texts, page_words)
                       for lang in ("en", "fr"))
    assert english == french
    # The rulebook's totals (seed lines 181-186) and the tiles' weights are all there.
    for figure in ("16", "4", "3", "8", "31", "6", "7"):
        assert figure in french
    assert len(french) > 40


def test_a_no_break_space_keeps_french_punctuation_on_its_word():
    """generator/faces/text.py breaks lines at white space but not at U+00A0."""
    from tests.drawing import wrap

    text = f"Poids{NBSP}: 1 point par petit carton{NBSP}; Casse-croûtes{NBSP}: leur valeur"
    for width in range(12, 80, 2):
        lines = wrap(text, "sans", 8, width)
        if lines is None:
            continue
        assert not [line for line in lines if line[:1] in ":;"], (width, lines)
    assert wrap("Poids : 1", "sans", 8, 7.5) == ["Poids", ": 1"]  # an ordinary space breaks
    assert wrap(f"Poids{NBSP}: 1", "sans", 8, 7.5) is None  # "Poids :" is one word, too wide
    assert wrap(f"Poids{NBSP}: 1", "sans", 8, 9) == [f"Poids{NBSP}:", "1"]


def test_the_two_pass_recipe_says_how_to_check_the_order(french, english):
    """Page 1 tells a single-sided printer's owner how to check the order of pass 2 (the
    footer of the sheet fed first, then Normal or Reverse order, never the driver's
    Automatic), in each language, never what their printer does."""
    fr, en = flat(french[0]), flat(english[0])
    assert ("planche 1 en premier (voir son pied de page) : ordre Normal (Ordre inverse et "
            "Automatique décochés) ; planche 12 en premier : Ordre inverse.") in fr
    assert ("sheet 1 fed first (its footer says): page order Normal (Reverse order and "
            "Automatic off); sheet 12 fed first: Reverse order.") in en
    assert "en dessous" not in fr and "at the bottom" not in en
