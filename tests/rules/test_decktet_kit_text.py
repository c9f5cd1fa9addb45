"""Moving Day / Monster Day kits read back from their PDFs, as a player reading them would:
the aid says which way a token moves, in readable type; each theme's word for a space is used
everywhere (no "space" in Moving Day, whose seed says "box"); the worked example's labels are
readable; the kit's own readings are labelled; no page number that can drift is printed; the
mat gives every token its own mark on every space; and no page footer loses its tail."""
from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from generator.core.primitives import Circle, Text
from generator.data import load_game
from generator.orchestration.drawing import game_theme, render_faces
from generator.orchestration.options import BuildOptions

PT = 72 / 25.4  # points per mm
KITS = ("monster-day", "moving-day")
SPACE = {"monster-day": "space", "moving-day": "box"}
MIN_PT = 6.5


@pytest.fixture(scope="module")
def kit(kits):
    """``kit(game, paper)``: that kit's PDF and manifest (conftest's shared ``kits``)."""
    def get(game: str, paper: str = "a4") -> tuple[Path, dict]:
        built = kits(game, paper=paper)
        return built.pdf, built.manifest
    return get


def _text(texts: tuple[str, ...], pages: list[int]) -> str:
    return " ".join(" ".join(texts[n - 1].split()) for n in pages)


@pytest.mark.parametrize("game", KITS)
def test_the_aid_says_which_way_a_token_moves_in_readable_type(game):
    g = load_game(game)
    opts = BuildOptions()
    theme = game_theme(g, opts)
    comp = next(c for c in g.components if c.id == "aid")
    texts = [pr for face in render_faces(g, comp, theme, opts)[0] for pr in face.prims
             if isinstance(pr, Text)]
    small = [(t.lines[0][2], t.size) for t in texts if t.size < MIN_PT - 0.01]
    assert texts and not small
    text = " ".join(line[2] for t in texts for line in t.lines)
    space, village = SPACE[game], theme.labels["village"]
    for needed in (
            f"one {space} towards the player with the higher total in their own {village}",
            f"out of the gap to the {space} nearest it",
            f"On the {space} at a player's end it stays put",
            "share a suit with that Ace"):
        assert needed in text, needed


def test_moving_day_says_box_never_space(kit, page_texts):
    pdf, manifest = kit("moving-day")
    text = _text(page_texts(pdf), [p["page"] for p in manifest["pages"]])
    assert "space" not in text.lower()
    assert "from box 3 to box 4" in text or "box 1" in text


def test_monster_day_keeps_its_seeds_word_space(kit, page_texts):
    pdf, _ = kit("monster-day")
    text = _text(page_texts(pdf), [2, 3])
    assert "space 1" in text and " box " not in text


@pytest.mark.parametrize("game", KITS)
def test_the_rules_pages_label_our_readings_and_print_no_page_numbers(kit, page_texts, game):
    pdf, _ = kit(game)
    text = _text(page_texts(pdf), [2, 3])
    assert "see page" not in text and "page 2 of" not in text
    assert "scores for no one, and more points wins, equal points a draw (our reading" in text
    assert "Our reading: a rolled odd rank counts for" in text
    assert "Our reading: a Pawn's or Court's rank" in text
    assert "rules engine" not in text
    assert "worked out by the kit's own game code when this page was printed" in text


@pytest.mark.parametrize("game", KITS)
def test_the_worked_example_labels_are_readable(kit, page_words, game):
    pdf, _ = kit(game)
    words = page_words(pdf, 3, extra_attrs=["size"], keep_blank_chars=True)
    labels = [w for w in words if w["text"].startswith((f"{SPACE[game]} ", "rank ", "Personality",
                                                         "Ace of"))]
    assert len(labels) >= 12
    assert min(w["size"] for w in labels) >= MIN_PT - 0.01


@pytest.mark.parametrize("game", KITS)
def test_the_mat_gives_every_token_a_mark_on_every_space(game):
    """Up to four tokens share a space: each space has a ring per token (in its colour), far
    enough apart that 28 mm tokens on them overlap by under a quarter of a token, and inside
    the mat; plus the four start rings in the gap."""
    g = load_game(game)
    opts = BuildOptions()
    theme = game_theme(g, opts)
    comp = next(c for c in g.components if c.id == "village")
    diameter = next(c for c in g.components if c.id == "tokens").size.w
    face = render_faces(g, comp, theme, opts)[0][0]
    colours = {theme.palette[f"token_{die}"].lower(): die for die in range(1, 5)}
    rings = [pr for pr in face.prims if isinstance(pr, Circle) and pr.stroke
             and str(pr.stroke).lower() in colours and pr.fill is None]
    assert len(rings) == 6 * 4
    rings.sort(key=lambda ring: ring.cx)  # two columns of marks per space, left to right
    for marks in (rings[i:i + 4] for i in range(0, len(rings), 4)):
        assert max(m.cx for m in marks) - min(m.cx for m in marks) < 63.5
        assert sorted(colours[str(m.stroke).lower()] for m in marks) == [1, 2, 3, 4]
        for a, b in itertools.combinations(marks, 2):
            assert math.dist((a.cx, a.cy), (b.cx, b.cy)) >= 0.75 * diameter
        for m in marks:
            assert diameter / 2 <= m.cy and m.cy + diameter / 2 <= face.h + 0.5
