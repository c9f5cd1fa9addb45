"""Faces remembered between runs, so a build draws again only what changed.

Why: evaluating face templates is half of a build's work (every expression of every element
of every card), yet most builds follow a build of the same files. A component's rendered
faces are kept in the on-disk cache (generator/core/cache.py: plain JSON, atomic writes, bounded,
``PNP_CACHE=0`` turns it off) under a key made of everything they are drawn from, each part
by its *content*, never by a file's size or time:

- the component as loaded (its items' data and counts, size, face and back names, params,
  label, grid), the game's loaded data, id, title and credit, its data file's path (symlinks
  resolved), rules module, players and theme name, the theme's values, the face size and the
  build options that draw (not where the kit goes, not ``--force``);
- the language session's files (messages and catalogues, generator/data/translation/i18n.py) and the
  project's fonts (generator/data/typefaces/project_fonts.py), by content (handed in by the
  orchestration: this package imports nothing of the data layer);
- the code that draws: the source of the modules drawing reaches (generator/orchestration/
  drawing.py and every module it imports, and the built-in engine it loads by name), by
  content, keyed as the rules results are (generator/core/cache.py's ``code_digest``), and
  the versions of the libraries and font packages it draws with;
- the files the drawing opened: while a component is drawn, every file the resolver looks
  for (generator/data/files/resolve.py: face templates, included templates, icons, images, found or
  looked for and absent, so a new file that would shadow the one found is seen) is recorded
  with its sha256 (generator/core/context.py's ``version``, read once per build). A template
  or icon that loading resolved (the game's and the theme's ``known``) brings the files its
  look-up read, noted where the drawing uses it (``context.Sourced``), as if looked up there.

The last part is known only once the faces are drawn, so an entry is two files: under the
first key (everything else), the list of files the drawing opened; under the second (the
first key and those files' versions now), the faces. A lookup reads the list, hashes those
files (each once per build) and reads the faces filed under what they hold now. So editing
one game's files never re-keys another game's faces (nor another component's, when it reads
other files), a file rewritten with the same size and time is seen, and an edit undone finds
its old entry again.

A kit in another language records, while it draws, which texts have no translation
(generator/data/translation/i18n.py): an entry keeps what the drawing told the language session (the
faces' ``Told`` events, told to it once per face by the orchestration), in order, and a hit
tells it again (whether a printed value counts as untranslated depends on the
words translated before it, so that check is made again, not copied). Pre-flight's drawing
is not cached (it reports missing glyphs instead of refusing them). A face that fails to
draw is never cached: its error is raised as before.

An entry keeps the work its drawing spent, by spender (generator/core/context.py's
``Budget``), and a hit spends it again in the build's budget: a build spends the same
whether its faces are drawn or read from here, so it never passes warm and fails cold (and a
budget spent names the same template either way).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from generator.core import cache, context, memo, paths
from generator.core.context import Spender
from generator.core.drawing import Record, valid_events
from generator.core.primitives import Face
from generator.expressions import spend
from generator.faces import face_codec

KIND = "faces"
INPUTS = "faces-inputs"  # the first key's file: which files a component's drawing opened
MAX_ENTRY = 16 << 20  # bytes: one component's faces (a large deck's are a few MB at most)
MAX_INPUTS = 5000  # files one component's drawing may open and still be cached
# What faces are drawn with besides our code (pyproject.toml's dependencies, the font
# package among them), named as their installed distributions are: an upgrade is a new
# name-version folder. The font files we ship (templates/fonts/) count by their content.
LIBRARIES = ("reportlab", "rl_accel", "pillow", "jinja2", "markupsafe", "pyyaml", "pydantic",
             "pydantic_core", "svgelements", "openpyxl", "pyphen",
             "fontpkg_atkinson_hyperlegible")


@memo.memo(code=True)
def code_digest(modules: tuple[str, ...]) -> str:
    """The code drawing runs: the source of each of ``modules`` and of every module of the
    generator it imports (generator/core/cache.py's ``code_digest``, the one the rules
    results are keyed on), the libraries' versions and the fonts we ship; read once per
    process: the code that is running (a ``code`` memo: watch keeps it). An edit to a module
    drawing never reaches (the PDF writer, an exporter, a front end) keeps the faces."""
    digest = hashlib.sha256()
    digest.update(f"{cache.code_digest(*sorted(modules))}\n".encode())
    digest.update(_installed())
    return digest.hexdigest()


@memo.memo(code=True)
def _installed() -> bytes:
    """The libraries' versions and the fonts we ship, as ``code_digest`` hashes them: read
    once per process, not once per engine (five kits: four engines; the shipped fonts are
    3.4 MB, ~3.5 ms to hash each time)."""
    digest = hashlib.sha256()
    for line in library_versions():
        digest.update(f"{line}\n".encode())
    for file in sorted(paths.FONTS.rglob("*.ttf")):
        digest.update(f"{file.relative_to(paths.FONTS)}\0".encode())
        digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.digest()


def library_versions() -> list[str]:
    """``name-version`` of each of LIBRARIES as installed (the first found on ``sys.path``,
    as ``import`` finds it; ``?`` when none is)."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except (OSError, ValueError):
            continue
        for name in names:
            if name.endswith(".dist-info"):
                dist, _, version = name[:-len(".dist-info")].partition("-")
                key = dist.lower().replace("-", "_").replace(".", "_")
                if key in LIBRARIES:
                    found.setdefault(key, version)
    return [f"{name}-{found.get(name, '?')}" for name in LIBRARIES]


