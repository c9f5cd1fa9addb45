"""Text boxes with markup (bold, italic, colour, inline icons) and hyphenation.

The markup (generator/faces/markup.py) gives runs; each run's words are measured in their
own font (the ``FontBook``'s ``variant`` finds the bold or italic file), and an inline icon
is a piece of a word as wide as its drawing at the line's size. Lines are broken greedily, as in
generator/faces/text.py, and the size shrinks in the same steps until the text fits.

Inline icons: ``ICON_EM`` of the font size tall, their width from the icon's view box (the
icon comes from the ``icon`` function the caller gives: generator/faces/template.py reads
what loading resolved first, then asks the ``Resolver`` it was handed),
centred on the middle of the capitals (so they sit on the baseline like a capital letter and
reach a little below it), with ``ICON_GAP`` of the size on each side. They are painted in
their run's colour, their accent in the text element's ``accent`` (white by default).

Hyphenation: a word is broken only when it is wider than a whole line at the size being
tried, and the text is set with broken words only when that keeps it more than
``KEEP_WHOLE`` of the size whole words would allow (a slightly smaller text reads better
than broken words; a much smaller one does not). Where a word may break:
generator/faces/hyphenate.py. ``hyphenate: false`` turns it off for one element.

Lists: in a left-aligned text, a paragraph (a line of the text) that starts with a number and
a full stop or bracket (``1. ``, ``12) ``) or with a bullet (``- ``, ``• ``) is a list item.
Its marker is set in a gutter at the box's left edge, right-aligned in it (a bullet prints as
``•`` when the font has one), and its words after it, every line of it indented to where its
first word starts: a hanging indent. Consecutive items share one gutter, as wide as their
widest marker and a space, so their words start at one x. A paragraph that is not an item
ends the list. Lists are laid out here, for text with markup or without (a text with an item
takes this path).

Text without markup or lists in one style takes the plain path (generator/faces/text.py)
unchanged, so the kits' text draws as before unless a word is hyphenated.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from generator.core.drawing import FontBook, Unusable
from generator.core.primitives import Colour, Icon, Text
from generator.core.vector import IconDef
from generator.core.words import said

from . import hyphenate, markup
from . import text as plain_text
from .text import PT, SIZE_STEP, TextBox, TextDoesNotFit

ICON_EM = 0.9
ICON_GAP = 0.06
KEEP_WHOLE = 0.85
EPS = 1e-9


IconFinder = Callable[[str], IconDef]  # an icon by name, or Unusable saying why not


def no_icons(name: str) -> IconDef:
    """The icon finder of a text drawn with none: every inline icon is unusable."""
    raise Unusable(f"no icon {said(name)} here (this text is drawn without icons)")


class MarkupError(ValueError):
    """Text that cannot be drawn as written (an unknown icon, a missing glyph)."""


@dataclass(frozen=True)
class Piece:
    """Part of a word in one font and colour, or an inline icon (``icon`` set)."""

    text: str
    font: str
    fill: Colour
    icon: str | None = None
    aspect: float = 1.0  # an icon's width / height


Word = tuple[Piece, ...]

# A list item's marker: a number (1 to 3 digits) and ``.`` or ``)``, or a bullet; then a
# space, or a no-break space (French sets one after the number: "1.\u00a0Distribuez").
_MARKER = re.compile(r"(\d{1,3}[.)]|[-\u2022])(?:$|[\u00a0\u202f](?=\S))")
_BULLETS = "-\u2022"
BULLET = "\u2022"


@dataclass(frozen=True)
class Paragraph:
    """A paragraph's words; a list item's ``marker`` (its number or bullet) apart, and
    ``group``, the index of the first item of its list (items of one list share a gutter)."""

    words: tuple[Word, ...]
    marker: Word | None = None
    group: int = -1


@dataclass
class Line:
    """One line set: its words, ``indent`` mm right of the box's left edge (a list item's
    text), and on an item's first line its ``marker``, at the box's left edge."""

    words: list[Word] = field(default_factory=list)
    indent: float = 0.0
    marker: Word | None = None


def layout_markup(box: TextBox, fonts: FontBook, hyphenation: bool = True,
                  lang: object = None, accent: Colour = "#ffffff",
                  icon: IconFinder = no_icons) -> Text:
    """Lay out a template's text element: markup read, glyphs checked, lines fitted, each
    word measured by ``fonts``."""
    runs = markup.parse(box.text)
    dictionary = hyphenate.language(lang) if hyphenation else None
    if all(not (r.icon or r.bold or r.italic or r.colour) for r in runs) and not (
            box.align == "left" and has_list(markup.plain(runs))):
        words = markup.plain(runs)
        _refuse(box.font, words, fonts)
        return _plain(replace(box, text=words), dictionary, fonts)
    paragraphs = _items(_words(runs, box, icon, fonts), box, fonts)
    lines, size = fit(paragraphs, box, dictionary, markup.plain(runs), fonts)
    return place(box, lines, size, accent, fonts)


def _refuse(font: str, text: str, fonts: FontBook) -> None:
    refusal = fonts.glyph_refusal(font, text)
    if refusal:
        raise MarkupError(refusal)


def _plain(box: TextBox, dictionary: str | None, fonts: FontBook) -> Text:
    """One font, one colour: the plain layout, or hyphenated lines when the rule says so."""
    whole: tuple[list[str], float] | None = None
    try:
        whole = plain_text.fit(box, fonts)
    except TextDoesNotFit as exc:
        failure = exc
    if whole is not None and (dictionary is None or whole[1] >= box.size - EPS):
        return plain_text.place(box, *whole, fonts)
    if dictionary is not None:
        piece = Piece("", box.font, box.fill)
        paragraphs = [Paragraph(tuple((replace(piece, text=w),)
                                      for w in plain_text.words(paragraph)))
                      for paragraph in box.text.split("\n")]
        broken = _hyphenated(paragraphs, box, dictionary, whole[1] if whole else None, fonts)
        if broken is not None:
            lines, size = broken
            return plain_text.place(box, [_plain_line(line.words) for line in lines], size,
                                    fonts)
    if whole is None:
        raise failure
    return plain_text.place(box, *whole, fonts)


def _words(runs: Sequence[markup.Run], box: TextBox, find: IconFinder, fonts: FontBook
           ) -> list[list[Word]]:
    """Runs as paragraphs of words (split at white space) of pieces; glyphs checked."""
    paragraphs: list[list[Word]] = [[]]
    word: list[Piece] = []

    def end_word() -> None:
        if word:
            paragraphs[-1].append(tuple(word))
            word.clear()

    for run in runs:
        font = fonts.variant(box.font, run.bold, run.italic)
        fill = run.colour or box.fill
        if run.icon:
            try:
                icon = find(run.icon)
            except Unusable as exc:
                raise MarkupError(f"inline icon :{run.icon}: - {exc}; write "
                                  f"\\:{run.icon}: to print it as text") from None
            word.append(Piece("", font, fill, run.icon, icon.view_w / icon.view_h))
            continue
        _refuse(font, run.text, fonts)
        chunk = ""
        for ch in run.text:
            if ch.isspace() and ch not in plain_text.NO_BREAK:  # a no-break space joins
                if chunk:
                    word.append(Piece(chunk, font, fill))
                    chunk = ""
                end_word()
                if ch == "\n":
                    paragraphs.append([])
            else:
                chunk += ch
        if chunk:
            word.append(Piece(chunk, font, fill))
    end_word()
    return paragraphs


def has_list(text: str) -> bool:
    """Whether a paragraph of ``text`` is a list item (see the module's rule)."""
    return any(_marker(words) for words in map(plain_text.words, text.split("\n")))


def _marker(words: Sequence[str]) -> int:
    """The length of the marker a paragraph of ``words`` starts with, or 0 (not an item):
    a word of its own followed by others, or joined to the next by a no-break space."""
    found = _MARKER.match(words[0]) if words else None
    if found is None or (not found.group(0)[len(found.group(1)):] and len(words) < 2):
        return 0
    return len(found.group(1))


def _items(paragraphs: list[list[Word]], box: TextBox, fonts: FontBook) -> list[Paragraph]:
    """The paragraphs, each list item's marker taken apart, in a left-aligned box."""
    out: list[Paragraph] = []
    for words in paragraphs:
        length = _marker(["".join(p.text for p in word) for word in words[:2]])
        if box.align != "left" or not length:
            out.append(Paragraph(tuple(words)))
            continue
        marker, rest = _cut(words[0], length, False)
        following = [_cut(rest, 1, False)[1]] if rest else []  # after the no-break space
        if marker[0].text in _BULLETS and not fonts.missing_glyphs(marker[0].font, BULLET):
            marker = (replace(marker[0], text=BULLET),)
        previous = out[-1] if out else None
        group = previous.group if previous is not None and previous.marker else len(out)
        out.append(Paragraph((*following, *words[1:]), marker, group))
    return out


def _gutters(paragraphs: Sequence[Paragraph], size: float, fonts: FontBook) -> list[float]:
    """Each paragraph's indent at ``size``: 0, or for a list item its list's gutter (its
    widest marker and a space in that marker's font)."""
    widest: dict[int, float] = {}
    for paragraph in paragraphs:
        if paragraph.marker:
            space = _width([replace(paragraph.marker[-1], text=" ")], size, fonts)
            width = _width(paragraph.marker, size, fonts) + space
            widest[paragraph.group] = max(width, widest.get(paragraph.group, 0.0))
    return [widest[p.group] if p.marker else 0.0 for p in paragraphs]


# -- measuring and breaking ----------------------------------------------------------------

def _segments(line: Sequence[Word]) -> list[Piece]:
    """A line as the pieces drawn: a space after each word but the last (in the font the
    word ends in), neighbours of one font and colour merged into one string."""
    out: list[Piece] = []
    for index, word in enumerate(line):
        pieces = list(word)
        if index < len(line) - 1:
            last = pieces[-1]
            pieces.append(Piece(" ", last.font, last.fill))
        for piece in pieces:
            prev = out[-1] if out else None
            if (prev is not None and prev.icon is None and piece.icon is None
                    and (prev.font, prev.fill) == (piece.font, piece.fill)):
                out[-1] = replace(prev, text=prev.text + piece.text)
            else:
                out.append(piece)
    return out


def _icon_width(aspect: float, size: float) -> float:
    return size * PT * (ICON_EM * aspect + 2 * ICON_GAP)


def _width(pieces: Sequence[Piece], size: float, fonts: FontBook) -> float:
    return sum(_icon_width(p.aspect, size) if p.icon else fonts.text_width_mm(p.font, p.text, size)
               for p in pieces)


def _measure(line: Sequence[Word], size: float, fonts: FontBook) -> float:
    return _width(_segments(line), size, fonts)


def _cut(word: Word, at: int, hyphen: bool) -> tuple[Word, Word]:
    """``word`` split after ``at`` characters; the head ends in a hyphen when ``hyphen``."""
    head: list[Piece] = []
    tail: list[Piece] = []
    seen = 0
    for piece in word:
        if seen + len(piece.text) <= at:
            head.append(piece)
        elif seen >= at:
            tail.append(piece)
        else:
            head.append(replace(piece, text=piece.text[:at - seen]))
            tail.append(replace(piece, text=piece.text[at - seen:]))
        seen += len(piece.text)
    if hyphen:
        head[-1] = replace(head[-1], text=head[-1].text + "-")
    return tuple(head), tuple(tail)


def _split(current: Sequence[Word], word: Word, size: float, width: float,
           dictionary: str, fonts: FontBook) -> tuple[Word, Word] | None:
    """The longest head of ``word`` (broken where hyphenate.py allows) that still fits on
    the line after ``current``, and the rest; None when no break fits."""
    if any(p.icon for p in word):
        return None
    for at, hyphen in reversed(hyphenate.breaks("".join(p.text for p in word), dictionary)):
        head, tail = _cut(word, at, hyphen)
        if hyphen and fonts.missing_glyphs(head[-1].font, "-"):
            continue
        if _measure([*current, head], size, fonts) <= width:
            return head, tail
    return None


def wrap(paragraphs: Sequence[Paragraph], size: float, width: float,
         dictionary: str | None, fonts: FontBook, max_lines: int = 10**6) -> list[Line] | None:
    """Greedy wrap, as generator/faces/text.py's; a word wider than the line is broken when
    a ``dictionary`` is given, else the text does not fit at this size (None), nor when it
    takes more than ``max_lines`` (a long text tried at a large size gives up early). A list
    item's lines are as wide as the box less its gutter, each indented by it."""
    lines: list[Line] = []
    for paragraph, indent in zip(paragraphs, _gutters(paragraphs, size, fonts), strict=True):
        room = width - indent
        first = len(lines)
        current: list[Word] = []
        queue = list(paragraph.words)
        index = 0
        while index < len(queue):
            if len(lines) >= max_lines:
                return None
            word = queue[index]
            if _measure([*current, word], size, fonts) <= room:
                current.append(word)
                index += 1
                continue
            if current and _measure([word], size, fonts) <= room:
                lines.append(Line(current, indent))
                current = [word]
                index += 1
                continue
            if dictionary is None:
                return None
            split = _split(current, word, size, room, dictionary, fonts)
            if split is None and current:
                lines.append(Line(current, indent))
                current = []
                split = _split(current, word, size, room, dictionary, fonts)
            if split is None:
                return None
            lines.append(Line([*current, split[0]], indent))
            current = []
            queue[index] = split[1]
        lines.append(Line(current, indent))
        lines[first].marker = paragraph.marker  # on the item's first line only
    return lines


def _fits(lines: Sequence[Line], box: TextBox, size: float) -> bool:
    return len(lines) * size * PT * box.line_height <= box.h + 1e-6


def _search(paragraphs: Sequence[Paragraph], box: TextBox, dictionary: str | None,
            fonts: FontBook, whole: float | None = None) -> tuple[list[Line], float] | None:
    """The lines at the largest size that fits; with a ``dictionary``, only sizes at which
    breaking words beats the size ``whole`` words fit at (see the module's rule)."""
    size = box.size
    while size >= box.min_size - EPS:
        if whole is not None and whole >= KEEP_WHOLE * size - EPS:
            return None
        most = int((box.h + 1e-6) / (size * PT * box.line_height))
        lines = wrap(paragraphs, size, box.w + 1e-6, dictionary, fonts, most)
        if lines is not None and _fits(lines, box, size):
            return lines, size
        size = round(size - SIZE_STEP, 4)
    return None


def _hyphenated(paragraphs: Sequence[Paragraph], box: TextBox, dictionary: str,
                whole: float | None, fonts: FontBook) -> tuple[list[Line], float] | None:
    """Broken words, when some word is wider than its line at the full size (only such a
    word is ever broken) and the rule prefers them to what ``whole`` words give."""
    gutters = _gutters(paragraphs, box.size, fonts)
    if not any(_measure([word], box.size, fonts) > box.w - indent + 1e-6
               for paragraph, indent in zip(paragraphs, gutters, strict=True)
               for word in paragraph.words):
        return None
    return _search(paragraphs, box, dictionary, fonts, whole)


def fit(paragraphs: Sequence[Paragraph], box: TextBox, dictionary: str | None,
        words: str, fonts: FontBook) -> tuple[list[Line], float]:
    """Whole words at the largest size, or broken ones when the rule prefers them."""
    whole = _search(paragraphs, box, None, fonts)
    if dictionary is not None and (whole is None or whole[1] < box.size - EPS):
        broken = _hyphenated(paragraphs, box, dictionary, whole[1] if whole else None, fonts)
        if broken is not None:
            return broken
    if whole is None:
        raise TextDoesNotFit(_message(box, words))
    return whole


def _message(box: TextBox, words: str) -> str:
    words = " ".join(words.split())  # icons leave no double spaces, lines join
    shown = repr(words if len(words) <= 40 else words[:37] + "...")
    return (f"text {shown} does not fit a {box.w:g} x {box.h:g} mm box even at the minimum "
            f"size {box.min_size:g} pt: shorten it, enlarge the box or lower min_size")


def _plain_line(line: Sequence[Word]) -> str:
    return " ".join(t for t in ("".join(p.text for p in word) for word in line) if t)


# -- placing -------------------------------------------------------------------------------

def place(box: TextBox, lines: Sequence[Line], size: float, accent: Colour, fonts: FontBook
          ) -> Text:
    """Place each line's pieces as text spans and inline icons (see generator/faces/text.py
    for the vertical rule: the ascent-to-descent band centred in each line box)."""
    ascent, descent = fonts.vertical_metrics(box.font)
    em = size * PT
    line_h = em * box.line_height
    block_h = line_h * len(lines)
    offset = {"top": 0.0, "middle": (box.h - block_h) / 2, "bottom": box.h - block_h}
    top = box.y + offset[box.valign]
    first_baseline = top + (line_h - (ascent - descent) * em) / 2 + ascent * em
    cap = fonts.cap_height(box.font) * em
    ox, oy = box.x + box.w / 2, box.y + box.h / 2
    placed, spans, icons = [], [], []
    for index, line in enumerate(lines):
        segments = _segments(line.words)
        width = _width(segments, size, fonts)
        x = {"left": box.x + line.indent, "center": box.x + (box.w - width) / 2,
             "right": box.x + box.w - width}[box.align]
        baseline = round(first_baseline + index * line_h, 4)
        words = _plain_line(line.words)
        if line.marker:  # the item's number in the gutter, right-aligned: 9. and 10. end
            # at one x; then a space (drawn: text read from the page has it) to the words
            last = line.marker[-1]
            marker = (*line.marker[:-1], replace(last, text=last.text + " "))
            start = mx = box.x + line.indent - _width(_segments([marker]), size, fonts)
            for piece in _segments([marker]):
                spans += plain_text.drawn(mx, baseline, piece.text, piece.font, piece.fill,
                                          size, fonts)
                mx += _width([piece], size, fonts)
            placed.append((round(start, 4), baseline, f"{_plain_line([line.marker])} {words}"))
        else:
            placed.append((round(x, 4), baseline, words))
        for piece in segments:
            if piece.icon:
                h = ICON_EM * em
                icon = Icon(piece.icon, x + ICON_GAP * em, baseline - cap / 2 - h / 2,
                            h * piece.aspect, h, piece.fill, accent)
                icons.append(_turned(icon, box.rotate, ox, oy))
            else:
                spans += plain_text.drawn(x, baseline, piece.text, piece.font, piece.fill, size,
                                          fonts)
            x += _width([piece], size, fonts)
    return Text(tuple(placed), box.font, size, box.fill, box.rotate, ox, oy,
                tuple(spans), tuple(icons))


def _turned(icon: Icon, rotate: int, ox: float, oy: float) -> Icon:
    """An inline icon turned with its text block: its centre about the block's pivot and the
    drawing about its centre, counter-clockwise as the renderers turn the text."""
    if not rotate:
        return replace(icon, x=round(icon.x, 4), y=round(icon.y, 4))
    cos, sin = {90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}[rotate]
    dx, dy = icon.x + icon.w / 2 - ox, icon.y + icon.h / 2 - oy
    cx, cy = ox + dx * cos + dy * sin, oy - dx * sin + dy * cos
    return replace(icon, x=round(cx - icon.w / 2, 4), y=round(cy - icon.h / 2, 4), rotate=rotate)
