"""A project font's tables, read with ``struct`` before ReportLab or Pillow parse the file.

Why our own reader: ReportLab trusts a font's counts. A format-12 cmap of one group
0..0xFFFFFFFF (a 53 KB file) made it fill dictionaries until a 2 GB memory cap (issue 24);
a file without a ``glyf`` table passed its parse and failed only when the PDF was written,
with a traceback; a glyph number past the font's glyphs fails the same way. Neither the
30 MB size limit nor the file's first four bytes can see any of it. So the table directory
and the tables both parsers index by are checked here, each read bounded by the file's own
size: every table inside the file and present (``glyf`` for the outlines, or the CFF
message: ReportLab cannot embed those), ``loca`` offsets inside ``glyf``, composite glyphs
made of glyphs the font has, and every cmap subtable bounded (code points in all at most
``MAX_CODE_POINTS``; format 12/13 groups ordered without overlaps, as FreeType requires;
format 4 segments forwards, their codes bounded). What is left to ReportLab is then bounded by the
file's size and 16-bit counts, and what it maps is checked by the caller
(``check_glyph_ids``: one reading of a cmap, ReportLab's, never a second copy of it).

Also read: the OS/2 table's ``fsType``, the embedding licence a font declares
(``licence_note``: restricted embedding is reported by pre-flight, not refused).

Only the spec's byte layout lives here (OpenType 1.9, "Font file" and each table's
chapter); messages are the words after the file's name (generator/data/typefaces/fonts.py adds it).
"""
from __future__ import annotations

import itertools
import struct
from collections.abc import Mapping
from dataclasses import dataclass

from generator.core.words import said

CFF_MESSAGE = ("has PostScript (CFF) outlines, which cannot be embedded in the PDF: use the "
               "TrueType-outline version of the font (usually the .ttf file)")
TRUETYPE = (b"\x00\x01\x00\x00", b"true")
# Tables ReportLab reads to measure and to embed (the subset it writes is made of them) and
# Pillow (FreeType) draws with.
REQUIRED = ("head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap", "name", "post")
MAX_CODE_POINTS = 0x110000  # every Unicode code point, once: a cmap subtable maps no more
MAX_FORMAT4_CODES = 0x20000  # format 4 lists the BMP; FreeType allows segments to overlap
MAX_COMPONENTS = 1_000_000  # parts of composite glyphs in all (a big CJK font: ~200,000)
RESTRICTED = 0x0002  # fsType bit 1: Restricted License embedding
OS2_SIZES = {0: 78, 1: 86}  # the OS/2 table's size by version; 96 from version 2 on
# Composite glyph flags (the glyf chapter).
ARGS_ARE_WORDS, MORE_COMPONENTS = 0x0001, 0x0020
SCALE, XY_SCALE, TWO_BY_TWO = 0x0008, 0x0040, 0x0080


class SfntError(ValueError):
    """Why a font file cannot be used: the words that follow its name in the message."""


def _bad(reason: str) -> SfntError:
    return SfntError(f"cannot be used as a font ({reason})")


@dataclass(frozen=True)
class Facts:
    """What the checks learnt that others need: the glyph count (a cmap may map to no glyph
    past it) and the embedding licence (OS/2 ``fsType``; 0 without an OS/2 table)."""

    num_glyphs: int
    fs_type: int
    code_points: int = 0  # the most any cmap subtable maps (ReportLab holds one of them)


def read(data: bytes) -> Facts:
    """Check a font file's tables (the first face of a collection, the one ReportLab and
    Pillow use); SfntError says what is wrong."""
    kind = data[:4]
    if kind == b"OTTO":
        raise SfntError(CFF_MESSAGE)
    if kind in (b"wOFF", b"wOF2"):
        raise SfntError("is a web font (WOFF); use the .ttf file of the font")
    if kind == b"ttcf":
        start = _first_face(data)
    elif kind in TRUETYPE:
        start = 0
    else:
        raise SfntError("is not a TrueType or OpenType font file")
    tables = _directory(data, start)
    if "glyf" not in tables and ("CFF " in tables or "CFF2" in tables):
        raise SfntError(CFF_MESSAGE)
    missing = [tag for tag in REQUIRED if tag not in tables]
    if missing:
        raise _bad(f"no {', '.join(repr(tag) for tag in missing)} table"
                   + ("s" if len(missing) > 1 else ""))
    view = memoryview(data)
    table = {tag: view[offset:offset + length] for tag, (offset, length) in tables.items()}
    num_glyphs, long_offsets = _header(table)
    _metrics(table, num_glyphs)
    _outlines(table["loca"], table["glyf"], num_glyphs, long_offsets)
    code_points = _cmap(table["cmap"])
    return Facts(num_glyphs, _fs_type(table.get("OS/2")), code_points)


def _u16(data: memoryview | bytes, at: int) -> int:
    return int.from_bytes(data[at:at + 2], "big")


def _u32(data: memoryview | bytes, at: int) -> int:
    return int.from_bytes(data[at:at + 4], "big")


