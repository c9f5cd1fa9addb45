"""Kits in more than one language: the active kit language and every translation made.

Every text a kit prints is written in English (the source language). A kit in another
language (``--lang fr``) gets:

- its furniture (contents sheet, footers, rulers, calibration sheet) from the message files
  (``message(key, **values)``; generator/data/translation/i18n_files.py);
- its face texts from the game's catalogue: the raw ``text:`` of every text element is looked
  up before it is evaluated (``text_field``), and ``t(value)`` in an expression translates a
  value from the data (a rules heading, a colour name);
- its component names, title, credit and assembly notes translated the same way
  (``data_text``), and whatever a rules module prints (``translate``).

A text with no translation prints in English and is recorded as *missing*, with the file and
line it comes from; ``verify --lang fr`` reports each as a finding and ``build`` counts them,
so English is never printed silently. English kits are untouched: every function here returns
its argument as it is.

The active language is a ``Session`` (one game, one language) kept in the build's context
(generator/core/context.py), opened with ``session(game, lang)`` by the build, verify and export
stages; layout and rules modules' ``examples`` read it. The faces never do: they are handed
the session's read side, a ``Translator`` (generator/core/drawing.py), and what their drawing
would tell the session (texts translated, missing, printed values to check) comes back in
the face's ``Told``, which the orchestration tells the session once per face
(``Session.record``). Worker processes render no faces (PNG workers only rasterise finished
faces), so they need none.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.core import context
from generator.core.drawing import Told, valid_events
from generator.core.errors import location
from generator.core.findings import DESIGN, Finding
from generator.core.words import said
from generator.data.translation import i18n_files as files
from generator.data.translation.i18n_files import SOURCE, collapse, fill, languages
from generator.data.translation.origin import Where, game_value, written

__all__ = ["SOURCE", "Missing", "Session", "Translator", "collect", "current", "data_text",
           "findings", "label_field", "lang", "languages", "localised", "message",
           "number", "ordered", "session", "t", "translate", "translation_site",
           "translator", "valid_events"]

_LETTER = re.compile(r"[^\W\d_]")
_WORD = re.compile(r"[^\W\d_]{3,}")
# What is not prose in a raw template text: expressions, statements, comments.
_CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
# Inline markup (generator/faces/markup.py): icons ``:heart:``, colour spans ``[red]..[/]``.
_ICON = re.compile(r":[A-Za-z][A-Za-z0-9_-]{0,63}:|\[[^\[\]\s]{1,40}\]")
# A quoted literal an expression prints: after {{, else, ~ or + and before }}, if, else, ~,
# + or a filter (``{{ 'friend' if n == 1 else 'friends' }}``); not a key (``s.get('col')``)
# nor a string indexed (``'ABCDE'[c]``).
_PRINTED_LITERAL = re.compile(
    r"(?:\{\{-?|\belse|~|\+)\s*(['\"])((?:(?!\1).)*?)\1\s*(?=-?\}\}|\bif\b|\belse\b|~|\+|\|)",
    re.S)


@dataclass(frozen=True)
class Missing:
    """A text printed in English in a kit of another language."""

    file: str
    line: int | None
    text: str
    how: str  # "text" (a template's text), "t()", "value" (data printed without t()),
    # "name" (title, credit, component name, assembly), "python" (a rules module), "message",
    # "cell" (a blank cell of a translated column: ``name@fr`` empty beside ``name``)
    field: str = ""  # a spreadsheet's "sheet Roles, row 4, column power" (it has no lines)

    def where(self) -> str:
        return location(self.file, self.line, self.field)


@dataclass
class Session:
    """One game in one language: its messages, catalogues and what had no translation."""

    lang: str = SOURCE
    key: tuple[Hashable, ...] = ()
    messages: dict[str, str] = field(default_factory=dict)
    catalogues: tuple[files.Catalogue, ...] = ()
    missing: dict[tuple[str, int | None, str, str], Missing] = field(default_factory=dict)
    words: set[str] = field(default_factory=set)  # words printed through a translation step
    site: tuple[Any, tuple[Hashable, ...]] | None = None  # the template value being evaluated
    memo: dict[str, str | None] = field(default_factory=dict)
    game: Any = None
    flagged: set[tuple[str, int | None]] = field(default_factory=set)  # "value" lines reported
    _strings: dict[str, Where] | None = None  # the game's data texts -> where written
    # The texts of the game's translated columns (``power@fr``) in this language, collapsed:
    # printed in place of the English (``localised``), they are translations already.
    given: set[str] = field(default_factory=set)
    # The catalogue texts (collapsed English) a lookup found in the game's own catalogue:
    # ``pnp i18n`` keeps them, and marks the others obsolete.
    hits: set[str] = field(default_factory=set)
    # While a component's faces are drawn for the face cache: what the drawing told this
    # session, in order (see ``recording`` and ``replay``).
    events: list[list[Any]] | None = None
    # The files opening the session read or looked for (messages, catalogues), by content
    # (generator/core/context.py): the face cache keys a game's faces on them.
    read: dict[str, str | None] = field(default_factory=dict)
    # Where each translation t() printed is written (catalogue file, line), while a text
    # outside faces is evaluated (a face keeps its own: generator/core/drawing.py:Told).
    used: list[tuple[str, int | None]] = field(default_factory=list)

    # The English (collapsed) of the cells left blank in a translated column (``name@fr``
    # empty beside ``name``), each reported at its blank cell when the session opens.
    blanks: set[str] = field(default_factory=set)
    reader: Translator | None = None  # the read side handed to the faces (``translator``)

    @property
    def translating(self) -> bool:
        return self.lang != SOURCE

    def t(self, value: Any) -> Any:
        """``t(value)`` of an expression: the expressions library calls it on the session of
        the build's context (generator/expressions/library.py), which is this one."""
        return t(value)

    # -- lookups ----------------------------------------------------------------------------
    def lookup(self, text: str) -> str | None:
        """The translation of English ``text`` (game catalogue first, then shared)."""
        if text in self.memo:
            return self.memo[text]
        found, hit = _find(self, text)
        if hit is not None and len(self.hits) < 50_000:
            self.hits.add(hit)
        if len(self.memo) < 50_000:
            self.memo[text] = found
        return found

    def source_of(self, text: str) -> tuple[str, int | None] | None:
        """Where the translation of English ``text`` is written (catalogue file, line), the
        catalogue ``lookup`` takes it from; None when there is none."""
        key = collapse(text)
        for catalogue in self.catalogues:
            hit = catalogue.strings.get(key)
            if hit is not None:
                return str(catalogue.file), hit[1]
        return None

    def translated(self, text: str, file: str, line: int | None, how: str,
                   field: str = "") -> str:
        """``text`` translated, or ``text`` itself recorded as missing at file:line (and
        ``field``, a spreadsheet's cell)."""
        return _translated(self, text, file, line, how, field)

    def miss(self, file: str, line: int | None, text: str, how: str, field: str = "") -> None:
        if self.events is not None:
            self.events.append(["miss", file, line, text, how, field])
        self._missing(file, line, text, how, field)

    def _missing(self, file: str, line: int | None, text: str, how: str,
                 field: str = "") -> None:
        key = (file, line, field, collapse(text)[:300])
        if key not in self.missing and len(self.missing) < 10_000:
            self.missing[key] = Missing(file, line, collapse(text), how, field)

    def blank_cells(self, game: Any) -> None:
        """Every blank cell of a translated column in this language reported where it is
        (``cards.csv: row 35, column name@fr``). A row prints its English there, and the same
        English elsewhere, translated (row 5's) or written as another row's translation, says
        nothing of this row: the cell is the one place to tell. Its English is then noted, so
        the value printed is not reported again at the first cell the text is found in."""
        for table, index, column, english in _blank_cells(getattr(game, "data", None),
                                                           self.lang):
            file, line, cell = game_value(game, ("tables", table, index, column), named=True)
            self._missing(file, line, english, "cell", cell)
            self.blanks.add(collapse(english))
            self.note(english)

    def check_words(self, file: str, line: int | None, value: str) -> None:
        """``checked``'s test, against what this session has translated so far."""
        if self.events is not None:
            self.events.append(["checked", file, line, value])
        words = _WORD.findall(_ICON.sub(" ", value))
        if any(w.casefold() not in self.words for w in words):
            data = self.data_where(value)
            if data is not None:  # a cell's whole text: reported at the cell, each one
                self._missing(data[0], data[1], value, "value", data[2])
                return
            site = (file, line)
            if site not in self.flagged:  # once per template line (a deck prints it per card)
                self.flagged.add(site)
                self._missing(file, line, value, "value")

    # -- the face cache (generator/faces/face_cache.py) --------------------------------------------
    @contextmanager
    def recording(self) -> Iterator[list[list[Any]]]:
        """Within the block, every ``note``, ``miss`` and ``check_words`` is also listed, so
        faces taken from the cache later can tell a session what drawing them would have."""
        outer = self.events
        found: list[list[Any]] = []
        self.events = found
        try:
            yield found
        finally:
            self.events = outer
            if outer is not None:
                outer.extend(found)

    def record(self, told: Told) -> None:
        """What one face's drawing told (generator/faces/template.py's ``draw_face``): its
        events, in order, and the catalogue texts it found. The faces never write here
        themselves; the orchestration tells the session once per face."""
        self.replay(told.events)
        for key in told.hits:
            if len(self.hits) >= 50_000:
                break
            self.hits.add(key)

    def translator(self) -> Translator:
        """This session's read side, made once: what the faces are handed."""
        if self.reader is None:
            self.reader = Translator(self)
        return self.reader

    def replay(self, events: list[list[Any]]) -> None:
        """What ``recording`` listed, told again in order (``valid_events`` first). Whether a
        printed value is flagged depends on the words translated before it, so checks are
        made again against this session, not copied."""
        for event in events:
            if event[0] == "note":
                self.note(event[1])
            elif event[0] == "miss":
                self.miss(event[1], event[2], event[3], event[4], event[5])
            else:
                self.check_words(event[1], event[2], event[3])

    def data_where(self, text: str) -> Where | None:
        """Where the game's data files hold ``text`` (file, line, field: a spreadsheet's
        cell), when they do: a value a template prints is reported where a translator finds
        it, not in the template."""
        if self._strings is None:
            self._strings = _data_strings(getattr(self.game, "docs", None) or {})
        return self._strings.get(collapse(text))

    def note(self, text: str) -> None:
        """Words that went through translation (found or reported): not reported again."""
        if self.events is not None:
            self.events.append(["note", text])
        self.words.update(w.casefold() for w in _WORD.findall(_CODE.sub(" ", text)))

    def message(self, key: str, values: dict[str, Any]) -> str:
        text = self.messages.get(key)
        if text is None:
            english = files.messages(SOURCE)
            if key not in english:
                raise KeyError(f"no furniture message {said(key)} in templates/messages/en.yaml")
            text = english[key]
            self.miss(str(files.messages_folder() / f"{self.lang}.yaml"), None, key, "message")
        return fill(text, values)


