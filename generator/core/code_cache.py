"""Compiled expression code kept on disk, by content, so no process compiles a string another
compiled before it.

Why: a cold build (``PNP_CACHE=0``, or the first after an edit) parses, checks and compiles
each of a kit's ~1,000 distinct expression strings (Jinja's lexer and parser, our syntax
check, Jinja's code generator, then Python's ``compile``), in every process, although the
strings rarely change. generator/expressions/compiler.py asks ``load`` for a string's entry
before compiling it and ``store``s what it compiled; this module only keeps the bytes. The
tables ReportLab reads from a font file are kept here too, by the file's content
(generator/data/typefaces/font_tables.py): derived from installed files as code is, and as costly to
read again in every process; and so are parsed YAML texts (generator/core/yamlfile.py).

The key (the caller's, ``key``) is the sha256 of the string's full text and everything that
decides the code made of it: the Python and Jinja versions, the environment's settings and
the source of the code generating it. An entry holds the key, a small JSON header (what the
compiler needs besides the code: the tree's size, the names it reads) and the code object,
``marshal``\\ ed, as Python's own ``__pycache__`` keeps compiled modules.

Trust: unlike the JSON results of generator/core/cache.py, code cannot be checked after it is
read, so it is trusted exactly as Python trusts ``__pycache__``: an entry is read only from a
folder, and as a file, owned by this user and writable by no one else (not a symbolic link,
not a FIFO, at most ``MAX_ENTRY`` bytes, naming its own key). The folder is ``code/`` in the
user's cache folder (``$PNP_CACHE_DIR``, ``$XDG_CACHE_HOME/pnp`` or ``~/.cache/pnp``), never
in a project's folder, and is made ``0700``. A folder or file failing a check is not used:
the string is compiled, as it would be without the cache.

On and off: ``PNP_CODE_CACHE=0`` turns it off. ``PNP_CACHE=0`` does not: that switch makes a
build remember no *results* (faces, playouts); compiled code, like ``__pycache__``, changes
how fast a build runs, never what it makes. The folder holds at most ``MAX_FILES`` entries and
``MAX_BYTES``: the first entry a process writes trims it, oldest first.
"""
from __future__ import annotations

import contextlib
import json
import marshal
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

from . import cache, memo, paths

MAGIC = b"pnp-code 1\n"  # bump with the layout of an entry
MAX_ENTRY = 4 << 20  # bytes: a string's code is a few KB, a font's tables up to ~3 MB
MAX_FILES = 20_000  # entries in the folder: about 20 kits' worth of strings
MAX_BYTES = 64 << 20
_NAME = re.compile(r"[0-9a-f]{64}\.code")
_TEMP = re.compile(r"\.tmp-.*\.code")
_OFF = {"0", "false", "no", "off"}


def enabled() -> bool:
    return os.environ.get("PNP_CODE_CACHE", "1").strip().lower() not in _OFF


def folder() -> Path | None:
    """The code folder in the user's cache folder, or None (no home, or turned off)."""
    if not enabled():
        return None
    base = paths.user_folder("PNP_CACHE_DIR", "XDG_CACHE_HOME", ".cache")
    return None if base is None else base / "code"


def _owned(info: os.stat_result) -> bool:
    """This user's, and writable by no one else (as Python asks of nothing, and we of code)."""
    uid = getattr(os, "geteuid", None)
    return uid is not None and info.st_uid == uid() and not info.st_mode & 0o022


def _trusted(where: Path) -> bool:
    """Whether code may be read from ``where``: it and the folder holding it are real
    folders of this user's that no one else may write to."""
    try:
        return _checked(where)
    except OSError:
        return False


@memo.memo  # a folder found good, per build (a missing or bad one raised: asked again)
def _checked(where: Path) -> bool:
    for path in (where, where.parent):
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode) or not _owned(info):
            raise PermissionError(f"{path} is not this user's alone")
    return True


def load(key: str) -> tuple[dict[str, Any], Any] | None:
    """(header, value) of the entry for ``key``, or None: no entry, or one failing a check.
    The caller checks the value's type (a code object, a font's tables)."""
    where = folder()
    if where is None or not _trusted(where):
        return None
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(where / f"{key}.code", flags)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode) or not _owned(info) or info.st_size > MAX_ENTRY:
                return None
            raw = file.read(MAX_ENTRY + 1)
        head, _, rest = raw.partition(b"\n")
        header, _, body = rest.partition(b"\n")
        meta = json.loads(header)
        if head + b"\n" != MAGIC or type(meta) is not dict or meta.get("key") != key:
            return None
        return meta, marshal.loads(body)
    except Exception:  # a damaged entry (any read or parse failure) is a miss
        return None


def store(key: str, header: dict[str, Any], value: Any) -> bool:
    """Write the entry for ``key`` (atomically: a temporary file renamed over it); False when
    it is too large or the folder cannot be written or trusted."""
    where = folder()
    if where is None:
        return False
    data = MAGIC + json.dumps({**header, "key": key}, separators=(",", ":")).encode() + b"\n" \
        + marshal.dumps(value)
    if len(data) > MAX_ENTRY:
        return False
    temp = None
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _trusted(where):
            return False
        _trim_once(where)
        fd, temp = tempfile.mkstemp(dir=where, prefix=".tmp-", suffix=".code")
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temp, where / f"{key}.code")
        temp = None
    except OSError:
        return False
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
    return True


@memo.memo(code=True)  # once per process and folder: a scan of the folder per entry written
def _trim_once(where: Path) -> None:  # (or per test) would cost more than compiling the string
    trim(where)


def trim(where: Path, files: int = MAX_FILES, size: int = MAX_BYTES) -> None:
    """Delete the oldest entries past ``files`` entries or ``size`` bytes, and temporary
    files a crash left. Only files named like entries are touched (the result cache's own
    eviction, given this folder's names)."""
    cache.evict(where, size, files=files, entry=_NAME, temp=_TEMP)
