"""Kits in other languages (generator/data/translation/i18n.py,
generator/data/translation/i18n_files.py): furniture messages,
game catalogues, t() in templates, verify's report of texts left in English, --lang and
KIT_LANG."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.core import paths
from generator.core import primitives as p
from generator.core.errors import DataError, shown
from generator.data import load_game
from generator.data.files import project
from generator.data.translation import i18n
from generator.data.translation.i18n_files import (
    fill,
    languages,
    load_catalogue,
    messages,
    placeholders,
)
from generator.data.typefaces import fonts
from generator.frontends.cli import main
from generator.layout.frame import Frame
from generator.orchestration.build import build_kit, build_pdf
from generator.orchestration.naming import calibration_name, output_pdf
from generator.orchestration.options import BuildOptions
from tests.designer import run

GAME = "moving-target"



# -- furniture messages ---------------------------------------------------------------------

def test_every_language_has_every_key_with_the_same_placeholders():
    english = messages("en")
    assert languages() == ("en", "fr")
    for lang in languages():
        other = messages(lang)
        assert set(other) == set(english), f"{lang}.yaml keys differ from en.yaml"
        for key, text in english.items():
            assert placeholders(other[key]) == placeholders(text), f"{lang}.yaml {key}"


def test_french_furniture_keeps_its_punctuation_on_its_word():
    """French sets a space before : ; ! ? » and after «, and between a number and %: a
    no-break space, or a narrow page could start a line with « : » (the single-sided recipe
    did, on the Fløe contents sheet)."""
    for key, text in messages("fr").items():
        assert not re.search(r" [:;!?»]|« |\d %", text), key


@pytest.mark.parametrize("font", ["condensed", "condensed-bold", "sans", "sans-bold"])
def test_the_furniture_fonts_draw_every_french_message(font):
    """Contents sheet and footers use the condensed fonts, the calibration sheet sans."""
    text = "".join(messages("fr").values())
    assert fonts.missing_glyphs(font, text.replace("″", "") if font.startswith("sans")
                                else text) == ""


def test_placeholders_are_filled_safely():
    template = "{name} {__class__} {0.__init__} {a.b} {0} {missing} {{name}}"
    values = {"name": "{__class__}", "a": 1}
    assert fill(template, values) == "{__class__} {__class__} {0.__init__} {a.b} {0} " \
                                     "{missing} {{__class__}}"
    assert fill("{__class__}", {"__class__": "x"}) == "{__class__}"  # never a dunder name


# -- catalogues ------------------------------------------------------------------------------

@pytest.mark.parametrize(("body", "line", "words"), [
    ('strings:\n  "Hello": "Bonjour"\n  "Bye": 3\n', 3, "expected text"),
    ('strings:\n  "Hello": "Bonjour"\n  "Hello  ": "Salut"\n', 3, "translated twice"),
    ('strings: {}\nnotes: 1\n', 2, "unknown key 'notes'"),
    ('strings:\n  "Hello": " "\n', 2, "empty translation"),
    ('furniture:\n  contents.nope: "x"\n', 2, "unknown message key"),
    ('furniture:\n  footer.sheet: "planche {sheet}"\n', 2, "expected the placeholders"),
    ('strings: [1, 2]\n', 1, "expected a mapping"),
])
def test_a_bad_catalogue_entry_is_a_data_error_at_its_line(tmp_path, body, line, words):
    file = tmp_path / "fr.yaml"
    file.write_text(body, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_catalogue(file)
    assert caught.value.file == str(file) and caught.value.line == line
    assert words in caught.value.expected


def test_folded_keys_match_whatever_their_wrapping(tmp_path):
    file = tmp_path / "fr.yaml"
    file.write_text('strings:\n  ? >-\n    Two lines\n    of English\n  : Deux lignes\n',
                    encoding="utf-8")
    catalogue = load_catalogue(file)
    assert catalogue.strings["Two lines of English"][0] == "Deux lignes"


def test_prose_is_told_from_expressions():
    assert i18n.prose("Score: {{ n }}")
    assert i18n.prose("{{ n }} {{ 'friend' if n == 1 else 'friends' }}")
    assert not i18n.prose("{{ item.name }}")
    assert not i18n.prose("{{ 'ABCDE'[c] }}{{ r + 1 }}")
    assert not i18n.prose(":heart: {{ n }} · 3")
    assert not i18n.prose("[red]{{ n }}[/] :Fragile-glass:")
    assert i18n.prose("**Fragile** {{ n }}")
    assert not i18n.prose("{{ s.get('col', 1) }}")


# -- a project translated -------------------------------------------------------------------

@pytest.fixture
def mygame(tmp_path, monkeypatch, capsys) -> Path:
    """`pnp init`'s game, its card names printed through t(), and a French catalogue."""
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "init", "mygame")[0] == 0
    folder = tmp_path / "mygame"
    face = folder / "faces" / "card.yaml"
    text = face.read_text(encoding="utf-8")
    face.write_text(text.replace('text: "{{ item.name }}"', 'text: "{{ t(item.name) }}"')
                    .replace('text: "{{ suit.name }}"', 'text: "Suit {{ t(suit.name) }}"'),
                    encoding="utf-8")
    (folder / "messages").mkdir()
    (folder / "messages" / "fr.yaml").write_text(
        "strings:\n  Dawn: Aube\n  Cards: Cartes\n  Score tokens: Jetons de score\n"
        "  Sun: Soleil\n  Moon: Lune\n  'Suit {{ t(suit.name) }}': 'Couleur {{ t(suit.name) }}'\n"
        "furniture:\n  footer.contents: table des matières\n", encoding="utf-8")
    yield folder
    project.use(project.Project())