def _find(s: Session, text: str) -> tuple[str | None, str | None]:
    """The translation of English ``text`` in ``s``'s catalogues (a translated column's text
    is its own), and the collapsed English when the game's own catalogue has it (a hit)."""
    key = collapse(text)
    if key in s.given:
        return text, None
    for number, catalogue in enumerate(s.catalogues):
        hit = catalogue.strings.get(key)
        if hit is not None:
            return hit[0], key if number == 0 else None
    return None, None


class Translator:
    """The read side of a session (generator/core/drawing.py's ``Translator``), handed to
    the faces: it looks translations up and says what a text prints, and writes what the
    session would be told into the ``Told`` given, never into the session."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.lang = session.lang
        self.translating = session.translating
        self._memo: dict[str, tuple[str | None, str | None]] = {}
        self._strings: dict[str, Where] | None = None

    def lookup(self, text: str, told: Told) -> str | None:
        """``Session.lookup``'s answer; a hit of the game's catalogue noted in ``told``."""
        found = self._memo.get(text)
        if found is None:
            found = _find(self.session, text)
            if len(self._memo) < 50_000:
                self._memo[text] = found
        if found[1] is not None:
            told.hits.add(found[1])
        return found[0]

    def data_where(self, text: str) -> Where | None:
        """``Session.data_where``, from a table of this reader's own."""
        if self._strings is None:
            self._strings = _data_strings(getattr(self.session.game, "docs", None) or {})
        return self._strings.get(collapse(text))

    def text(self, raw: Any, file: str, line: int | None, told: Told
             ) -> tuple[Any, bool, tuple[str, int | None] | None]:
        """A text element's source in the kit's language, whether its printed value is to be
        checked, and where its translation is written (see ``_template``)."""
        if not self.translating or not isinstance(raw, str):
            return raw, False, None
        source, check = _template(_Drawing(self, told), raw, file, line)
        return source, check, self.session.source_of(raw)

    @contextmanager
    def drawing(self, told: Told) -> Iterator[None]:
        """``t()`` in the block translates into ``told`` (a face being drawn)."""
        token = _DRAWING.set(_Drawing(self, told) if self.translating else _ENGLISH)
        try:
            yield
        finally:
            _DRAWING.reset(token)


