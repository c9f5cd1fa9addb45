"""Fonts we ship or pin (never the system's) and a project's own, registered once for both
renderers.

The built-in keys (``sans``, ``sans-bold``, ``sans-italic``, ``symbol``, ``symbol-bold``,
``condensed``, ``condensed-bold``) are Atkinson Hyperlegible, from a pinned PyPI package
(fontpkg-atkinson-hyperlegible, its folder found without importing it), and DejaVu Sans 2.37,
whose files we ship with their licence in templates/fonts/dejavu/ (the PyPI package that
carries them, rinoh-typeface-dejavusans, declares the rinohtype typesetter and its Sphinx tree
as dependencies, which a lean install should not bring). A project's ``fonts/`` folder adds
its own TTF/OTF files, named by file name (generator/data/typefaces/project_fonts.py says how names,
case and clashes with built-in keys behave).

ReportLab measures text for line breaking; Pillow draws the same files, so a wrapped text box
breaks at the same words in the PDF and in the PNGs. Every function takes a font *name* as a
template writes it. A build's ``Book`` (generator/core/drawing.py's ``FontBook``) resolves
every name of its project to its file once, when the build first uses a font (its theme's,
at load), and parses each font on first use; the faces are handed it, and the functions of
this module ask the build's own (``book``), so each rule is the book's.

A project font is registered with ReportLab once per file version (its content,
generator/core/context.py) under a name made from its contents' hash (``pnp-font-<hash>``):
ReportLab's registry is one per process, yet two projects built in it (two threads, ``pnp
watch`` switching folders, an edited font) never see each other's ``Foo-Regular``, a
project's ``sans.ttf`` never replaces the built-in ``sans`` of another build, one file under
two names is one font, and the same file gives the same PDF bytes wherever the project
folder is. Built-in keys keep the names ``pnp-<key>`` every kit has had. Every font,
built-in or not, is also registered under that unique name as its *face* name
(``_register``), never its PostScript name, which ReportLab would otherwise use to hand a
second font of that PostScript name the first one's object; text is measured with the font
object itself. In the PDF, a project font is named by its PostScript name and 16 hex digits
of its hash (``AtkinsonHyperlegible-Regular-0123456789abcdef``), so a project's copy of a
built-in font, or two fonts of one PostScript name, are two distinct fonts there too.

A project's font file is read once and its tables checked by generator/data/typefaces/sfnt.py before
ReportLab or Pillow parse it (a hostile cmap, a missing ``glyf``); a file either cannot use
is refused with ``FontError`` naming it; a CFF-outline OpenType font (``OTTO``), which
ReportLab cannot embed, gets its own message.
"""
from __future__ import annotations

import hashlib
import importlib.util
import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.core import context, drawing, memo, paths
from generator.core.primitives import PT_TO_MM
from generator.core.words import said
from generator.data.typefaces import font_tables, project_fonts, sfnt
from generator.data.typefaces.project_fonts import FontFile
from generator.expressions import charge_if_metered

PDF_TAG = 16  # hex digits of a project font's hash in its PDF name: 64 bits, no chance clash
# Code points the project fonts one build reads may map together (each font's largest cmap
# subtable, generator/data/typefaces/sfnt.py). ReportLab holds two dict entries a mapped code point
# (~115 bytes): a font mapping all of Unicode (1,114,112, a last-resort font) takes ~125 MB
# while the build runs, so sixteen such fonts of 54 KB each took 2.1 GB. This allows two
# of them, or dozens of CJK fonts (~65,000 each); a font past it is refused by name.
MAX_BUILD_CODE_POINTS = 2_300_000


FontError = drawing.FontError  # a font name that cannot be used (the faces catch it too)