@pytest.mark.slow
def test_a_project_builds_in_french_with_its_catalogue(mygame, pypdf_text, capsys):
    code, out, _ = run(capsys, "build", mygame, "--lang", "fr")
    assert code == 0
    pdf = mygame / "output" / f"{mygame.name}" / f"{mygame.name}.fr.pdf"
    assert pdf.is_file(), out
    assert re.search(r"\d+ texts have no fr translation and print in English", out)
    text = " ".join(pypdf_text(pdf, n) for n in range(1, len(PdfReader(str(pdf)).pages) + 1))
    assert "Aube" in text and "Couleur Soleil" in text and "Couleur Lune" in text
    assert "Cartes : 6 pièces" not in text and "Cartes : 18 pièces" in text
    assert "Noon" in text  # no translation: printed in English, and reported below
    assert "planche 1/" in pypdf_text(pdf, 1) and "· table des matières ·" in pypdf_text(pdf, 1)
    code, out, _ = run(capsys, "verify", mygame, "--lang", "fr")
    game_file = mygame / "game.yaml"
    lines = game_file.read_text(encoding="utf-8").splitlines()
    noon = next(i for i, line in enumerate(lines, 1) if "name: Noon" in line)
    assert f"[WARN] [design] translation (fr): no fr translation (t() of a data value): " \
           f"'Noon' ({game_file.relative_to(Path.cwd())}:{noon})" in out  # from where we stand
    assert "'Dawn'" not in out and "'Sun'" not in out
    code, _, _ = run(capsys, "verify", mygame, "--lang", "fr", "--strict")
    assert code == 1


def test_a_bad_project_catalogue_stops_the_build_naming_its_line(mygame, capsys):
    (mygame / "messages" / "fr.yaml").write_text("strings:\n  Dawn: [Aube]\n", encoding="utf-8")
    code, _, err = run(capsys, "build", mygame, "--lang", "fr")
    assert code == 2 and "expected text" in err
    # Named as seen from where the user stands (the project as they typed it), not absolute.
    assert err.startswith(f"error: {shown(str(mygame / 'messages' / 'fr.yaml'))}:2: "), err
    code, _, _ = run(capsys, "build", mygame)  # English never reads it
    assert code == 0


def test_t_and_lang_in_a_template_outside_french_change_nothing(mygame):
    from generator.expressions import evaluate

    assert evaluate("{{ t('Dawn') }} {{ t(3) }}", {}) == "Dawn 3"
    game = load_game(str(mygame / "game.yaml"))
    with i18n.session(game, "fr") as session:
        assert evaluate("{{ t('Dawn') }} {{ t(3) }} {{ t('') }}", {}) == "Aube 3 "
        assert i18n.lang() == "fr"
        assert i18n.translate("Moon") == "Lune"
        assert i18n.translate("Unknown words") == "Unknown words"
    where = [m for m in session.missing.values() if m.text == "Unknown words"]
    assert where and where[0].file == __file__ and where[0].how == "python"
    assert i18n.lang() == "en" and i18n.translate("Moon") == "Moon"


# -- the built-in kits ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def french_kit(kits) -> Path:
    return kits(GAME, lang="fr").pdf