def _first_face(data: bytes) -> int:
    """Where a collection's first font starts (``ttcf``, version, count, offsets)."""
    if len(data) < 16 or _u32(data, 8) < 1:
        raise _bad("a font collection without fonts")
    start = _u32(data, 12)
    if start + 12 > len(data):
        raise _bad("its first font lies past the end of the file")
    kind = data[start:start + 4]
    if kind == b"OTTO":
        raise SfntError(CFF_MESSAGE)
    if kind not in TRUETYPE:
        raise _bad("its first font is not a TrueType font")
    return start


def _directory(data: bytes, start: int) -> dict[str, tuple[int, int]]:
    """Tag -> (offset, length) of every table, each inside the file, no tag twice."""
    count = _u16(data, start + 4)
    if count == 0 or start + 12 + 16 * count > len(data):
        raise _bad("its table directory is empty or cut short")
    tables: dict[str, tuple[int, int]] = {}
    for at in range(start + 12, start + 12 + 16 * count, 16):
        raw, _, offset, length = struct.unpack_from(">4sIII", data, at)
        tag = raw.decode("latin-1")
        if tag in tables:
            raise _bad(f"two {said(tag)} tables")
        if offset + length > len(data):
            raise _bad(f"its {said(tag)} table runs past the end of the file")
        tables[tag] = (offset, length)
    return tables


def _header(table: Mapping[str, memoryview]) -> tuple[int, bool]:
    """(glyph count, whether ``loca`` holds 32-bit offsets), from ``maxp`` and ``head``."""
    head, maxp, hhea = table["head"], table["maxp"], table["hhea"]
    if len(head) < 54 or len(maxp) < 6 or len(hhea) < 36:
        raise _bad("its 'head', 'maxp' or 'hhea' table is cut short")
    units = _u16(head, 18)
    if not 16 <= units <= 16384:
        raise _bad(f"{units} units per em; a font has 16 to 16384")
    loca_format = _u16(head, 50)
    if loca_format not in (0, 1):
        raise _bad(f"'loca' format {loca_format}; 0 or 1 expected")
    num_glyphs = _u16(maxp, 4)
    if num_glyphs == 0:
        raise _bad("no glyphs")
    if len(table["post"]) < 32:
        raise _bad("its 'post' table is cut short")
    return num_glyphs, loca_format == 1


def _metrics(table: Mapping[str, memoryview], num_glyphs: int) -> None:
    """``hmtx`` holds an advance for every glyph ``hhea`` says it does."""
    full = _u16(table["hhea"], 34)
    if full == 0:
        raise _bad("no horizontal metrics")
    if len(table["hmtx"]) < 4 * full + 2 * max(0, num_glyphs - full):
        raise _bad("its 'hmtx' table is shorter than its glyph count")


def _outlines(loca: memoryview, glyf: memoryview, num_glyphs: int, long_offsets: bool) -> None:
    """Every glyph inside ``glyf``; every part of a composite glyph a glyph of the font,
    its record inside the glyph (ReportLab walks them to embed the glyphs a PDF uses)."""
    size = 4 if long_offsets else 2
    if len(loca) < size * (num_glyphs + 1):
        raise _bad("its 'loca' table is shorter than its glyph count")
    offsets = struct.unpack_from(f">{num_glyphs + 1}{'I' if long_offsets else 'H'}", loca)
    scale = 1 if long_offsets else 2
    if offsets[-1] * scale > len(glyf) or any(a > b for a, b in itertools.pairwise(offsets)):
        raise _bad("its 'loca' table points outside 'glyf' or backwards")
    parts = 0
    for glyph in range(num_glyphs):
        begin, end = offsets[glyph] * scale, offsets[glyph + 1] * scale
        if begin == end:
            continue  # an empty glyph (a space)
        if end - begin < 10:
            raise _bad(f"glyph {glyph} is shorter than a glyph's header")
        if _u16(glyf, begin) < 0x8000:
            continue  # a simple glyph (contours >= 0): ReportLab copies it as it is
        at, flags = begin + 10, MORE_COMPONENTS
        while flags & MORE_COMPONENTS:
            parts += 1
            if parts > MAX_COMPONENTS or at + 4 > end:
                raise _bad(f"composite glyph {glyph} is cut short or has too many parts")
            flags, part = _u16(glyf, at), _u16(glyf, at + 2)
            if part >= num_glyphs:
                raise _bad(f"composite glyph {glyph} is made of glyph {part}; the font has "
                           f"{num_glyphs}")
            at += 4 + (4 if flags & ARGS_ARE_WORDS else 2)
            at += 2 if flags & SCALE else 4 if flags & XY_SCALE else 8 if flags & TWO_BY_TWO else 0
            if at > end:
                raise _bad(f"composite glyph {glyph} is cut short")