def _package_dir(name: str) -> Path:
    """A package's folder found without importing it (a font package holds no code we need)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"font package {said(name)} is not installed: run 'make venv' "
                           "(or 'pip install' this tool, which depends on it)")
    return Path(next(iter(spec.submodule_search_locations)))


@memo.memo(code=True)  # shipped or pinned files: as fixed as the code running
def font_files() -> dict[str, Path]:
    """Built-in font key (used in themes and templates) -> TTF file."""
    atkinson = _package_dir("fontpkg_atkinson_hyperlegible") / "files"
    dejavu = paths.FONTS / "dejavu"
    return {
        "sans": atkinson / "AtkinsonHyperlegible-Regular.ttf",
        "sans-bold": atkinson / "AtkinsonHyperlegible-Bold.ttf",
        "sans-italic": atkinson / "AtkinsonHyperlegible-Italic.ttf",
        "symbol": dejavu / "DejaVuSans.ttf",
        "symbol-bold": dejavu / "DejaVuSans-Bold.ttf",
        "condensed": dejavu / "DejaVuSansCondensed.ttf",
        "condensed-bold": dejavu / "DejaVuSansCondensed-Bold.ttf",
    }


# Atkinson Hyperlegible slashes its zero, and has no other ("zero.tf" is the same glyph drawn
# in the tabular width): "Deal 10", "2008" read as "1Ø", "2ØØ8". Its three styles draw the
# digit 0 from DejaVu Sans instead (the same style), scaled so its figures' height (1520 of
# 2048 units) is Atkinson's (680 of 1000): one zero everywhere a number is printed in them.
# These keys are not offered to themes (``names``); text layout splits a text into runs of the
# fonts that draw it (``runs``), and every width is measured with the font that draws it.
PLAIN_ZERO_SCALE = 0.68 / (1520 / 2048)
_PLAIN_ZERO_FILES = {"plain-zero": "DejaVuSans.ttf", "plain-zero-bold": "DejaVuSans-Bold.ttf",
                     "plain-zero-italic": "DejaVuSans-Oblique.ttf"}
_DRAWN_BY = {"sans": ("0", "plain-zero"), "sans-bold": ("0", "plain-zero-bold"),
             "sans-italic": ("0", "plain-zero-italic")}


@memo.memo(code=True)
def _builtins() -> dict[str, FontFile]:
    dejavu = paths.FONTS / "dejavu"
    files = {**font_files(), **{key: dejavu / file for key, file in _PLAIN_ZERO_FILES.items()}}
    return {key: FontFile(key, path, builtin=True) for key, path in files.items()}


class Book:
    """The fonts of one build (generator/core/drawing.py's ``FontBook``): every name of the
    project in use resolved to its file once, when the build first uses a font (loading its
    theme), and each font parsed on first use. The faces are handed it (``FaceInputs``);
    the functions of this module below ask the build's own (``book``), so the one rule for
    a name, a width or a glyph is the book's.

    Held in the build's fonts (generator/data/typefaces/project_fonts.py's ``InUse``): a build, and
    a project, has its own; an edited font file is a new build's, a new version."""

    def __init__(self, held: project_fonts.InUse) -> None:
        self.held = held
        listing = held.listing
        # The project's own first, then the built-in keys; a name the project refuses
        # (an unreadable fonts/sans.ttf) is refused, not taken for the built-in one.
        files = {key: font for key, font in _builtins().items() if key not in listing.refused}
        for key, own in listing.fonts.items():  # read by content, once per build
            files[key] = replace(own, version=context.version(own.path))
        self.files = files
        self.refused = dict(listing.refused)

    def file(self, name: object) -> FontFile:
        """The font file ``name`` stands for; FontError says why not (listing the names)."""
        found = self.files.get(name.lower()) if isinstance(name, str) else None
        if found is None:
            key = name.lower() if isinstance(name, str) else None
            raise FontError(self.refused[key] if key in self.refused else _unknown(name))
        return found

    def register(self, name: object) -> TTFont:
        """The font registered with ReportLab (once per file version): its TTFont."""
        held = self.held.fonts  # name as written -> TTFont: the hot path
        found = held.get(name) if isinstance(name, str) else None
        if found is None:
            found = _registered(self.file(name))
            if isinstance(name, str) and len(held) < 1000:
                held[name] = found
        return found

    def check(self, name: object) -> str:
        """``name`` as written (valid), after its file has been read and registered: a bad
        file fails here, where a template or theme names it, not later in a renderer."""
        self.register(name)
        assert isinstance(name, str)
        return name

    def known(self, name: object) -> bool:
        """Whether ``name`` is a font of the project (its file is not read)."""
        try:
            self.file(name)
        except FontError:
            return False
        return True

    def font_key(self, name: str) -> TTFont:
        """The registered font object: a new file version is a new object."""
        return self.register(name)

    def _swap(self, key: str) -> tuple[str, str] | None:
        """(the characters, the font drawing them) a built-in font draws from another."""
        font = self.file(key)
        return _DRAWN_BY.get(font.name) if font.builtin else None

    def scale(self, key: str) -> float:
        """The size a font is drawn at, as a fraction of its text's size (the plain zero's)."""
        font = self.file(key)
        return PLAIN_ZERO_SCALE if font.builtin and font.name in _PLAIN_ZERO_FILES else 1.0

    def runs(self, key: str, text: str) -> list[tuple[str, str]]:
        """``text`` as (piece, font name) runs in the fonts that draw it: ``key``'s, except
        the characters it takes from another font (the plain zero of ``sans``). Measuring
        (``text_width_mm``) and drawing (generator/faces/text.py, rich_layout.py) both split
        a text this way, so a line is as wide on the page as when it was broken."""
        swap = self._swap(key) if text else None
        if swap is None or not any(ch in swap[0] for ch in text):
            return [(text, key)] if text else []
        chars, other = swap
        out: list[tuple[str, str]] = []
        for ch in text:
            font = other if ch in chars else key
            if out and out[-1][1] == font:
                out[-1] = (out[-1][0] + ch, font)
            else:
                out.append((ch, font))
        return out

    def text_width_mm(self, key: str, text: str, size_pt: float) -> float:
        """``text``'s width in mm, measured by the font objects that draw it (``runs``:
        ``key``'s, and the plain zero's; never looked up by name in ReportLab's registry).
        In a face, each character measured is a unit of its work (fitting a text measures
        its lines again at each size tried): remembered or not, the same count, so a face
        costs the same whatever this process measured before."""
        charge_if_metered(len(text) + 1)
        ttf = self.register(key)
        name = ttf.fontName
        found = _WIDTHS.get((name, text, size_pt))
        if found is None:
            found = sum(self.register(font).stringWidth(piece, size_pt * self.scale(font))
                        for piece, font in self.runs(key, text)) * PT_TO_MM
            if len(_WIDTHS) >= MAX_WIDTHS:
                _WIDTHS.clear()
            _WIDTHS[(name, text, size_pt)] = found
        return found

    def vertical_metrics(self, key: str) -> tuple[float, float]:
        """(ascent, descent) as fractions of the font size; descent is negative."""
        face = self.register(key).face
        return face.ascent / 1000.0, face.descent / 1000.0

    def cap_height(self, key: str) -> float:
        """The capitals' height as a fraction of the font size."""
        return float(self.register(key).face.capHeight) / 1000.0

    def missing_glyphs(self, key: str, text: str) -> str:
        """Characters of ``text`` the font cannot draw (they would print as empty boxes)."""
        cmap = self.register(key).face.charToGlyph
        return "".join(sorted({ch for ch in text if ord(ch) not in cmap and not ch.isspace()}))

    def glyph_refusal(self, key: str, text: str) -> str | None:
        """Why ``text`` may not be drawn in font ``key``, or None. A character the font has
        no glyph for prints as an empty box, which a designer must never print by accident:
        build and PNG export refuse it (naming the characters; the template line and the
        piece are added by the caller); pre-flight draws it and reports it instead."""
        missing = self.missing_glyphs(key, text)
        if not missing or reporting():
            return None
        return (f"font {self.describe(key)} has no glyph for {said(missing)}: it would print "
                "empty boxes; use a font that has these characters, or other words ('pnp "
                "verify' lists every piece and line)")

    def describe(self, name: str) -> str:
        """``name`` for messages: a project font with its file, ``Title (fonts/Title.ttf)``."""
        try:
            font = self.file(name)
        except FontError:
            return name
        return name if font.builtin else f"{name} ({font.shown()})"

    def variant(self, key: str, bold: bool, italic: bool) -> str:
        """The font to draw a bold and/or italic run of text whose box uses ``key``.

        Variants are found by name, the same way for built-in keys and project files:
        ``sans`` -> ``sans-bold`` / ``sans-italic``; ``Foo-Regular`` (or ``Foo``) ->
        ``Foo-Bold``, ``Foo-Italic`` (or ``-Oblique``), ``Foo-BoldItalic``. A key that is
        already bold stays bold when italic is asked (styles add up). When the exact style
        is missing, bold wins over italic (it is the more visible emphasis: ``sans`` has no
        bold italic, so bold italic is ``sans-bold``), then italic alone; with neither,
        ``key`` itself is returned (no synthetic slanting or emboldening: they print badly).
        A name that is not a font is returned as is (the caller reports it)."""
        try:
            base = self.file(key)
        except FontError:
            return key
        family, was_bold, was_italic = _split(base.name)
        want = (was_bold or bold, was_italic or italic)
        if want == (was_bold, was_italic):
            return key
        for style in dict.fromkeys((want, (want[0], False), (False, want[1]))):
            if style == (False, False):
                continue
            for suffix in _STYLES[style]:
                if self.known(family + suffix):
                    return self.file(family + suffix).name
        return key


