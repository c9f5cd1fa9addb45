"""Rules engines, one package per game, all behind the interface ``base.RulesEngine``.

A game's data file names its engine by the package's name (``rules: moving_day_boxes`` loads
``generator/rules/moving_day_boxes/``); every package here is an engine, and the plain modules
beside them are what engines share (``base``: the interface and findings; ``play``: the seeded
play loop; ``stats``: intervals of playout results; ``declarative`` and ``coverage``: the
checks every game gets, engine or not; ``guard``: a project engine's faults, reported).

A project may bring its own engine: ``rules: rules.py`` (or a package, ``rules: rules/``) in
its data file, the same interface (docs/engines.md). That is a stranger's code, so this module
is the one gate: ``engine`` imports it only when the project's folder is trusted
(generator/core/trust.py: ``pnp trust DIR``, or ``--trust`` for one run), compiled from the
source bytes the trust file vouches for (``_FromSource``: never a ``__pycache__`` file, never
through the import path), under a module name
of its own (``pnp_project_<digest of its path and code>``, so two projects, or one edited
while ``pnp watch`` runs, never share a module), and hands it out wrapped by
``guard.Guarded``: an exception, an illegal action, an endless game or a second play of one
seed that goes differently is one message naming the project's file (and line) and the seed.
Built-in engines and project engines are loaded here alike and checked against one Protocol.

A rules engine is optional: a game whose data file has no ``rules:`` line has no play engine
(nothing to simulate, no worked examples) and is checked by its ``verify`` list alone
(``declarative``)."""
from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from generator.core import trust
from generator.core.errors import DataError, InputError
from generator.core.findings import Finding
from generator.core.words import said

from .base import REQUIRED, RulesEngine, at_rules_line, members
from .guard import EngineFault, Guarded, ProjectEngine

__all__ = ["EngineFault", "Finding", "ProjectEngine", "RulesEngine", "Untrusted", "code_key",
           "engine", "load", "project_engine", "ref", "trust_message"]

MODULE_PREFIX = "pnp_project_"
MAX_SOURCE_BYTES = 4 * 1024 * 1024  # a project engine's files, read to name its module


class Untrusted(InputError):
    """A project's own engine in a folder not trusted: not imported. The message says what
    was not run and the exact command that trusts the folder."""

    def __init__(self, where: ProjectEngine, lang: str = "en") -> None:
        self.where = where
        super().__init__(trust_message("trust.refused", where, lang))


def trust_message(key: str, where: ProjectEngine, lang: str = "en") -> str:
    """A trust message in the user's words (templates/messages/<lang>.yaml; the built-in
    files only: a project cannot reword what is said about trusting it). A folder trusted
    once whose Python files changed since is said so (``trust.changed``) whatever ``key``."""
    from generator.data.translation import i18n_files  # late: playing a game loads no data module

    if trust.state(where.folder) == trust.CHANGED:
        key = "trust.changed"
    text = i18n_files.messages(lang).get(key) or i18n_files.messages("en")[key]
    folder = shlex.quote(str(where.folder))
    return text.format(file=where.named, folder=folder,
                       command=f"pnp trust {folder}")


def project_engine(game: Any) -> ProjectEngine | None:
    """The game's own engine, found and confined (never imported), or None: a built-in
    engine or none."""
    from generator.data.files import resolve  # late: playing a game loads no data module
    from generator.data.tables.schema import PROJECT_RULES

    name = getattr(game, "rules", None)
    if not name or not name.endswith(PROJECT_RULES):
        return None
    folder = Path(game.source).parent
    try:
        file = resolve.rules_file(name, folder)
    except resolve.Refused as exc:
        raise at_rules_line(game, str(exc)) from None
    return ProjectEngine(folder, file, name)


def load(name: str | ProjectEngine) -> RulesEngine:
    """The engine ``generator.rules.<name>`` (a name from a game's data file), or a project's
    own engine (``ProjectEngine``: imported only when its folder is trusted, else
    ``Untrusted``). A module that is not an engine (it lacks part of the interface) is an
    ImportError."""
    if isinstance(name, ProjectEngine):
        return _project(name)
    module = importlib.import_module(module_name(name))
    if not isinstance(module, RulesEngine):
        missing = [m for m in members(RulesEngine) if not hasattr(module, m)]
        raise ImportError(f"{module.__name__} is not a rules engine: it has no "
                          f"{', '.join(missing)}")
    return module


def module_name(name: str) -> str:
    """The module of the built-in engine a data file's ``rules:`` names (``moving-target``:
    ``generator.rules.moving_target``). Loaded by name, not imported by the caller: a cache
    keyed on the code a computation runs names it (generator/core/cache.py)."""
    return f"{__name__}.{name.replace('-', '_')}"