def usable(reporting: bool) -> bool:
    """Whether faces drawn now may be cached: a build (not pre-flight, ``reporting`` missing
    glyphs), cache on."""
    return cache.enabled() and cache.cache_dir() is not None and not reporting


def game_key(game: Any, theme_context: Any, options: Any, code: tuple[str, ...],
             read: Sequence[Any]) -> str | None:
    """The part of every component's key that the whole game shares, or None when the game
    cannot be cached (a value the key cannot hold). ``code``: the modules drawing the faces
    (generator/orchestration/drawing.py, the engine it loads by name), keyed with what
    they import (``code_digest``). ``read``: what else the build's faces read, by content
    (its language session's files, the project's fonts)."""
    try:
        source = Path(game.source).resolve()
        return cache.fingerprint([code_digest(code), options, str(source), game.id, game.title,
                                  game.credit, game.rules, list(game.players), game.theme,
                                  game.data, theme_context, *read])
    except (cache.Uncacheable, OSError, RecursionError):
        return None


def component_key(shared: str, comp: Any, size: Any) -> Any:
    return [shared, comp.id, comp.kind, comp.name, comp.face, comp.back, comp.shape,
            dict(comp.params), comp.label, [comp.size.w, comp.size.h], [size.w, size.h],
            [[dict(item.data), item.count] for item in comp.items],
            dict(comp.grid) if getattr(comp, "grid", None) else None]


def faces_key(first: str, inputs: dict[str, str | None]) -> str:
    """The second key: the first, and the version of every file the drawing opened."""
    return cache.fingerprint([first, sorted(inputs.items())])


Rendered = tuple[list[Face], list[Face] | None]


def drawn(shared: str | None, comp: Any, size: Any, draw: Callable[[], Rendered],
          session: Record, reporting: bool) -> Rendered:
    """``draw()``'s fronts and backs for a component, from the cache when an earlier run
    drew them from the same inputs; stored after drawing otherwise. ``session``: the
    build's translation record, which the drawing tells (and a hit tells again)."""
    if shared is None or not usable(reporting):
        return draw()
    folder = cache.cache_dir()
    assert folder is not None
    try:
        first = cache.entry_key(KIND, component_key(shared, comp, size))
    except (cache.Uncacheable, RecursionError):
        return draw()
    found = _lookup(folder, first)
    if found is not None:
        rendered, told, spent = found
        session.replay(told)  # the untranslated texts drawing would have recorded
        for who, units, runs in spent:  # the work drawing them spent, spent again
            spend(who, units, runs)
        return rendered
    with context.budgeted() as budget, budget.recording() as work, \
            context.recording() as inputs, session.recording() as told:
        fronts, backs = draw()
    spent = [(who, units, runs) for who, (units, runs) in work.items()]
    if len(inputs) <= MAX_INPUTS:
        # The cache is never worth a build: out of memory, its copies go, the faces stay.
        with contextlib.suppress(MemoryError):
            _store(folder, first, inputs, fronts, backs, told, spent)
    return fronts, backs


Spent = list[tuple[Spender | None, int, int]]  # who, units, runs: what a drawing spent