def book() -> Book:
    """The build's font book (its project's fonts): made at the build's first use of a
    font, which is its loading (a theme's fonts are checked when it loads)."""
    held = project_fonts.in_use()
    found = held.book
    if found is None:
        found = held.book = Book(held)
    return found


def scale(key: str) -> float:
    """The size a font is drawn at, as a fraction of its text's size (the plain zero's)."""
    return book().scale(key)


def runs(key: str, text: str) -> list[tuple[str, str]]:
    """``Book.runs`` of the build's book."""
    return book().runs(key, text)


def names() -> list[str]:
    """Every font name usable in the project in use: the built-in keys, then its own."""
    own = project_fonts.listing().fonts
    return list(font_files()) + sorted(f.name for k, f in own.items() if k not in font_files())


def resolve(name: object) -> FontFile:
    """The font file ``name`` stands for: the project's own first, then the built-in key.
    FontError says why not (listing the names there are)."""
    return book().file(name)


def _unknown(name: object) -> str:
    listing = project_fonts.listing()
    where = ", or a .ttf/.otf file in the project's fonts/ folder"
    if listing.folder is None and project_fonts.project.current().root is None:
        where = ""
    message = f"expected a font key ({', '.join(names())}){where}, got {said(name, 70)}"
    if listing.unusable:
        message += (f"; not usable as font names ({project_fonts.NAME_RULE}): "
                    + ", ".join(f"fonts/{n}" for n in listing.unusable[:10]))
    return message


