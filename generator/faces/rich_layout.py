"""Text boxes with markup (bold, italic, colour, inline icons) and hyphenation.

The markup (generator/faces/markup.py) gives runs; each run's words are measured in their
own font (``fonts.variant`` finds the bold or italic file), and an inline icon is a piece of
a word as wide as its drawing at the line's size. Lines are broken greedily, as in
generator/faces/text.py, and the size shrinks in the same steps until the text fits.

Inline icons: ``ICON_EM`` of the font size tall, their width from the icon's view box (the
icon comes from the ``icon`` function the caller gives: generator/faces/template.py reads
what loading resolved first, then looks the name up through generator/data/lookup.py),
centred on the middle of the capitals (so they sit on the baseline like a capital letter and
reach a little below it), with ``ICON_GAP`` of the size on each side. They are painted in
their run's colour, their accent in the text element's ``accent`` (white by default).

Hyphenation: a word is broken only when it is wider than a whole line at the size being
tried, and the text is set with broken words only when that keeps it more than
``KEEP_WHOLE`` of the size whole words would allow (a slightly smaller text reads better
than broken words; a much smaller one does not). Where a word may break:
generator/faces/hyphenate.py. ``hyphenate: false`` turns it off for one element.

Text without markup in one style takes the plain path (generator/faces/text.py) unchanged,
so the kits' text draws as before unless a word is hyphenated.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from generator.core.primitives import Colour, Icon, Text
from generator.core.vector import IconDef
from generator.data import fonts, lookup

from . import hyphenate, markup
from . import text as plain_text
from .text import PT, SIZE_STEP, TextBox, TextDoesNotFit

ICON_EM = 0.9
ICON_GAP = 0.06
KEEP_WHOLE = 0.85
EPS = 1e-9


IconFinder = Callable[[str], IconDef]  # an icon by name, or lookup.Unusable saying why not
find_icon: IconFinder = partial(lookup.find, "icon")


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
Line = list[Word]


def layout_markup(box: TextBox, hyphenation: bool = True, lang: object = None,
                  accent: Colour = "#ffffff", icon: IconFinder = find_icon) -> Text:
    """Lay out a template's text element: markup read, glyphs checked, lines fitted."""
    runs = markup.parse(box.text)
    dictionary = hyphenate.language(lang) if hyphenation else None
    if all(not (r.icon or r.bold or r.italic or r.colour) for r in runs):
        words = markup.plain(runs)
        _refuse(box.font, words)
        return _plain(replace(box, text=words), dictionary)
    paragraphs = _words(runs, box, icon)
    lines, size = fit(paragraphs, box, dictionary, markup.plain(runs))
    return place(box, lines, size, accent)


def _refuse(font: str, text: str) -> None:
    refusal = fonts.glyph_refusal(font, text)
    if refusal:
        raise MarkupError(refusal)


def _plain(box: TextBox, dictionary: str | None) -> Text:
    """One font, one colour: the plain layout, or hyphenated lines when the rule says so."""
    whole: tuple[list[str], float] | None = None
    try:
        whole = plain_text.fit(box)
    except TextDoesNotFit as exc:
        failure = exc
    if whole is not None and (dictionary is None or whole[1] >= box.size - EPS):
        return plain_text.place(box, *whole)
    if dictionary is not None:
        piece = Piece("", box.font, box.fill)
        paragraphs = [[(replace(piece, text=w),) for w in plain_text.words(paragraph)]
                      for paragraph in box.text.split("\n")]
        broken = _hyphenated(paragraphs, box, dictionary, whole[1] if whole else None)
        if broken is not None:
            lines, size = broken
            return plain_text.place(box, [_plain_line(line) for line in lines], size)
    if whole is None:
        raise failure
    return plain_text.place(box, *whole)


def _words(runs: Sequence[markup.Run], box: TextBox, find: IconFinder) -> list[list[Word]]:
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
            except lookup.Unusable as exc:
                raise MarkupError(f"inline icon :{run.icon}: - {exc}; write "
                                  f"\\:{run.icon}: to print it as text") from None
            word.append(Piece("", font, fill, run.icon, icon.view_w / icon.view_h))
            continue
        _refuse(font, run.text)
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


# -- measuring and breaking ----------------------------------------------------------------

def _segments(line: Line) -> list[Piece]:
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


def _width(pieces: Sequence[Piece], size: float) -> float:
    return sum(_icon_width(p.aspect, size) if p.icon else fonts.text_width_mm(p.font, p.text, size)
               for p in pieces)


def _measure(line: Line, size: float) -> float:
    return _width(_segments(line), size)


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


def _split(current: Line, word: Word, size: float, width: float,
           dictionary: str) -> tuple[Word, Word] | None:
    """The longest head of ``word`` (broken where hyphenate.py allows) that still fits on
    the line after ``current``, and the rest; None when no break fits."""
    if any(p.icon for p in word):
        return None
    for at, hyphen in reversed(hyphenate.breaks("".join(p.text for p in word), dictionary)):
        head, tail = _cut(word, at, hyphen)
        if hyphen and fonts.missing_glyphs(head[-1].font, "-"):
            continue
        if _measure([*current, head], size) <= width:
            return head, tail
    return None


