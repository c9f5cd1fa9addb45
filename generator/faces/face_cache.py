"""Faces remembered between runs, so a build draws again only what changed.

Why: evaluating face templates is half of a build's work (every expression of every element
of every card), yet most builds follow a build of the same files. A component's rendered
faces are kept in the on-disk cache (generator/core/cache.py: plain JSON, atomic writes, bounded,
``PNP_CACHE=0`` turns it off) under a key made of everything they are drawn from:

- the component as loaded (its items' data and counts, size, face and back names, params,
  label), the game's loaded data, id, title and credit, the theme's values, the face size
  and the build options (all but where the kit goes and ``--force``);
- the game data file's path (symlinks resolved), its rules module, players and theme name;
- the files a face may read, each listed with the file it leads to (device and inode), its
  size, its modification and change times, and where it points when it is a symlink: the
  built-in templates (faces, icons, themes, messages), art and games folders, the game's
  own folder (the project in use: its faces, icons, art, fonts...), and the built-in font
  files. Output folders inside those roots are left out unless they sit in an input folder
  (``faces/``, ``fonts/``...), so writing a kit does not change the key;
- the generator's own source files and the drawing libraries it runs on (listed the same
  way), and the Python version (generator/core/cache.py adds it);
- the raster or SVG images a face drew (their size, modification and change times are kept
  in the entry and compared before it is used).

A file's change time moves whenever it is written, so an edit (even one that keeps the size
and the modification time) is a new key, and a file replaced by another (a save by rename, a
symlink pointed elsewhere) has another inode: an entry is not used once its inputs changed.
A copy or a ``git checkout`` that leaves the content alone is a new key too, which only costs
one cold build. Listing is bounded: a game folder with more than ``MAX_FILES`` files (say, a
project kept in a home folder), or with a folder that cannot be read, is not cached, only
drawn. The one write the times miss is the operating system's own blind spot: a program
writing into a file through a shared memory map, again, before the kernel writes the page
back (editors and tools write files; ``PNP_CACHE=0`` draws everything when in doubt).

A kit in another language records, while it draws, which texts have no translation
(generator/data/i18n.py): an entry keeps what the drawing told the language session, in order,
and a hit tells it again (whether a printed value counts as untranslated depends on the
words translated before it, so that check is made again, not copied). Pre-flight's drawing
is not cached (it reports missing glyphs instead of refusing them). A face that fails to
draw is never cached: its error is raised as before.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from generator.core import cache, paths
from generator.core.primitives import Face
from generator.data import fonts, i18n, project
from generator.faces import face_codec

KIND = "faces"
MAX_FILES = 5000  # files listed under one folder before the folder is deemed too big to key
MAX_ENTRY = 16 << 20  # bytes: one component's faces (a large deck's are a few MB at most)
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", "node_modules",
                          ".mypy_cache", ".pytest_cache", ".ruff_cache"})
# What faces are drawn with besides our code (pyproject.toml's dependencies): an upgrade of
# any rewrites its package's __init__ (or extension module), so its stamp changes the key.
LIBRARIES = ("reportlab", "_rl_accel", "PIL", "jinja2", "markupsafe", "yaml", "pydantic",
             "pydantic_core", "svgelements", "openpyxl", "pyphen")

_IMAGES: ContextVar[list[Path] | None] = ContextVar("face_cache_images", default=None)


class TooMany(Exception):
    """A folder with more files than MAX_FILES: its games are drawn, never cached."""


class Unlistable(Exception):
    """A folder under a listed root that cannot be read: its games are drawn, never cached."""


def _stamp(path: Path) -> list[Any] | None:
    """What identifies a file's version (None: gone): the file it leads to (device, inode),
    its size, and its modification and change times. The inode tells apart two files whose
    size and times match to the tick, as when a symlink is pointed at the other one."""
    try:
        return _version(os.stat(path))
    except OSError:
        return None


def _version(st: os.stat_result) -> list[Any]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def listing(root: Path, skip: Sequence[Path] = ()) -> str:
    """sha256 of every file under ``root`` (path, where a symlink points, the stamp of the
    file it leads to), folders sorted, the version-control and tool folders and ``skip``
    left out. TooMany past MAX_FILES; Unlistable for a folder that cannot be read (its
    files could still be opened by name, so a constant line would hide their edits)."""
    digest = hashlib.sha256()
    skipped = {str(s) for s in skip}
    count = 0
    stack = [str(root)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as found:
                entries = sorted(found, key=lambda e: e.name)
        except OSError:
            raise Unlistable(folder) from None
        for entry in entries:
            count += 1
            if count > MAX_FILES:
                raise TooMany(str(root))
            try:
                link = os.readlink(entry.path) if entry.is_symlink() else ""
                if entry.is_dir(follow_symlinks=True):
                    if entry.name not in SKIPPED_DIRS and entry.path not in skipped:
                        stack.append(entry.path)
                        digest.update(f"{entry.path}/\0{link}\n".encode(
                            "utf-8", "surrogateescape"))
                    continue
                st = entry.stat(follow_symlinks=True)
            except OSError:
                digest.update(f"?{entry.path}\n".encode("utf-8", "surrogateescape"))
                continue
            line = f"{entry.path}\0{link}\0{_version(st)}\n"
            digest.update(line.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _code_files() -> Iterator[Path]:
    yield from sorted(paths.PACKAGE.rglob("*.py"))
    for name in LIBRARIES:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.origin:
            yield Path(spec.origin)  # an upgrade rewrites the package's __init__


def code_digest() -> str:
    """The generator's source and the libraries' versions, listed once per process (as
    generator/core/cache.py does for the rules engines: the code that is running)."""
    global _code
    if _code is None:
        digest = hashlib.sha256()
        for file in _code_files():
            digest.update(f"{file}\0{_stamp(file)}\n".encode("utf-8", "surrogateescape"))
        for key, font in sorted(fonts.font_files().items()):
            digest.update(f"{key}\0{font}\0{_stamp(font)}\n".encode("utf-8", "surrogateescape"))
        _code = digest.hexdigest()
    return _code


_code: str | None = None


def files_digest(game_folder: Path, out_dir: Path) -> str:
    """The folders a face may read from, listed now (see the module docstring).

    ``game_folder`` is the project in use: the folder of the game data file with its
    symlinks resolved, as generator/data/project.py's ``use_for`` takes it."""
    builtin = [paths.TEMPLATES, paths.ART, paths.CARD_DATA]
    folder = game_folder.resolve()
    roots = [r.resolve() for r in builtin if r.is_dir()]
    if not any(folder == r or r in folder.parents for r in roots):
        roots.append(folder)
    outputs = [out_dir.resolve(), (folder / project.OUTPUT).resolve()]
    parts = [listing(root, skippable(root, outputs)) for root in roots]
    return hashlib.sha256("\n".join([str(folder), *parts]).encode()).hexdigest()


