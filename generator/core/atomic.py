"""Safe output: write-then-rename files and folders, a lock per output folder, litter sweeping,
and output folders that are entered, never followed.

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
  ``OutputBusy``. Once it holds the lock it sweeps the litter its killed predecessors left.

Folders are entered, never followed. A project comes from a stranger, and a folder of its
``output/`` may be a symbolic link to anywhere (``output/<id> -> ~/Documents``): followed, a
build would replace files there, a PNG export would swap (and delete) a folder there, a sweep
would remove files there. So every operation here (making a temporary file or folder,
renaming it over its target, swapping a set, sweeping, removing) is done through a descriptor
of the folder it happens in (``dir_fd``), and that descriptor is reached from a *root* one
folder at a time with ``O_NOFOLLOW``: a link met on the way is refused (``UnsafeOutput``, one
line naming it, exit 2), and a file name is only ever created, replaced or removed, never
followed. The root is what the caller chose and is followed: for a kit, the parent of the
folder locked (``output_lock(<out>/<id>)``: the user's ``--out``, the built-in output folder,
or a project's ``output/``, which generator/data/files/project.py refuses when it is a link or leads
outside the project); everything below it, the locked folder included, is entered. Outside any
lock (a reference file the user named) a file's own folder is the root, unless the caller
names one (``output_root``: the folder ``pnp schema`` writes ``schemas/`` into). A temporary
file is made by name (``mkstemp``) and then found again through the folder's descriptor, so a
folder swapped for a link meanwhile is noticed, not written through.

Every temporary name is ``.<final name>.pnp-<pid>-<random>.part`` (``.old`` for a folder moved
aside during a swap). The lock file lists the builds that held it and never released it (killed):
the sweep removes only names of that shape made by those processes, once they are gone, so a
user's own ``.notes.part`` (or one a project ships) is never taken for litter.

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
import stat
import sys
import tempfile
import time
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, NoReturn

from generator.core import context

LOCK_NAME = ".lock"
DEFAULT_LOCK_TIMEOUT = 600.0  # seconds a build waits for another build of the same folder
MARKER = "pnp"  # in every temporary name: the sweep never touches a name without it
LITTER = re.compile(rf"^\.(?P<name>.+)\.{MARKER}-(?P<pid>\d+)-[A-Za-z0-9_]+\.(?P<kind>part|old)$")
NAME_MAX = 255  # bytes in one file name: the limit of ext4, XFS, Btrfs, APFS and NTFS
TEMP_NAME_ROOM = 120  # bytes of the final name kept in a temporary name (it adds ~30)
MAX_HOLDERS = 64  # killed holders a lock file remembers (their litter not yet swept)
LINKED = ("is a symbolic link: output folders are never followed (give --out to write "
          "somewhere else)")

_timeout = DEFAULT_LOCK_TIMEOUT  # a setting of the command line (--wait), not build state
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


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


class UnsafeOutput(OutputError):
    """An output folder below its root is a symbolic link (or was swapped for one while a file
    was being made in it): refused, never followed. The input is at fault, not the disk, so
    the command line exits 2 (generator/core/errors.py)."""

    def __init__(self, path: Path | str, reason: str = LINKED,
                 code: int | None = errno.ELOOP) -> None:
        super().__init__(path, reason, code)

    def __str__(self) -> str:
        return f"{self.path} {self.reason}"


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


def fit_name(stem: str, reserve: int = 0, limit: int = NAME_MAX) -> str:
    """``stem`` cut at its end (whole characters, trailing ``-`` dropped) so that it and
    ``reserve`` more bytes fit in one file name of ``limit`` bytes of UTF-8: a label longer
    than a file system allows is shortened, never refused by the system half-way through an
    export. Unchanged when it fits."""
    room = limit - reserve
    data = stem.encode("utf-8")
    if len(data) <= room:
        return stem
    return data[:max(room, 1)].decode("utf-8", "ignore").rstrip("-") or stem[:1]


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
    if isinstance(exc, UnsafeOutput):  # names the link itself, not the file being written
        return exc
    reason = exc.reason if isinstance(exc, OutputError) else _reason(exc)
    return OutputError(target, reason, exc.errno)


def _reraise(exc: OSError, target: Path, *temps: Path | None) -> NoReturn:
    error = as_output_error(exc, target, *(t for t in temps if t is not None))
    if error is exc:
        raise exc
    raise error from exc


# -- folders, entered without following links -----------------------------------------------

def _anchors() -> Iterator[tuple[str, int]]:
    """The folders this build holds a lock on, with their descriptors."""
    for key, held in context.current().locks.items():
        if len(held) > 2:
            yield os.path.dirname(key), held[2]


def _anchor(path: str) -> tuple[str, int] | None:
    """The deepest locked folder that is ``path`` or holds it: where entering starts."""
    best: tuple[str, int] | None = None
    for folder, fd in _anchors():
        if (path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)) and (
                best is None or len(folder) > len(best[0])):
            best = (folder, fd)
    return best


def _mode_at(folder: int, name: str) -> int | None:
    """The mode of ``name`` in the folder open as ``folder``, its link not followed (None:
    nothing there)."""
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return None


def _open_at(folder: int, name: str, path: str) -> int:
    """Open the folder ``name`` inside ``folder`` without following a link there."""
    try:
        return os.open(name, _DIR | _NOFOLLOW, dir_fd=folder)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise OutputError(path, _reason(exc), exc.errno) from exc
        mode = _mode_at(folder, name)
        if mode is not None and stat.S_ISLNK(mode):
            raise UnsafeOutput(path) from None
        raise OutputError(path, "not a folder", errno.ENOTDIR) from None


def _enter(folder: int, name: str, path: str, create: bool) -> int:
    """A descriptor of the folder ``name`` inside ``folder`` (made first when missing and
    ``create``), never following a link: a link there is refused (UnsafeOutput)."""
    try:
        return _open_at(folder, name, path)
    except FileNotFoundError as exc:
        if not create:
            raise OutputError(path, _reason(exc), exc.errno) from exc
    try:
        os.mkdir(name, 0o777, dir_fd=folder)  # the umask applies
    except FileExistsError:
        pass  # made meanwhile (another build), or a link planted meanwhile: opened next
    except OSError as exc:
        raise OutputError(path, _reason(exc), exc.errno) from exc
    try:
        return _open_at(folder, name, path)
    except FileNotFoundError as exc:
        raise OutputError(path, _reason(exc), exc.errno) from exc


def _open_folder(folder: Path | str, create: bool = True) -> int:
    """A descriptor of ``folder`` (the caller closes it). Below a locked folder every
    component is entered (``_enter``); elsewhere the folder is the caller's choice and is
    followed (made, ``mkdir -p``, when missing)."""
    path = os.path.abspath(folder)
    found = _anchor(path)
    if found is None:
        if create:
            make_root(Path(path))
        try:
            return os.open(path, _DIR)
        except NotADirectoryError:
            raise OutputError(path, "not a folder", errno.ENOTDIR) from None
        except OSError as exc:
            raise OutputError(path, _reason(exc), exc.errno) from exc
    base, fd = found
    current = os.dup(fd)
    where = base
    try:
        for part in path[len(base):].split(os.sep):
            if part:
                where = os.path.join(where, part)
                entered = _enter(current, part, where, create)
                os.close(current)
                current = entered
    except BaseException:
        os.close(current)
        raise
    return current


@contextmanager
def _opened(folder: Path | str, create: bool = True) -> Iterator[int]:
    fd = _open_folder(folder, create)
    try:
        yield fd
    finally:
        os.close(fd)


def make_root(folder: Path) -> None:
    """``mkdir -p`` of a folder the caller chose (followed); a failure is an OutputError
    naming the folder that could not be made."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(exc.filename or folder, _reason(exc), exc.errno) from exc