def wrap(paragraphs: Sequence[Sequence[Word]], size: float, width: float,
         dictionary: str | None, max_lines: int = 10**6) -> list[Line] | None:
    """Greedy wrap, as generator/faces/text.py's; a word wider than the line is broken when
    a ``dictionary`` is given, else the text does not fit at this size (None), nor when it
    takes more than ``max_lines`` (a long text tried at a large size gives up early)."""
    lines: list[Line] = []
    for paragraph in paragraphs:
        current: Line = []
        queue = list(paragraph)
        index = 0
        while index < len(queue):
            if len(lines) >= max_lines:
                return None
            word = queue[index]
            if _measure([*current, word], size) <= width:
                current.append(word)
                index += 1
                continue
            if current and _measure([word], size) <= width:
                lines.append(current)
                current = [word]
                index += 1
                continue
            if dictionary is None:
                return None
            split = _split(current, word, size, width, dictionary)
            if split is None and current:
                lines.append(current)
                current = []
                split = _split(current, word, size, width, dictionary)
            if split is None:
                return None
            lines.append([*current, split[0]])
            current = []
            queue[index] = split[1]
        lines.append(current)
    return lines


def _fits(lines: Sequence[Line], box: TextBox, size: float) -> bool:
    return len(lines) * size * PT * box.line_height <= box.h + 1e-6


def _search(paragraphs: Sequence[Sequence[Word]], box: TextBox, dictionary: str | None,
            whole: float | None = None) -> tuple[list[Line], float] | None:
    """The lines at the largest size that fits; with a ``dictionary``, only sizes at which
    breaking words beats the size ``whole`` words fit at (see the module's rule)."""
    size = box.size
    while size >= box.min_size - EPS:
        if whole is not None and whole >= KEEP_WHOLE * size - EPS:
            return None
        most = int((box.h + 1e-6) / (size * PT * box.line_height))
        lines = wrap(paragraphs, size, box.w + 1e-6, dictionary, most)
        if lines is not None and _fits(lines, box, size):
            return lines, size
        size = round(size - SIZE_STEP, 4)
    return None


def _hyphenated(paragraphs: Sequence[Sequence[Word]], box: TextBox, dictionary: str,
                whole: float | None) -> tuple[list[Line], float] | None:
    """Broken words, when some word is wider than the box at the full size (only such a
    word is ever broken) and the rule prefers them to what ``whole`` words give."""
    if not any(_measure([word], box.size) > box.w + 1e-6 for words in paragraphs
               for word in words):
        return None
    return _search(paragraphs, box, dictionary, whole)


def fit(paragraphs: Sequence[Sequence[Word]], box: TextBox, dictionary: str | None,
        words: str) -> tuple[list[Line], float]:
    """Whole words at the largest size, or broken ones when the rule prefers them."""
    whole = _search(paragraphs, box, None)
    if dictionary is not None and (whole is None or whole[1] < box.size - EPS):
        broken = _hyphenated(paragraphs, box, dictionary, whole[1] if whole else None)
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


def _plain_line(line: Line) -> str:
    return " ".join(t for t in ("".join(p.text for p in word) for word in line) if t)


# -- placing -------------------------------------------------------------------------------

def place(box: TextBox, lines: Sequence[Line], size: float, accent: Colour) -> Text:
    """Place each line's pieces as text spans and inline icons (see generator/faces/text.py
    for the vertical rule: the ascent-to-descent band centred in each line box)."""
    ascent, descent = fonts.vertical_metrics(box.font)
    em = size * PT
    line_h = em * box.line_height
    block_h = line_h * len(lines)
    offset = {"top": 0.0, "middle": (box.h - block_h) / 2, "bottom": box.h - block_h}
    top = box.y + offset[box.valign]
    first_baseline = top + (line_h - (ascent - descent) * em) / 2 + ascent * em
    cap = fonts.register(box.font).face.capHeight / 1000.0 * em
    ox, oy = box.x + box.w / 2, box.y + box.h / 2
    placed, spans, icons = [], [], []
    for index, line in enumerate(lines):
        segments = _segments(line)
        width = _width(segments, size)
        x = {"left": box.x, "center": box.x + (box.w - width) / 2,
             "right": box.x + box.w - width}[box.align]
        baseline = round(first_baseline + index * line_h, 4)
        placed.append((round(x, 4), baseline, _plain_line(line)))
        for piece in segments:
            if piece.icon:
                h = ICON_EM * em
                icon = Icon(piece.icon, x + ICON_GAP * em, baseline - cap / 2 - h / 2,
                            h * piece.aspect, h, piece.fill, accent)
                icons.append(_turned(icon, box.rotate, ox, oy))
            else:
                spans.append((round(x, 4), baseline, piece.text, piece.font, piece.fill))
            x += _width([piece], size)
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