class _Drawing:
    """A face being drawn as ``t()`` and ``_template`` see it: the translator's look-ups,
    and the face's ``Told`` where a session would be written."""

    __slots__ = ("reader", "told")

    def __init__(self, reader: Translator, told: Told) -> None:
        self.reader = reader
        self.told = told

    translating = True

    def lookup(self, text: str) -> str | None:
        return self.reader.lookup(text, self.told)

    def note(self, text: str) -> None:
        self.told.note(text)

    def miss(self, file: str, line: int | None, text: str, how: str, field: str = "") -> None:
        self.told.miss(file, line, text, how, field)


_ENGLISH = object()  # drawing in the source language: t() gives its value back
# The face being drawn here, while it is (``Translator.drawing``): its t() is the face's.
_DRAWING: ContextVar[Any] = ContextVar("pnp_drawing", default=None)


def _translated(r: Session | _Drawing, text: str, file: str, line: int | None, how: str,
                field: str = "") -> str:
    """``text`` translated, or ``text`` itself told as missing at file:line (and ``field``,
    a spreadsheet's cell), to a session or a face's ``Told``."""
    if not r.translating or not _LETTER.search(text):
        return text
    found = r.lookup(text)
    r.note(found if found is not None else text)
    if found is None:
        r.miss(file, line, text, how, field)
        return text
    return found