def test_moving_target_in_french_has_french_furniture(french_kit, pypdf_text):
    assert french_kit.name == f"{GAME}.fr.pdf"
    assert (french_kit.parent / f"{GAME}-calibration.fr.pdf").is_file()
    assert (french_kit.parent / f"{GAME}.fr.kit.json").is_file()
    contents = pypdf_text(french_kit, 1)
    for words in ("Moving Target : kit print & play", "Impression", "Contenu du kit",
                  "recto verso", "Retourner sur les bords longs", "planche 1/11, recto",
                  "sommaire", "Découpez", f"{GAME}-calibration.fr.pdf"):
        assert words in contents, words
    assert "How to print" not in contents and "sheet 1 of" not in contents
    assert "planche 2/11, recto" in pypdf_text(french_kit, 3)
    calibration = pypdf_text(french_kit.parent / f"{GAME}-calibration.fr.pdf", 1)
    assert "Étalonnage recto verso" in calibration
    outline = [item.title for item in PdfReader(str(french_kit)).outline
               if not isinstance(item, list)]
    assert outline[:2] == ["Sommaire", "Règles"]


@pytest.mark.slow
def test_the_english_kit_is_the_same_with_or_without_lang(tmp_path, pypdf_text, kits):
    """The run's shared kit (built without ``lang``) against one built here with it."""
    default = kits(GAME).pdf
    english, _ = build_pdf(GAME, BuildOptions(out_dir=tmp_path / "b", lang="en"))
    assert default.name == f"{GAME}.pdf" and default.read_bytes() == english.read_bytes()
    assert "sheet 1 of 11, front" in pypdf_text(default, 1)


def test_output_names_keep_both_languages_apart(tmp_path):
    opts = BuildOptions(out_dir=tmp_path, lang="fr", layout="gutterfold")
    assert output_pdf(GAME, opts).name == f"{GAME}-gutterfold.fr.pdf"
    assert output_pdf(GAME, BuildOptions(out_dir=tmp_path)).name == f"{GAME}.pdf"


@pytest.mark.parametrize(("options", "kit", "calibration"), [
    ({}, "moving-target.pdf", "moving-target-calibration.pdf"),
    ({"paper": "letter"}, "moving-target.letter.pdf", "moving-target-calibration.letter.pdf"),
    ({"ink_saver": True}, "moving-target.saver.pdf", "moving-target-calibration.pdf"),
    ({"flip": "short", "paper": "letter", "ink_saver": True, "lang": "fr"},
     "moving-target.letter.short.saver.fr.pdf", "moving-target-calibration.letter.short.fr.pdf"),
    ({"layout": "gutterfold", "paper": "letter", "flip": "short"},
     "moving-target-gutterfold.letter.pdf", "moving-target-calibration.letter.pdf"),
])
def test_variants_never_overwrite_each_other(tmp_path, options, kit, calibration):
    """A4 for one playtester and Letter for another, or a full-ink and an ink-saver copy, sit
    side by side: each choice that differs from the defaults is in the file name; the
    calibration sheet follows the paper and the flip (it does not depend on the ink)."""
    opts = BuildOptions(out_dir=tmp_path, **options)
    assert output_pdf(GAME, opts).name == kit
    assert calibration_name(GAME, opts) == calibration


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["moving-target", "monster-day", "moving-day",
                                     "moving-day-boxes", "movement-game"])
def test_the_french_contents_sheet_fits_its_page(game_id):
    """French runs ~20% longer than English: the contents sheet must stay above the footer."""
    opts = BuildOptions(lang="fr")
    game = load_game(game_id)
    kit = build_kit(game, opts)
    page = kit.pages[0]
    _, top, _, height = Frame(opts.paper_size, opts.margin).area
    # The contents flow's text is 8 pt and more (never shrunk); footer and ruler are smaller.
    body = [prim for prim in page.furniture if isinstance(prim, p.Text) and prim.size >= 7.99]
    assert len(body) > 10
    assert max(y for t in body for _, y, _ in t.lines) < top + height


@pytest.mark.slow
def test_verify_in_french_names_each_untranslated_text(capsys):
    code, out, _ = run(capsys, "verify", GAME, "--lang", "fr")
    assert code == 0  # warnings only
    data = paths.CARD_DATA / f"{GAME}.yaml"
    # Its catalogue (card_data/messages/moving-target.fr.yaml) covers the furniture only: the
    # title, credit, component names and notes are French, the faces still English.
    assert "(data text)" not in out
    # Files named from where the user stands (generator/core/errors.py's ``shown``).
    assert f"'first card face up here' ({shown(str(paths.FACES / 'card-grid.yaml'))}:" in out
    named = re.escape(shown(str(data)))
    assert re.search(rf"\(t\(\) of a data value\): 'Strategy' \({named}:\d+\)", out)
    assert "coverage in fr: 31 rules have no French printed words" in out
    code, out, _ = run(capsys, "verify", GAME)
    assert "translation (" not in out and "coverage in" not in out


