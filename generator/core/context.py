"""The one state of a build: everything code deep in a build needs that is not an argument.

Why one place: a build reads more than its arguments say. The project in use decides where
a face or icon is found (generator/data/files/project.py), the game's folder where its images may
come from (generator/data/files/resolve.py), the language session what a text prints
(generator/data/translation/i18n.py); pre-flight draws text a build would refuse
(generator/data/typefaces/fonts.py), the face cache notes which files a face read
(generator/faces/face_cache.py), output writes are grouped and locked (generator/core/atomic.py).
Each of these was a module global once, so two builds in one process (two threads, a preview server,
a test after another) saw each other's. Now they are the fields of one ``BuildContext``, held in one
``ContextVar`` and read with ``current()``.

- ``building()`` starts a build: a fresh context for the ``with`` block (the entry points
  enter it: generator/orchestration/build.py, export.py and exporters/preview.py,
  generator/frontends/app.py), keeping only what the caller chose for everything inside (who
  collects untranslated texts, pre-flight's glyph reporting, open output batches and locks
  held).
- Outside any build, each thread has a context of its own, made at its first ``current()``
  (a new thread starts with an empty ``contextvars`` context, so threads never share one;
  ``contextvars.copy_context().run`` in a thread would share the parent's object, so a thread
  that builds enters ``building()``, as every entry point does).

Files are known by their content (``version``): the sha256 of a file's bytes, read once per
build (a table of the build; outside a build every call reads the file again, so a test or
tool that rewrites a file between two calls sees the new bytes). Content keys the in-memory
memo tables of what was parsed from files (generator/core/memo.py) and the face cache's entries;
``recording()`` lists the versions asked for in its block, so the face cache knows every file
a face read, found or looked for and absent. A folder's *listing* (names, no contents) is a
version too (``listing_version``), for lookups that depend on which files exist. What
loading resolved ahead of drawing carries the versions it read (``Sourced``): using it
notes them, so a face drawn from it depends on those files as if it had looked them up.

A build has one work budget (``Budget``): what its faces, labels and checks spent, in the
units of the expression sandbox's work meter (generator/expressions/limits.py holds the figure
and charges it), by who spent it, so the build that runs out names its heaviest template or
check. It is the build's, not a module's: two builds in two threads each spend their own.

This module imports nothing of the generator (it is on the ground floor, generator/core/):
every layer may read it.
"""
from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")
# Who spends a build's work: (file, line, field, what one run of it is: "face", "label"...).
Spender = tuple[str, int | None, str, str]
MAX_RECORDED = 20_000  # versions one recording keeps (a face reading more is not cached)
_UNSEEN = object()


@dataclass
class Budget:
    """The work one build has spent (units of generator/expressions/limits.py's meter), and by
    whom: ``by`` maps a spender to [units, runs] (a face template's element and the faces it
    ran in, a label, a check and the rows it ran for). The figure a build may not pass, and
    the error that says so, are the sandbox's (limits.MAX_BUILD_WORK); this is the account."""

    spent: int = 0
    by: dict[Spender | None, list[int]] = field(default_factory=dict)
    who: Spender | None = None  # spending now (limits.spending); None: no one named
    recorders: list[dict[Spender | None, list[int]]] = field(default_factory=list)
    primitives: int = 0  # primitives the build's faces drew (limits.MAX_BUILD_PRIMITIVES)
    dealt: int = 0  # cards its deal questions dealt (data/tables/deal_list.py's MAX_BUILD_DEALT)

    def add(self, who: Spender | None, units: int, runs: int = 0) -> None:
        """``units`` of work (and ``runs`` runs) by ``who``, in the account and in every
        recording open (the face cache keeps what a component's drawing spent)."""
        self.spent += units
        for table in (self.by, *self.recorders):
            entry = table.get(who)
            if entry is None:
                table[who] = [units, runs]
            else:
                entry[0] += units
                entry[1] += runs

    @contextmanager
    def recording(self) -> Iterator[dict[Spender | None, list[int]]]:
        """What is spent in the block, by whom (added to the account as usual)."""
        found: dict[Spender | None, list[int]] = {}
        self.recorders.append(found)
        try:
            yield found
        finally:
            self.recorders.remove(found)


@dataclass
class BuildContext:
    """What one build (or, outside builds, one thread) holds besides its arguments.

    Typed loosely where the type belongs to a higher layer (a project, a language session):
    this module sits below them all."""

    # generator/data/files/project.py's Project in use (None: the built-ins alone)
    project: Any = None
    game_folder: Path | None = None  # the folder of the game data file loaded last
    session: Any = None  # generator/data/translation/i18n.py's Session: the kit language in use
    collectors: tuple[list[Any], ...] = ()  # lists collecting untranslated texts (i18n.collect)
    glyphs_reported: bool = False  # pre-flight: draw missing glyphs, report them
    # Content versions of the files read in this build (None outside a build: read each time).
    files: dict[str, str | None] | None = None
    recorders: list[dict[str, str | None]] = field(default_factory=list)
    examples: dict[Any, Any] = field(default_factory=dict)  # rules examples per game and lang
    # generator/data/typefaces/project_fonts.py's InUse: the project's fonts, listed once
    fonts: Any = None
    batches: list[list[Any]] = field(default_factory=list)  # open atomic_batch()es
    locks: dict[str, list[int]] = field(default_factory=dict)  # [depth, lock fd, folder fd]
    budget: Budget | None = None  # the work this build spent (None outside a build)