def make_folder(folder: Path) -> None:
    """Make ``folder`` and the folders above it that are missing: below a locked folder each
    is entered without following a link (UnsafeOutput), elsewhere ``mkdir -p``."""
    with _opened(folder):
        pass


def _temp_prefix(target: Path) -> str:
    """``.<name>.pnp-<pid>-`` (the name shortened so the temporary name stays within limits)."""
    return f".{fit_name(target.name, limit=TEMP_NAME_ROOM)}.{MARKER}-{os.getpid()}-"


def _make_temp(folder: int, target: Path, suffix: str, directory: bool) -> tuple[int, Path]:
    """A fresh temporary file (open, its descriptor) or folder (-1) beside ``target``, made by
    name and then found again through ``folder``'s descriptor: had the folder been swapped for
    a link meanwhile, it would be elsewhere, and is removed and refused."""
    fd = -1
    if directory:
        name = tempfile.mkdtemp(prefix=_temp_prefix(target), suffix=suffix, dir=target.parent)
    else:
        fd, name = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=suffix,
                                    dir=target.parent)
    made = Path(name)
    try:
        seen = os.stat(made.name, dir_fd=folder, follow_symlinks=False)
        here = os.fstat(fd) if fd >= 0 else os.stat(made, follow_symlinks=False)
        same = (seen.st_dev, seen.st_ino) == (here.st_dev, here.st_ino)
    except OSError:
        same = False
    if not same:
        with contextlib.suppress(OSError):
            if fd >= 0:
                os.close(fd)
                os.unlink(made)
            else:
                os.rmdir(made)
        raise UnsafeOutput(target.parent, "changed while a file was made in it (a link swapped "
                                          "in?): output folders are never followed")
    return fd, made


