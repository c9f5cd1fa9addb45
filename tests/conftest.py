"""Shared fixtures: the Moving Target kit built once per session, plus small helpers; the
hypothesis profiles; what a CI run (CI=1) refuses to skip."""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import resource
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings

from generator.core import atomic, context, memo, paths, yamlfile
from tests.needs import IN_CI, need

if TYPE_CHECKING:
    from tests.kits import Built

# The build and the PDF readers are imported where they are used: the run's controlling process
# (pytest-xdist's, which hands tests to the workers) builds and reads nothing.

GAME = "moving-target"
MOVING_TARGET_YAML = paths.CARD_DATA / f"{GAME}.yaml"
# The seed texts the rules pages are checked against live beside the checkout, not in it.
SEEDS = paths.ROOT.parent / "shared" / "seeds"

# Hypothesis: in CI the same cases every run (a red CI is then the code's doing, not the draw's)
# and no example database; on a developer's machine fresh cases each run, failures remembered.
# No deadline in either: speed is measured in benchmarks, never asserted by a test (a loaded
# machine would fail an honest case). `pytest` prints the profile in use in its header.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if IN_CI else "dev")

# The lanes: `make test-fast` runs `-m "not slow"`. A test is slow when it is marked so at the
# test (`@pytest.mark.slow`, or its module's `pytestmark`: it builds or exports whole games,
# starts processes, a server or a browser, draws thousands of hypothesis cases, or costs over
# tests/lanes.py's budget in a fast-lane run), or when it asks for a whole kit built (one of these
# fixtures, directly or through another): the kit's build is what costs. `make lanes` runs the
# fast lane and fails naming any unmarked test over the budget (tests/lanes.py); nothing is
# ever left out of `make test`.
_CPU_START = pytest.StashKey[float]()
WHOLE_KIT_FIXTURES = {"kits", "kit", "kit_a4", "kit_letter", "build_kit", "previous_kits",
                      "previous", "built", "french_kit", "pdfs"}


def pytest_collection_modifyitems(config, items) -> None:
    slow = pytest.mark.slow
    for item in items:
        if WHOLE_KIT_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(slow)


def pytest_runtest_setup(item) -> None:
    """``@pytest.mark.needs("browser")``: skipped without it, failed under CI=1 (tests/needs.py)."""
    for mark in item.iter_markers(name="needs"):
        for name in mark.args:
            need(name)


