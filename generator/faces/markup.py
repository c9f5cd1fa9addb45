"""Inline markup of template text: bold, italic, colour and inline icons.

The markup is read from a text element's ``text`` after its jinja expressions are evaluated,
so data fields can carry it too. The syntax is small and chosen so the texts the built-in
kits print (colons in "Note: x", times such as 10:30, "Date: ____", brackets in prose) never
turn into markup by accident, and so it never looks like jinja (``{{``, ``{%``, ``{#``):

- ``**bold**`` and ``*italic*`` (``***both***``). A ``*`` opens only when a non-space follows
  it and closes only when a non-space precedes it, as in Markdown, so ``5 * 3`` stays as it
  is; a marker without its partner prints as written.
- ``[red]words[/]``: a colour span; the colour is anything generator/core/colours.py accepts
  (a CSS name, ``#rgb``, ``#rrggbb``). ``[optional]`` is not a colour, and a colour without
  its ``[/]`` prints as written. Spans nest; ``[/]`` closes the innermost.
- ``:heart:``: an inline icon, looked up like an ``icon:`` element (the project's icons/
  first). The name starts with a letter and has no spaces (letters, digits, ``-``, ``_``),
  so ``10:30`` and ``Note: x:`` are plain text. Whether the icon exists is decided by the
  layout (generator/faces/rich_layout.py): an unknown name is an error naming the line.
- A backslash prints the next ``\\ * [ ] :`` literally: ``\\*``, ``\\[red]``, ``\\:heart:``.
  (In a double-quoted YAML string the backslash itself is written ``\\\\``.) The template
  filter ``literal`` escapes a whole value: ``{{ item.name | literal }}``.

Parsing gives a flat tuple of ``Run`` values: text with its style, or an icon.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from generator.core.colours import NotAColour, parse_colour
from generator.expressions import MARKUP_SPECIAL as SPECIAL

_ICON_NAME = r"[A-Za-z][A-Za-z0-9_-]{0,63}"
_TOKEN = re.compile(r"\\[\\*\[\]:]|\*+|\[/\]|\[[^\[\]\s]{1,40}\]|:" + _ICON_NAME + ":")


@dataclass(frozen=True)
class Run:
    """A piece of text in one style, or an inline icon (``icon`` set, ``text`` empty).
    ``colour`` None means the text element's own ``fill``."""

    text: str
    bold: bool = False
    italic: bool = False
    colour: str | None = None
    icon: str | None = None


def has_markup(text: str) -> bool:
    """False for text that certainly parses to itself (the fast path of most texts)."""
    return any(ch in text for ch in SPECIAL)




def plain(runs: tuple[Run, ...]) -> str:
    """The words without markup and icons (for messages and plain-text lines)."""
    return "".join(run.text for run in runs)


@dataclass
class _Token:
    kind: str  # text | bold | italic | colour | close | icon
    text: str  # what it prints if it turns out not to be markup
    value: str = ""  # the colour or the icon name
    can_open: bool = False
    can_close: bool = False
    used: bool = False
    opens: bool = False  # a paired marker: True for the opener, False for the closer


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    pos = 0
    for match in _TOKEN.finditer(text):
        if match.start() > pos:
            out.append(_Token("text", text[pos:match.start()]))
        raw = match.group(0)
        pos = match.end()
        before = text[match.start() - 1] if match.start() else " "
        after = text[pos] if pos < len(text) else " "
        if raw.startswith("\\"):
            out.append(_Token("text", raw[1]))
        elif raw.startswith("*"):
            if len(raw) > 3:
                out.append(_Token("text", raw))
                continue
            # A run of 3 is bold and italic: one unit each, closing in either order.
            units = {1: ["italic"], 2: ["bold"], 3: ["bold", "italic"]}[len(raw)]
            for unit in units:
                out.append(_Token(unit, "**" if unit == "bold" else "*",
                                  can_open=not after.isspace(), can_close=not before.isspace()))
        elif raw == "[/]":
            out.append(_Token("close", raw, can_close=True))
        elif raw.startswith("["):
            try:
                colour = parse_colour(raw[1:-1])
            except NotAColour:
                out.append(_Token("text", raw))
            else:
                out.append(_Token("colour", raw, colour, can_open=True))
        else:
            out.append(_Token("icon", raw, raw[1:-1], used=True))
    if pos < len(text):
        out.append(_Token("text", text[pos:]))
    return out


def _match(tokens: list[_Token]) -> None:
    """Pair openers with closers; what stays unpaired prints as written."""
    stars: list[int] = []  # open bold/italic markers, innermost last
    colours: list[int] = []
    for index, token in enumerate(tokens):
        if token.kind in ("bold", "italic"):
            partner = next((i for i in reversed(stars) if tokens[i].kind == token.kind), None)
            if token.can_close and partner is not None:
                stars.remove(partner)
                tokens[partner].used = token.used = tokens[partner].opens = True
            elif token.can_open:
                stars.append(index)
        elif token.kind == "colour":
            colours.append(index)
        elif token.kind == "close" and colours:
            tokens[colours.pop()].used = token.used = True


def parse(text: str) -> tuple[Run, ...]:
    """The runs of ``text``: adjacent text of one style merged, icons on their own."""
    if not has_markup(text):
        return (Run(text),) if text else ()
    tokens = _tokens(text)
    _match(tokens)
    runs: list[Run] = []
    bold = italic = 0
    colours: list[str] = []

    def add(piece: str) -> None:
        style = (bold > 0, italic > 0, colours[-1] if colours else None)
        last = runs[-1] if runs else None
        if last is not None and last.icon is None and (last.bold, last.italic,
                                                        last.colour) == style:
            runs[-1] = Run(last.text + piece, *style)
        else:
            runs.append(Run(piece, *style))

    for token in tokens:
        if not token.used or token.kind == "text":
            add(token.text)
        elif token.kind == "icon":
            runs.append(Run("", bold > 0, italic > 0, colours[-1] if colours else None,
                            token.value))
        elif token.kind == "colour":
            colours.append(token.value)
        elif token.kind == "close":
            colours.pop()
        elif token.kind == "bold":  # a paired ** or *: counted, so pairs may nest
            bold += 1 if token.opens else -1
        else:
            italic += 1 if token.opens else -1
    return tuple(run for run in runs if run.text or run.icon)