def check(name: object) -> str:
    """``Book.check`` of the build's book."""
    return book().check(name)


def known(name: object) -> bool:
    """Whether ``name`` is a font of the project in use (its file is not read)."""
    return book().known(name)


def register(name: object) -> TTFont:
    """Register a font with ReportLab (once per file version) and return its TTFont."""
    return book().register(name)


def _registered(font: FontFile) -> TTFont:
    return _builtin_ttf(font) if font.builtin else _counted(font)[0]


def _counted(font: FontFile) -> tuple[TTFont, sfnt.Facts]:
    """``_project``, once the build's budget of mapped code points has room for the font:
    its tables are checked first (``_facts``), so a font past the budget is refused before
    ReportLab makes a dict entry of it. The budget is the build's (its fonts' ``InUse``):
    whatever an earlier build in this process parsed, each build counts its own fonts."""
    held = project_fonts.in_use()
    key = font.version or str(font.path)
    if key not in held.counted:
        facts = _facts(font)
        total = held.code_points + facts.code_points
        if total > MAX_BUILD_CODE_POINTS:
            raise FontError(
                f"{font.shown()} maps {facts.code_points:,} code points, and the "
                f"{len(held.counted)} font{'' if len(held.counted) == 1 else 's'} this build "
                f"read before it map {held.code_points:,}: a build's own fonts may map "
                f"{MAX_BUILD_CODE_POINTS:,} together (each costs memory while it runs); use "
                "fewer fonts, or fonts that cover fewer scripts")
        held.code_points = total
        held.counted.add(key)
    return _project(font)