_CONTEXT: ContextVar[BuildContext | None] = ContextVar("pnp_build", default=None)


def current() -> BuildContext:
    """The context of the build running here (or this thread's own outside any build)."""
    found = _CONTEXT.get()
    if found is None:
        found = BuildContext()
        _CONTEXT.set(found)
    return found


@contextmanager
def building() -> Iterator[BuildContext]:
    """A fresh context for one build: the built-ins alone until its game is loaded, no
    language session, a table of file versions of its own, a work budget of its own. The
    caller's choices for everything inside are kept: who collects untranslated texts,
    pre-flight's glyph reporting, and the output batches and locks already open (a build
    inside a batch joins it; a lock this thread holds is not taken twice)."""
    outer = current()
    made = BuildContext(collectors=outer.collectors, glyphs_reported=outer.glyphs_reported,
                        files={}, batches=outer.batches, locks=outer.locks, budget=Budget())
    token = _CONTEXT.set(made)
    try:
        yield made
    finally:
        _CONTEXT.reset(token)


@contextmanager
def budgeted() -> Iterator[Budget]:
    """The build's budget; outside a build, one of the block's own (a game loaded on its
    own, faces drawn outside a build: each bounded as a build would be)."""
    ctx = current()
    if ctx.budget is not None:
        yield ctx.budget
        return
    ctx.budget = made = Budget()
    try:
        yield made
    finally:
        ctx.budget = None


def fresh() -> BuildContext:
    """Start this context over (tests: each starts as a new process would)."""
    made = BuildContext()
    _CONTEXT.set(made)
    return made


# -- files by content -------------------------------------------------------------------------

def version(path: Path | str) -> str | None:
    """The sha256 of a regular file's bytes (None: absent, not a regular file, unreadable),
    read once per build, and noted by the recording open here, if any."""
    return _noted(os.path.abspath(path), file_digest)


def read(path: Path | str, data: bytes) -> None:
    """``data`` was just read from ``path`` (a reader that holds the bytes anyway, as the YAML
    reader does): its version is theirs, noted like ``version``'s."""
    key = os.path.abspath(path)
    ctx = current()
    found: str | None = hashlib.sha256(data).hexdigest()
    if ctx.files is not None:
        found = ctx.files.setdefault(key, found)  # the build's first reading wins
    if ctx.recorders:
        ctx.recorders[-1][key] = found


def listing_version(folder: Path | str) -> str | None:
    """The sha256 of a folder's sorted entry names (None: no such folder), once per build,
    noted like ``version`` (its key ends with the path separator)."""
    return _noted(os.path.join(os.path.abspath(folder), ""), names_digest)


def _noted(key: str, digest: Callable[[str], str | None]) -> str | None:
    """``digest(key)``, taken once per build from the build's table, and noted by the
    recording open here, if any: what ``version`` and ``listing_version`` share."""
    ctx = current()
    table = ctx.files
    found = table.get(key, _UNSEEN) if table is not None else _UNSEEN
    if found is _UNSEEN:
        found = digest(key)
        if table is not None:
            table[key] = found
    if ctx.recorders:
        ctx.recorders[-1][key] = found  # type: ignore[assignment]
    return found  # type: ignore[return-value]


def version_of(key: str) -> str | None:
    """``version`` or ``listing_version`` of a key either of them recorded."""
    return listing_version(key) if key.endswith(os.sep) else version(key)


def file_digest(path: str) -> str | None:
    """sha256 of a regular file's bytes, read now; None when there is none to read. A FIFO
    or device is never opened (it could block or never end)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except (OSError, ValueError):
        return None


def names_digest(folder: str) -> str | None:
    """sha256 of the names in a folder, sorted; None when it cannot be listed."""
    try:
        names = sorted(os.listdir(folder))
    except (OSError, ValueError):
        return None
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()


@contextmanager
def recording() -> Iterator[dict[str, str | None]]:
    """Within the block, every version asked for (file or listing, found or absent) is
    listed, path -> version; an enclosing recording gets them too when the block ends."""
    ctx = current()
    found: dict[str, str | None] = {}
    ctx.recorders.append(found)
    try:
        yield found
    finally:
        ctx.recorders.pop()
        if ctx.recorders:
            ctx.recorders[-1].update(found)


def note(recorded: Mapping[str, str | None]) -> bool:
    """Ask again for every version of an earlier recording (noting them here); whether each
    is still what was recorded. A memo hit calls it so the files behind a remembered value
    are seen to be unchanged and count as read by whatever is recording now."""
    return all(version_of(key) == was for key, was in recorded.items())


@dataclass(frozen=True)
class Sourced(Generic[T]):
    """A value loading made, with every file version it read (or looked for) to make it.

    Loading resolves what a kit names once (a theme's icons, a game's face templates) and
    the faces read the result instead of looking it up again while drawing. Drawing must
    still count those files as read, or the face cache (keyed by what a face read) would
    miss an edit: ``use()`` notes them where the value is used, as a memo hit does."""

    value: T
    read: Mapping[str, str | None]

    def use(self) -> T:
        note(self.read)
        return self.value


def sourced(make: Callable[[], T]) -> Sourced[T]:
    """``make()``, with the versions it asked for (an enclosing recording gets them too)."""
    with recording() as read:
        value = make()
    return Sourced(value, dict(read))
