"""Watch mode: ``python -m generator watch PATH...`` rebuilds a game's kit when you save.

PATH is a game id (``moving-target``), a data file (``mygame/game.yaml``) or a project folder
(a folder holding one game ``*.yaml``). Each game is built once at the start, then again
whenever a file it depends on changes: its data file and the files that file names (included
tables, spreadsheets, images, a theme file), its project's ``faces/``, ``themes/``, ``icons/``,
``art/`` and ``fonts/`` (the whole folder for a project folder), and the built-in templates,
themes and icons. The walk of named files reads each file once and stops at a total cap
(``walk_named``), saying so in a ``note:`` line. A failed build prints ``error: ...`` lines (no
traceback) and the watcher keeps going; each build reports its time
(``rebuilt mt in 0.84 s (24 pages)``). A set that fails its checks (halfway through adding a
suit) is built all the same, with NOT VERIFIED on every page, and the failing checks are
printed under the build's line: the PDF shows the work in progress, never a stale kit
(``pnp build`` still refuses such a set). Ctrl-C stops it (exit 130).

Why ``watchfiles``: it wraps the Rust ``notify`` crate (inotify, FSEvents, ReadDirectoryChanges
and a polling fallback), is maintained by the pydantic team, ships wheels for every platform
we support, and does the debouncing itself: the changes of one save (an editor writes a temp
file and renames it over the original) arrive as one batch, so a save builds once. Its
``stop_event`` lets a test (or a GUI) stop the loop from another thread. Folders are watched
rather than single files because an editor's rename-over-save replaces the watched inode.

Our own writes never retrigger a build: the output folder of each game (learnt from each
build's result, plus any ``output/`` folder of a project) and temporary files (atomic writes'
``.<name>.pnp-<pid>-<random>.part`` files, the lock file, editor swap and backup files) are
ignored, by one predicate (``ignored``): besides ours, the lock and temporary files of editors
and office suites (LibreOffice's ``.~lock.NAME#``, Excel's ``~$NAME.xlsx``, vim's ``.NAME.swp``,
``NAME~`` and ``4913``, emacs's ``#NAME#`` and ``.#NAME``). The loop is
``watch(targets, rebuild, stop_event)`` so tests drive it with their own ``rebuild`` and stop
it with an event.
"""
from __future__ import annotations

import contextlib
import re
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from generator.core import memo, paths
from generator.core.atomic import LITTER, LOCK_NAME
from generator.core.errors import DataError
from generator.frontends import app

# Folders of a project (or beside a data file) a game's build reads, besides named files.
PROJECT_FOLDERS = ("faces", "themes", "icons", "art", "fonts")
BUILTIN_FOLDERS = ("FACES", "THEMES", "ICONS", "ART")  # names in generator/core/paths.py
# Files a data file may name (included tables, spreadsheets, images, a theme file).
NAMED_SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx", ".png", ".jpg", ".jpeg", ".webp", ".gif",
                  ".tif", ".tiff", ".svg")
# The walk of the files a data file names has a total cap (a stranger's files may name
# thousands, or each other): past one, the files found so far are watched.
MAX_NAMED = 500  # files kept
MAX_DEPTH = 3  # a data file names an include, which names a spreadsheet...
MAX_WALK_FILES = 100  # YAML files read, each once
MAX_WALK_BYTES = 8 * 2**20  # their bytes in all (each is at most yamlfile.MAX_FILE_BYTES)
MAX_WALK_NAMES = 20_000  # texts looked at as possible file names
# Temporary files: our atomic writes (generator/core/atomic.py) and editors' swap files.
IGNORED_NAMES = (LITTER, re.compile(rf"^{re.escape(LOCK_NAME)}$"),
                 re.compile(r"\.sw.$"), re.compile(r"~$"), re.compile(r"^\.#"),
                 re.compile(r"^#.*#$"), re.compile(r"\.tmp$"), re.compile(r"^\.DS_Store$"),
                 re.compile(r"\.py[cod]$"), re.compile(r"\.___jb_...___$"),
                 re.compile(r"^\.~lock\..*#$"),  # LibreOffice's lock of an open file
                 re.compile(r"^~\$"),  # Excel's (and Word's) owner file of an open file
                 re.compile(r"^4913$"))  # vim's test of whether it may write the folder
IGNORED_DIRS = ("__pycache__", ".git", ".hg", ".svn", ".venv", "node_modules")
# A batch is yielded once no change has arrived for this long (an editor's save, temp file
# and rename, takes a few ms; 50 ms keeps a one-line edit's rebuild under 0.3 s)...
STEP_MS = 50
DEBOUNCE_MS = 1600  # ...or after this long, whichever comes first


class StopEvent(Protocol):
    """What ``watch`` needs of a stop signal (``threading.Event`` has it)."""

    def is_set(self) -> bool: ...


