"""Project folders: `pnp init`, the README's "Your first game" steps, and the locator
(generator/data/files/project.py): a project's own faces, themes, icons and art first, the built-ins
second, every folder confined."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from generator.core import context, paths
from generator.data import load_game
from generator.data.design.themes import load_theme
from generator.data.files import project, resolve
from generator.frontends.cli import main
from tests.designer import edit, run

CARD_NAMES = ["Dawn", "Noon", "Eclipse", "New Moon", "Blue Moon", "Seed", "Forest"]




@pytest.fixture
def mygame(in_tmp, capsys) -> Path:
    assert run(capsys, "init", "mygame")[0] == 0
    return in_tmp / "mygame"


# -- the README's "Your first game", step by step ---------------------------------------------

@pytest.mark.slow
def test_your_first_game_as_the_readme_says(in_tmp, page_texts, capsys):
    readme = (paths.ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Your first game", 1)[1].split("\n## ", 1)[0]
    for step in ("pnp init mygame", "pnp build mygame", "pnp verify mygame"):
        assert step in section
    assert "{name: Dawn, suit: sun, value: 1}" in section  # the row the tutorial edits

    # 1. pnp init mygame
    code, out, _ = run(capsys, "init", "mygame")
    assert code == 0 and "pnp build mygame" in out
    folder = in_tmp / "mygame"
    for name in ("game.yaml", "faces/card.yaml", "faces/card-back.yaml", "faces/token.yaml",
                 "themes/starter.yaml", "icons/sun.yaml", "README.md"):
        assert (folder / name).is_file(), name
    assert "rules:" not in (folder / "game.yaml").read_text(encoding="utf-8")
    # The editor is told which schema describes which file (VS Code's YAML extension).
    settings = json.loads((folder / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    mapped = settings["yaml.schemas"]
    assert mapped["./schemas/game.schema.json"] == ["game.yaml"]
    assert mapped["./schemas/icon.schema.json"] == ["icons/*.yaml"]
    for schema in mapped:
        assert (folder / schema).is_file(), schema

    # 2. edit the card list: rename a card
    edit(folder / "game.yaml", "{name: Dawn, suit: sun, value: 1}",
         "{name: Sunrise, suit: sun, value: 1}")

    # 3. pnp build mygame -> mygame/output/mygame/mygame.pdf
    code, out, err = run(capsys, "build", "mygame")
    assert code == 0, err
    pdf = folder / "output" / "mygame" / "mygame.pdf"
    pages = int(re.search(r"(\d+) pages -> ", out)[1])
    assert pdf.is_file()
    texts = page_texts(pdf)
    assert len(texts) == pages == 8  # contents + cards x2 + tokens
    text = "\n".join(texts)
    for name in ["Sunrise", *CARD_NAMES[1:]]:
        assert name in text, name
    assert "Dawn" not in text

    # 4. pnp verify mygame: every declarative check passes
    code, out, _ = run(capsys, "verify", "mygame")
    assert code == 0, out
    assert "[ok  ] [design] 18 cards in the deck" in out
    assert "[ok  ] [design] each suit appears 6 times" in out
    assert "FAIL" not in out


def test_a_wrong_count_fails_verify_naming_the_check_and_stops_the_build(mygame, capsys):
    edit(mygame / "game.yaml", "{name: Dawn, suit: sun, value: 1}",
         "{name: Dawn, suit: sun, value: 1, count: 2}")
    code, out, _ = run(capsys, "verify", "mygame")
    assert code == 1
    assert re.search(r"\[FAIL\] \[design\] 18 cards in the deck: .*19", out)
    assert "[FAIL] [design] each suit appears 6 times" in out
    code, _, err = run(capsys, "build", "mygame")
    assert code == 2 and "18 cards in the deck" in err and "Traceback" not in err
    assert not (mygame / "output" / "mygame" / "mygame.pdf").exists()


def test_init_refuses_a_folder_that_is_not_empty(in_tmp, capsys):
    folder = in_tmp / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    code, out, err = run(capsys, "init", "mine")
    assert code == 2 and out == ""
    assert err.startswith("error: mine is not empty") and "never overwrites" in err
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    (in_tmp / "file").write_text("x")
    assert run(capsys, "init", "file")[0] == 2


def test_init_takes_its_id_from_the_folder_name(in_tmp, capsys):
    assert run(capsys, "init", "Space Race")[0] == 0
    text = (in_tmp / "Space Race" / "game.yaml").read_text(encoding="utf-8")
    assert "\nid: space-race\n" in text and "\ntitle: Space Race\n" in text


def test_a_project_builds_from_anywhere_and_out_overrides_its_output(mygame, tmp_path, capsys,
                                                                      monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, _, err = run(capsys, "build", str(mygame / "game.yaml"), "--out", "kits")
    assert code == 0, err
    assert (elsewhere / "kits" / "mygame" / "mygame.pdf").is_file()
    assert not (mygame / "output").exists()
    code, _, err = run(capsys, "build", str(mygame))
    assert code == 0, err
    assert (mygame / "output" / "mygame" / "mygame.pdf").is_file()


def test_where_kits_go_by_default(mygame):
    assert project.output_folder(["moving-target"]) == paths.OUTPUT
    assert project.output_folder([]) == paths.OUTPUT
    assert project.output_folder(["mygame"]) == mygame.resolve() / "output"
    assert project.output_folder(["mygame/"]) == mygame.resolve() / "output"
    assert project.output_folder(["mygame", "mygame/"]) == mygame.resolve() / "output"
    with pytest.raises(project.ProjectError, match="give --out"):
        project.output_folder(["mygame", "moving-target"])


def test_a_project_and_a_built_in_game_at_once_need_out(mygame, capsys):
    code, out, err = run(capsys, "build", "mygame", "moving-target")
    assert code == 2 and out == "" and "give --out" in err


def test_a_folder_with_no_game_or_several_is_a_clear_error(in_tmp, mygame, capsys):
    (in_tmp / "empty").mkdir()
    code, _, err = run(capsys, "build", "empty/")
    assert code == 2 and "no game data file in empty" in err and "pnp init" in err
    text = (mygame / "game.yaml").read_text(encoding="utf-8")
    (mygame / "game.yaml").rename(mygame / "one.yaml")
    (mygame / "two.yaml").write_text(text.replace("id: mygame", "id: two"), encoding="utf-8")
    code, _, err = run(capsys, "verify", "mygame")
    assert code == 2 and "several game data files (one.yaml, two.yaml)" in err


def test_list_shows_the_projects_here_and_the_built_in_games(mygame, capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert re.search(r"^moving-target: Moving Target", out, re.M)
    assert re.search(r"^mygame/ \(mygame\): Mygame", out, re.M)  # tests/test_standing_in.py


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"pnp {paths.version()}"
    assert re.fullmatch(r"\d+\.\d+\.\d+", paths.version())


# -- the locator: project first, built-ins second, each folder confined -----------------------

def test_the_project_is_searched_first_then_the_built_ins(mygame):
    here = project.Project(mygame)
    assert here.folders("faces") == [mygame / "faces", paths.FACES]
    assert here.folders("art") == [paths.ART]  # no art/ folder yet
    with project.using(here):
        assert resolve.face_file("card") == (mygame / "faces" / "card.yaml").resolve()
        assert resolve.face_file("playing-card") == (paths.FACES / "playing-card.yaml").resolve()
        assert resolve.icon_file("sun") == (mygame / "icons" / "sun.yaml").resolve()
        assert resolve.icon_file("spade") == (paths.ICONS / "spade.yaml").resolve()
        assert "card" in project.known("faces") and "playing-card" in project.known("faces")
    with pytest.raises(resolve.Refused, match="no face template 'card'"):
        resolve.face_file("card")  # outside the project: built-ins only


def test_a_project_file_shadows_the_built_in_one(mygame):
    (mygame / "icons" / "spade.yaml").write_text("view: [10, 10]\nshapes:\n  - circle: [5, 5, 4]\n")
    (mygame / "themes" / "standard.yaml").write_text(
        "name: standard\nextends: standard\npalette:\n  back_bg: \"#123456\"\n")
    with project.using(project.Project(mygame)):
        assert resolve.icon_file("spade") == (mygame / "icons" / "spade.yaml").resolve()
        theme = load_theme("standard")  # extends the built-in standard, not itself
    assert theme.palette["back_bg"] == "#123456"
    assert theme.palette["suit_hearts"] == load_theme("standard").palette["suit_hearts"]


@pytest.mark.slow
def test_the_projects_own_face_changes_what_is_printed(mygame, page_texts, capsys):
    edit(mygame / "faces" / "card.yaml", 'text: "{{ suit.name }}"',
         'text: "Suit of {{ suit.name }}"')
    assert run(capsys, "build", "mygame")[0] == 0
    assert "Suit of Moon" in "\n".join(page_texts(mygame / "output" / "mygame" / "mygame.pdf"))


def test_an_image_in_the_projects_art_folder_resolves_from_anywhere(mygame, tmp_path, capsys,
                                                                   monkeypatch):
    (mygame / "art").mkdir()
    Image.new("RGB", (40, 40), "#ff0000").save(mygame / "art" / "dot.png")
    edit(mygame / "faces" / "card-back.yaml", "elements:\n",
         "elements:\n  - image: {path: art/dot.png, x: 2, y: 2, w: 4, h: 4}\n")
    monkeypatch.chdir(tmp_path / "..")
    code, _, err = run(capsys, "build", str(mygame))
    assert code == 0, err
    with context.building():  # as the build did: its project in use, from elsewhere
        load_game(str(mygame))
        assert resolve.image_file("art/dot.png") == (mygame / "art" / "dot.png").resolve()


def test_a_symlinked_kind_folder_is_refused(mygame, tmp_path, capsys):
    outside = tmp_path / "outside-faces"
    (mygame / "faces").rename(outside)
    (mygame / "faces").symlink_to(outside, target_is_directory=True)
    code, _, err = run(capsys, "build", "mygame")
    assert code == 2 and "leads outside the project" in err and "Traceback" not in err


def test_a_symlinked_face_leading_out_of_the_project_is_refused(mygame, tmp_path, capsys):
    secret = tmp_path / "secret.yaml"
    secret.write_text((mygame / "faces" / "card.yaml").read_text(encoding="utf-8"))
    (mygame / "faces" / "card.yaml").unlink()
    (mygame / "faces" / "card.yaml").symlink_to(secret)
    code, _, err = run(capsys, "build", "mygame")
    assert code == 2 and "leads outside" in err and "face" in err


def test_a_theme_file_named_in_the_data_file_resolves_beside_it(mygame):
    from generator.core.yamlfile import load_yaml
    from generator.data.tables.loader import theme_of

    doc = load_yaml(mygame / "game.yaml")
    assert theme_of(doc, "themes/starter.yaml") == str(mygame.resolve() / "themes" / "starter.yaml")
    with pytest.raises(Exception, match="outside"):
        theme_of(doc, "../elsewhere.yaml")


def test_theme_may_be_a_file_of_the_project_but_not_outside_it(mygame, capsys):
    """``theme:`` names a theme, or a .yaml file relative to the data file and inside its
    folder: its colours reach the kit; a path leaving the folder is refused at its line."""
    looks = mygame / "looks"
    looks.mkdir()
    night = (mygame / "themes" / "starter.yaml").read_text(encoding="utf-8")
    (looks / "night.yaml").write_text(night.replace("name: starter", "name: night"),
                                      encoding="utf-8")
    edit(mygame / "game.yaml", "theme: starter ", "theme: looks/night.yaml ")
    assert run(capsys, "build", "mygame")[0] == 0
    for bad, expected in (("../x.yaml", "expected a theme name"),
                          ("looks/../../x.yaml", "is outside")):
        text = (mygame / "game.yaml").read_text(encoding="utf-8")
        (mygame / "game.yaml").write_text(re.sub(r"(?m)^theme: \S+", f"theme: {bad}", text),
                                          encoding="utf-8")
        code, _, err = run(capsys, "build", "mygame")
        assert code == 2 and expected in err and "game.yaml:6: theme" in err, err
