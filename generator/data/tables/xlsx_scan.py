"""An XLSX file from a stranger, bounded before openpyxl parses any of it.

An XLSX workbook is a zip archive of XML parts. openpyxl parses some parts whole whatever
sheet is asked for (the shared strings, the styles, the workbook), builds a whole ``<row>``
in memory before it yields it, and lets its XML parser (expat) read a part in whatever
encoding the part declares. So a small file can cost a great deal: 2.6 MB holding a million
shared strings took 49 s to open, one row of a million empty cells takes hundreds of MB, a
DTD can expand entities ("billion laughs"), and a DTD written in UTF-16 hides from a search
of the raw bytes. Here every part is read once, in chunks, and the file is refused when

- it is larger than ``MAX_SHEET_BYTES`` (checked by the caller), holds more than
  ``MAX_MEMBERS`` parts or unpacks to more than ``MAX_UNPACKED_BYTES`` (a zip bomb), or a
  part is encrypted;
- a part is not UTF-8 to an XML parser: it starts with a UTF-16 byte-order mark, is UTF-16
  without one (expat's own test: a NUL in the first two bytes, then markup), or its XML
  declaration names another encoding. Spreadsheet programs write UTF-8, so every byte
  search below sees what the parser will see;
- a part declares a DTD (``<!DOCTYPE``, ``<!ENTITY``);
- the parts hold more than ``MAX_CELL_ELEMENTS`` elements of cells and their texts
  (``row``, ``c``, ``v``, ``f``, ``is``, ``t``, ``si``), more than ``MAX_OTHER_ELEMENTS``
  other elements (styles, rich-text runs, names, relationships...), more than
  ``MAX_TEXTS`` texts (shared strings ``<si>`` and inline ones ``<is>``, which openpyxl
  reads at the cost of a rich text each) or a row of more than ``MAX_ROW_CELLS`` cells
  (``<c>``).

The two element bounds differ because the costs do: openpyxl reads a cell's markup in about
2 us an element, while every other element becomes an object (a font, a run of rich text)
at up to 20 us and 1 KB. With these bounds the worst file costs a few seconds and some
hundred MB, whichever part it fills; a real table is far inside them (5,000 rows of 20
columns, every cell a different text: about 400,000 cell elements).

Elements are counted by their start tags (``<`` and a name: markup never appears unescaped in
XML text, so this never counts fewer than a parser builds; a binary part such as a picture
adds about one per kilobyte), and classed by their local name whatever part holds them:
which parts openpyxl parses is decided by the archive's own listings, which are not read
here.
"""
from __future__ import annotations

import codecs
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn

from generator.core.errors import DataError
from generator.core.words import said

MAX_UNPACKED_BYTES = 25 * 1024 * 1024
MAX_MEMBERS = 500
MAX_CELL_ELEMENTS = 1_000_000
MAX_OTHER_ELEMENTS = 100_000
MAX_TEXTS = 100_000  # shared strings (<si>) and inline ones (<is>)
MAX_ROW_CELLS = 16_384  # Excel's last column, XFD
CHUNK = 1 << 16
_PREFIX = rb"<(?:[^\s/>!?:]{1,255}:)?"  # a start tag's namespace prefix, if any
_START = re.compile(rb"<[^\s/>!?]")  # any start tag
_CELL_MARKUP = re.compile(_PREFIX + rb"(?:row|c|v|f|is|t|si)[\s/>]")
_ROW = re.compile(_PREFIX + rb"row[\s/>]")
_CELL = re.compile(_PREFIX + rb"c[\s/>]")
_TEXT = re.compile(_PREFIX + rb"(?:si|is)[\s/>]")
_DTD = re.compile(rb"<!\s*(?:doctype|entity)", re.IGNORECASE)
_ENCODING = re.compile(rb"\sencoding\s*=\s*[\"']([^\"']*)[\"']")
_HELD = 600  # bytes kept back when a chunk may end inside a tag's name


