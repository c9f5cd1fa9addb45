"""What a face is drawn with, handed in: the fonts, the translations and the computed names.

Why: a face used to fetch its inputs while it drew (the font of a name, a text's
translation, an icon named by an expression), from the data layer and from the build's
context, so its real inputs were not in its signature and every look-up was repeated per
word and per card. Now loading makes them once per build and the orchestration hands them
to ``generator/faces/template.py:draw_face`` as one ``FaceInputs``:

- a ``FontBook``: every font name of the project resolved to its file when the build
  loads (generator/data/typefaces/fonts.py's ``Book``), parsed on first use; text width, vertical
  metrics, the fonts that draw a text, glyph coverage and bold/italic variants are its
  methods;
- a ``Translator``: the read side of the kit's translation record
(generator/data/translation/i18n.py's
  ``Translator``). What a face's drawing would tell the record (a text translated, one
  missing, a printed value to check) is written into the face's own ``Told`` and comes back
  in its result (``Drawn``); the orchestration tells the session once per face;
- a ``Resolver``: the one door for a name computed while drawing (``icon: "{{ item.suit
  }}"``, an include or image path with an expression), generator/data/design/lookup.py's
  ``Finder``; what loading resolved by a fixed name is read from the model (``Known``).

The protocols live here, on the ground floor, so the faces (which import nothing of the
data layer: an import-linter contract) and the data layer (which implements them) both
read one definition; a test draws a face through a hand-made ``FontBook`` and
``Translator`` without a project on disk. This module imports nothing of the generator
but the ground floor.
"""
from __future__ import annotations

from collections.abc import Hashable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from generator.core.model import FaceTemplate
from generator.core.primitives import Face
from generator.core.vector import IconDef


class FontError(ValueError):
    """A font name that cannot be used; the message names the file or lists the fonts."""


class Unusable(ValueError):
    """A computed name that does not stand for a usable icon, template or picture."""


@dataclass(frozen=True)
class Picture:
    """An image a template names, found and checked: a raster file and its size in pixels,
    or an SVG file and its drawing (drawn as vectors)."""

    file: Path
    pixels: tuple[int, int] | None = None
    drawing: IconDef | None = None


class FontBook(Protocol):
    """The fonts one build draws with, by the names templates and themes write
    (generator/data/typefaces/fonts.py's ``Book``). Every method raises ``FontError`` for a name
    that is not a usable font."""

    def check(self, name: object) -> str:
        """``name`` as written, once its file is read and usable (a bad file fails here)."""

    def font_key(self, name: str) -> Hashable:
        """What stands for the font's content (its parsed font object): a key for memos."""

    def text_width_mm(self, name: str, text: str, size_pt: float) -> float:
        """``text``'s width in mm at ``size_pt``, measured by the fonts that draw it."""

    def vertical_metrics(self, name: str) -> tuple[float, float]:
        """(ascent, descent) as fractions of the size; descent is negative."""

    def cap_height(self, name: str) -> float:
        """The capitals' height as a fraction of the size."""

    def runs(self, name: str, text: str) -> list[tuple[str, str]]:
        """``text`` as (piece, font name) runs in the fonts that draw it."""

    def missing_glyphs(self, name: str, text: str) -> str:
        """The characters of ``text`` the font has no glyph for."""

    def glyph_refusal(self, name: str, text: str) -> str | None:
        """Why ``text`` may not be drawn in ``name`` (a glyph missing), or None: None too
        while pre-flight draws to report missing glyphs instead of refusing them."""

    def variant(self, name: str, bold: bool, italic: bool) -> str:
        """The font drawing a bold and/or italic run of text set in ``name``."""


Event = list[Any]  # ["note", text] | ["miss", file, line, text, how, field] | ["checked", ...]


@dataclass
class Told:
    """What one face's drawing tells the kit's translation record, in order (the events
    generator/data/translation/i18n.py's ``Session.replay`` takes, and the face cache keeps), and
    the catalogue texts it found; with the scratch the drawing keeps while it translates."""

    events: list[Event] = field(default_factory=list)
    hits: set[str] = field(default_factory=set)  # collapsed English found in the game's own
    # The template value being evaluated (doc, path): where a t() with no translation is
    # reported; and where each translation t() printed is written (catalogue file, line).
    site: tuple[Any, tuple[Hashable, ...]] | None = None
    used: list[tuple[str, int | None]] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.events.append(["note", text])

    def miss(self, file: str, line: int | None, text: str, how: str, field: str = "") -> None:
        self.events.append(["miss", file, line, text, how, field])

    def check_words(self, file: str, line: int | None, value: str) -> None:
        """A printed value to check for English of the data (checked when the record is
        told, against the words translated before it)."""
        self.events.append(["checked", file, line, value])


def valid_events(events: Any) -> bool:
    """Whether ``events`` (read back from a cache file) is a list of ``Told`` events, as
    ``Record.replay`` takes them."""
    if type(events) is not list or len(events) > 1_000_000:
        return False
    shapes = {"note": (str,), "miss": (str, (int, type(None)), str, str, str),
              "checked": (str, (int, type(None)), str)}
    for event in events:
        if type(event) is not list or not event or event[0] not in shapes:
            return False
        types = shapes[event[0]]
        if len(event) != 1 + len(types) or not all(
                type(value) is not bool and isinstance(value, kind)
                for value, kind in zip(event[1:], types, strict=True)):
            return False
    return True


class Record(Protocol):
    """The build's translation record as the face cache sees it
    (generator/data/translation/i18n.py's ``Session``): what a component's drawing told it is
    listed, and told again on a hit."""

    def recording(self) -> AbstractContextManager[list[Event]]: ...

    def replay(self, events: list[Event]) -> None: ...


class Translator(Protocol):
    """The read side of one kit's translation record (generator/data/translation/i18n.py's
    ``Translator``): what a text prints in the kit's language. It never writes the record:
    what it would tell it goes into the ``Told`` it is given."""

    lang: str
    translating: bool  # a kit in another language than the source (English)

    def text(self, raw: Any, file: str, line: int | None, told: Told
             ) -> tuple[Any, bool, tuple[str, int | None] | None]:
        """A text element's source in the kit's language, whether its printed value is to
        be checked (``Told.check_words``), and where its translation is written (catalogue
        file, line) or None."""

    def drawing(self, told: Told) -> AbstractContextManager[None]:
        """Within the block, ``t()`` in an expression translates into ``told`` (at
        ``told.site``) instead of the build's record."""


class Resolver(Protocol):
    """A name computed while drawing, looked up and checked as loading does
    (generator/data/design/lookup.py's ``Finder``); ``Unusable`` says why not."""

    def icon(self, name: object) -> IconDef: ...

    def face(self, name: object, beside: Path | None = None) -> FaceTemplate: ...

    def image(self, path: object) -> Picture: ...


@dataclass(frozen=True)
class FaceInputs:
    """Everything a face reads besides its template, its item and what loading resolved
    (``Known``): handed to ``draw_face`` by the orchestration, made once per build."""

    fonts: FontBook
    translator: Translator
    resolver: Resolver


@dataclass(frozen=True)
class Drawn:
    """A face drawn, and what its drawing tells the translation record."""

    face: Face
    told: Told
