"""A small on-disk cache for results the rules engines compute on every build.

Why: verify and the rules pages' worked examples play seeded games (the movement game plays
800 greedy games, about a second) although their inputs rarely change. ``cached(kind, key,
compute)`` keeps each result in a file named by the sha256 of everything it depends on:

- ``key``: what the caller passes, i.e. the game's loaded data (a canonical, type-tagged
  stream of the values hashed as it is walked, ``KeyStream``, never a file path; a key past
  ``MAX_KEY_VALUES`` values is not cached) and the run's parameters (games, seed, policy...);
- the source of the code that computes it: the module defining ``compute`` (its
  ``__module__``, or the ``code`` named) and every module of this package it imports,
  directly or through others, with any import statement anywhere in the file (a deferred
  import inside a function counts) and the packages' ``__init__`` files importing runs;
  this module; ``FORMAT`` and the Python version (``random``'s algorithms and float
  formatting belong to it).

So an entry is never stale: any change to the data, the parameters or the code it runs
gives another name, and an edit to a module the computation does not import (another
engine, the layout) keeps its entries. A module found only by name at run time (a rules
engine loaded by ``importlib``) is not an import: a computation that reaches one names it
as ``code``.

Cache files are untrusted (anyone able to write the folder may have edited them): values are
plain JSON, never pickle or marshal; a file that is not a regular file, is too large, is not
valid JSON, names another key or fails the caller's ``valid`` check is a miss. Only plain
values (dicts with string keys, lists, strings, ints, finite floats, booleans, None) are
stored, so a hit returns exactly what computing would have returned. Files are written to a
temporary name and renamed into place (parallel builds may write the same entry); entries
are at most ``MAX_ENTRY`` bytes and the folder at most ``MAX_TOTAL`` (oldest used go first).

Where: ``$PNP_CACHE_DIR``, else ``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``. A folder that
cannot be created or written just means computing every time. ``PNP_CACHE=0`` turns it off.
"""
from __future__ import annotations

import contextlib
import datetime
import hashlib
import itertools
import json
import math
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from generator.core.words import said

from . import memo, paths

T = TypeVar("T")

FORMAT = 2  # bump when the envelope or the key's layout changes (2: keys hashed as a stream)
MAX_ENTRY = 1 << 20  # bytes: one entry (the movement game's summary is well under 1 KiB)
MAX_TOTAL = 50 << 20  # bytes: the whole folder, oldest used entries evicted beyond it
MAX_DEPTH = 64  # nesting of a key or a value: deeper is not cached (and not recursed into)
MAX_KEY_VALUES = 2_000_000  # values walked for one key: past it, computed and not cached
MAX_KEY_BYTES = 128 << 20  # bytes of text hashed for one key: past it, the same
_CHUNK = 1 << 16  # bytes: a key's stream goes into its hash this many at a time
STALE_TEMP = 3600.0  # seconds: a temporary file older than this was left by a crash
_ENTRY = re.compile(r"[a-z0-9][a-z0-9_-]{0,40}-[0-9a-f]{64}\.json")
_TEMP = re.compile(r"\.tmp-.*\.json")
TOP = __name__.split(".")[0]  # this package: only its modules are code we key on
PACKAGE = Path(sys.modules[TOP].__file__ or __file__).resolve().parent
_OFF = {"0", "false", "no", "off"}


class Uncacheable(Exception):
    """A key holding a value the canonical encoding does not know (or the code unreadable):
    the result is computed, not cached."""


def enabled() -> bool:
    return os.environ.get("PNP_CACHE", "1").strip().lower() not in _OFF


def cache_dir() -> Path | None:
    """The cache folder (see the module docstring), or None when no home is known."""
    return paths.user_folder("PNP_CACHE_DIR", "XDG_CACHE_HOME", ".cache")


def fingerprint(value: Any) -> str:
    """sha256 of ``value``, hashed as a stream (``KeyStream``): never held as one text."""
    return KeyStream().digest(value).hex()