def check_zip(file: Path, shown: Path) -> None:
    """Refuse an XLSX file (a zip archive of XML parts) that would cost more than a table of
    the sizes spreadsheet.py allows, before anything parses it."""
    try:
        with zipfile.ZipFile(file) as archive:
            members = archive.infolist()
            if len(members) > MAX_MEMBERS:
                raise DataError(shown, None, "", f"holds {len(members)} parts; an XLSX file "
                                                 f"may hold at most {MAX_MEMBERS}")
            unpacked = sum(member.file_size for member in members)
            if unpacked > MAX_UNPACKED_BYTES:
                raise DataError(shown, None, "", f"unpacks to {unpacked / 1048576:.0f} MB; "
                                                 f"at most {MAX_UNPACKED_BYTES // 1048576} MB "
                                                 "(a zip bomb?)")
            markup = Markup(shown)
            for member in members:
                if member.flag_bits & 0x1:
                    raise DataError(shown, None, "", "is encrypted; save it without a "
                                                     "password")
                with archive.open(member) as part:
                    markup.scan(member.filename, part)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError,
            EOFError, zlib.error) as exc:
        raise DataError(shown, None, "", f"is not a readable XLSX file ({exc}); an .xls or "
                                         "password-protected workbook must be saved as .xlsx "
                                         "or .csv") from None


@dataclass
class Markup:
    """The counts of one archive's parts so far; ``scan`` refuses a part past a bound."""

    shown: Path
    cell_elements: int = 0
    other_elements: int = 0
    texts: int = 0

    def scan(self, name: str, part: IO[bytes]) -> None:
        """One part, read in chunks (a zip's declared sizes bound what it unpacks to:
        zipfile stops there and checks the CRC), each cut before a tag that may go on in the
        next chunk."""
        held = b""
        cells = 0  # in the row being read
        first = True
        while chunk := part.read(CHUNK):
            data = held + chunk
            if first:
                self._check_encoding(name, data)
                first = False
            cut = data.rfind(b"<", max(0, len(data) - _HELD))
            data, held = (data[:cut], data[cut:]) if cut >= 0 else (data, b"")
            cells = self._count(name, data, cells)
        self._count(name, held, cells)

    def _count(self, name: str, data: bytes, cells: int) -> int:
        """Count the tags of ``data`` (the regular expressions count, in C); return the cells
        of the row that ``data`` ends in."""
        if _DTD.search(data):
            self.fail(f"part {said(name)} declares a DTD (<!DOCTYPE or <!ENTITY), which no "
                      "spreadsheet program writes; refused")
        markup = len(_CELL_MARKUP.findall(data))
        self.cell_elements += markup
        self.other_elements += len(_START.findall(data)) - markup
        self.texts += len(_TEXT.findall(data))
        rows = _ROW.split(data)
        for index, row in enumerate(rows):
            cells = (cells if index == 0 else 0) + len(_CELL.findall(row))
            if cells > MAX_ROW_CELLS:
                self.fail(f"part {said(name)} has a row of more than {MAX_ROW_CELLS} cells, "
                          "more than a spreadsheet program writes; refused")
        if self.texts > MAX_TEXTS:
            self.fail(f"holds more than {MAX_TEXTS} texts (shared or inline strings); keep "
                      "the table in a smaller workbook, or save it as CSV")
        if self.cell_elements > MAX_CELL_ELEMENTS:
            self.fail(f"holds more than {MAX_CELL_ELEMENTS} XML elements of cells; keep the "
                      "table in a smaller workbook, or save it as CSV")
        if self.other_elements > MAX_OTHER_ELEMENTS:
            self.fail(f"holds more than {MAX_OTHER_ELEMENTS} XML elements besides cells "
                      "(styles, rich-text runs, names...); keep the table in a smaller "
                      "workbook, or save it as CSV")
        return cells

    def _check_encoding(self, name: str, head: bytes) -> None:
        """Refuse a part an XML parser would not read as UTF-8 (expat's detection)."""
        again = "spreadsheet programs write UTF-8: open and save the workbook again"
        if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) or (
                b"\0" in head[:2] and head[:64].decode(
                    "utf-16-be" if head[:1] == b"\0" else "utf-16-le", "replace"
                ).lstrip().startswith("<")):
            self.fail(f"part {said(name)} is UTF-16 text; {again}")
        body = head.removeprefix(codecs.BOM_UTF8)
        if body.startswith(b"<?xml"):
            end = body.find(b">")
            if end < 0:
                self.fail(f"part {said(name)} has an XML declaration with no end; {again}")
            declared = _ENCODING.search(body, 0, end)
            if declared and declared.group(1).lower() != b"utf-8":
                encoding = declared.group(1)[:40].decode("ascii", "replace")
                self.fail(f"part {said(name)} declares the encoding {said(encoding)}; {again}")

    def fail(self, expected: str) -> NoReturn:
        raise DataError(self.shown, None, "", expected)