@memo.memo(code=True)  # a pinned package's file, parsed once per process
def _builtin_ttf(font: FontFile) -> TTFont:
    return _register(font_tables.ttfont(f"pnp-{font.name}", font.path))


def _register(ttf: TTFont, tag: str = "") -> TTFont:
    """Register ``ttf`` under its own name, and return the font registered under it.

    ReportLab keeps one font per *face* name (the PostScript name, by default) in the
    process, and maps a second font of a face name it knows to the first: a project's own
    build of a built-in font, or another project's "Title", would be drawn and measured
    with the other's glyphs, in this build or a later one. So the face is registered under
    the font's registered name, unique per file version (built-in key or content hash). A
    name registered already (the same file, read again after the memo tables were
    forgotten, or one file under two names) gives the font registered first: the one the
    PDF's pages will set.

    In the PDF a font is named by its PostScript name, and two fonts of one PostScript name
    in one PDF break it (ReportLab refuses the second's objects): a project's copy of a
    built-in font (``fonts/Title.ttf``), two versions of one family. So a project font's
    PDF name is its PostScript name and ``tag`` (part of its content's hash): distinct for
    distinct files, the same for the same file wherever the project is."""
    if ttf.fontName in pdfmetrics.getRegisteredFontNames():
        found = pdfmetrics.getFont(ttf.fontName)
        assert isinstance(found, TTFont)
        return found
    own = ttf.face.name + (f"-{tag}".encode("ascii") if tag else b"")
    ttf.face.name = ttf.fontName.encode("ascii")
    try:
        pdfmetrics.registerFont(ttf)
    finally:
        ttf.face.name = own
    return ttf


def _read(font: FontFile) -> bytes:
    """A project font file's bytes, bounded by ``MAX_FONT_BYTES``."""
    try:
        with open(font.path, "rb") as handle:
            data = handle.read(project_fonts.MAX_FONT_BYTES + 1)
    except OSError as exc:
        raise FontError(f"{font.shown()} cannot be read ({exc.strerror})") from None
    if len(data) > project_fonts.MAX_FONT_BYTES:
        raise FontError(f"{font.shown()} is larger than "
                        f"{project_fonts.MAX_FONT_BYTES // 2**20} MB")
    return data


@memo.memo  # keyed by the file's content (FontFile.version)
def _facts(font: FontFile) -> sfnt.Facts:
    """A project font's tables checked (generator/data/typefaces/sfnt.py), before any parser reads
    them."""
    try:
        return sfnt.read(_read(font))
    except sfnt.SfntError as exc:
        raise FontError(f"{font.shown()} {exc}") from None


@memo.memo  # keyed by the file's content (FontFile.version)
def _project(font: FontFile) -> tuple[TTFont, sfnt.Facts]:
    """A project's font file read once, its tables checked (generator/data/typefaces/sfnt.py) before
    both renderers' parsers read it, registered under a name made of its content's hash."""
    from PIL import ImageFont

    facts = _facts(font)
    data = _read(font)
    digest = hashlib.sha256(data).hexdigest()  # whole: a prefix could be made to collide
    try:
        ttf = font_tables.ttfont(f"pnp-font-{digest}", data=data)  # one file, one font
        sfnt.check_glyph_ids(ttf.face.charToGlyph, facts)
        ImageFont.truetype(io.BytesIO(data), 12)
    except sfnt.SfntError as exc:
        raise FontError(f"{font.shown()} {exc}") from None
    except Exception as exc:  # a hostile file may break a parser in any way
        raise FontError(f"{font.shown()} {_unusable(exc)}") from None
    return _register(ttf, digest[:PDF_TAG]), facts


