"""Which project folders the user trusts to run their own Python (a project's ``rules:`` engine).

A project's ``rules.py`` is a stranger's code until its user says otherwise, the way an
editor's workspace trust works: ``pnp trust DIR`` records the folder here, outside every
project, so nothing a project holds can trust itself. Building, verifying and previewing an
untrusted project do everything that needs no code (generator/rules/__init__.py is the gate;
the front end says once what it skipped).

The record is the user's, in their config folder: ``$PNP_CONFIG_DIR/trust.json`` when set
(tests point it at a temporary folder), else ``$XDG_CONFIG_HOME/pnp/trust.json``, else
``~/.config/pnp/trust.json``; written whole and atomically (generator/core/atomic.py). Each
entry is a folder's resolved path *and* its identity on disk (device and inode), so:

- a copy of a trusted folder elsewhere, or an archive extracted elsewhere, is another path:
  not trusted;
- a trusted folder deleted and replaced by another (an archive extracted over it) is another
  inode: not trusted;
- a folder named through a symlink (``link -> trusted``) is not trusted by inheritance: the
  folder must be named as itself (a link higher up the path, such as macOS's ``/tmp``, is
  resolved like any path).

``--trust`` trusts the folders a command names for that run alone: their resolved paths in
the ``PNP_TRUST_RUN`` environment variable of the process (so worker processes, which
inherit it, load the same engine), set and removed by the command line around one command.
"""
from __future__ import annotations

import fcntl
import json
import os
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
VERSION = 1
MAX_BYTES = 4 * 1024 * 1024  # a trust file is a list of folders; past this it is not ours


class TrustError(InputError):
    """The trust file cannot be read or written, or a folder cannot be trusted as named."""


@dataclass(frozen=True)
class Entry:
    """One trusted folder: its resolved path and its identity on disk when trusted."""

    path: str
    device: int
    inode: int

    def present(self) -> bool:
        """Whether the folder is still there, and still the folder that was trusted."""
        try:
            st = os.stat(self.path)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == (self.device, self.inode)


def config_dir() -> Path | None:
    """The user's config folder for this tool (see the module docstring), or None when no
    home is known."""
    return paths.user_folder(CONFIG_ENV, "XDG_CONFIG_HOME", ".config")


def store_file() -> Path | None:
    folder = config_dir()
    return folder / FILE_NAME if folder is not None else None


def identity(folder: Path) -> Entry | None:
    """The folder as the trust file records it, or None: not a folder, or named through a
    symlink (never trusted by inheritance)."""
    if folder.is_symlink():
        return None
    real = os.path.realpath(folder)
    try:
        st = os.stat(real)
    except OSError:
        return None
    if not os.path.isdir(real):
        return None
    return Entry(real, st.st_dev, st.st_ino)


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
        if (isinstance(raw, dict) and isinstance(raw.get("path"), str)
                and type(raw.get("device")) is int and type(raw.get("inode")) is int):
            found.append(Entry(raw["path"], raw["device"], raw["inode"]))
    return found


def _write(found: Iterable[Entry]) -> Path:
    file = store_file()
    if file is None:
        raise TrustError(f"no home folder to keep the trust file in; set {CONFIG_ENV}")
    file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    data = {"version": VERSION, "folders": [
        {"path": e.path, "device": e.device, "inode": e.inode} for e in found]}
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
    """Record ``folder`` as trusted (replacing an older entry for the same path)."""
    if folder.is_symlink():
        raise TrustError(f"{folder} is a symbolic link: trust the folder it leads to by its "
                         f"own path ({os.path.realpath(folder)})")
    entry = identity(folder)
    if entry is None:
        raise TrustError(f"{folder} is not a folder")
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


def trusted(folder: Path) -> bool:
    """Whether the project code in ``folder`` may run: trusted for this run (``--trust``),
    or recorded by ``pnp trust`` and still the same folder, named as itself."""
    real = os.path.realpath(folder)
    if real in _run_folders():
        return True
    entry = identity(folder)
    if entry is None:
        return False
    return entry in entries()


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
