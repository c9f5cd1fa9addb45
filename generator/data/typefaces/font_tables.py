"""A TrueType font as ReportLab reads it, its tables read once per file content and kept on disk.

Why: ReportLab reads a font's tables (``TTFontFile.extractInfo``: the cmap, every glyph's
advance and position) in pure Python, 7 to 20 ms for each DejaVu file, in every process that
measures or embeds it: a Moving Target build registers six fonts, about 50 ms of its CPU, and
each process of a parallel build read them again. What it reads depends on the file's bytes
and ReportLab's version only, so ``ttfont`` keeps it beside the compiled expressions
(generator/core/code_cache.py: this user's own folder, ``marshal`` as ``__pycache__``), keyed
by the sha256 of the file, ReportLab's version and this module's source, and a later process
restores it in about a millisecond.

What is kept is exactly the state ``extractInfo`` leaves on the face (names, metrics, the
cmap, widths, ``hmetrics``, ``glyphPos``), each mapping in its order and each number with its
type, so a restored font measures and embeds byte for byte as a parsed one
(tests/test_font_tables.py compares every attribute). The rest of ReportLab's reading (the
file's bytes, its table directory) is ReportLab's own code, run as when it parses. A state
that does not fit the file (a field missing or of another type, glyphs past ``glyf``) is a
miss: the file is parsed. Like compiled code it is derived from installed files, not a
result: ``PNP_CACHE=0`` leaves it on, ``PNP_CODE_CACHE=0`` turns it off.
"""
from __future__ import annotations

import hashlib
import io
from fnmatch import fnmatch
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import reportlab
from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace, TTFontParser

from generator.core import cache, code_cache

FORMAT = 1  # bump with the layout of an entry
NAMES = ("name", "familyName", "styleName", "fullName", "uniqueFontID")  # TTFNameBytes
# Every other attribute extractInfo sets, with its type (numbers: int or float).
FIELDS: dict[str, type | tuple[type, ...]] = {
    "fontRevision": tuple, "unitsPerEm": int, "bbox": list, "ascent": (int, float),
    "descent": (int, float), "capHeight": (int, float), "stemV": int,
    "italicAngle": (int, float), "underlinePosition": int, "underlineThickness": int,
    "flags": int, "numGlyphs": int, "_full_font": bool, "charToGlyph": dict,
    "glyphToChar": dict, "charWidths": dict, "hmetrics": list, "defaultWidth": (int, float),
    "glyphPos": list}


class _Named(io.BytesIO):
    """A font file's bytes under its path: ReportLab names a face by ``file.name``."""

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(data)
        self.name = name


def ttfont(name: str, path: Path | None = None, data: bytes | None = None) -> TTFont:
    """ReportLab's ``TTFont(name, path)`` (or of ``data``, a file's bytes, as
    ``TTFont(name, BytesIO(data))``), its tables restored when this content was read
    before, else parsed and kept."""
    if data is None:
        assert path is not None
        data = path.read_bytes()
    file: io.BytesIO = io.BytesIO(data) if path is None else _Named(data, str(path))
    key = _key(data) if code_cache.enabled() else None
    found = code_cache.load(key) if key else None
    if found is not None:
        ttf = restored(name, file, found[1])
        if ttf is not None:
            return ttf
        file.seek(0)
    ttf = TTFont(name, file)
    if key:
        code_cache.store(key, {"font": FORMAT}, state(ttf.face))
    return ttf


def _key(data: bytes) -> str | None:
    try:
        return cache.fingerprint([FORMAT, "ttf", reportlab.Version, cache.code_digest(__name__),
                                  hashlib.sha256(data).hexdigest()])
    except cache.Uncacheable:
        return None


def state(face: TTFontFace) -> dict[str, Any]:
    """What ``extractInfo`` left on ``face``: its fields, the names as text."""
    fields = vars(face)
    return {"names": [fields[field].ustr for field in NAMES],
            **{field: fields[field] for field in FIELDS}}


def restored(name: str, file: io.BytesIO, kept: Any) -> TTFont | None:
    """``TTFont(name, file)`` with ``extractInfo``'s work replaced by ``kept`` (``state``):
    ReportLab's own constructors run, as for a parsed font, except for that one method.
    None when ``kept`` is not a state that fits the file."""
    fields = _fields(kept)
    if fields is None:
        return None
    face = TTFontFace.__new__(TTFontFace)
    pdfmetrics.TypeFace.__init__(face, None)
    try:
        TTFontParser.__init__(face, file, validate=0, subfontIndex=0)
    except Exception:  # what ReportLab's parse would refuse, it refuses there
        return None
    glyf = face.table.get("glyf")
    positions = fields["glyphPos"]
    if glyf is None or len(positions) != fields["numGlyphs"] + 1 \
            or len(fields["hmetrics"]) != fields["numGlyphs"] or positions[-1] > glyf["length"]:
        return None
    vars(face).update(fields)
    vars(face)["_pdfScale"] = _scale(fields["unitsPerEm"])
    ttf = TTFont.__new__(TTFont)
    ttf.fontName = name
    ttf.face = face
    ttf.encoding = TTEncoding()
    ttf.state = WeakKeyDictionary()
    vars(ttf)["_asciiReadable"] = rl_config.ttfAsciiReadable
    ttf.shapable = not any(fnmatch(name, glob) for glob in rl_config.unShapedFontGlob or ())
    return ttf


def _fields(kept: Any) -> dict[str, Any] | None:
    """The face's attributes from a kept state, or None when a field is missing or of
    another type (the entry is from this user's own folder: its layout is what is checked)."""
    if type(kept) is not dict or kept.keys() != {"names", *FIELDS}:
        return None
    names = kept["names"]
    if type(names) is not list or len(names) != len(NAMES) \
            or not all(type(text) is str for text in names):
        return None
    if not all(_typed(kept[field], kind) for field, kind in FIELDS.items()):
        return None
    fields = {field: kept[field] for field in FIELDS}
    fields.update((field, TTFNameBytes(text.encode("utf-8")))
                  for field, text in zip(NAMES, names, strict=True))
    return fields


def _typed(value: Any, kind: type | tuple[type, ...]) -> bool:
    """``value`` is a ``kind`` (a bool only where a bool is asked: it is an int too)."""
    return type(value) is bool if kind is bool else \
        isinstance(value, kind) and type(value) is not bool


def _scale(units: int) -> Any:
    """The face's ``_pdfScale``, made as ``extractInfo`` makes it (the same float steps)."""
    if units == 1000:
        return lambda x: x
    mult = 1000 / units
    return lambda x: x * mult