def _remove_at(folder: int, name: str) -> None:
    """Remove a file, link or folder tree inside ``folder`` without following links."""
    mode = _mode_at(folder, name)
    if mode is None:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(name, dir_fd=folder)
    else:
        os.unlink(name, dir_fd=folder)


def _discard(tmp: Path) -> None:
    """Remove a temporary file or folder of ours; cleanup never hides the real error."""
    with contextlib.suppress(OSError), _opened(tmp.parent, create=False) as folder:
        _remove_at(folder, tmp.name)


def _replace_at(folder: int, tmp: Path, target: Path) -> None:
    try:
        os.replace(tmp.name, target.name, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError as exc:
        raise OutputError(target, _reason(exc), exc.errno) from exc


def _rename_at(folder: int, source: str, dest: str, target: Path) -> None:
    try:
        os.rename(source, dest, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError as exc:
        raise OutputError(target, _reason(exc), exc.errno) from exc


# -- files and folders written whole ----------------------------------------------------------

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
        with _opened(target.parent) as folder:
            fd, tmp = _make_temp(folder, target, ".part", directory=False)
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
                _replace_at(folder, tmp, target)
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
            with _opened(target.parent, create=False) as folder:
                mode = _mode_at(folder, target.name)
            if mode is not None and stat.S_ISDIR(mode):
                raise OutputError(target, os.strerror(errno.EISDIR), errno.EISDIR)
        for index, (tmp, target) in enumerate(pending):
            with _opened(target.parent, create=False) as folder:
                _replace_at(folder, tmp, target)
            pending[index] = (target, target)
    finally:
        for tmp, target in pending:
            if tmp != target:
                _discard(tmp)


@contextmanager
def atomic_dir(target: Path) -> Iterator[Path]:
    """Yield a fresh empty folder beside ``target``; on success it replaces ``target`` whole
    (the old folder is renamed aside, the new one renamed in, the old one removed). On failure
    the old folder stays and the new one is removed. In a locked folder (a kit's), a link
    where the set goes is refused (UnsafeOutput); elsewhere it is replaced, never followed."""
    target = Path(target)
    tmp: Path | None = None
    try:
        with _opened(target.parent) as folder:
            mode = _mode_at(folder, target.name)
            if (mode is not None and stat.S_ISLNK(mode)
                    and _anchor(os.path.abspath(target.parent)) is not None):
                raise UnsafeOutput(target)
            _, tmp = _make_temp(folder, target, ".part", directory=True)
            _chmod_dir_at(folder, tmp.name, dir_mode())  # mkdtemp's 0700 -> the umask's
            yield tmp
            _swap_in(folder, tmp, target)
            tmp = None
    except OSError as exc:
        _reraise(exc, target, tmp)
    finally:
        if tmp is not None:
            _discard(tmp)


def _chmod_dir_at(folder: int, name: str, mode: int) -> None:
    fd = os.open(name, _DIR | _NOFOLLOW, dir_fd=folder)
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def _swap_in(folder: int, new: Path, target: Path) -> None:
    mode = _mode_at(folder, target.name)
    if mode is None:
        _rename_at(folder, new.name, target.name, target)
        return
    # An empty folder with an unpredictable name; rename() may replace an empty folder.
    _, aside = _make_temp(folder, target, ".old", directory=True)
    if not stat.S_ISDIR(mode):  # a file or a link: renamed aside as it is, never followed
        os.rmdir(aside.name, dir_fd=folder)
    try:
        _rename_at(folder, target.name, aside.name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.rmdir(aside.name, dir_fd=folder)
        raise
    try:
        _rename_at(folder, new.name, target.name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.rename(aside.name, target.name, src_dir_fd=folder, dst_dir_fd=folder)
        raise
    with contextlib.suppress(OSError):
        _remove_at(folder, aside.name)


# -- a root without a lock --------------------------------------------------------------------

@contextmanager
def output_root(root: Path) -> Iterator[None]:
    """Within the block, every output below ``root`` (the folder the user chose, followed)
    is entered from it without following links, as below a locked folder: for files a
    command writes into a project or a folder it names but no build locks (``pnp schema``'s
    ``schemas/``, ``pnp init``'s ``.vscode/``), so a ``schemas -> elsewhere`` link a project
    ships is refused (UnsafeOutput), never written through. ``root`` is made when missing."""
    path = os.path.abspath(root)
    fd = _open_folder(path)
    held = context.current().locks
    key = path.rstrip(os.sep) + os.sep  # _anchors() reads the folder as the key's dirname
    if key in held:  # re-entered: the outer block's descriptor serves
        os.close(fd)
        yield
        return
    held[key] = [1, -1, fd]  # no lock file (-1): nothing for a worker to drop
    try:
        yield
    finally:
        held.pop(key, None)
        os.close(fd)


# -- the lock and the sweep -------------------------------------------------------------------

def drop_inherited_locks() -> None:
    """In a forked worker: close the locks' descriptors inherited from the parent, so a worker
    outliving a killed parent does not keep the output folder locked. The locked folders'
    own descriptors stay: the worker still enters them without following links."""
    for held in context.current().locks.values():
        if held[1] >= 0:
            with contextlib.suppress(OSError):
                os.close(held[1])
            held[1] = -1


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


def sweep(folder: Path, holders: Collection[int]) -> list[Path]:
    """Remove the temporary files and folders that builds killed mid-way left in ``folder``:
    names of our own shape (``LITTER``) made by one of ``holders`` (the processes a lock file
    says held the folder and never released it), once that process is gone. A folder moved
    aside during a swap that never completed is put back. Returns what was removed or
    restored."""
    try:
        with _opened(folder, create=False) as fd:
            return _sweep_at(fd, Path(folder), holders)
    except OSError:
        return []


def _sweep_at(fd: int, folder: Path, holders: Collection[int]) -> list[Path]:
    done: list[Path] = []
    try:
        names = os.listdir(fd)
    except OSError:
        return done
    for name in names:
        match = LITTER.match(name)
        if not match or int(match["pid"]) not in holders or _alive(int(match["pid"])):
            continue
        final = match["name"]
        with contextlib.suppress(OSError):
            mode = _mode_at(fd, name)
            if (match["kind"] == "old" and mode is not None and stat.S_ISDIR(mode)
                    and _mode_at(fd, final) is None):
                os.rename(name, final, src_dir_fd=fd, dst_dir_fd=fd)
            else:
                _remove_at(fd, name)
            done.append(folder / name)
    return done


def _read_holders(fd: int) -> list[int]:
    """The pids a lock file lists (its holder first), at most MAX_HOLDERS."""
    try:
        text = os.pread(fd, 16 * MAX_HOLDERS, 0).decode("ascii", "replace")
    except OSError:
        return []
    return [int(word) for word in text.split() if word.isdigit()][:MAX_HOLDERS]


def _write_holders(fd: int, pids: list[int]) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, "".join(f"{pid}\n" for pid in pids).encode("ascii"), 0)


def _holder(folder: int) -> str:
    try:
        fd = os.open(LOCK_NAME, os.O_RDONLY | os.O_CLOEXEC | _NOFOLLOW, dir_fd=folder)
    except OSError:
        return ""
    try:
        pids = _read_holders(fd)
    finally:
        os.close(fd)
    return f" (pid {pids[0]})" if pids else ""


def _what(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _planted(path: Path, mode: int) -> UnsafeOutput:
    """A lock file's name taken by a folder, pipe, socket or device (a project can ship one
    in its ``output/<id>/``): never opened (a pipe would block or break the lock), never
    removed (it is not ours), named, and the command exits 2."""
    return UnsafeOutput(path, f"is {_what(mode)}, not a lock file: remove it (pnp never opens "
                              "or replaces it)", errno.EEXIST)


def _open_lock(folder: int, path: Path) -> int:
    """The lock file of the folder open as ``folder``, made when missing. A planted link
    there is taken back (unlinked, never followed); anything else that is not a regular file
    is refused (``_planted``), before and after opening it (``O_NONBLOCK``: a pipe swapped in
    meanwhile cannot hold the build)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK | _NOFOLLOW
    mode = _mode_at(folder, LOCK_NAME)
    if mode is not None and stat.S_ISLNK(mode):
        os.unlink(LOCK_NAME, dir_fd=folder)  # a planted symlink: never follow it, take it back
    elif mode is not None and not stat.S_ISREG(mode):
        raise _planted(path, mode)
    try:
        fd = os.open(LOCK_NAME, flags, 0o666, dir_fd=folder)
    except OSError:
        mode = _mode_at(folder, LOCK_NAME)
        if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISLNK(mode):
            raise _planted(path, mode) from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _planted(path, mode)
    return fd


def _enter_locked(folder: Path) -> int:
    """A descriptor of the folder to lock, entered from its parent (the root, followed)
    without following a link: ``<out>/<id>`` a link is refused."""
    path = os.path.abspath(folder)
    parent, name = os.path.split(path)
    with _opened(parent) as above:
        return _enter(above, name, path, create=True)


@contextmanager
def output_lock(folder: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold ``folder``'s lock while writing into it (re-entrant within a build).

    Waits for another build up to ``timeout`` seconds (default ``lock_timeout()``; 0 refuses
    at once), then raises ``OutputBusy``. The lock file is removed on release; a waiter that
    locked a file already removed notices (the inode changed) and tries again. While held,
    every output below ``folder`` is entered from it without following links (see the module
    docstring), and the litter of the killed builds the lock file lists is swept."""
    folder = Path(folder)
    path = folder / LOCK_NAME
    key = os.path.abspath(path)
    held = context.current().locks  # lock file -> [nesting depth, its descriptor, folder's]
    if key in held and held[key][1] >= 0:  # (-1: a forked worker's, dropped: taken anew)
        held[key][0] += 1
        try:
            yield
        finally:
            held[key][0] -= 1
        return
    wait = lock_timeout() if timeout is None else timeout
    deadline = time.monotonic() + wait
    told = False
    where = -1
    try:
        where = _enter_locked(folder)
        while True:
            fd = _open_lock(where, path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                if time.monotonic() >= deadline:
                    raise OutputBusy(folder, f"another build is writing there{_holder(where)}; "
                                             f"gave up after {wait:g} s (see --wait)",
                                     errno.EBUSY) from None
                if not told:
                    print(f"waiting for another build writing to {folder}{_holder(where)}...",
                          file=sys.stderr, flush=True)
                    told = True
                time.sleep(0.1)
                continue
            try:
                same = (os.stat(LOCK_NAME, dir_fd=where, follow_symlinks=False).st_ino
                        == os.fstat(fd).st_ino)
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # locked a file its holder had already removed: start again
    except BaseException as exc:
        if where >= 0:
            os.close(where)
        if isinstance(exc, OSError):
            _reraise(exc, folder, path)
        raise
    try:
        # The holders before us were killed (a release removes the file): we list them after
        # ourselves until their litter is gone, so a build killed while sweeping loses none.
        before = [pid for pid in _read_holders(fd) if pid != os.getpid()]
        _write_holders(fd, [os.getpid(), *before])
        held[key] = [1, fd, where]
        if before:
            _sweep_at(where, folder, before)
            _write_holders(fd, [os.getpid(), *(pid for pid in before if _alive(pid))])
        yield
    finally:
        held.pop(key, None)
        with contextlib.suppress(OSError):
            os.unlink(LOCK_NAME, dir_fd=where)  # still holding it: see the docstring
        os.close(fd)
        os.close(where)