def ref(module: RulesEngine) -> str | ProjectEngine:
    """What ``load`` takes to load ``module`` again (in a worker process)."""
    if isinstance(module, Guarded):
        where = module.where
        assert isinstance(where, ProjectEngine)
        return where
    return module.__name__.rsplit(".", 1)[-1]


def engine(game: Any, skip_untrusted: bool = False) -> RulesEngine | None:
    """The game's rules engine, or None for a game without one. A project's own engine in a
    folder not trusted is ``Untrusted`` (or None with ``skip_untrusted``: build, verify and
    preview do what needs no code; the front end says once what was skipped). An engine that
    cannot be imported is a DataError at the ``rules:`` line."""
    name = getattr(game, "rules", None)
    if not name:
        return None
    where = project_engine(game)
    if where is not None:
        if not trust.trusted(where.folder):
            if skip_untrusted:
                return None
            raise Untrusted(where)
        return _project(where)
    try:
        return load(name)
    except ImportError as exc:
        raise at_rules_line(game, f"cannot load the rules module {said(name)}: {exc}") from None


class _FromSource(importlib.machinery.SourceFileLoader):
    """A project engine's file, run from the bytes read now, only when they are the bytes
    its folder was trusted with (``trust.vouched``), compiled here: never a ``__pycache__``
    file (a shipped one whose header matches the source's size and time would otherwise run
    in its place), and nothing written beside it."""

    def __init__(self, fullname: str, path: str, where: ProjectEngine) -> None:
        super().__init__(fullname, path)
        self.where = where

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        data = self.get_data(path)
        if not trust.vouched(self.where.folder, Path(path), data):
            raise Untrusted(self.where)
        return compile(data, path, "exec", dont_inherit=True)


def _source_only(where: ProjectEngine) -> None:
    """A package engine's submodules found by ``_FromSource`` too: a finder of ``.py`` files
    only (no bytecode, no extension modules) for each folder of the package."""
    def loader(fullname: str, path: str) -> _FromSource:
        return _FromSource(fullname, path, where)

    for top, folders, _ in os.walk(where.root):
        folders[:] = [f for f in folders if not f.startswith(".") and f != "__pycache__"]
        sys.path_importer_cache[top] = importlib.machinery.FileFinder(
            top, (loader, [".py"]))  # type: ignore[arg-type]


def _project(where: ProjectEngine) -> Guarded:
    """Import a project's engine (the folder's trust asked again here, so no caller can load
    one past the gate), under a name of its own, from its source (``_FromSource``), and wrap
    it (``guard.Guarded``)."""
    if not trust.trusted(where.folder):
        raise Untrusted(where)
    name = MODULE_PREFIX + _digest(where)
    module = sys.modules.get(name)
    if module is None:
        package = where.file.name == "__init__.py"
        if package:
            _source_only(where)
        spec = importlib.util.spec_from_file_location(
            name, where.file, loader=_FromSource(name, str(where.file), where),
            submodule_search_locations=[str(where.root)] if package else None)
        if spec is None or spec.loader is None:
            raise DataError(where.named, None, "rules", "cannot be imported as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # before running it: its dataclasses and pickles need it
        try:
            spec.loader.exec_module(module)
        except BaseException as exc:
            del sys.modules[name]
            if isinstance(exc, KeyboardInterrupt | MemoryError | Untrusted):
                raise
            raise EngineFault.of(where, "import", exc) from None
    missing = [m for m in REQUIRED if not callable(getattr(module, m, None))]
    if missing:
        raise DataError(where.named, None, "rules",
                        f"not a rules engine: it has no {', '.join(missing)} (the interface: "
                        "docs/engines.md)")
    return Guarded(module, where)


def code_key(where: ProjectEngine) -> str:
    """What a drawing from the engine (a worked example) depends on: its code, and whether
    its folder is trusted (an untrusted engine draws no example)."""
    return _digest(where) if trust.trusted(where.folder) else "untrusted"


def _digest(where: ProjectEngine) -> str:
    """sha256 of the engine's path and code: an edited engine is a new module."""
    digest = hashlib.sha256(str(where.file).encode())
    files = sorted(where.root.rglob("*.py")) if where.file.name == "__init__.py" else [
        where.file]
    total = 0
    for file in files[:1000]:
        if "__pycache__" in file.parts:
            continue
        try:
            data = file.read_bytes() if file.is_file() else b""
        except OSError:
            data = b""
        total += len(data)
        if total > MAX_SOURCE_BYTES:
            raise DataError(where.named, None, "rules",
                            f"the engine's code is larger than {MAX_SOURCE_BYTES} bytes")
        digest.update(os.fsencode(file.name) + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:24]
