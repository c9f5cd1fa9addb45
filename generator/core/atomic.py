"""Safe output: write-then-rename files and folders, a lock per output folder, litter sweeping.

* ``atomic_path(target)`` yields a fresh temporary file beside ``target`` (``mkstemp``: an
  unpredictable name, created exclusively, never following a planted link); on success it gets
  the user's umask mode and replaces ``target``. On any failure (or Ctrl-C) ``target`` is left
  as it was and the temporary file is removed.
* ``atomic_batch()`` groups several ``atomic_path`` writes (a PDF, its manifest, its
  calibration sheet): nothing is replaced until every file of the group is written.
* ``atomic_dir(target)`` does the same for a whole folder (a PNG set): it is built in a fresh
  ``mkdtemp`` folder and swapped in, so stale files of an older set never survive.
* ``output_lock(folder)`` serialises builds writing into one output folder (``flock`` on
  ``folder/.lock``): a second build waits up to ``lock_timeout()`` seconds, then gives up with
  ``OutputBusy``. Once it holds the lock it sweeps litter left by killed builds.

Every temporary name is ``.<final name>.<pid>-<random>.part`` (``.old`` for a folder moved
aside during a swap), so the sweep recognises litter and only removes that of dead processes.

The batches open and the locks held belong to the build (or thread) that opened them, in its
context (generator/core/context.py): two builds in two threads never join each other's batch, and
a lock one thread holds makes another wait, as another process would.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, NoReturn

from generator.core import context

LOCK_NAME = ".lock"
DEFAULT_LOCK_TIMEOUT = 600.0  # seconds a build waits for another build of the same folder
LITTER = re.compile(r"^\..+\.(?P<pid>\d+)-[A-Za-z0-9_]+\.(?P<kind>part|old)$")

_timeout = DEFAULT_LOCK_TIMEOUT  # a setting of the command line (--wait), not build state


class OutputError(OSError):
    """An output file or folder could not be written: the CLI prints one line and exits 1."""

    def __init__(self, path: Path | str, reason: str, code: int | None = None) -> None:
        super().__init__(code or 0, reason, str(path))
        self.path = str(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.reason}"

    def __reduce__(self):  # survives a worker process's pickling
        return (type(self), (self.path, self.reason, self.errno))


class OutputBusy(OutputError):
    """Another build held the output folder's lock for longer than the timeout."""


def set_lock_timeout(seconds: float) -> None:
    global _timeout
    _timeout = seconds


def lock_timeout() -> float:
    return _timeout


def current_umask() -> int:
    """The process umask, read without changing it where /proc allows."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    return 0o666 & ~current_umask()


def dir_mode() -> int:
    return 0o777 & ~current_umask()


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _ours(exc: OSError, *paths: Path) -> bool:
    """Is this error about one of our output paths (or about no path at all)?"""
    if exc.filename is None:
        return True
    name = str(exc.filename)
    return any(name == str(p) or name.startswith(str(p) + os.sep) for p in paths)


def as_output_error(exc: OSError, target: Path, *temps: Path) -> OSError:
    """Name the final target (not a temporary file) in a write error."""
    if not _ours(exc, target, *temps) or (isinstance(exc, OutputError)
                                           and exc.path == str(target)):
        return exc
    reason = exc.reason if isinstance(exc, OutputError) else _reason(exc)
    return OutputError(target, reason, exc.errno)


def _reraise(exc: OSError, target: Path, *temps: Path | None) -> NoReturn:
    error = as_output_error(exc, target, *(t for t in temps if t is not None))
    if error is exc:
        raise exc
    raise error from exc


def make_folder(folder: Path) -> None:
    """``mkdir -p``; a failure is an OutputError naming the folder that could not be made."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(exc.filename or folder, _reason(exc), exc.errno) from exc


def _temp_prefix(target: Path) -> str:
    """``.<name>.<pid>-`` (the name shortened so the temporary name stays within limits)."""
    return f".{target.name[:120]}.{os.getpid()}-"


