"""Themes: extends chains, user theme files, ink-saver mode."""
from __future__ import annotations

import pytest

from generator.core import paths
from generator.core.errors import DataError
from generator.core.primitives import Rect
from generator.data.design.templates import load_template
from generator.data.design.themes import load_theme, merge
from tests.drawing import render_face

WHITE = "#ffffff"
BUILT_IN = sorted(f.stem for f in paths.THEMES.glob("*.yaml"))


def write(tmp_path, name: str, text: str):
    file = tmp_path / name
    file.write_text(text, encoding="utf-8")
    return str(file)


def test_merge_is_recursive_and_leaves_inputs_alone():
    base = {"palette": {"a": 1, "b": 2}, "fonts": {"title": "sans"}, "list": [1]}
    over = {"palette": {"b": 3}, "list": [2]}
    assert merge(base, over) == {"palette": {"a": 1, "b": 3}, "fonts": {"title": "sans"},
                                 "list": [2]}
    assert base["palette"] == {"a": 1, "b": 2}


def test_standard_theme():
    theme = load_theme("standard")
    assert theme.name == "standard" and not theme.ink_saver
    assert theme.palette["back_bg"] == "#1f3a5f"
    assert theme.fonts["title"] == "sans-bold"
    assert theme.labels["back_title"] == "MOVING TARGET"
    ctx = theme.context()
    assert ctx["palette"] is theme.palette and ctx["ink_saver"] is False


def test_four_colour_extends_standard():
    theme = load_theme("four-colour")
    standard = load_theme("standard")
    assert theme.name == "four-colour"
    assert theme.palette["suit_clubs"] == "#1e7b3a"
    assert theme.palette["suit_diamonds"] == "#1f5fbf"
    # Everything it does not name comes from standard.
    for key in ("suit_spades", "suit_hearts", "back_bg", "card"):
        assert theme.palette[key] == standard.palette[key]
    assert theme.fonts == standard.fonts and theme.labels == standard.labels


def test_three_level_chain():
    theme = load_theme("collections")  # collections -> decktet -> standard
    assert theme.palette["token_ring"] == "#1f4e96"  # collections overrides decktet's
    assert theme.palette["suit_moons"] == "#aeb5c2"  # from decktet
    assert theme.palette["board_line"] == "#8a8a8a"  # from standard
    assert theme.labels["back_title"] == "THE DECKTET"  # decktet overrides standard's
    assert theme.labels["village"] == "boxes"  # collections' own labels
    assert theme.labels["ranks"]["crown"] == "Crown"  # nested mappings merge


def test_user_theme_extends_the_game_theme(tmp_path):
    file = write(tmp_path, "mine.yaml", 'palette:\n  suit_clubs: "#00aa00"\n'
                                        'labels:\n  back_title: "FRIDAY CARDS"\n')
    theme = load_theme(file, game_theme="standard")
    standard = load_theme("standard")
    assert theme.palette["suit_clubs"] == "#00aa00"
    assert theme.labels["back_title"] == "FRIDAY CARDS"
    assert {k: v for k, v in theme.palette.items() if k != "suit_clubs"} == {
        k: v for k, v in standard.palette.items() if k != "suit_clubs"}


def test_user_theme_can_pick_its_base(tmp_path):
    file = write(tmp_path, "mine.yaml", 'extends: four-colour\npalette:\n  back_bg: "#123456"\n')
    theme = load_theme(file, game_theme="decktet")
    assert theme.palette["back_bg"] == "#123456"
    assert theme.palette["suit_diamonds"] == "#1f5fbf"  # four-colour, not decktet
    assert "suit_moons" not in theme.palette
    base = write(tmp_path, "base.yaml", 'extends: standard\npalette:\n  ink: "#222222"\n')
    child = write(tmp_path, "child.yaml", f'extends: {base}\npalette:\n  muted: "#333333"\n')
    theme = load_theme(child, game_theme="decktet")
    assert (theme.palette["ink"], theme.palette["muted"]) == ("#222222", "#333333")


def test_example_user_theme():
    theme = load_theme(str(paths.ROOT / "examples" / "my-theme.yaml"), game_theme="standard")
    assert theme.labels["back_title"] == "FRIDAY NIGHT CARDS"
    assert theme.palette["back_bg"] == "#1d4d3a"


def test_user_theme_with_a_bad_colour_names_its_line(tmp_path):
    file = write(tmp_path, "mine.yaml", "palette:\n  ink: red\n  card: '#fffff'\n")
    with pytest.raises(DataError) as info:
        load_theme(file, game_theme="standard")
    err = info.value
    assert (err.file, err.line, err.field) == (file, 3, "palette.card")
    assert err.expected == ("expected a colour: #rgb, #rrggbb or a CSS colour name such as "
                            "teal (translucent: #rgba, #rrggbbaa), got '#fffff'")


def test_palette_colours_may_be_names_or_short_hex(tmp_path):
    """What a designer writes is what the faces get, as #rrggbb."""
    file = write(tmp_path, "mine.yaml", "palette:\n  ink: Teal\n  card: '#fa0'\n")
    theme = load_theme(file, game_theme="standard")
    assert (theme.palette["ink"], theme.palette["card"]) == ("#008080", "#ffaa00")


def test_bad_font_and_unknown_parent(tmp_path):
    file = write(tmp_path, "mine.yaml", "fonts:\n  title: comic-sans\n")
    with pytest.raises(DataError, match=r"fonts.title: expected a font key \(sans, "):
        load_theme(file, game_theme="standard")
    file = write(tmp_path, "orphan.yaml", "extends: nosuch\n")
    with pytest.raises(DataError, match=r"no theme 'nosuch' \(built-in themes: .*standard"):
        load_theme(file)