# A root's folders whose files faces read by name (generator/data/project.py's kinds and the
# translations); an output folder inside one of them is listed like any other input.
INPUT_FOLDERS = frozenset({*project.KINDS, "messages"})


def skippable(root: Path, outputs: Sequence[Path]) -> list[Path]:
    """The output folders that may be left out of ``root``'s listing: those strictly inside
    it and outside its input folders. What the build writes there (kits, calibration
    sheets, previews) must not change the key, or every build would miss the one before;
    an output folder given as, say, ``faces/out`` must not hide ``faces/`` edits either."""
    found = []
    for out in outputs:
        try:
            inside = out.relative_to(root).parts
        except ValueError:
            continue
        if inside and inside[0] not in INPUT_FOLDERS:
            found.append(out)
    return found


def usable() -> bool:
    """Whether faces drawn now may be cached: a build (not pre-flight), cache on."""
    return cache.enabled() and cache.cache_dir() is not None and not fonts.reporting()


def game_key(game: Any, theme_context: Any, options: Any) -> str | None:
    """The part of every component's key that the whole game shares, or None when the game
    cannot be cached (a folder too big to list, a value the key cannot hold)."""
    try:
        source = Path(game.source).resolve()
        files = files_digest(source.parent, Path(options["out_dir"]))
        rest = {k: v for k, v in options.items() if k != "out_dir"}
        return cache.fingerprint([code_digest(), files, rest, str(source), game.id,
                                  game.title, game.credit, game.rules, list(game.players),
                                  game.theme, game.data, theme_context])
    except (TooMany, Unlistable, cache.Uncacheable, OSError, RecursionError):
        return None


