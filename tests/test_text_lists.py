"""Numbered and bulleted lists set with hanging indents, and the plain zero of the body font.

Lists (generator/faces/rich_layout.py): a paragraph starting ``1. ``, ``12) `` or ``- `` in a
left-aligned text is an item: its number in a gutter, every line of it starting where its first
word does. The zero (generator/data/typefaces/fonts.py): Atkinson Hyperlegible has only a slashed
zero, so text in it draws ``0`` from DejaVu Sans, measured with the font that draws it.
"""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.data.typefaces import fonts
from generator.faces.rich_layout import has_list
from generator.faces.text import PT, TextBox
from tests.drawing import layout, layout_markup

GAMES = ("moving-target", "monster-day", "moving-day", "moving-day-boxes", "movement-game")
STEPS = ("Give each player a set of 3 different vehicles, placed in front of them, slots face "
         "up.\n2. Shuffle all the box tiles face down into several stacks. Take 2 tiles from a "
         "stack of your choice and lay them one under the other.\n10. Choose a first player.")


def _box(text: str, w: float = 60.0, **kw: Any) -> TextBox:
    return TextBox(0, 0, w, 200, text, kw.pop("font", "sans"), 9, 7, **kw)


def _rows(made) -> list[tuple[float, float, str]]:
    """(x, baseline, text) of every span drawn, in order."""
    return [(x, base, text) for x, base, text, _font, _fill in made.runs()]


def test_each_item_starts_a_line_its_number_in_a_gutter_its_lines_hanging():
    made = layout_markup(_box("Before the list, a sentence long enough to wrap here.\n1. "
                              + STEPS + "\nAfter the list."))
    lines = [line[2] for line in made.lines]
    starts = [n for n, line in enumerate(lines) if re.match(r"\d+\. ", line)]
    assert [lines[n].split()[0] for n in starts] == ["1.", "2.", "10."]
    spans = _rows(made)
    numbers = [s for s in spans if re.fullmatch(r"[\d.]+ ?", s[2])]  # "10. " is 1, 0 and .
    words = {base: x for x, base, text in spans if not re.fullmatch(r"[\d.]+ ?", text)}
    item_x = {words[base] for _, base, _ in numbers}
    assert len(item_x) == 1  # every item's words start at one x
    text_x = item_x.pop()
    assert all(x < text_x - 1 for x, _, _ in numbers)
    # Every line from the first item to the last is at the item indent (hanging), the
    # paragraphs before and after at the box's edge.
    first, last = starts[0], len(lines) - 2
    for x, _, line in made.lines[first + 1:last + 1]:
        if not re.match(r"\d+\. ", line):
            assert x == pytest.approx(text_x, abs=1e-3)
    assert made.lines[0][0] == 0 and made.lines[-1][0] == 0
    assert made.lines[-1][2] == "After the list."
    # Numbers are right-aligned in the gutter: "1." and "10." end at one x.
    ends = [x + fonts.text_width_mm("sans", "1. ", 9) for x, _, t in spans if t == "1. "]
    assert ends and ends[0] == pytest.approx(text_x, abs=1e-3)


def test_an_item_wraps_within_the_box_less_its_gutter():
    made = layout_markup(_box("1. " + STEPS, w=50))
    for x, _, line in made.lines:
        assert x + fonts.text_width_mm("sans", line, 9) <= 50 + 1e-6


def test_bullets_print_as_bullets_and_a_french_no_break_space_starts_an_item():
    made = layout_markup(_box("- milk and eggs from the corner shop\n1.\u00a0Distribuez les "
                              "cartes à chaque joueur, face cachée"))
    texts = [t for _, _, t in _rows(made)]
    assert texts[0] == "\u2022 " and "1. " in texts
    assert "Distribuez les cartes à chaque" in " ".join(texts)


@pytest.mark.parametrize("text", ["-3 points", "2 or 3 players", "10:30 today", "1.5 mm",
                                  "1.", "(1) Wheedle", "1.\u00a0"])
def test_what_is_not_an_item(text):
    assert not has_list(text)


def test_centred_text_is_never_a_list():
    box = _box("1. One\n2. Two", align="center")
    assert layout_markup(box) == layout(box)


WORDS = st.lists(st.sampled_from(["ab", "cde", "fghij", "klmnopq", "rstuvwyzab"]),
                 min_size=1, max_size=20).map(" ".join)


@given(st.lists(WORDS, min_size=1, max_size=6), st.floats(30, 120))
def test_any_items_fit_their_box_and_hang(items, width):
    text = "\n".join(f"{n + 1}. x{item}" for n, item in enumerate(items))
    made = layout_markup(TextBox(0, 0, width, 1000, text, "sans", 9, 9))
    indent = {x for x, _, line in made.lines if not re.match(r"\d+\. ", line)}
    starts = [x for x, _, t in _rows(made) if t.startswith("x")]
    assert len(starts) == len(items) and len(set(starts)) == 1
    assert indent <= {starts[0]}
    for x, _, line in made.lines:
        assert x + fonts.text_width_mm("sans", line, 9) <= width + 1e-6


# -- the kits: lists on the rules pages, read back ------------------------------------------