@dataclass
class Target:
    """One game being watched: where its data is and which changed files concern it."""

    given: str  # as named on the command line
    data_file: Path
    project: Path | None = None  # a project folder: watched whole
    outputs: set[Path] = field(default_factory=set)  # output folders: never a trigger
    named: set[Path] = field(default_factory=set)  # files the data file names
    capped: str | None = None  # why the walk of named files stopped early (said once)

    def __post_init__(self) -> None:
        self.data_file = self.data_file.resolve()
        if self.project is not None:
            self.project = self.project.resolve()
            self.outputs.add(self.project / "output")
        self.refresh()

    @property
    def folder(self) -> Path:
        return self.data_file.parent

    def folders(self) -> list[Path]:
        """Folders whose every file concerns this game."""
        found = [self.project] if self.project else [self.folder / n for n in PROJECT_FOLDERS]
        for name in BUILTIN_FOLDERS:
            builtin = getattr(paths, name, None)
            if isinstance(builtin, Path):
                found.append(builtin.resolve())
        return found

    def roots(self) -> set[Path]:
        """Folders to hand the file watcher (existing ones; watched recursively)."""
        wanted = {self.folder, *self.folders(), *(f.parent for f in self.named)}
        return {folder for folder in wanted if folder.is_dir()}

    def refresh(self) -> None:
        """Re-read which files the data file names (an edit may add an include); a file that
        does not parse keeps the previous set (its error is the build's to report)."""
        with contextlib.suppress(DataError, OSError):
            walk = walk_named(self.data_file)
            self.named, self.capped = walk.found, walk.capped

    def concerns(self, path: Path) -> bool:
        """Does a change of ``path`` call for a rebuild of this game?"""
        path = path.resolve()
        if ignored(path) or any(_under(path, out) for out in self.outputs):
            return False
        if path == self.data_file or path in self.named:
            return True
        return any(_under(path, folder) for folder in self.folders())


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def ignored(path: Path) -> bool:
    """A temporary, hidden-tool or editor file: never a reason to rebuild."""
    if any(part in IGNORED_DIRS for part in path.parts):
        return True
    return any(pattern.search(path.name) for pattern in IGNORED_NAMES)


@dataclass
class Walk:
    """The files a data file names, and why the walk stopped early if it did."""

    found: set[Path] = field(default_factory=set)
    capped: str | None = None  # a note for the user: past a cap, the files found so far


def named_files(data_file: Path) -> set[Path]:
    """The existing files a data file names by a relative path (see ``walk_named``)."""
    return walk_named(data_file).found


def walk_named(data_file: Path) -> Walk:
    """The existing files a data file names by a relative path (includes, spreadsheets,
    images, a theme file), followed into included YAML files; confined to each naming file's
    folder, as the loader confines them (generator/data/files/resolve.py).

    A stranger's files may name each other in a ring or a mesh, so the walk is breadth-first,
    reads every YAML file once, and stops at a total cap (``MAX_WALK_FILES`` files read,
    ``MAX_WALK_BYTES`` of them, ``MAX_WALK_NAMES`` strings looked at, ``MAX_NAMED`` files kept,
    ``MAX_DEPTH`` include levels): its cost is bounded whatever the project holds. Past a cap
    the files found so far are watched and ``capped`` says so (the build itself reports what
    it cannot read)."""
    from generator.core.yamlfile import load_yaml

    start = data_file.resolve()
    walk = Walk()
    seen = {start}
    queue: deque[tuple[Path, int]] = deque([(start, 0)])
    read = names = size = 0
    while queue and walk.capped is None:
        file, depth = queue.popleft()
        if read >= MAX_WALK_FILES:
            walk.capped = f"more than {MAX_WALK_FILES} YAML files named"
            break
        try:
            size += file.stat().st_size
            if size > MAX_WALK_BYTES:
                walk.capped = f"the YAML files named hold more than {MAX_WALK_BYTES // 2**20} MB"
                break
            read += 1
            doc = load_yaml(file)
        except (DataError, OSError):
            continue  # the build reports a file it cannot read
        folder = file.parent
        for text in _strings(doc.data):
            names += 1
            if names > MAX_WALK_NAMES:
                walk.capped = f"more than {MAX_WALK_NAMES} texts in the YAML files named"
                break
            if len(text) > 255 or "{" in text or not text.lower().endswith(NAMED_SUFFIXES):
                continue
            candidate = (folder / text).resolve()
            if candidate in seen or not _under(candidate, folder) or not candidate.is_file():
                continue
            if len(walk.found) >= MAX_NAMED:
                walk.capped = f"more than {MAX_NAMED} files named"
                break
            seen.add(candidate)
            walk.found.add(candidate)
            if depth < MAX_DEPTH and candidate.suffix in (".yaml", ".yml"):
                queue.append((candidate, depth + 1))
    return walk


def _strings(node: Any) -> Iterable[str]:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def find_target(given: str) -> Target:
    """A game id, a data file or a project folder -> the Target to watch. A folder with no
    game, or several, raises ``project.ProjectError`` (the CLI prints it, exit 2)."""
    path = Path(given)
    if path.is_dir():  # the project decides which of its files is the game
        return Target(given, app.project_data_file(path), project=path)
    if path.suffix in (".yaml", ".yml"):
        if not path.is_file():
            raise DataError(path, None, "watch", "no such data file")
        return Target(given, path)
    return Target(given, app.game_file(given))