def _unusable(exc: Exception) -> str:
    """A parser's complaint about a checked file, without its made-up file name."""
    if isinstance(exc, KeyError) and exc.args:  # a table, or an entry of one, not there
        what = exc.args[0]
        reason = (f"no {said(what)} table" if isinstance(what, str)
                  else f"its tables disagree: no entry {said(what, 20)}")
    else:
        reason = (str(exc).splitlines() or [type(exc).__name__])[0]
    reason = reason.replace('TTF file "(ttf)": ', "").replace(' "(ttf)"', "")[:160]
    return f"cannot be used as a font ({reason})"


def licence_note(name: str) -> str | None:
    """What the licence of project font ``name`` says about embedding it, when a designer
    must know (``sfnt.licence_note``): pre-flight warns, the build does not refuse it (the
    designer may hold the owner's permission; ReportLab embeds the font whatever the flag).
    None for a built-in font (licensed for it: SIL Open Font License, Bitstream Vera)."""
    font = resolve(name)
    return None if font.builtin else sfnt.licence_note(_counted(font)[1])


def describe(name: str) -> str:
    """``name`` for messages: a project font with its file, ``Title (fonts/Title.ttf)``."""
    return book().describe(name)


def path(name: str) -> FontFile:
    """The file the PNG renderer draws ``name`` with (the one ReportLab measured)."""
    return resolve(name)


def pdf_name(name: str) -> str:
    """The name the font is registered under in ReportLab."""
    return register(name).fontName


# (registered font name, text, size) -> width in mm. Text is measured word by word and the
# same words recur on every card; the registered name carries the file's content hash for a
# project font, so an edited font file is a new key, never a stale width.
_WIDTHS: dict[tuple[str, str, float], float] = {}
MAX_WIDTHS = 100_000
memo.register(_WIDTHS.clear, f"{__name__}._WIDTHS")


def text_width_mm(key: str, text: str, size_pt: float) -> float:
    """``Book.text_width_mm`` of the build's book."""
    return book().text_width_mm(key, text, size_pt)


def vertical_metrics(key: str) -> tuple[float, float]:
    """(ascent, descent) as fractions of the font size; descent is negative."""
    return book().vertical_metrics(key)


def missing_glyphs(key: str, text: str) -> str:
    """Characters of ``text`` the font cannot draw (they would print as empty boxes)."""
    return book().missing_glyphs(key, text)


# -- missing glyphs: refused by build, reported by pre-flight ---------------------------------

@contextmanager
def glyphs_reported() -> Iterator[None]:
    """Draw text whose font lacks some characters instead of refusing it: pre-flight
    (``pnp verify``) draws every piece this way and reports each template line, with the
    characters and the pieces, as a finding (a flag of the build's context)."""
    ctx = context.current()
    before = ctx.glyphs_reported
    ctx.glyphs_reported = True
    try:
        yield
    finally:
        ctx.glyphs_reported = before


def reporting() -> bool:
    """Whether text is drawn for pre-flight's report (``glyphs_reported``), not for a kit."""
    return context.current().glyphs_reported


def glyph_refusal(key: str, text: str) -> str | None:
    """``Book.glyph_refusal`` of the build's book."""
    return book().glyph_refusal(key, text)


# -- bold and italic variants -------------------------------------------------------------------

# Style suffixes of font names, tried in this order (the longest first when reading a name).
_STYLES: dict[tuple[bool, bool], tuple[str, ...]] = {
    (True, True): ("-bolditalic", "-boldoblique", "-bold-italic"),
    (True, False): ("-bold",),
    (False, True): ("-italic", "-oblique"),
    (False, False): ("-regular", ""),
}


def _split(name: str) -> tuple[str, bool, bool]:
    """``Foo-BoldItalic`` -> ("foo", True, True); ``sans`` -> ("sans", False, False)."""
    lower = name.lower()
    for style, suffixes in _STYLES.items():
        for suffix in suffixes:
            if suffix and lower.endswith(suffix) and len(lower) > len(suffix):
                return lower[: -len(suffix)], *style
    return lower, False, False


def variant(key: str, bold: bool, italic: bool) -> str:
    """``Book.variant`` of the build's book."""
    return book().variant(key, bold, italic)