def component_key(shared: str, comp: Any, size: Any) -> Any:
    return [shared, comp.id, comp.kind, comp.name, comp.face, comp.back, comp.shape,
            dict(comp.params), comp.label, [comp.size.w, comp.size.h], [size.w, size.h],
            [[dict(item.data), item.count] for item in comp.items]]


def note_image(file: Path) -> None:
    """A face is drawing this picture: an entry keeps its version (see ``drawn``)."""
    found = _IMAGES.get()
    if found is not None and len(found) < 10_000:
        found.append(file)


Rendered = tuple[list[Face], list[Face] | None]


def drawn(shared: str | None, comp: Any, size: Any, draw: Callable[[], Rendered]
          ) -> Rendered:
    """``draw()``'s fronts and backs for a component, from the cache when an earlier run
    drew them from the same inputs; stored after drawing otherwise."""
    if shared is None or not usable():
        return draw()
    folder = cache.cache_dir()
    assert folder is not None
    try:
        key = cache.entry_key(KIND, component_key(shared, comp, size))
    except (cache.Uncacheable, RecursionError):
        return draw()
    decoded: list[tuple[Rendered, list[list[Any]]]] = []

    def valid(value: Any) -> bool:
        found = _decode(value)
        if found is not None:
            decoded.append(found)
        return found is not None

    session = i18n.current()
    hit, _ = cache.lookup(folder, KIND, key, valid, limit=MAX_ENTRY, plain=False)
    if hit and decoded:
        rendered, told = decoded[0]
        session.replay(told)  # the untranslated texts drawing would have recorded
        return rendered
    images: list[Path] = []
    token = _IMAGES.set(images)
    try:
        with session.recording() as told:
            fronts, backs = draw()
    finally:
        _IMAGES.reset(token)
    value = _encode(fronts, backs, images, told)
    if value is not None:
        cache.store(folder, KIND, key, value, limit=MAX_ENTRY)
    return fronts, backs


def _encode(fronts: list[Face], backs: list[Face] | None, images: list[Path],
            told: list[list[Any]]) -> Any:
    """The entry's value: each distinct face once, then which face each copy is; None when
    a face would not come back exactly as drawn."""
    unique: dict[int, int] = {}
    faces: list[Face] = []
    for face in [*fronts, *(backs or [])]:
        if id(face) not in unique:
            unique[id(face)] = len(faces)
            faces.append(face)
    try:
        written = face_codec.encode(faces)
    except face_codec.Unencodable:
        return None
    again = face_codec.decode(written)
    if again is None or [repr(f) for f in again] != [repr(f) for f in faces]:
        return None
    stamps = []
    for image in dict.fromkeys(images):
        stamp = _stamp(image)
        if stamp is None:
            return None
        stamps.append([str(image), *stamp])
    return {"faces": written, "fronts": [unique[id(f)] for f in fronts],
            "backs": None if backs is None else [unique[id(f)] for f in backs],
            "images": stamps, "i18n": told}


def _decode(value: Any) -> tuple[Rendered, list[list[Any]]] | None:
    if type(value) is not dict or set(value) != {"faces", "fronts", "backs", "images", "i18n"} \
            or not i18n.valid_events(value["i18n"]):
        return None
    images = value["images"]
    if type(images) is not list:
        return None
    for stamp in images:  # a picture drawn then has changed since: draw again
        if (type(stamp) is not list or not stamp or type(stamp[0]) is not str
                or _stamp(Path(stamp[0])) != stamp[1:]):
            return None
    faces = face_codec.decode(value["faces"])
    if faces is None:
        return None
    fronts = _pick(faces, value["fronts"])
    backs = None if value["backs"] is None else _pick(faces, value["backs"])
    if fronts is None or (value["backs"] is not None and backs is None):
        return None
    return (fronts, backs), value["i18n"]


def _pick(faces: list[Face], indexes: Any) -> list[Face] | None:
    if type(indexes) is not list or not all(
            type(i) is int and 0 <= i < len(faces) for i in indexes):
        return None
    return [faces[i] for i in indexes]