def _cpu_seconds() -> float:
    """Processor time of this process and of the children it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem) -> Iterator[None]:
    """With --junitxml (`make lanes`), each test's processor time, setup to teardown, is
    written with it (property ``cpu_s``): tests/lanes.py reads that rather than the wall
    time, which a busy machine stretches."""
    if item.config.getoption("xmlpath", None):
        item.stash[_CPU_START] = _cpu_seconds()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call) -> Iterator[None]:
    if call.when == "teardown" and _CPU_START in item.stash:
        item.user_properties.append(("cpu_s", f"{_cpu_seconds() - item.stash[_CPU_START]:.3f}"))
    yield


def _build(out_dir: Path, game: str = GAME, **options) -> Built:
    from generator.orchestration.build import build_pdf
    from generator.orchestration.options import BuildOptions
    from tests.kits import Built

    opts = BuildOptions(out_dir=out_dir, **options)
    path, pages = build_pdf(game, opts)
    return Built(opts, path, pages)


@pytest.fixture(autouse=True)
def fresh_state() -> Iterator[None]:
    """Each test starts as a new process would: no project in use, no language session, no
    file versions (generator/core/context.py), no memo of an earlier test
    (generator/core/memo.py), the command line's --wait at its default (a process-wide
    setting of generator/core/atomic.py: a test running the CLI with --wait 0 left it at 0 for
    the tests after it), so no test passes or fails by the order the suite runs in.

    One exception: the YAML parses of texts an earlier test read (generator/core/yamlfile.py)
    are kept. A parse is a function of the text alone (its key is the whole text, every load
    constructs fresh values from it), so a test gets what a new process would; only parsing
    the built-in data again is spared (a tenth of a data-heavy test's time). A test that counts
    parses forgets them itself (``yamlfile.forget_parses()``)."""
    parses = list(yamlfile._MEMO.items())
    memo.forget_all()
    yamlfile._MEMO.update(parses)
    context.fresh()
    atomic.set_lock_timeout(atomic.DEFAULT_LOCK_TIMEOUT)
    yield


@pytest.fixture(autouse=True)
def no_safe_path_left(monkeypatch) -> Iterator[None]:
    """Starting a child sets PYTHONSAFEPATH=1 in this process's environment for good
    (generator/core/children.py); each test starts without it, as a new process would (a test
    of children must see that its own command set it), and it is taken away after: monkeypatch
    only undoes its own changes, not one the tool made during the test, so the teardown removes
    it too (else a later module's fixture starts ``python -c`` children without the checkout on
    their path)."""
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    monkeypatch.delenv("PNP_START_METHOD", raising=False)
    yield
    os.environ.pop("PYTHONSAFEPATH", None)


def _options_key(game: str, options: dict[str, Any]) -> str:
    """A folder name for one kit configuration: the game and the options that differ from
    BuildOptions' defaults, in a fixed order (so kits(g) and kits(g, paper="a4") are one)."""
    from generator.orchestration.options import BuildOptions

    opts, default = BuildOptions(**options), BuildOptions()
    changed = [f"{f.name}={getattr(opts, f.name)}" for f in fields(BuildOptions)
               if f.name != "out_dir" and getattr(opts, f.name) != getattr(default, f.name)]
    return "-".join([game, *changed]).replace("/", "_")


@contextmanager
def _locked(lock: Path) -> Iterator[None]:
    """Only one process of this run (pytest-xdist worker) at a time past this point."""
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def run_tmp(tmp_path_factory) -> Path:
    """A folder of this test run shared by all its processes: with pytest-xdist each worker
    has its own base folder, and their common parent is the run's."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    folder.mkdir(exist_ok=True)
    return folder


def _once(run_tmp: Path, name: str, make: Callable[[Path], Any]) -> tuple[Path, str]:
    """The folder ``name`` of the run, filled by ``make(folder)`` once per test run by
    whichever xdist worker asks first (the others wait, then reuse it), and the JSON text that
    ``make``'s result was saved as."""
    folder, done = run_tmp / name, run_tmp / f"{name}.done.json"
    done.parent.mkdir(parents=True, exist_ok=True)
    with _locked(run_tmp / f"{name}.lock"):
        if not done.exists():
            if folder.exists():  # left half-made by a build that failed
                shutil.rmtree(folder)
            folder.mkdir(parents=True)
            done.write_text(json.dumps(make(folder)), encoding="utf-8")
        return folder, done.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def run_once(run_tmp) -> Callable[[str, Callable[[Path], Any]], tuple[Path, Any]]:
    """``run_once(name, make)``: a folder of the run filled by ``make(folder)`` once per test
    run, by whichever xdist worker asks first (the others wait, then reuse it); returns the
    folder and what ``make`` returned (JSON). For outputs that tests only read or copy."""
    def get(name: str, make: Callable[[Path], Any]) -> tuple[Path, Any]:
        folder, text = _once(run_tmp, name, make)
        return folder, json.loads(text)
    return get


@pytest.fixture(scope="session")
def kits(run_once) -> Callable[..., Built]:
    """``kits(game, paper="a4", flip="long", layout="sheets", **options)``: that kit (any
    BuildOptions), built once per test run on first use, whichever xdist worker asks first; the
    others wait for it and read the same files. For tests that only read a kit: a test that
    writes into its folder or must build anew (byte-identical rebuilds, caches) builds its own.
    """
    from generator.orchestration.build import build_pdf
    from generator.orchestration.options import BuildOptions
    from tests.kits import Built

    @cache
    def built(key: str, game: str, options: tuple[tuple[str, Any], ...]) -> Built:
        def make(folder: Path) -> dict[str, Any]:
            path, pages = build_pdf(game, BuildOptions(out_dir=folder, **dict(options)))
            return {"pdf": str(path), "pages": pages}

        folder, record = run_once(f"kits/{key}", make)
        return Built(BuildOptions(out_dir=folder, **dict(options)), Path(record["pdf"]),
                     record["pages"])

    def get(game: str = GAME, paper: str = "a4", flip: str = "long", layout: str = "sheets",
            **options: Any) -> Built:
        options = {"paper": paper, "flip": flip, "layout": layout, **options}
        return built(_options_key(game, options), game, tuple(sorted(options.items())))
    return get


@pytest.fixture(scope="session", autouse=True)
def pnp_cache_dir(run_tmp) -> Iterator[Path]:
    """The on-disk caches (generator/core/cache.py: rules results and drawn faces) in a folder
    of this test run's own, so tests never write to $HOME and never read a cache another run
    left. The run's xdist workers share it, as `make pdf`'s build processes share theirs."""
    old = os.environ.get("PNP_CACHE_DIR")
    folder = run_tmp / "pnp-cache"
    folder.mkdir(exist_ok=True)
    os.environ["PNP_CACHE_DIR"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("PNP_CACHE_DIR", None)
    else:
        os.environ["PNP_CACHE_DIR"] = old


@pytest.fixture(scope="session", autouse=True)
def pnp_config_dir(run_tmp) -> Iterator[Path]:
    """The user's config folder (generator/core/trust.py: the trusted project folders) in a
    folder of this test run's own: no test reads or writes the trust file in $HOME, and a
    ``--trust`` left over by a test (PNP_TRUST_RUN) is never inherited."""
    saved = {name: os.environ.get(name) for name in ("PNP_CONFIG_DIR", "PNP_TRUST_RUN")}
    folder = run_tmp / "pnp-config"
    folder.mkdir(exist_ok=True)
    os.environ["PNP_CONFIG_DIR"] = str(folder)
    os.environ.pop("PNP_TRUST_RUN", None)
    yield folder
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


# The trust file's folder: the project-engine and trust tests each ask trust afresh.
@pytest.fixture
def config(tmp_path, monkeypatch) -> Path:
    """A config folder of this test's own, and a HOME that must stay empty."""
    folder = tmp_path / "config"
    monkeypatch.setenv("PNP_CONFIG_DIR", str(folder))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PNP_TRUST_RUN", raising=False)
    return folder


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch) -> Path:
    """An empty, enabled cache folder for one test (PNP_CACHE unset whatever the shell says)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    monkeypatch.delenv("PNP_CACHE", raising=False)
    return folder


@pytest.fixture(scope="session")
def pdf_read(run_tmp) -> Iterator[Callable[..., list[Any]]]:
    """``pdf_read(kind, pdf, pages, *args, **options)``: ``tests/pdfread.py``'s extraction
    ``kind`` of each page of ``pages`` (numbers from 1; None: every page), once per test run
    for each distinct file content, page and arguments, whichever xdist worker asks first
    (reading a kit back, not building it, is the slow part: pdfminer interprets every
    operator of every form). The file is opened only for pages not read yet, and the last
    two documents are kept open (a test reading a kit page by page opens it once); each call
    gets its own copy. Tests use the fixtures below, one per kind."""
    from tests import pdfread

    read_before: dict[tuple[str, int], str] = {}
    # The documents last opened, kept open: a test reads a kit a page at a time, and opening
    # one again parses its fonts again (most of the cost of reading a page's furniture).
    open_docs: dict[tuple[str, str], list[Any]] = {}
    KEEP_OPEN = 2

    @cache
    def count(digest: str, data: bytes) -> int:
        return pdfread.page_count(data)

    def document(digest: str, data: bytes, kind: str) -> list[Any]:
        key = (digest, kind)
        if key not in open_docs:
            while len(open_docs) >= KEEP_OPEN:
                open_docs.pop(next(iter(open_docs)))[1].close()
            stack = ExitStack()
            open_docs[key] = [stack.enter_context(pdfread.opened(data, kind)), stack]
        open_docs[key] = open_docs.pop(key)  # the most recent last
        return open_docs[key][0]

    def read(kind: str, pdf: Path, pages: Iterable[int] | None, *args: Any,
             **options: Any) -> list[Any]:
        data = Path(pdf).read_bytes()  # read once: the file may be replaced meanwhile
        digest = hashlib.sha256(data).hexdigest()
        arguments = json.dumps([args, options], sort_keys=True)
        name = f"pdf/{digest}/{kind}-{hashlib.sha256(arguments.encode()).hexdigest()[:16]}"

        def extract(n: int) -> Any:
            page = document(digest, data, kind)[n - 1]
            try:
                return getattr(pdfread, kind)(page, *args, **options)
            finally:
                pdfread.done(page)

        found = []
        for n in range(1, count(digest, data) + 1) if pages is None else pages:
            if (name, n) not in read_before:
                read_before[name, n] = _once(run_tmp, f"{name}/{n}",
                                             lambda folder, n=n: extract(n))[1]
            found.append(json.loads(read_before[name, n]))
        return found
    yield read
    for _, stack in open_docs.values():
        stack.close()


@pytest.fixture(scope="session")
def page_texts(pdf_read) -> Callable[..., tuple[str, ...]]:
    """``page_texts(pdf, pages=None, **options)``: the ``extract_text(**options)``
    (pdfplumber) of each page of ``pages`` (numbers from 1), or of every page."""
    return lambda pdf, pages=None, **options: tuple(pdf_read("text", pdf, pages, **options))


@pytest.fixture(scope="session")
def furniture_texts(pdf_read) -> Callable[..., tuple[str, ...]]:
    """``furniture_texts(pdf, pages=None)``: like ``page_texts``, of what each page draws
    itself, outside any form: a kit page's footer and other furniture, not the faces of its
    pieces (each face is a form). A fraction of the reading."""
    return lambda pdf, pages=None: tuple(pdf_read("furniture_text", pdf, pages))


@pytest.fixture(scope="session")
def page_words(pdf_read) -> Callable[..., list[dict[str, Any]]]:
    """``page_words(pdf, page, **options)``: page ``page``'s (from 1) ``extract_words``."""
    return lambda pdf, page, **options: pdf_read("words", pdf, [page], **options)[0]


@pytest.fixture(scope="session")
def page_chars(pdf_read) -> Callable[[Path, int], list[dict[str, Any]]]:
    """``page_chars(pdf, page)``: page ``page``'s (from 1) ``chars``."""
    return lambda pdf, page: pdf_read("chars", pdf, [page])[0]


@pytest.fixture(scope="session")
def crop_texts(pdf_read) -> Callable[..., list[str]]:
    """``crop_texts(pdf, page, boxes, within=True, of_page=False)``: the text wholly inside
    each box (x0, top, x1, bottom in points; ``of_page``: in fractions of the page's width and
    height) of page ``page`` (``within_bbox``), or cut out by it (``within=False``: ``crop``).
    """
    return lambda pdf, page, boxes, within=True, of_page=False: pdf_read(
        "crop_texts", pdf, [page], [list(b) for b in boxes], within=within, of_page=of_page)[0]


@pytest.fixture(scope="session")
def page_shapes(pdf_read) -> Callable[..., dict[str, list[dict[str, Any]]]]:
    """``page_shapes(pdf, page, furniture=False)``: page ``page``'s ``{"rects": ...,
    "lines": ...}``; with ``furniture``, only those drawn on the page itself, outside any form
    (a kit page's cut marks and hairlines, not the art of its pieces' faces)."""
    return lambda pdf, page, furniture=False: pdf_read(
        "furniture_shapes" if furniture else "shapes", pdf, [page])[0]


@pytest.fixture(scope="session")
def page_clips(pdf_read) -> Callable[[Path, int], list[dict[str, Any]]]:
    """``page_clips(pdf, page)``: the clipping paths page ``page`` (from 1) sets itself
    (``pdfread.clips``: bounding box in points from the top-left, and whether curved)."""
    return lambda pdf, page: pdf_read("clips", pdf, [page])[0]


@pytest.fixture(scope="session")
def pypdf_text(pdf_read) -> Callable[[Path, int], str]:
    """``pypdf_text(pdf, page)``: page ``page``'s (from 1) text as pypdf extracts it."""
    return lambda pdf, page: pdf_read("pypdf_text", pdf, [page])[0]


@pytest.fixture(scope="session")
def kit_a4(kits) -> Built:
    return kits(GAME, paper="a4")


@pytest.fixture(scope="session")
def kit_letter(kits) -> Built:
    return kits(GAME, paper="letter")


@pytest.fixture(scope="session", params=["a4", "letter"])
def kit(request, kit_a4, kit_letter) -> Built:
    """The kit on each paper size in turn."""
    return {"a4": kit_a4, "letter": kit_letter}[request.param]


@pytest.fixture(scope="session")
def build_kit(tmp_path_factory):
    """Build the kit with other options into a fresh folder (for one-off comparisons)."""
    def build(**options) -> Built:
        return _build(tmp_path_factory.mktemp("kit"), **options)
    return build


@pytest.fixture(scope="session")
def moving_target_source() -> str:
    return MOVING_TARGET_YAML.read_text(encoding="utf-8")


@pytest.fixture
def game_file(tmp_path, moving_target_source):
    """Write a variant of the Moving Target data file; ``replace`` pairs must each match once.

    Returns the new file's path and the 1-based line number of each replacement.
    """
    def write(*replace: tuple[str, str], name: str = "game.yaml") -> tuple[Path, list[int]]:
        text = moving_target_source
        lines = []
        for old, new in replace:
            assert text.count(old) == 1, f"{old!r} must occur exactly once"
            lines.append(text[: text.index(old)].count("\n") + 1)
            text = text.replace(old, new)
        file = tmp_path / name
        file.write_text(text, encoding="utf-8")
        return file, lines
    return write


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    """Run in a fresh temporary folder (each test starts from the built-ins: fresh_state)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def seed_text() -> Callable[[str], str]:
    """The text of one seed file of ../shared/seeds. Absent, the test is skipped on a
    developer's checkout, but fails under CI=1: CI is given the seeds, so their absence there is
    a broken set-up, not a reason to pass."""
    def read(name: str) -> str:
        seed = SEEDS / name
        if not seed.is_file():
            message = f"the seed texts are not beside this checkout ({seed})"
            if IN_CI:
                pytest.fail(f"{message}; CI=1 needs them", pytrace=False)
            pytest.skip(message)
        return seed.read_text(encoding="utf-8")
    return read


def pytest_terminal_summary(terminalreporter, config) -> None:
    """Print pytest-randomly's seed at the end, where a failure is read (`-q` hides the header
    that names it): a failure that depends on the order is repeated with the same seed."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int) and getattr(config.option, "randomly_reorganize", True):
        terminalreporter.write_line(
            f"random order: repeat it with --randomly-seed={seed} "
            f"(or -p no:randomly for file order)")