# A build: the PDF, its pages and the lines of the checks that fail (drawn NOT VERIFIED).
Rebuild = Callable[[Target], tuple[Path, int, list[str]]]


def error_lines(exc: BaseException) -> list[str]:
    """A failed build as ``error: ...`` lines, as the CLI prints them (no traceback)."""
    from generator.core.errors import reported

    found = reported(exc)
    # a bug of ours: say so in one line, and keep watching
    text = found[0] if found else f"internal error ({type(exc).__name__}): {exc}"
    return [f"error: {line}" for line in text.splitlines() or [""]]


def run_build(target: Target, rebuild: Rebuild, report: Callable[[str], None],
              first: bool = False) -> bool:
    """Build one game, report its time or its errors; True if it built."""
    verb = "built" if first else "rebuilt"
    # Every memo table is keyed by what it was read from (generator/core/memo.py), so a rebuild
    # would see the edits anyway; forgetting them reads every file afresh and bounds memory.
    memo.forget_all()
    start = time.perf_counter()
    try:
        pdf, pages, failing = rebuild(target)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # every failure is reported, the loop goes on
        for line in error_lines(exc):
            report(line)
        report(f"{target.given}: not {verb}; fix it and save to try again")
        return False
    finally:
        target.refresh()
    seconds = time.perf_counter() - start
    target.outputs.add(pdf.resolve().parent)
    game_id = pdf.parent.name
    where = f" -> {pdf}" if first else ""
    if not failing:
        report(f"{verb} {game_id} in {seconds:.2f} s ({pages} pages){where}")
        return True
    checks = "1 check fails" if len(failing) == 1 else f"{len(failing)} checks fail"
    report(f"{verb} {game_id} in {seconds:.2f} s ({pages} pages), NOT VERIFIED: {checks} "
           f"(marked on every page; pnp build refuses it until they pass){where}")
    for line in failing:
        report(line)
    return True


def watch(targets: Sequence[Target], rebuild: Rebuild, stop_event: StopEvent,
          report: Callable[[str], None] = print, *, step_ms: int = STEP_MS,
          debounce_ms: int = DEBOUNCE_MS, force_polling: bool | None = None) -> int:
    """Build each target once, then rebuild the ones a change concerns until ``stop_event``
    is set; returns how many builds succeeded. ``rebuild(target)`` returns (pdf, pages)."""
    import watchfiles

    built = sum(run_build(target, rebuild, report, first=True) for target in targets)
    roots = sorted({root for target in targets for root in target.roots()})
    report(f"watching {len(roots)} folders for changes (Ctrl-C to stop)")
    for target in targets:
        if target.capped:
            report(f"note: {target.given}: {target.capped}; watching the files found so far")

    def wanted(_change: watchfiles.Change, path: str) -> bool:
        return any(target.concerns(Path(path)) for target in targets)

    for changes in watchfiles.watch(*roots, watch_filter=wanted, stop_event=stop_event,
                                    step=step_ms, debounce=debounce_ms, rust_timeout=1000,
                                    force_polling=force_polling, raise_interrupt=True):
        changed = [Path(path) for _, path in changes]
        for target in targets:
            # A file that came and went within the debounce (sed -i, some editors' temporary
            # copies) is not worth naming; a deleted file the game uses still is.
            hits = sorted({p.name for p in changed if target.concerns(p)
                           and (p.exists() or not _transient(p, changes))})
            if not hits or stop_event.is_set():
                continue
            report(f"changed: {', '.join(hits[:5])}{' ...' if len(hits) > 5 else ''}")
            built += run_build(target, rebuild, report)
        if stop_event.is_set():
            break
    return built


def build_with(opts: Any) -> Rebuild:
    """The rebuild of the CLI: ``app.draft`` with the command's options (a set failing its
    checks is built, marked NOT VERIFIED)."""
    def rebuild(target: Target) -> tuple[Path, int, list[str]]:
        pdf, pages, failing = app.draft(str(target.data_file), opts)
        return pdf, pages, [finding.line() for finding in failing]

    return rebuild


def main(given: Sequence[str], opts: Any) -> int:
    """``watch`` from the command line: until Ctrl-C (then 130)."""
    targets = [find_target(name) for name in given]
    stop = threading.Event()
    try:
        watch(targets, build_with(opts), stop, report=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        stop.set()
        print("stopped watching", file=sys.stderr)
        return 130
    return 0


def _transient(path: Path, changes: set[tuple[Any, str]]) -> bool:
    """Added and deleted in the same batch: a temporary file, not one the game uses."""
    import watchfiles  # imported late, like in watch(): the CLI starts without it

    kinds = {change for change, name in changes if Path(name) == path}
    return watchfiles.Change.added in kinds and watchfiles.Change.deleted in kinds