def current() -> Session:
    """The active session: the game being built in its language, else plain English (a
    session of this build's, or thread's, own: never one another build writes into)."""
    ctx = context.current()
    active = ctx.session
    if active is None:
        active = ctx.session = Session(messages=files.messages(SOURCE))
    return active


def lang() -> str:
    """The active kit language code ("en" outside any build)."""
    return current().lang


@contextmanager
def session(game: Any | None, lang_code: str = SOURCE) -> Iterator[Session]:
    """Make ``lang_code`` the kit language while ``game`` is built (its catalogue, if any,
    translates its texts). Within a session for the same game and language the outer one is
    used, so everything one build renders is recorded in one place."""
    files.check_lang(lang_code)
    source = Path(getattr(game, "source", "")) if game is not None else None
    key = (lang_code, str(source or ""), getattr(game, "id", ""))
    ctx = context.current()
    active = ctx.session
    if active is not None and active.key == key:
        yield active
        return
    with context.recording() as read:
        files.messages(SOURCE)  # the fallback of every message
        made = Session(lang_code, key, files.messages(lang_code), game=game)
        if made.translating:
            game_file = (files.game_catalogue_file(source, str(getattr(game, "id", "")),
                                                   lang_code)
                         if source is not None and str(source) else None)
            game_cat = files.load_catalogue(game_file)
            shared = files.load_catalogue(files.shared_catalogue_file(lang_code))
            made.catalogues = (game_cat, shared)
            for name, (text, _line) in game_cat.furniture.items():
                made.messages[name] = text
            for text in _column_texts(getattr(game, "data", None), lang_code):
                made.given.add(collapse(text))
                made.note(text)
            made.blank_cells(game)
    made.read = dict(read)
    ctx.session = made
    try:
        yield made
    finally:
        ctx.session = active
        for sink in ctx.collectors:
            sink.extend(made.missing.values())