def _store(folder: Path, first: str, inputs: dict[str, str | None], fronts: list[Face],
           backs: list[Face] | None, told: list[list[Any]], spent: Spent) -> None:
    """File the faces, then the list of files their drawing opened. Faces too large to keep
    are known by their size before any copy of them is made, and those kept are written a
    face at a time: caching never doubles a build's memory."""
    unique: dict[int, int] = {}
    faces: list[Face] = []
    for face in [*fronts, *(backs or [])]:
        if id(face) not in unique:
            unique[id(face)] = len(faces)
            faces.append(face)
    work = [[*(who or (None, None, None, None)), units, runs] for who, units, runs in spent]
    if face_codec.encoded_size(faces, MAX_ENTRY) > MAX_ENTRY or not cache.is_plain(
            [told, work]):
        return
    entry = _entry(faces, [unique[id(f)] for f in fronts],
                   None if backs is None else [unique[id(f)] for f in backs], told, work)
    if cache.store_text(folder, KIND, faces_key(first, inputs), entry, limit=MAX_ENTRY):
        cache.store(folder, INPUTS, first, sorted(inputs), limit=MAX_ENTRY)


def _entry(faces: list[Face], fronts: list[int], backs: list[int] | None,
           told: list[list[Any]], work: list[list[Any]]) -> Iterator[str]:
    """The entry's value as JSON text: each distinct face once, then which face each copy
    is, what the drawing told the language session and the work it spent. Made a face at a
    time, each checked to come back exactly as drawn; one that would not gives up the
    entry."""
    yield '{"faces":['
    for index, face in enumerate(faces):
        try:
            written = face_codec.encode([face])[0]
        except face_codec.Unencodable:
            raise cache.Uncacheable("a face the codec cannot write") from None
        if not face_codec.comes_back(written, face):
            raise cache.Uncacheable("a face that would not come back as drawn")
        yield ("," if index else "") + cache.dumps(written)
    yield (f'],"fronts":{cache.dumps(fronts)},"backs":{cache.dumps(backs)},'
           f'"i18n":{cache.dumps(told)},"work":{cache.dumps(work)}}}')


def _lookup(folder: Path, first: str) -> tuple[Rendered, list[list[Any]], Spent] | None:
    """The faces filed under the files the drawing opened, as they are now; None: draw."""
    hit, listed = cache.lookup(folder, INPUTS, first, _paths, limit=MAX_ENTRY)
    if not hit:
        return None
    inputs = {key: context.version_of(key) for key in listed}  # noted: an outer face reads them
    decoded: list[tuple[Rendered, list[list[Any]], Spent]] = []

    def valid(value: Any) -> bool:
        found = _decode(value)
        if found is not None:
            decoded.append(found)
        return found is not None

    hit, _ = cache.lookup(folder, KIND, faces_key(first, inputs), valid, limit=MAX_ENTRY,
                          plain=False)
    return decoded[0] if hit and decoded else None


def _paths(value: Any) -> bool:
    return (type(value) is list and len(value) <= MAX_INPUTS
            and all(type(p) is str and os.path.isabs(p) for p in value))


def _decode(value: Any) -> tuple[Rendered, list[list[Any]], Spent] | None:
    if type(value) is not dict or set(value) != {"faces", "fronts", "backs", "i18n", "work"} \
            or not valid_events(value["i18n"]):
        return None
    spent = _spent(value["work"])
    if spent is None:
        return None
    faces = face_codec.decode(value["faces"])
    if faces is None:
        return None
    fronts = _pick(faces, value["fronts"])
    backs = None if value["backs"] is None else _pick(faces, value["backs"])
    if fronts is None or (value["backs"] is not None and backs is None):
        return None
    return (fronts, backs), value["i18n"], spent


def _spent(value: Any) -> Spent | None:
    """An entry's work: [file, line, field, what, units, runs] each (the four first null
    for work no one was named for); None when it is not that."""
    if type(value) is not list:
        return None
    out: Spent = []
    for entry in value:
        if type(entry) is not list or len(entry) != 6:
            return None
        file, line, field, what, units, runs = entry
        if type(units) is not int or type(runs) is not int or units < 0 or runs < 0:
            return None
        if (file, line, field, what) == (None, None, None, None):
            out.append((None, units, runs))
        elif (type(file) is str and (line is None or type(line) is int)
              and type(field) is str and type(what) is str):
            out.append(((file, line, field, what), units, runs))
        else:
            return None
    return out


def _pick(faces: list[Face], indexes: Any) -> list[Face] | None:
    if type(indexes) is not list or not all(
            type(i) is int and 0 <= i < len(faces) for i in indexes):
        return None
    return [faces[i] for i in indexes]