def test_extends_loop_is_an_error(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(f"extends: {b}\n")
    b.write_text(f"extends: {a}\n")
    with pytest.raises(DataError, match="extend each other in a loop") as info:
        load_theme(str(a))
    assert info.value.line == 1 and info.value.field == "extends"


# -- ink saver -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", BUILT_IN)
def test_ink_saver_makes_backgrounds_white(name):
    normal, saver = load_theme(name), load_theme(name, ink_saver=True)
    backgrounds = [k for k in saver.palette if k.endswith("_bg")]
    assert backgrounds
    assert [k for k in backgrounds if saver.palette[k] != WHITE] == []
    assert any(normal.palette[k] != WHITE for k in backgrounds)
    assert saver.ink_saver and saver.context()["ink_saver"] is True
    # Only the colours named by the ink_saver section change.
    changed = {k for k in normal.palette if normal.palette[k] != saver.palette[k]}
    assert changed <= set(saver.data["ink_saver"]["palette"])


def test_ink_saver_beats_a_user_colour_unless_the_user_says_otherwise(tmp_path):
    file = write(tmp_path, "mine.yaml", 'palette:\n  back_bg: "#1d4d3a"\n  court_bg: "#eeeeee"\n'
                                        'ink_saver:\n  palette:\n    court_bg: "#fafafa"\n')
    theme = load_theme(file, game_theme="standard", ink_saver=True)
    assert theme.palette["back_bg"] == WHITE
    assert theme.palette["court_bg"] == "#fafafa"


def _back_fill(theme) -> str:
    face = render_face(load_template("playing-card-back"), 63.5, 88.9, theme.context())
    first = face.prims[0]
    assert isinstance(first, Rect) and first.w > 63.5 and first.h > 88.9  # the full bleed
    return first.fill


def test_ink_saver_card_back_is_white():
    assert _back_fill(load_theme("standard")) == "#1f3a5f"
    assert _back_fill(load_theme("standard", ink_saver=True)) == WHITE


@pytest.mark.parametrize("name", ["standard", "decktet", "collections", "monsters", "boxes",
                                  "movement"])
def test_ink_saver_rules_title_band_is_an_outline(name):
    """The rules page's title band is 190 x 15 mm of solid heading colour; in ink-saver mode it
    is white, outlined in the heading colour, and the title is printed in that colour."""
    item = {"title": "Rules", "sections": [{"heading": "Setup", "text": "Deal."}]}
    for saver in (False, True):
        theme = load_theme(name, ink_saver=saver)
        heading = theme.context()["palette"]["heading"]
        face = render_face(load_template("rules-page"), 190, 260,
                           {**theme.context(), "item": item})
        band = face.prims[0]
        assert isinstance(band, Rect) and band.w == 190 and band.stroke == heading
        assert band.fill == (WHITE if saver else heading)
        title = next(p for p in face.prims if getattr(p, "font", None) and "Rules" in str(p))
        assert title.fill == (heading if saver else WHITE)


@pytest.mark.parametrize("suit", ["moons", "suns", "waves", "leaves", "wyrms", "knots"])
def test_every_decktet_badge_shows_its_ring_on_a_white_card(suit):
    """Each suit badge has a ring round its edge; on a white card it must show, as it does on
    the four light badges. Waves and Leaves drew theirs in their white line art, so on a card
    they had none."""
    from generator.core.colours import rgba
    from generator.core.vector import paints
    from generator.data.design.icons import load_icon

    palette = load_theme("decktet").palette
    icon = load_icon(f"suit-{suit}")
    rings = [s for s in icon.shapes if s.circle is not None and s.circle[2] >= 45
             and s.fill == "none" and s.width > 0]
    assert rings, suit
    _, stroke = paints(rings[0], palette[f"suit_{suit}"], palette[f"suit_{suit}_ink"])
    assert stroke is not None
    ring, card = rgba(stroke)[:3], rgba(palette["card"])[:3]
    assert sum(abs(a - b) for a, b in zip(ring, card, strict=True)) > 3 * 128, (suit, stroke)


@pytest.mark.parametrize("game_id", ["moving-target", "moving-day", "moving-day-boxes",
                                     "movement-game"])
def test_ink_saver_aid_title_band_is_an_outline(game_id):
    """A player aid's title band is solid (the heading's or the seat's colour, 70 x 12 mm of
    ink on every aid); in ink-saver mode it is an outline, as a rules page's is, and its words
    are printed in colour on white, never white."""
    from generator.core.primitives import Text
    from generator.data import load_game
    from generator.orchestration.drawing import game_theme, render_faces
    from generator.orchestration.options import BuildOptions

    game = load_game(game_id)
    comp = next(c for c in game.components if c.kind == "aid" and c.size.w < 100)
    for saver in (False, True):
        opts = BuildOptions(ink_saver=saver)
        face = render_faces(game, comp, game_theme(game, opts), opts)[0][0]
        background = face.prims[0]
        band = next(p for p in face.prims[1:] if isinstance(p, Rect) and p.y < 4 and p.h < 20
                    and p.w > face.w * 0.8)
        title = next(p for p in face.prims if isinstance(p, Text) and p.lines[0][1] < 10)
        if saver:
            assert band.fill in (None, WHITE, background.fill), (game_id, band)
            assert band.stroke is not None
            assert title.fill != WHITE
        else:
            assert band.fill not in (None, WHITE)