@contextmanager
def collect() -> Iterator[list[Missing]]:
    """Every text left untranslated by the sessions closed inside the block."""
    found: list[Missing] = []
    ctx = context.current()
    before = ctx.collectors
    ctx.collectors = (*before, found)
    try:
        yield found
    finally:
        ctx.collectors = before


# -- the API --------------------------------------------------------------------------------

def message(key: str, **values: Any) -> str:
    """A furniture message of the active language, ``{name}`` placeholders filled."""
    return current().message(key, values)


def message_keys(prefix: str) -> tuple[str, ...]:
    """The furniture keys under ``prefix``, in the order templates/messages/en.yaml lists them
    (every language has the same keys): a recipe whose steps are messages (the contents
    page's two-pass steps) prints them in that order, and its tests walk the same list."""
    return tuple(key for key in files.messages(SOURCE) if key.startswith(prefix))


def number(value: float) -> str:
    """A number as the kit language writes it (``22.2`` -> ``22,2`` in French)."""
    text = f"{value:g}"
    return text.replace(".", message("number.decimal_point")) if "." in text else text


def translate(text: str) -> str:
    """The active language's translation of English ``text``, for Python code that makes
    printed text (a rules module's ``examples``). A miss is recorded at the caller's line."""
    s = current()
    if not s.translating or not isinstance(text, str):
        return text
    caller = sys._getframe(1)
    return s.translated(text, caller.f_code.co_filename, caller.f_lineno, "python")


def data_text(text: str, where: str | Callable[[], str]) -> str:
    """A text of the game's data the furniture prints (title, credit, a component's name or
    assembly note), translated; ``where`` ("file:line", or a function giving it, called only
    in a kit of another language) names it when there is none."""
    s = current()
    if not s.translating or not isinstance(text, str) or not _LETTER.search(text):
        return text
    return s.translated(text, *_split(where() if callable(where) else where), "name")


def _split(where: str) -> tuple[str, int | None]:
    """"file:line" -> (file, line); a bare file -> (file, None)."""
    file, _, line = where.rpartition(":")
    return (file, int(line)) if file and line.isdigit() else (where, None)


def t(value: Any) -> Any:
    """``t(value)`` in a template: a value of the data translated (see the module doc). In a
    face being drawn, what it would tell the session goes into the face's ``Told``."""
    drawing = _DRAWING.get()
    if drawing is not None:
        if drawing is _ENGLISH or not isinstance(value, str):
            return value
        return _t(drawing, drawing.reader.session, value, drawing.told.site,
                  drawing.told.used, drawing.reader.data_where)
    s = current()
    if not s.translating or not isinstance(value, str):
        return value
    return _t(s, s, value, s.site, s.used, s.data_where)


