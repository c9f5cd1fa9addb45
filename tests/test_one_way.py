"""A build runs one way (issue 23, item 6): loading resolves what a kit names into the model
once, and the faces read it.

- A loaded theme carries its checked fonts and its icons, loaded (``Theme.known``); a loaded
  game the face templates its components name, what those include and the icons they and
  the game's data name by a fixed name (``Game.known``).
- Faces draw from that without looking anything up; a name computed while drawing goes
  through generator/data/design/lookup.py's ``find``, the one door back to loading.
- The face cache still sees every file a face drew from: what loading read for a template
  or an icon counts as read by the face that uses it (``context.Sourced``).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.core import context
from generator.core.model import Known
from generator.data import load_game
from generator.data.design import lookup
from generator.data.design.themes import load_theme
from generator.data.files import project
from generator.orchestration import drawing
from generator.orchestration.build import build_pdf
from generator.orchestration.options import BuildOptions


def test_a_loaded_theme_carries_its_fonts_and_its_icons_loaded():
    theme = load_theme("monsters")
    assert theme.known.fonts == frozenset(theme.fonts.values())
    assert {"catoblepas", "dire-bear", "questing-beast", "winged-horse"} <= set(theme.known.icons)
    drawing = theme.known.icons["catoblepas"]
    assert drawing.value.view_w > 0
    assert any(path.endswith("catoblepas.yaml") or path.endswith("catoblepas.svg")
               for path in drawing.read), "what its look-up read goes with it"


def test_a_loaded_game_carries_its_templates_their_includes_and_its_icons():
    game = load_game("moving-day-boxes")
    templates = game.known.templates
    for comp in game.components:
        assert (comp.face, None) in templates
    aid = templates[("boxes-aid", None)].value
    folder = str(aid.file.parent)
    assert ("boxes-legend", folder) in templates  # boxes-aid includes it
    assert ("boxes-legend-cell", folder) in templates  # and it includes this one



def test_a_loaded_game_carries_the_icons_its_data_names():
    game = load_game("moving-target")
    named = {row["icon"] for rows in game.data["tables"].values() for row in rows
             if "icon" in row}
    assert named == {"spade", "heart", "diamond", "club"}
    assert named <= set(game.known.icons)


def test_known_things_add_up_the_later_winning():
    one = context.Sourced("a", {})
    two = context.Sourced("b", {})
    both = Known(icons={"x": one}, fonts=frozenset({"sans"})) + Known(icons={"x": two})
    assert both.icons["x"] is two and both.fonts == {"sans"}


@pytest.fixture
def starter(tmp_path) -> Path:
    folder = tmp_path / "mygame"
    with project.using(project.Project()):
        project.init_project(folder)
    return folder / "game.yaml"


@pytest.fixture
def looked_up(monkeypatch) -> list[tuple[str, object]]:
    """Every name the faces looked up through the one door while drawing."""
    seen: list[tuple[str, object]] = []
    real = lookup.find

    def counting(kind, name, beside=None):
        seen.append((kind, name))
        return real(kind, name, beside)

    monkeypatch.setattr(lookup, "find", counting)
    return seen


def test_a_kit_whose_names_are_all_known_at_load_looks_nothing_up(starter, tmp_path,
                                                                   looked_up, monkeypatch):
    """The starter project: its templates and icons are named in its data, its theme and
    its templates; drawing its 36 pieces looks up none of them."""
    monkeypatch.setenv("PNP_CACHE", "0")
    target, _ = build_pdf(str(starter), BuildOptions(out_dir=tmp_path / "out"))
    assert target.stat().st_size > 10_000
    assert looked_up == []


def test_a_name_computed_while_drawing_goes_through_the_one_door(starter, tmp_path, looked_up,
                                                                  monkeypatch):
    monkeypatch.setenv("PNP_CACHE", "0")
    token = starter.parent / "faces" / "token.yaml"
    token.write_text(token.read_text(encoding="utf-8") + (
        '  - icon: {name: "{{ \'suit-\' ~ \'waves\' }}", x: 2, y: 2, w: 3, h: 3}\n'),
        encoding="utf-8")
    build_pdf(str(starter), BuildOptions(out_dir=tmp_path / "out"))
    assert set(looked_up) == {("icon", "suit-waves")}


# -- the face cache sees what loading read -------------------------------------------------------

@pytest.fixture
def drawn(monkeypatch, fresh_cache) -> list[str]:
    """The ids of the components drawn (not taken from the cache), with the cache on."""
    seen: list[str] = []
    real = drawing._draw_faces

    def counting(game, comp, *args):
        seen.append(comp.id)
        return real(game, comp, *args)

    monkeypatch.setattr(drawing, "_draw_faces", counting)
    return seen


def kit(game: Path, out: Path) -> bytes:
    target, _ = build_pdf(str(game), BuildOptions(out_dir=out))
    return target.read_bytes()


def test_an_edited_include_is_drawn_again(starter, tmp_path, drawn):
    """An include loaded with the game (not looked up while drawing) still keys the faces."""
    faces = starter.parent / "faces"
    (faces / "mark.yaml").write_text(
        'elements:\n  - rect: {x: 1, y: 1, w: 2, h: 2, fill: "#112233"}\n', encoding="utf-8")
    token = faces / "token.yaml"
    token.write_text(token.read_text(encoding="utf-8") + "  - include: mark\n",
                     encoding="utf-8")
    first = kit(starter, tmp_path / "a")
    drawn.clear()
    assert kit(starter, tmp_path / "b") == first and drawn == []
    (faces / "mark.yaml").write_text(
        'elements:\n  - rect: {x: 1, y: 1, w: 2, h: 2, fill: "#445566"}\n', encoding="utf-8")
    assert kit(starter, tmp_path / "c") != first
    assert drawn == ["tokens"]


def test_an_edited_theme_icon_is_drawn_again(starter, tmp_path, drawn, looked_up):
    """An icon the theme names, read by a face from the loaded theme: its file keys the
    faces that drew it, though the face never looked it up."""
    folder = starter.parent
    (folder / "icons" / "badge.yaml").write_text(
        "view: [10, 10]\nshapes:\n  - circle: [5, 5, 4]\n", encoding="utf-8")
    theme = folder / "themes" / "starter.yaml"
    theme.write_text(theme.read_text(encoding="utf-8") + "labels:\n  badge: {icon: badge}\n",
                     encoding="utf-8")
    token = folder / "faces" / "token.yaml"
    token.write_text(token.read_text(encoding="utf-8") + (
        '  - text: {x: 2, y: 2, w: 16, h: 5, size: 6, text: ":{{ labels.badge.icon }}: x"}\n'),
        encoding="utf-8")
    first = kit(starter, tmp_path / "a")
    assert "tokens" in drawn and looked_up == []
    drawn.clear()
    (folder / "icons" / "badge.yaml").write_text(  # wider: the inline icon takes more room
        "view: [20, 10]\nshapes:\n  - circle: [10, 5, 4]\n", encoding="utf-8")
    assert kit(starter, tmp_path / "b") != first
    assert drawn == ["tokens"]
