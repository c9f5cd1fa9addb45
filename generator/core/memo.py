"""Every in-memory memo table of the generator, registered in one place.

Why: a build parses the same templates, icons, fonts and messages again and again, so their
results are remembered for the life of the process. A memo that outlives a build is safe only
when its key says everything its value depends on: the arguments, and for what was read
from a file, that file's *content* (``context.version``: a file rewritten with the same size
and time is a new key). What a project decides (which file a name stands for) is keyed by
the project's folders. So a table never hands one build another's value; a long-lived
process (``pnp watch``) forgets them all before each rebuild (``forget_all``) only to bound
its memory and to read every file afresh, and so does each test (tests/conftest.py), so no
test passes or fails by the order the suite runs in.

- ``@memo`` (or ``@memo(maxsize=N)``): ``functools.lru_cache``, registered.
- ``@memo(code=True)``: a value describing the code running in this process (a digest of
  its source files) or the packages installed with it (a built-in font parsed, a
  hyphenation dictionary): ``forget_all`` keeps it, because neither changes while the
  process runs (its modules are not imported again).
- ``@tracked(maxsize=N)``: for a value computed by *looking* for files (a name searched in
  folders): the versions looked at while computing (generator/core/context.py's ``recording``)
  are kept with it; a hit asks for them again, so they count as read by whatever records
  now (the face cache), and computes afresh when one changed.
- ``register(clear, name)``: a table of another shape (a dict) whose ``clear`` forgets it.

A value that raised is never remembered.
"""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar, overload

from . import context

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Table:
    """One registered table: its name (module.function) and how to forget it."""

    name: str
    clear: Callable[[], None]
    code: bool = False


_TABLES: list[Table] = []  # the registry: filled as modules are imported, never emptied


def register(clear: Callable[[], None], name: str, code: bool = False) -> None:
    """Add a table whose ``clear()`` forgets it (see the module docstring for ``code``)."""
    _TABLES.append(Table(name, clear, code))


def tables() -> list[str]:
    """The names of every registered table (for tests and the architecture notes)."""
    return [table.name for table in _TABLES]


def forget_all(code: bool = False) -> None:
    """Forget every registered table (``code=True``: the code digests too; tests only)."""
    for table in list(_TABLES):
        if code or not table.code:
            table.clear()


@overload
def memo(fn: F) -> F: ...
@overload
def memo(*, maxsize: int | None = None, code: bool = False) -> Callable[[F], F]: ...


def memo(fn: Any = None, *, maxsize: int | None = None, code: bool = False) -> Any:
    """``functools.lru_cache(maxsize)`` (unbounded by default), registered."""
    def wrap(func: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(func)
        register(cached.cache_clear, f"{func.__module__}.{func.__qualname__}", code)
        return cached  # type: ignore[return-value]
    return wrap(fn) if fn is not None else wrap


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    maxsize: int
    currsize: int


class Tracked:
    """A bounded memo whose entries carry the file versions read while computing them."""

    def __init__(self, fn: Callable[..., Any], maxsize: int) -> None:
        self._fn = fn
        self._maxsize = maxsize
        self._data: OrderedDict[Any, tuple[Any, dict[str, str | None]]] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = self._misses = 0
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any) -> Any:
        with self._lock:
            found = self._data.get(args)
        if found is not None and context.note(found[1]):
            with self._lock:
                self._hits += 1
                if args in self._data:
                    self._data.move_to_end(args)
            return found[0]
        with context.recording() as recorded:
            value = self._fn(*args)
        with self._lock:
            self._misses += 1
            self._data[args] = (value, dict(recorded))
            while len(self._data) > self._maxsize:
                self._data.popitem(last=False)
        return value

    def cache_clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._hits = self._misses = 0

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, self._maxsize, len(self._data))


def tracked(maxsize: int = 1024) -> Callable[[Callable[..., Any]], Tracked]:
    """A registered ``Tracked`` memo of at most ``maxsize`` entries."""
    def wrap(func: Callable[..., Any]) -> Tracked:
        table = Tracked(func, maxsize)
        register(table.cache_clear, f"{func.__module__}.{func.__qualname__}")
        return table
    return wrap