def _t(r: Session | _Drawing, s: Session, value: str,
       site: tuple[Any, tuple[Hashable, ...]] | None, used: list[tuple[str, int | None]],
       data_where: Callable[[str], Where | None]) -> Any:
    """``t``'s rule, told to ``r`` (a session, or a face being drawn) with ``s``'s
    catalogues; ``site`` is the template value being evaluated, ``used`` where each
    translation printed is written."""
    found = r.lookup(value)
    if found is not None and len(used) < 100:
        where = s.source_of(value)
        if where is not None:
            used.append(where)
    if found is None and collapse(value) in s.blanks:
        return value  # a blank translated cell's English: reported at the cell
    data = data_where(value) if found is None else None
    if data is not None:  # reported where the data holds it: where a translator looks
        file, line, cell = data
        return _translated(r, value, file, line, "t()", cell)
    doc, path = site if site is not None else (None, ())
    file = str(getattr(doc, "file", "")) or "(template)"
    line = doc.line_of(path) if doc is not None else None
    return _translated(r, value, file, line, "t()")




def prose(raw: str) -> bool:
    """Whether a raw template text prints words of its own: letters outside expressions and
    inline icons, or a quoted literal an expression prints."""
    if _LETTER.search(_ICON.sub(" ", _CODE.sub(" ", raw))):
        return True
    return any(_LETTER.search(m.group(2)) for m in _PRINTED_LITERAL.finditer(raw))


def label_field(raw: Any, where: tuple[str, int | None, str]) -> Any:
    """The source a piece's ``label:`` template evaluates in the active language: its
    translation, looked up as a face's text is (``text_field``); a label that prints words
    of its own and has none is reported at ``where`` (the label's file, line and field). The
    label names the piece in the manifest, the PNG set and Tabletop Simulator."""
    s = current()
    if not s.translating or not isinstance(raw, str):
        return raw
    file, line, cell = where
    return _template(s, raw, file, line, "" if line else cell)[0]


def translator() -> Translator:
    """The active session's read side, for the faces (``Session.translator``)."""
    return current().translator()


def _template(s: Session | _Drawing, raw: str, file: str, line: int | None, cell: str = ""
              ) -> tuple[str, bool]:
    """A template text's translation and True (its printed value is checked), or ``raw``
    itself: recorded as missing, and False, when it prints prose of its own."""
    found = s.lookup(raw)
    if found is not None:
        s.note(found)
        return found, True
    if prose(raw):
        s.miss(file, line, raw, "text", cell)
        s.note(raw)
        return raw, False
    return raw, True


def translation_site(raw: Any) -> tuple[str, int | None] | None:
    """Where the translation printed in place of ``raw`` is written (the catalogue file and
    line), so a translation that fails is reported there, not at the template's line; None
    in an English kit or when ``raw`` has none."""
    s = current()
    return s.source_of(raw) if s.translating and isinstance(raw, str) else None


def _data_strings(docs: Any) -> dict[str, Where]:
    """Every text of the game's data files (the game file and its tables), collapsed, with
    where it first appears (a YAML line, a spreadsheet's cell)."""
    found: dict[str, Where] = {}
    all_docs = [docs.get("game"), *(docs.get("tables") or {}).values()]
    for doc in all_docs:
        if doc is None:
            continue
        stack: list[tuple[tuple[Hashable, ...], Any]] = [((), doc.data)]
        while stack and len(found) < 50_000:
            path, node = stack.pop()
            if isinstance(node, str):
                key = collapse(node)
                if key and key not in found:
                    found[key] = written(doc, path)
            elif isinstance(node, dict):
                stack.extend((path + (k,), v) for k, v in reversed(list(node.items())))
            elif isinstance(node, list):
                stack.extend((path + (i,), v) for i, v in reversed(list(enumerate(node))))
    return found


def ordered(missing: list[Missing]) -> list[Missing]:
    """The texts left untranslated, once each, by file, line or row, and text."""
    unique = {(m.file, m.line, m.field, m.text, m.how): m for m in missing}
    return sorted(unique.values(), key=_order)


def _order(m: Missing) -> tuple[str, int, int, str, str]:
    """Missing texts by file, then line or spreadsheet row (in number order), then text."""
    row = _ROW.search(m.field)
    return (m.file, m.line or 0, int(row.group(1)) if row else 0, m.field, m.text)