def test_an_unknown_language_is_refused(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["build", GAME, "--lang", "de"])
    assert caught.value.code == 2 and "invalid choice: 'de'" in capsys.readouterr().err


# -- make -------------------------------------------------------------------------------------

def test_make_checks_kit_lang():
    text = (paths.ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^KIT_LANGS := (.*)$", text, re.M)[1].split() == list(languages())
    bad = subprocess.run(["make", "-n", "pdf", "KIT_LANG=de"], cwd=paths.ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "KIT_LANG=de is not allowed; use one of: en fr" in bad.stderr
    good = subprocess.run(["make", "-n", "pdf", "KIT_LANG=fr", f"GAME={GAME}"], cwd=paths.ROOT,
                          capture_output=True, text=True, timeout=60)
    assert good.returncode == 0 and f"build {GAME}" in good.stdout
    assert "--lang fr" in good.stdout


# -- rules coverage in another language -------------------------------------------------------

@pytest.fixture
def translated_target(tmp_path) -> Path:
    """Moving Target as a project: one seed rule with its French words, its section
    translated in the project's catalogue."""
    folder = tmp_path / "mt"
    (folder / "messages").mkdir(parents=True)
    text = (paths.CARD_DATA / f"{GAME}.yaml").read_text(encoding="utf-8")
    old = '      printed: "2 or 3 players"\n'
    assert text.count(old) == 1
    (folder / "game.yaml").write_text(
        text.replace(old, old + '      printed_in: {fr: "2 ou 3 joueurs"}\n'), encoding="utf-8")
    heading = "Players and setup"
    (folder / "messages" / "fr.yaml").write_text(
        f"strings:\n  {heading}: Joueurs et mise en place\n", encoding="utf-8")
    yield folder
    project.use(project.Project())


def coverage_in(folder: Path, lang: str) -> list:
    from generator.rules.coverage import coverage_findings

    game = load_game(str(folder / "game.yaml"))
    with i18n.session(game, lang):
        return coverage_findings(game)


def _section_text(folder: Path) -> str:
    game = load_game(str(folder / "game.yaml"))
    rules = next(c for c in game.components if c.kind == "rules")
    return rules.items[0].data["sections"][0]["text"]


def test_coverage_in_french_checks_only_the_rules_with_french_words(translated_target):
    catalogue = translated_target / "messages" / "fr.yaml"
    english = _section_text(translated_target)
    body = catalogue.read_text(encoding="utf-8")
    catalogue.write_text(body + f"  ? {english!r}\n  : 'Pour 2 ou 3 joueurs, un jeu de 52 "
                                "cartes.'\n", encoding="utf-8")
    found = coverage_in(translated_target, "fr")
    assert [f.ok for f in found] == [True, True]
    assert "1 rules, each printed" in found[0].detail and "in fr" in found[0].check
    assert found[1].check == "coverage in fr"
    assert found[1].detail.startswith("30 rules have no French printed words")
    english_findings = coverage_in(translated_target, "en")
    assert len(english_findings) == 1 and english_findings[0].ok


def test_coverage_in_french_fails_naming_the_french_words(translated_target):
    found = coverage_in(translated_target, "fr")  # the section has no translation
    assert not found[0].ok and "'2 ou 3 joueurs' is not on the rules pages" in found[0].detail
    game_file = translated_target / "game.yaml"
    line = next(i for i, text in enumerate(game_file.read_text().splitlines(), 1)
                if "printed_in" in text)
    assert found[0].where == f"{game_file}:{line}"


def test_the_game_catalogue_comes_before_the_shared_one(mygame, tmp_path, monkeypatch):
    from generator.data.translation import i18n_files

    shared = tmp_path / "faces.fr.yaml"
    shared.write_text("strings:\n  Dawn: Point du jour\n  Dusk: Crépuscule\n", encoding="utf-8")
    monkeypatch.setattr(i18n_files, "shared_catalogue_file", lambda lang: shared)
    game = load_game(str(mygame / "game.yaml"))
    with i18n.session(game, "fr") as session:
        assert session.lookup("Dawn") == "Aube"  # the game's own
        assert session.lookup("  Dusk\n") == "Crépuscule"  # the shared one, spaces collapsed
        assert session.lookup("Noon") is None


def test_a_symlinked_messages_folder_is_refused(mygame, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    (mygame / "messages").rename(elsewhere)
    (mygame / "messages").symlink_to(elsewhere, target_is_directory=True)
    code, _, err = run(capsys, "build", mygame, "--lang", "fr")
    assert code == 2 and "leads outside the project" in err
