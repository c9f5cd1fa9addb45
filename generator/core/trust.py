"""Which project folders the user trusts to run their own Python (a project's ``rules:`` engine).

A project's ``rules.py`` is a stranger's code until its user says otherwise, the way an
editor's workspace trust works: ``pnp trust DIR`` records the folder here, outside every
project, so nothing a project holds can trust itself. Building, verifying and previewing an
untrusted project do everything that needs no code (generator/rules/__init__.py is the gate;
the front end says once what it skipped).

The record is the user's, in their config folder: ``$PNP_CONFIG_DIR/trust.json`` when set
(tests point it at a temporary folder), else ``$XDG_CONFIG_HOME/pnp/trust.json``, else
``~/.config/pnp/trust.json``; written whole and atomically (generator/core/atomic.py). Each
entry is a folder's resolved path *and* the sha256 of every Python file in it (``*.py``
anywhere under it, outside hidden folders and ``__pycache__``), as direnv's ``allow`` keeps
the digest of what it allowed. What is trusted is the code the user vouched for, not a place
on disk, so:

- a copy of a trusted folder elsewhere, or an archive extracted elsewhere, is another path:
  not trusted;
- a trusted folder deleted and replaced by another (an archive extracted over it, even where
  the file system hands the new folder the old one's inode), or a Python file of it added,
  removed or edited since, is "changed since trusted": not run until ``pnp trust`` again;
- a folder named through a symlink (``link -> trusted``) is not trusted by inheritance: the
  folder must be named as itself (a link higher up the path, such as macOS's ``/tmp``, is
  resolved like any path);
- the engine is loaded from these very bytes (``vouched``: generator/rules/__init__.py
  compiles each file it loads from its source, after checking its digest here; a shipped
  ``__pycache__`` is never read).

Vouching is bounded: past ``MAX_FILES`` Python files, ``MAX_CODE_BYTES`` of them or
``MAX_ENTRIES`` names walked, a folder is refused (``pnp trust`` says so) rather than read
for minutes. Entries of the first trust file (version 1: path and inode, no digests) count as
changed.

``--trust`` trusts the folders a command names for that run alone, as they are: their
resolved paths in the ``PNP_TRUST_RUN`` environment variable of the process (so worker
processes, which inherit it, load the same engine), set and removed by the command line
around one command.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from generator.core import paths
from generator.core.atomic import atomic_file
from generator.core.errors import InputError

CONFIG_ENV = "PNP_CONFIG_DIR"
RUN_ENV = "PNP_TRUST_RUN"
FILE_NAME = "trust.json"
VERSION = 2
MAX_BYTES = 64 * 1024 * 1024  # a trust file lists folders and their files' digests
MAX_FILES = 2_000  # Python files in one trusted folder
MAX_CODE_BYTES = 16 * 1024 * 1024  # their bytes, all read and digested
MAX_ENTRIES = 100_000  # names walked in the folder to find them

TRUSTED = "trusted"
CHANGED = "changed since trusted"
UNTRUSTED = "not trusted"
GONE = "gone"


class TrustError(InputError):
    """The trust file cannot be read or written, or a folder cannot be trusted as named."""


@dataclass(frozen=True)
class Entry:
    """One trusted folder: its resolved path and, for each Python file in it when trusted,
    its path inside the folder and its sha256 (None: an entry of the first trust file, which
    recorded no digests)."""

    path: str
    files: tuple[tuple[str, str], ...] | None

    def state(self) -> str:
        """``TRUSTED``, ``CHANGED`` or ``GONE``: what the folder is now, against the record."""
        if not os.path.isdir(self.path):
            return GONE
        if self.files is None:
            return CHANGED
        try:
            now = code_files(self.path)
        except TrustError:
            return CHANGED
        return TRUSTED if now == dict(self.files) else CHANGED


def config_dir() -> Path | None:
    """The user's config folder for this tool (see the module docstring), or None when no
    home is known."""
    return paths.user_folder(CONFIG_ENV, "XDG_CONFIG_HOME", ".config")


def store_file() -> Path | None:
    folder = config_dir()
    return folder / FILE_NAME if folder is not None else None


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def code_files(real: str) -> dict[str, str]:
    """Every Python file under the folder ``real`` (resolved): its path inside it (``/``
    separated) and the sha256 of its bytes. Hidden folders and ``__pycache__`` are not
    entered (no engine imports from them), folder links are not followed; a TrustError past
    the bounds."""
    found: dict[str, str] = {}
    walked = total = 0
    for top, folders, names in os.walk(real):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f != "__pycache__")
        walked += len(folders) + len(names)
        if walked > MAX_ENTRIES:
            raise TrustError(f"{real}: more than {MAX_ENTRIES} files and folders to look "
                             "through for Python code; too many to vouch for")
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            file = os.path.join(top, name)
            try:
                st = os.stat(file)
                if not stat.S_ISREG(st.st_mode):
                    continue  # a link to nothing, a pipe: nothing Python can import
                with open(file, "rb") as handle:
                    data = handle.read(MAX_CODE_BYTES - total + 1)
            except OSError:
                continue
            total += len(data)
            if len(found) >= MAX_FILES or total > MAX_CODE_BYTES:
                raise TrustError(f"{real}: more than {MAX_FILES} Python files or "
                                 f"{MAX_CODE_BYTES // (1024 * 1024)} MB of them; too many "
                                 "to vouch for")
            found[os.path.relpath(file, real).replace(os.sep, "/")] = _digest(data)
    return found


def _resolved(folder: Path) -> str | None:
    """The folder's resolved path, or None: not a folder, or named through a symlink (never
    trusted by inheritance)."""
    if folder.is_symlink():
        return None
    real = os.path.realpath(folder)
    return real if os.path.isdir(real) else None


def entries() -> list[Entry]:
    """Every folder the trust file lists (none when there is no file yet)."""
    file = store_file()
    if file is None or not file.exists():
        return []
    try:
        if file.stat().st_size > MAX_BYTES:
            raise TrustError(f"{file}: larger than {MAX_BYTES} bytes; not a trust file")
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TrustError(f"{file}: cannot read the trust file ({exc}); delete it to start "
                         "again (every folder then needs 'pnp trust' again)") from None
    folders = data.get("folders") if isinstance(data, dict) else None
    if not isinstance(folders, list):
        raise TrustError(f"{file}: expected {{\"folders\": [...]}}; delete it to start again")
    found = []
    for raw in folders:
        if not (isinstance(raw, dict) and isinstance(raw.get("path"), str)):
            continue
        files = raw.get("files")
        if isinstance(files, dict) and all(isinstance(k, str) and isinstance(v, str)
                                           for k, v in files.items()):
            found.append(Entry(raw["path"], tuple(sorted(files.items()))))
        else:  # the first trust file's entry (an inode, no digests): changed since
            found.append(Entry(raw["path"], None))
    return found


def _write(found: Iterable[Entry]) -> Path:
    file = store_file()
    if file is None:
        raise TrustError(f"no home folder to keep the trust file in; set {CONFIG_ENV}")
    file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    data = {"version": VERSION, "folders": [
        {"path": e.path, **({} if e.files is None else {"files": dict(e.files)})}
        for e in found]}
    with atomic_file(file) as out:
        out.write((json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    return file


@contextmanager
def _changing() -> Iterator[None]:
    """One ``pnp trust`` or ``--revoke`` at a time reads, changes and writes the file (two at
    once would each write what it read, losing the other's folder): an exclusive lock on a
    file beside it, released when the process ends whatever happens."""
    file = store_file()
    if file is None:
        raise TrustError(f"no home folder to keep the trust file in; set {CONFIG_ENV}")
    file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(file.parent / f"{FILE_NAME}.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def trust(folder: Path) -> Entry:
    """Record ``folder`` as trusted with the digests of its Python files as they are now
    (replacing an older entry for the same path)."""
    if folder.is_symlink():
        raise TrustError(f"{folder} is a symbolic link: trust the folder it leads to by its "
                         f"own path ({os.path.realpath(folder)})")
    real = _resolved(folder)
    if real is None:
        raise TrustError(f"{folder} is not a folder")
    entry = Entry(real, tuple(sorted(code_files(real).items())))
    with _changing():
        _write([*(e for e in entries() if e.path != entry.path), entry])
    return entry


def revoke(folder: Path) -> bool:
    """Forget ``folder`` (named as trusted, or by its resolved path); whether it was there."""
    wanted = {os.path.abspath(folder), os.path.realpath(folder)}
    with _changing():
        before = entries()
        kept = [e for e in before if e.path not in wanted]
        if len(kept) == len(before):
            return False
        _write(kept)
    return True


def _entry(real: str) -> Entry | None:
    return next((e for e in entries() if e.path == real), None)


def state(folder: Path) -> str:
    """Whether the project code in ``folder`` may run: ``TRUSTED`` (for this run, with
    ``--trust``, or recorded by ``pnp trust``, named as itself, every Python file as it was),
    ``CHANGED`` (recorded, but its Python files are not those trusted) or ``UNTRUSTED``."""
    if os.path.realpath(folder) in _run_folders():
        return TRUSTED
    real = _resolved(folder)
    entry = None if real is None else _entry(real)
    if entry is None:
        return UNTRUSTED
    found = entry.state()
    return UNTRUSTED if found == GONE else found


def trusted(folder: Path) -> bool:
    """Whether the project code in ``folder`` may run now (``state`` is ``TRUSTED``)."""
    return state(folder) == TRUSTED


def vouched(folder: Path, file: Path, data: bytes) -> bool:
    """Whether ``data``, read from ``file`` to be run, is what the user trusted: the folder
    trusted for this run (as it is), or the file's digest the one recorded for it."""
    real = os.path.realpath(folder)
    if real in _run_folders():
        return True
    entry = _entry(real) if _resolved(folder) is not None else None
    if entry is None or entry.files is None:
        return False
    inside = os.path.relpath(os.path.abspath(file), real).replace(os.sep, "/")
    return dict(entry.files).get(inside) == _digest(data)
def for_this_run(folder: Path) -> bool:
    """Whether ``folder`` is trusted for this run only (``--trust``): a command repeated
    later, a replay hint, needs ``--trust`` again."""
    return os.path.realpath(folder) in _run_folders()


def _run_folders() -> set[str]:
    raw = os.environ.get(RUN_ENV, "")
    return {part for part in raw.split(os.pathsep) if part}


@contextmanager
def for_run(folders: Iterable[Path]) -> Iterator[None]:
    """Trust ``folders`` until the block ends (``--trust``): the environment of this process
    and of the workers it starts meanwhile."""
    before = os.environ.get(RUN_ENV)
    run = _run_folders() | {os.path.realpath(f) for f in folders}
    os.environ[RUN_ENV] = os.pathsep.join(sorted(run))
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(RUN_ENV, None)
        else:
            os.environ[RUN_ENV] = before