def _remove(path: Path) -> None:
    """Remove a file, link or folder tree without following links."""
    with contextlib.suppress(FileNotFoundError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target``."""
    with _atomic(target) as (tmp, handle):
        handle.close()
        yield tmp


@contextmanager
def atomic_file(target: Path) -> Iterator[BinaryIO]:
    """Like ``atomic_path`` but yield the temporary file open for binary writing: nothing
    reopens it by name, so nothing can swap a link in under that name meanwhile."""
    with _atomic(target) as (_, handle), handle:
        yield handle


@contextmanager
def _atomic(target: Path) -> Iterator[tuple[Path, BinaryIO]]:
    target = Path(target)
    tmp: Path | None = None
    try:
        make_folder(target.parent)
        fd, name = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=".part",
                                    dir=target.parent)
        tmp = Path(name)
        handle = os.fdopen(fd, "w+b")
        try:
            os.fchmod(fd, file_mode())  # mkstemp's 0600 -> the umask's; kept when reopened
            yield tmp, handle
        finally:
            handle.close()
        batches = context.current().batches  # open atomic_batch()es: (temp, target) pairs
        if batches:
            batches[-1].append((tmp, target))
            tmp = None  # the batch replaces it (or removes it)
        else:
            os.replace(tmp, target)
            tmp = None
    except OSError as exc:
        _reraise(exc, target, tmp)
    finally:
        if tmp is not None:
            _discard(tmp)


@contextmanager
def atomic_batch() -> Iterator[None]:
    """Every ``atomic_path`` inside is written first and replaced together at the end;
    on failure none of them is."""
    pending: list[tuple[Path, Path]] = []
    batches = context.current().batches
    batches.append(pending)
    try:
        yield
    except BaseException:
        batches.remove(pending)
        for tmp, _ in pending:
            _discard(tmp)
        raise
    batches.remove(pending)
    if batches:  # inside an outer batch: its end replaces these too
        batches[-1].extend(pending)
        return
    try:
        for _, target in pending:  # refuse before replacing any, not half-way through
            if target.is_dir() and not target.is_symlink():
                raise OutputError(target, os.strerror(errno.EISDIR), errno.EISDIR)
        for index, (tmp, target) in enumerate(pending):
            try:
                os.replace(tmp, target)
            except OSError as exc:
                _reraise(exc, target, tmp)
            pending[index] = (target, target)
    finally:
        for tmp, target in pending:
            if tmp != target:
                _discard(tmp)


@contextmanager
def atomic_dir(target: Path) -> Iterator[Path]:
    """Yield a fresh empty folder beside ``target``; on success it replaces ``target`` whole
    (the old folder is renamed aside, the new one renamed in, the old one removed). On failure
    the old folder stays and the new one is removed."""
    target = Path(target)
    tmp: Path | None = None
    try:
        make_folder(target.parent)
        tmp = Path(tempfile.mkdtemp(prefix=_temp_prefix(target), suffix=".part",
                                    dir=target.parent))
        _chmod_dir(tmp, dir_mode())  # mkdtemp's 0700 -> the umask's
        yield tmp
        _swap_in(tmp, target)
        tmp = None
    except OSError as exc:
        _reraise(exc, target, tmp)
    finally:
        if tmp is not None:
            _discard(tmp)


def _discard(tmp: Path) -> None:
    """Remove a temporary file or folder of ours; cleanup never hides the real error."""
    with contextlib.suppress(OSError):
        _remove(tmp)


def _chmod_dir(path: Path, mode: int) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0))
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def _swap_in(new: Path, target: Path) -> None:
    if not target.exists() and not target.is_symlink():
        os.rename(new, target)
        return
    # An empty folder with an unpredictable name; rename() may replace an empty folder.
    aside = Path(tempfile.mkdtemp(prefix=_temp_prefix(target), suffix=".old", dir=target.parent))
    if target.is_symlink() or not target.is_dir():
        aside.rmdir()
    try:
        os.rename(target, aside)
    except BaseException:
        with contextlib.suppress(OSError):
            aside.rmdir()
        raise
    try:
        os.rename(new, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.rename(aside, target)  # put the previous set back
        raise
    with contextlib.suppress(OSError):
        _remove(aside)


def drop_inherited_locks() -> None:
    """In a forked worker: close the locks' descriptors inherited from the parent, so a worker
    outliving a killed parent does not keep the output folder locked."""
    held = context.current().locks
    for _, fd in held.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    held.clear()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's live process
    return True


def sweep(folder: Path) -> list[Path]:
    """Remove the temporary files and folders that builds killed mid-way left in ``folder``
    (our own name pattern, from processes that are gone). A folder moved aside during a swap
    that never completed is put back. Returns what was removed or restored."""
    done: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return done
    for entry in entries:
        match = LITTER.match(entry.name)
        if not match or _alive(int(match["pid"])):
            continue
        path = Path(entry.path)
        final = path.with_name(entry.name[1:].rsplit(".", 2)[0])
        with contextlib.suppress(OSError):
            if (match["kind"] == "old" and entry.is_dir(follow_symlinks=False)
                    and not final.exists() and not final.is_symlink()):
                os.rename(path, final)
            else:
                _remove(path)
            done.append(path)
    return done


def _holder(path: Path) -> str:
    try:
        pid = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (pid {pid})" if pid.isdigit() else ""


def _open_lock(path: Path) -> int:
    flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        path.unlink()  # a planted symlink: never follow it, take the name back
        return os.open(path, flags, 0o666)


@contextmanager
def output_lock(folder: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold ``folder``'s lock while writing into it (re-entrant within a build).

    Waits for another build up to ``timeout`` seconds (default ``lock_timeout()``; 0 refuses
    at once), then raises ``OutputBusy``. The lock file is removed on release; a waiter that
    locked a file already removed notices (the inode changed) and tries again."""
    folder = Path(folder)
    path = folder / LOCK_NAME
    key = os.path.abspath(path)
    held = context.current().locks  # lock file -> [nesting depth, its descriptor]
    if key in held:
        held[key][0] += 1
        try:
            yield
        finally:
            held[key][0] -= 1
        return
    wait = lock_timeout() if timeout is None else timeout
    deadline = time.monotonic() + wait
    told = False
    try:
        if folder.exists() and not folder.is_dir():
            raise OutputError(folder, "not a folder", errno.ENOTDIR)
        make_folder(folder)
        while True:
            fd = _open_lock(path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                if time.monotonic() >= deadline:
                    raise OutputBusy(folder, f"another build is writing there{_holder(path)}; "
                                             f"gave up after {wait:g} s (see --wait)",
                                     errno.EBUSY) from None
                if not told:
                    print(f"waiting for another build writing to {folder}{_holder(path)}...",
                          file=sys.stderr, flush=True)
                    told = True
                time.sleep(0.1)
                continue
            try:
                same = os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # locked a file its holder had already removed: start again
    except OSError as exc:
        _reraise(exc, folder, path)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        held[key] = [1, fd]
        sweep(folder)
        yield
    finally:
        held.pop(key, None)
        with contextlib.suppress(OSError):
            os.unlink(path)  # still holding it: see the docstring
        os.close(fd)