def _cmap(cmap: memoryview) -> int:
    """Every subtable of ``cmap`` inside it and bounded (ReportLab picks one by platform,
    FreeType others: each is checked, whichever is read); the most code points one of them
    maps (ReportLab holds two dict entries a code point of the one it picks)."""
    if len(cmap) < 4 or _u16(cmap, 0) != 0:
        raise _bad("its 'cmap' table is not version 0")
    count = _u16(cmap, 2)
    if count == 0 or 4 + 8 * count > len(cmap):
        raise _bad("its 'cmap' table lists no subtables or is cut short")
    most = 0
    for at in sorted({_u32(cmap, 8 + 8 * n) for n in range(count)}):
        if at + 8 > len(cmap):
            raise _bad("a 'cmap' subtable lies outside the table")
        most = max(most, _subtable(cmap[at:], _u16(cmap, at)))
    return most


def _subtable(sub: memoryview, kind: int) -> int:
    """One cmap subtable, ``sub`` running to the end of the cmap table; the codes it maps
    as ReportLab reads it (format 8 and 14 it does not read: 0)."""
    where = f"its cmap format {kind} subtable"
    if kind in (0, 4, 6):
        length = _u16(sub, 2)
    elif kind in (8, 10, 12, 13):
        length = _u32(sub, 4)
    elif kind == 14:
        length = _u32(sub, 2)
    elif kind == 2:
        raise _bad("a cmap format 2 subtable (a legacy double-byte encoding); use a font "
                   "with a Unicode cmap")
    else:
        raise _bad(f"a cmap subtable of unknown format {kind}")
    if kind == 4:  # the declared length wraps past 64 KB in real fonts: the table bounds it
        length = len(sub)
    if length > len(sub):
        raise _bad(f"{where} runs past the 'cmap' table")
    if kind == 4:
        return _format4(sub)
    if kind in (12, 13):
        return _groups(sub[:length], where)
    if kind in (6, 10):  # a count of 16-bit glyph numbers after a 10 or 20-byte header
        count = _u16(sub, 8) if kind == 6 else _u32(sub, 16)
        if (10 if kind == 6 else 20) + 2 * count > length:
            raise _bad(f"{where} lists more codes than it holds")
        return count
    return 256 if kind == 0 else 0


def _format4(sub: memoryview) -> int:
    """Segments of 16-bit codes: start <= end, and no more codes in all than twice the BMP
    (FreeType allows segments that overlap; ReportLab walks every code of every segment)."""
    segments = _u16(sub, 6) // 2
    if 16 + 8 * segments > len(sub):
        raise _bad("its cmap format 4 subtable is cut short")
    ends = struct.unpack_from(f">{segments}H", sub, 14)
    starts = struct.unpack_from(f">{segments}H", sub, 16 + 2 * segments)
    total = 0
    for start, end in zip(starts, ends, strict=True):
        if start > end:
            raise _bad(f"its cmap format 4 segment {start:#06x}..{end:#06x} runs backwards")
        total += end - start + 1
    if total > MAX_FORMAT4_CODES:
        raise _bad(f"its cmap format 4 subtable maps {total:,} codes; the BMP has 65,536")
    return total


def _groups(sub: memoryview, where: str) -> int:
    """Format 12/13 groups (start, end, glyph): in order, without overlaps, and no more code
    points in all than Unicode has (each group costs ReportLab a dict entry per code)."""
    count = _u32(sub, 12)
    if 16 + 12 * count > len(sub):
        raise _bad(f"{where} lists more groups than it holds")
    total, last = 0, -1
    for start, end, _ in struct.iter_unpack(">III", sub[16:16 + 12 * count]):
        if start > end or start <= last:
            raise _bad(f"{where} has groups out of order or overlapping "
                       f"(U+{start:04X}..U+{end:04X})")
        total += end - start + 1
        if total > MAX_CODE_POINTS:
            raise _bad(f"{where} maps more than {MAX_CODE_POINTS:,} code points "
                       f"(U+{start:04X}..U+{end:04X})")
        last = end
    return total


def _fs_type(os2: memoryview | None) -> int:
    """The OS/2 table's ``fsType`` (0: installable, no restriction, as without a table)."""
    if os2 is None:
        return 0
    if len(os2) < OS2_SIZES.get(_u16(os2, 0) if len(os2) >= 2 else 0, 96):
        raise _bad("its 'OS/2' table is cut short")
    return _u16(os2, 8)


def check_glyph_ids(mapping: Mapping[int, int], facts: Facts) -> None:
    """A cmap as a parser read it maps only to glyphs the font has: ReportLab looks a mapped
    glyph up when it embeds the font, and one past the end fails the PDF write."""
    top = max(mapping.values(), default=0)
    if top >= facts.num_glyphs:
        code = next(code for code, glyph in mapping.items() if glyph == top)
        raise _bad(f"its cmap maps U+{code:04X} to glyph {top}; the font has "
                   f"{facts.num_glyphs}")


def licence_note(facts: Facts) -> str | None:
    """What a designer must know before sharing a PDF that embeds this font, or None."""
    if facts.fs_type & RESTRICTED:
        return (f"declares a restricted licence (OS/2 fsType {facts.fs_type:#06x}): it may "
                "not be embedded in a PDF you share without its owner's permission")
    return None