class KeyStream:
    """A key's sha256, fed as the value is walked, telling apart what Python tells apart: 1,
    1.0, True and "1"; a list and a tuple; a dict's int key and its str key; a date and its
    text. Dicts keep their order (an engine may iterate them). Other types raise Uncacheable.

    Why a stream: a key once was one JSON text of everything, and a component's items each
    hold a copy of every row they join (generator/data/tables/loader.py), so 2,000 cards joining 30
    rows of 10 KB made a 600 MB text (1.3 GB at the peak) for a kit that builds in 120 MB.
    Now each value goes into the hash as it is met, a buffer of ``_CHUNK`` bytes at a time,
    and a mapping is hashed as the digest of its own entries, remembered for this key by the
    objects it holds: the copies of one joined row hold the same values, so a table row is
    digested once per key, however many items join it. Past ``MAX_KEY_VALUES`` values or
    ``MAX_KEY_BYTES`` of text the key raises Uncacheable: the result is computed, not
    cached (a build never spends more on its cache key than on what it keys)."""

    def __init__(self) -> None:
        self.values = 0
        self.size = 0
        self.rows: dict[tuple[int, ...], bytes] = {}  # a mapping's contents -> its digest
        self.held: list[Any] = []  # keeps those contents alive, so their ids stay theirs

    def digest(self, value: Any) -> bytes:
        hasher = hashlib.sha256()
        buffer = bytearray()
        self._feed(value, buffer, hasher, 0)
        hasher.update(buffer)
        return hasher.digest()

    def _feed(self, value: Any, out: bytearray, hasher: Any, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise Uncacheable("too deeply nested")
        self.values += 1
        if self.values > MAX_KEY_VALUES:
            raise Uncacheable(f"a key of more than {MAX_KEY_VALUES} values")
        kind = type(value)
        if value is None:
            out += b"N"
        elif kind is bool:
            out += b"T" if value else b"F"
        elif kind is int:
            out += b"i%x;" % value  # hex: no limit on the digits of a large int
        elif kind is str:
            data = value.encode("utf-8", "surrogatepass")
            self.size += len(data)
            if self.size > MAX_KEY_BYTES:
                raise Uncacheable(f"a key of more than {MAX_KEY_BYTES >> 20} MB of text")
            out += b"s%d:" % len(data)
            out += data
        elif kind is float:
            out += b"f" + repr(value).encode("ascii") + b";"
        elif kind is datetime.date or kind is datetime.datetime:  # YAML timestamps
            out += (b"D" if kind is datetime.date else b"E") + value.isoformat().encode() + b";"
        elif isinstance(value, Mapping):
            out += b"d" + self._mapping(value, depth)
        elif kind is list or kind is tuple:
            out += b"l%d:" % len(value) if kind is list else b"t%d:" % len(value)
            for item in value:
                self._feed(item, out, hasher, depth + 1)
        else:
            raise Uncacheable(f"cannot key on a {kind.__name__}")
        if len(out) >= _CHUNK:
            hasher.update(out)
            out.clear()

    def _mapping(self, value: Mapping[Any, Any], depth: int) -> bytes:
        """The digest of a mapping's entries, once per key for the same contents."""
        pairs = list(value.items())
        self.values += len(pairs)
        ids = tuple(id(part) for pair in pairs for part in pair)
        found = self.rows.get(ids)
        if found is not None:
            return found
        hasher = hashlib.sha256()
        out = bytearray(b"%d:" % len(pairs))
        for key, item in pairs:
            self._feed(key, out, hasher, depth + 1)
            self._feed(item, out, hasher, depth + 1)
        hasher.update(out)
        self.rows[ids] = found = hasher.digest()
        self.held.append(pairs)
        return found


@memo.memo(code=True)
def code_digest(module: str | None = None, *more: str) -> str:
    """sha256 of the source of ``module`` (and of ``more``: modules a computation loads by
    name) and of the modules they import (``read_code_digest``),
    read once per process: close to when the modules were imported, so it describes the
    code that is running. A ``code`` memo (generator/core/memo.py): ``pnp watch`` forgets the
    other memos between rebuilds but never re-imports the engines, so a digest read again
    after an edit would file the old code's results under the new code's name."""
    return read_code_digest(module, *more)


def read_code_digest(module: str | None, *more: str) -> str:
    """sha256 of the names and bytes of ``imported(module)`` (with each of ``more``) and this
    module, read now."""
    sources = package_sources()
    digest = hashlib.sha256()
    for name in sorted({*reached(module, sources, *more), __name__}):
        data = sources.get(name)
        if data is None:
            raise Uncacheable(f"cannot read the source of {name}")
        digest.update(len(name).to_bytes(4, "big") + name.encode())
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


@memo.memo(code=True)
def package_sources() -> dict[str, bytes]:
    """``read_sources`` once per process (a ``code`` memo: the source of the running code)."""
    return read_sources()


def read_sources() -> dict[str, bytes]:
    """Every module of this package (``generator.rules.base``) -> its source bytes, read now."""
    found: dict[str, bytes] = {}
    root = str(PACKAGE)
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        inside = os.path.relpath(folder, root)
        parts = () if inside == "." else tuple(inside.split(os.sep))
        for name in sorted(f for f in files if f.endswith(".py")):
            module = parts if name == "__init__.py" else (*parts, name[:-3])
            try:
                with open(os.path.join(folder, name), "rb") as handle:
                    found[".".join((TOP, *module))] = handle.read()
            except OSError:
                continue  # named by an import, it makes the digest Uncacheable
    return found


@memo.memo(code=True)
def package_graph() -> dict[str, set[str]]:
    """``import_graph`` of ``package_sources`` once per process (a ``code`` memo)."""
    return import_graph(package_sources())


def import_graph(sources: Mapping[str, bytes]) -> dict[str, set[str]]:
    """Each module -> the modules of this package its import statements name, and the
    packages holding it (importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__``)."""
    packages = {name.rpartition(".")[0] for name in sources}
    return {name: module_imports(name, sources, packages) for name in sources}


def module_imports(name: str, sources: Mapping[str, bytes], packages: set[str]) -> set[str]:
    """The modules of this package one module's import statements name, and the packages
    holding it (``import_graph``'s row for ``name``)."""
    parts = name.split(".")
    package = parts if name in packages else parts[:-1]
    found = {".".join(parts[:i]) for i in range(1, len(parts))}
    found.update(m for m in _import_names(sources[name], tuple(package)) if m in sources)
    return found


@memo.memo(code=True)
def _import_names(source: bytes, package: tuple[str, ...]) -> tuple[str, ...]:
    """``import_names`` once per file's text (a ``code`` memo keyed by the text itself): the
    rules results and the faces key on overlapping corners of the package."""
    return tuple(import_names(source, list(package)))


def reached(module: str | None, sources: Mapping[str, bytes], *more: str) -> set[str]:
    """``imported(module, import_graph(sources))``, reading only the modules it reaches: a
    key for a small corner of the package (``pnp list``) does not parse the whole of it.
    With ``more``, what any of them reaches, each module read once."""
    packages = {name.rpartition(".")[0] for name in sources}
    found: set[str] = set()
    todo = [name for name in (module, *more) if name is not None and name in sources]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(module_imports(name, sources, packages) - found)
    return found


def imported(module: str | None, graph: Mapping[str, set[str]]) -> set[str]:
    """``module`` and every module of this package it imports, directly or not (``graph``:
    ``import_graph``). Every ``import`` and ``from ... import`` statement of a file counts,
    wherever it is (a function's deferred import, a ``TYPE_CHECKING`` block: more than runs,
    never less). A module outside this package (a test's) imports nothing we key on."""
    found: set[str] = set()
    todo = [module] if module is not None and module in graph else []
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(graph[name] - found)
    return found


# ``from .x import (y, z)``, once its text is found (``_statements``).
_FROM = re.compile(rb"from\s+(\.*)([\w.]*)\s+import\s+(.*)", re.S)


def _statements(source: bytes) -> list[bytes]:
    """The text of each ``import`` or ``from ... import`` statement of a file, wherever it
    is (indented: inside a function; in parentheses: over several lines). Found by looking
    for the word, which is quick; one inside a string or a comment only adds a module: more
    code keyed on than runs, never less."""
    found = []
    pos = source.find(b"import")
    while pos >= 0:
        start = source.rfind(b"\n", 0, pos) + 1
        end = source.find(b"\n", pos)
        end = len(source) if end < 0 else end
        head = source[start:pos].strip()
        if source[pos + 6:pos + 7] in (b" ", b"\t") and (not head or head.startswith(b"from ")):
            text = source[start:end]
            if b"(" in text and b")" not in text:
                close = source.find(b")", end)
                end = len(source) if close < 0 else close + 1
                text = source[start:end]
            found.append(text.strip())
        pos = source.find(b"import", end)
    return found


def import_names(source: bytes, package: list[str]) -> list[str]:
    """The module names an import statement of ``source`` may load (``package``: the parts
    of the package the file is in, against which relative imports are read)."""
    names: list[str] = []
    for statement in _statements(source):
        text = statement.decode("ascii", "replace")
        if text.startswith("import"):
            names.extend(words[0] for alias in text[6:].split(",") if (words := alias.split()))
            continue
        found = _FROM.match(statement)
        if found is None:
            continue
        dots, module, listed = (g.decode("ascii", "replace") for g in found.groups())
        if dots:
            base = package[:len(package) - len(dots) + 1]
            if not base:
                continue
            module = ".".join(base + ([module] if module else []))
        names.append(module)
        names.extend(f"{module}.{words[0]}"  # a submodule, or a name in the module
                     for alias in listed.strip("() \n").split(",") if (words := alias.split()))
    return names


def entry_key(kind: str, key_parts: Any, code: str | None = None) -> str:
    """The file key of a result: the caller's parts, the code computing it (the module
    ``code`` and what it imports, ``code_digest``) and the format."""
    return fingerprint([FORMAT, kind, list(sys.version_info[:2]), sys.implementation.name,
                        code_digest(code), key_parts])


def is_plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` survives a JSON round trip unchanged (so a hit equals a compute)."""
    if depth > MAX_DEPTH:
        return False
    kind = type(value)
    if value is None or kind is str or kind is bool or kind is int:
        return True
    if kind is float:
        return math.isfinite(value)
    if kind is list:
        return all(is_plain(v, depth + 1) for v in value)
    if kind is dict:
        return all(type(k) is str and is_plain(v, depth + 1) for k, v in value.items())
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not plain JSON")


def _read(path: Path, limit: int | None = None) -> Any:
    """The parsed JSON of a regular file of at most ``limit`` (MAX_ENTRY) bytes (never
    blocking on a FIFO, never following a symbolic link), or raise."""
    limit = MAX_ENTRY if limit is None else limit
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            raise ValueError("not a cache entry")
        raw = file.read(limit + 1)
    if len(raw) > limit:
        raise ValueError("not a cache entry")
    return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)


def lookup(folder: Path, kind: str, key: str,
           valid: Callable[[Any], bool] = is_plain, limit: int | None = None,
           plain: bool = True) -> tuple[bool, Any]:
    """(True, value) for a sound entry, else (False, None): anything wrong is a miss.
    ``plain=False`` leaves the plain-values walk to ``valid`` (a decoder checking every
    value itself: a large entry is not walked twice)."""
    path = folder / f"{kind}-{key}.json"
    try:
        envelope = _read(path, limit)
        if (type(envelope) is dict and envelope.get("format") == FORMAT
                and envelope.get("kind") == kind and envelope.get("key") == key
                and "value" in envelope and (not plain or is_plain(envelope["value"]))
                and valid(envelope["value"])):
            with contextlib.suppress(OSError):
                os.utime(path)  # recently used: evicted last
            return True, envelope["value"]
    except Exception:  # a corrupt or hostile file (any parse or check failure) is a miss
        pass
    return False, None


def dumps(value: Any) -> str:
    """A plain value as the JSON text an entry holds it in."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def store(folder: Path, kind: str, key: str, value: Any, limit: int | None = None) -> bool:
    """Write one entry atomically; False (and nothing written) when the value is not plain,
    larger than ``limit`` (MAX_ENTRY) bytes, or the folder is not writable."""
    if not is_plain(value):
        return False
    data = (_head(kind, key) + dumps(value) + "}").encode("utf-8")
    if len(data) > (MAX_ENTRY if limit is None else limit):
        return False
    return _write(folder, kind, key, [data], len(data))


def store_text(folder: Path, kind: str, key: str, pieces: Iterable[str],
               limit: int | None = None) -> bool:
    """``store`` for a value given as its JSON text (``dumps`` of a plain value: the caller
    vouches for it) in pieces, each written as it comes, so that a large value is never
    held whole, nor in two forms at once. A piece may raise ``Uncacheable`` to give up.
    False (nothing written) past ``limit`` bytes, on giving up, or when the folder is not
    writable."""
    data = (piece.encode("utf-8") for piece in itertools.chain((_head(kind, key),), pieces,
                                                                ("}",)))
    return _write(folder, kind, key, data, MAX_ENTRY if limit is None else limit)


def _head(kind: str, key: str) -> str:
    """An entry's envelope up to its value: ``{"format":..,"kind":..,"key":..,"value":``."""
    return f'{{"format":{dumps(FORMAT)},"kind":{dumps(kind)},"key":{dumps(key)},"value":'


def _write(folder: Path, kind: str, key: str, chunks: Iterable[bytes], limit: int) -> bool:
    """The chunks into the entry's file, atomically: a temporary file renamed over it."""
    temp = None
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
        size = 0
        with os.fdopen(fd, "wb") as file:
            for chunk in chunks:
                size += len(chunk)
                if size > limit:
                    return False
                file.write(chunk)
        os.replace(temp, folder / f"{kind}-{key}.json")
        temp = None
    except (OSError, Uncacheable):
        return False
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
    evict(folder)
    return True


def evict(folder: Path, limit: int = MAX_TOTAL, *, files: int | None = None,
          entry: re.Pattern[str] = _ENTRY, temp: re.Pattern[str] = _TEMP) -> None:
    """Delete the least recently used entries until the folder's entries fit ``limit`` bytes
    (and ``files`` entries, when given), and temporary files a crash left behind. Only files
    named like entries (``entry``) or temporary files (``temp``) are touched: the one eviction
    of every cache folder (the results here, compiled code in ``code_cache``)."""
    entries = []
    now = time.time()
    try:
        with os.scandir(folder) as listing:
            for item in listing:
                try:
                    info = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if temp.fullmatch(item.name) and now - info.st_mtime > STALE_TEMP:
                    with contextlib.suppress(OSError):
                        os.unlink(item.path)
                elif entry.fullmatch(item.name):
                    entries.append((info.st_mtime, item.name, info.st_size, item.path))
    except OSError:
        return
    total = sum(size for _, _, size, _ in entries)
    count = len(entries)
    for _, _, size, path in sorted(entries):
        if total <= limit and (files is None or count <= files):
            break
        with contextlib.suppress(OSError):
            os.unlink(path)
        total -= size
        count -= 1


def cached(kind: str, key_parts: Any, compute: Callable[[], T],
           valid: Callable[[Any], bool] = is_plain, code: str | None = None) -> T:
    """``compute()``, or its result from an earlier run with the same ``key_parts``, code and
    format. ``kind`` names the result (lower case, digits, ``-``); ``valid`` checks a cached
    value's shape (it is read from an untrusted file); ``code`` is the module whose source
    and imports compute it (default: the module defining ``compute``). Results that are not
    plain JSON are returned but not stored. Never raises for the cache's sake."""
    if not _ENTRY.fullmatch(f"{kind}-{'0' * 64}.json"):
        raise ValueError(f"bad cache kind {said(kind)}")
    folder = cache_dir() if enabled() else None
    if folder is None:
        return compute()
    try:
        key = entry_key(kind, key_parts, code or getattr(compute, "__module__", None))
    except Uncacheable:
        return compute()
    hit, value = lookup(folder, kind, key, valid)
    if hit:
        return value
    result = compute()
    store(folder, kind, key, result)
    return result
