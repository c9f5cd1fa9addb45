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
- the parts hold more than ``MAX_ELEMENTS`` XML elements in all, more than
  ``MAX_SHARED_STRINGS`` shared strings (``<si>``) or a row with more than ``MAX_ROW_CELLS``
  cells (``<c>``).

Elements are counted by their start tags (``<`` and a name: markup never appears unescaped in
XML text, so this never counts fewer than a parser builds; a binary part such as a picture
adds a few thousand at most). What openpyxl then parses is bounded by these counts.
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

MAX_UNPACKED_BYTES = 25 * 1024 * 1024
MAX_MEMBERS = 500
MAX_ELEMENTS = 1_000_000  # XML elements in all parts (a table of 5,000 rows x 50 columns
# with a shared string in each cell has about 1,000,000)
MAX_SHARED_STRINGS = 200_000
MAX_ROW_CELLS = 16_384  # Excel's last column, XFD
CHUNK = 1 << 16
_TAG = re.compile(rb"<([^\s/>!?][^\s/>]{0,255})")  # a start tag and its (qualified) name
_DTD = re.compile(rb"<!\s*(?:doctype|entity)", re.IGNORECASE)
_ENCODING = re.compile(rb"\sencoding\s*=\s*[\"']([^\"']*)[\"']")
_HELD = 300  # bytes kept back when a chunk ends inside a tag (a name is at most 256)


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
    elements: int = 0
    strings: int = 0

    def scan(self, name: str, part: IO[bytes]) -> None:
        """One part, read in chunks (a zip's declared sizes bound what it unpacks to:
        zipfile stops there and checks the CRC)."""
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
        if _DTD.search(data):
            self.fail(f"part {name!r} declares a DTD (<!DOCTYPE or <!ENTITY), which no "
                      "spreadsheet program writes; refused")
        for tag in _TAG.finditer(data):
            self.elements += 1
            local = tag.group(1).rpartition(b":")[2]
            if local == b"c":
                cells += 1
                if cells > MAX_ROW_CELLS:
                    self.fail(f"part {name!r} has a row of more than {MAX_ROW_CELLS} cells, "
                              "more than a spreadsheet program writes; refused")
            elif local == b"row":
                cells = 0
            elif local == b"si":
                self.strings += 1
                if self.strings > MAX_SHARED_STRINGS:
                    self.fail(f"holds more than {MAX_SHARED_STRINGS} shared strings (texts); "
                              "keep the table in a smaller workbook, or save it as CSV")
            if self.elements > MAX_ELEMENTS:
                self.fail(f"holds more than {MAX_ELEMENTS} XML elements (cells, texts, "
                          "styles); keep the table in a smaller workbook, or save it as CSV")
        return cells

    def _check_encoding(self, name: str, head: bytes) -> None:
        """Refuse a part an XML parser would not read as UTF-8 (expat's detection)."""
        again = "spreadsheet programs write UTF-8: open and save the workbook again"
        if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) or (
                b"\0" in head[:2] and head[:64].decode(
                    "utf-16-be" if head[:1] == b"\0" else "utf-16-le", "replace"
                ).lstrip().startswith("<")):
            self.fail(f"part {name!r} is UTF-16 text; {again}")
        body = head.removeprefix(codecs.BOM_UTF8)
        if body.startswith(b"<?xml"):
            end = body.find(b">")
            if end < 0:
                self.fail(f"part {name!r} has an XML declaration with no end; {again}")
            declared = _ENCODING.search(body, 0, end)
            if declared and declared.group(1).lower() != b"utf-8":
                encoding = declared.group(1)[:40].decode("ascii", "replace")
                self.fail(f"part {name!r} declares the encoding {encoding!r}; {again}")

    def fail(self, expected: str) -> NoReturn:
        raise DataError(self.shown, None, "", expected)