def _lines(chars: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    rows: dict[float, list[dict[str, Any]]] = defaultdict(list)
    for char in chars:
        rows[round(char["bottom"], 0)].append(char)
    return [sorted(row, key=lambda c: c["x0"]) for _, row in sorted(rows.items())]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_flee_setup_steps_are_a_list_with_hanging_indents_in_the_pdf(kits, page_chars, lang):
    built = kits("moving-day-boxes", lang=lang)
    chars = page_chars(built.pdf, 2)
    lines = _lines(chars)
    texts = ["".join(c["text"] for c in line) for line in lines]
    first = next(n for n, t in enumerate(texts) if re.match(r"1\.\s*(Give|Distribuez)", t))
    items = [first]
    for n in range(first + 1, len(texts)):
        if re.match(r"[2-5]\.", texts[n]):
            items.append(n)
        if texts[n].startswith("5."):
            break
    assert [texts[n][0] for n in items] == list("12345")  # each step starts a line
    for n in items:
        number = lines[n][0]
        text_start = next(c for c in lines[n][2:] if c["text"].strip())
        assert text_start["x0"] > number["x1"]
        following = lines[n + 1]
        if n + 1 not in items and n != items[-1]:  # a wrapped line of the step
            assert following[0]["x0"] == pytest.approx(text_start["x0"], abs=0.05)
            assert following[0]["x0"] > number["x0"] + 2
    wrapped = [n for n in items[:-1] if n + 1 not in items]
    assert wrapped  # the check above ran on a wrapped step


# -- the plain zero -------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_every_zero_is_a_plain_zero_drawn_where_it_was_measured(kits, page_chars, game):
    built = kits(game)
    body = 0
    for page in range(1, built.pages + 1):
        chars = page_chars(built.pdf, page)
        for index, char in enumerate(chars):
            if char["text"] != "0":
                continue
            assert "Atkinson" not in char["fontname"], (page, char["x0"])
            after = chars[index + 1] if index + 1 < len(chars) else None
            if after is None or "Atkinson" not in after["fontname"] or not char["upright"] \
                    or abs(after["matrix"][5] - char["matrix"][5]) > 0.01:
                continue  # not followed on its baseline by Atkinson text
            # A zero in body text: DejaVu Sans, at the size that gives Atkinson's figure
            # height (pdfminer's size is the font size), and the next character starts where
            # the zero was measured to end.
            body += 1
            assert char["fontname"].endswith("DejaVuSans"), (page, char["fontname"])
            assert char["size"] == pytest.approx(after["size"] * fonts.PLAIN_ZERO_SCALE,
                                                 rel=1e-3)
            assert after["x0"] == pytest.approx(char["x1"], abs=0.02), (page, char["x0"])
    if game in ("moving-target", "movement-game", "moving-day"):
        assert body  # these kits print numbers with a zero in Atkinson text


def test_a_zero_is_measured_in_the_font_that_draws_it():
    size = 9.0
    plain = fonts.text_width_mm("plain-zero", "0", size)
    assert plain == pytest.approx(
        fonts.register("plain-zero").stringWidth("0", size * fonts.PLAIN_ZERO_SCALE) * PT / 1)
    assert fonts.text_width_mm("sans", "2008", size) == pytest.approx(
        fonts.text_width_mm("sans", "2", size) + 2 * plain
        + fonts.text_width_mm("sans", "8", size))
    assert fonts.runs("sans", "1 0") == [("1 ", "sans"), ("0", "plain-zero")]
    assert fonts.runs("condensed", "10") == [("10", "condensed")]
    assert "plain-zero" not in fonts.names()


def test_movement_aid_turn_steps_are_a_list_in_the_pdf(kits, page_chars):
    """The movement game's player aid sets its turn as a numbered list: each step starts a
    line, its wrapped lines hang under its first word (it was one paragraph, "Your turn. 1.
    Roll ... 2. Rolled ..." with the numbers mid-line)."""
    built = kits("movement-game")
    PT = 72 / 25.4
    pages = [(page["page"], pc) for page in built.manifest["pages"] for pc in page["pieces"]
             if pc["component"] == "aids" and pc["face"] == "front"]
    assert len(pages) == 4
    for number, pc in pages:
        x0, y0 = pc["x"] * PT, pc["y"] * PT
        x1, y1 = (pc["x"] + pc["w"]) * PT, (pc["y"] + pc["h"]) * PT
        chars = [c for c in page_chars(built.pdf, number)
                 if x0 <= c["x0"] and c["x1"] <= x1 and y0 <= c["top"] and c["bottom"] <= y1]
        lines = _lines(chars)
        texts = ["".join(c["text"] for c in line).strip() for line in lines]
        starts = [n for n, t in enumerate(texts) if re.match(r"[1-3]\.\s", t)]
        assert [texts[n][0] for n in starts] == list("123"), texts
        two = starts[1]
        assert two + 1 not in starts  # step 2 wraps: its next line hangs under "Rolled"
        word = next(c for c in lines[two][2:] if c["text"].strip())
        assert lines[two + 1][0]["x0"] == pytest.approx(word["x0"], abs=0.05)