_ROW = re.compile(r"\brow (\d{1,9})\b")


def _column_texts(data: Any, lang_code: str) -> Iterator[str]:
    """The texts of every table's translated columns in ``lang_code`` (``power@fr``)."""
    suffix = "@" + lang_code
    tables = data.get("tables") if isinstance(data, Mapping) else None
    for rows in (tables.values() if isinstance(tables, Mapping) else ()):
        for row in rows if isinstance(rows, list) else ():
            if isinstance(row, Mapping):
                for key, value in row.items():
                    if isinstance(key, str) and key.endswith(suffix) and isinstance(value, str):
                        yield value


def _blank_cells(data: Any, lang_code: str) -> Iterator[tuple[str, int, str, str]]:
    """(table, row index, translated column, English) of every row whose cell in a translated
    column of ``lang_code`` is blank (empty, or absent from a YAML row while another row of
    its table has it) beside English with letters in it, by table and row."""
    suffix = "@" + lang_code
    tables = data.get("tables") if isinstance(data, Mapping) else None
    for name, rows in (tables.items() if isinstance(tables, Mapping) else ()):
        if not isinstance(rows, list):
            continue
        rows_ = [row for row in rows if isinstance(row, Mapping)]
        columns = list(dict.fromkeys(key for row in rows_ for key in row
                                     if isinstance(key, str) and key.endswith(suffix)))
        for index, row in enumerate(rows):
            if not isinstance(row, Mapping):
                continue
            for column in columns:
                english = row.get(column[:-len(suffix)])
                cell = row.get(column)
                if isinstance(english, str) and _LETTER.search(english) and (
                        cell is None or (isinstance(cell, str) and not cell.strip())):
                    yield str(name), index, column, english


def localised(value: Any) -> Any:
    """A table's rows, or an item's data, as the kit language prints them: each column with a
    translated column in that language (``power@fr`` beside ``power``) holds the
    translation, where its cell is not empty; the translated columns themselves are dropped,
    in every language, so no kit prints them as data. ``value`` itself when it holds none."""
    return _localised(value, current().lang, 0)


def _localised(value: Any, code: str, depth: int) -> Any:
    if depth > 8:
        return value
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        changed = False
        for key, child in value.items():
            if isinstance(key, str) and "@" in key:
                changed = True
                continue
            new = _localised(child, code, depth + 1)
            changed = changed or new is not child
            out[key] = new
        if not changed:
            return value
        suffix = "@" + code
        for key, child in value.items():
            if isinstance(key, str) and key.endswith(suffix) and child not in (None, "") \
                    and code != SOURCE and key[:-len(suffix)] in out:
                out[key[:-len(suffix)]] = child
        return out
    if isinstance(value, list):
        items = [_localised(child, code, depth + 1) for child in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value


_HOW = {"cell": "blank cell of a translated column", "text": "template text",
        "t()": "t() of a data value", "name": "data text",
        "value": "printed from the data without t()", "python": "text made by Python code",
        "message": "furniture message"}


def findings(missing: list[Missing], lang_code: str) -> list[Finding]:
    """verify's report of a kit in another language: one warning per text printed in English
    (where it comes from, the English), sorted by file and line; nothing in English."""
    if lang_code == SOURCE:
        return []
    ordered_ = ordered(missing)
    # The English whole (a translator copies it into the catalogue), quoted by repr, which
    # escapes whatever a terminal would act on; a text is bounded by the data's own limits.
    out = [Finding(f"translation ({lang_code})", False,
                   f"no {lang_code} translation ({_HOW.get(m.how, m.how)}): {m.text!r}",
                   warn=True, where=m.where(), basis=DESIGN) for m in ordered_]
    if not out:
        out.append(Finding(f"translation ({lang_code})", True,
                           "every text the kit prints has a translation", basis=DESIGN))
    return out
