"""A French reader's review of the French kits (issue 13, item 5): the contents sheet says
truly where the rules are (one page or several, in both languages), footers name the backs
with an article and never cut a label, board tiles keep the footer's « · », the furniture
speaks plain French, and every built-in kit's contents sheet and footers are French.
"""
from __future__ import annotations

import pytest

from generator.core import primitives as p
from generator.data import load_game
from generator.data.translation import i18n
from generator.frontends.app import verify_report
from generator.layout.contents import rules_line
from generator.orchestration.build import build_kit
from generator.orchestration.options import BuildOptions

NBSP = "\u00a0"  # French puts a no-break space before : ; ! ? » (compared as a space here)
KITS = ["moving-target", "monster-day", "moving-day", "moving-day-boxes", "movement-game"]


def furniture_text(game_id: str, lang: str) -> list[str]:
    """Each page's furniture (contents flow, footer, ruler label) as one string."""
    kit = build_kit(load_game(game_id), BuildOptions(lang=lang))
    return [" ".join(line[2] for prim in page.furniture if isinstance(prim, p.Text)
                     for line in prim.lines).replace(NBSP, " ") for page in kit.pages]


@pytest.fixture(scope="module")
def boxes_fr() -> list[str]:
    return furniture_text("moving-day-boxes", "fr")


@pytest.mark.parametrize(("lang", "pages", "duplex", "expected"), [
    ("en", [2], True, "Rules: page 2 (the back of this page)"),
    ("en", [2, 3], True, "Rules: pages 2-3 (the back of this sheet and the front of sheet 2)"),
    ("en", [2, 3, 4], True, "Rules: pages 2-4 (from the back of this sheet to the back of "
                            "sheet 2)"),
    ("en", [2, 3, 4, 5], True, "Rules: pages 2-5 (from the back of this sheet to the front of "
                               "sheet 3)"),
    ("en", [2], False, "Rules: page 2"),
    ("en", [2, 3], False, "Rules: pages 2-3"),
    ("fr", [2], True, "Règles : page 2 (au verso de cette page)"),
    ("fr", [2, 3], True, "Règles : pages 2-3 (verso de cette planche et recto de la planche 2)"),
    ("fr", [2, 3, 4], True, "Règles : pages 2-4 (du verso de cette planche au verso de la "
                            "planche 2)"),
    ("fr", [3, 4], True, "Règles : pages 3-4"),
])
def test_the_rules_line_is_true_for_any_number_of_pages(lang, pages, duplex, expected):
    with i18n.session(None, lang):
        assert rules_line(pages, duplex).replace(NBSP, " ") == expected


@pytest.mark.slow
def test_the_kits_say_where_their_rules_are():
    """Fløe's rules fill pages 2-3 (the back of sheet 1, the front of sheet 2); Moving
    Target's fit page 2 alone, the back of the contents sheet."""
    assert ("Rules: pages 2-3 (the back of this sheet and the front of sheet 2)"
            in furniture_text("moving-day-boxes", "en")[0])
    assert "Rules: page 2 (the back of this page)" in furniture_text("moving-target", "en")[0]
    assert ("Règles : page 2 (au verso de cette page)"
            in furniture_text("moving-target", "fr")[0])


@pytest.mark.slow
def test_the_french_boxes_contents_sheet_reads_plainly(boxes_fr):
    contents = boxes_fr[0]
    assert "Règles : pages 2-3 (verso de cette planche et recto de la planche 2)" in contents
    assert "Pages impaires : rectos ; pages paires : versos." in contents
    assert "2k" not in contents
    for name in ("Tuiles Cartons : 75 pièces", "Cartes Amis : 36 pièces", "Feuille de score"):
        assert name in contents, name
    assert ("Règle de 50 mm : vérifiez qu'elle mesure bien 50 mm (impression à 100 %, sans "
            "mise à l'échelle)") in contents


@pytest.mark.slow
def test_french_footers_name_the_backs_with_an_article_and_cut_nothing(boxes_fr):
    assert any("versos des cartes Amis, retourner sur le bord long" in page
               for page in boxes_fr)
    assert not [n + 1 for n, page in enumerate(boxes_fr) if "…" in page]
    assert any("tuiles Cartons, scooters (1 x 4 cases), tuiles Casse-croûtes, aides de jeu"
               in page for page in boxes_fr)


@pytest.mark.slow
def test_a_board_tile_keeps_the_footer_separator():
    french = furniture_text("moving-target", "fr")
    assert any("· grille de jeu (5 × 5) · tuile 3 ·" in page for page in french)  # A4: alone
    assert any("versos des cartes à jouer" in page for page in french)
    # English keeps its words (its kit stays byte-identical): "Play grid (5 x 5) tile 2".
    assert any("Play grid (5 x 5) tile 2" in page for page in furniture_text("moving-target",
                                                                              "en"))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", KITS)
def test_every_kit_has_french_names_notes_and_credit(game_id):
    """The faces of four kits stay English for now, but nothing the contents sheet and the
    footers print from the data is left untranslated."""
    _, findings = verify_report(game_id, BuildOptions(lang="fr"))
    details = [f.detail for f in findings if f.check.startswith("translation")]
    assert details and not [d for d in details if "(data text)" in d]
