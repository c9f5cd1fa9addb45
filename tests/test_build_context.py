"""One state per build (generator/core/context.py) and one registry of memo tables
(generator/core/memo.py): two projects built in one process, at once, on two threads, print the
very bytes each prints built alone in a process of its own.

The two differ in everything a build keeps besides its arguments: a built-in game in French
(the built-ins' faces and icons, a language session with catalogues) and a ``pnp init``
project in English with faces, icons and a theme of its own and a font of its own (a
ReportLab registration), each with the face cache on (cold the first time, warm after)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import reportlab

from generator.core import context, memo, paths
from generator.data.files import project
from generator.orchestration.build import build_pdf
from generator.orchestration.options import BuildOptions

BUILDS = 3  # per thread: the first draws, the others find their faces in the cache
VERA = Path(reportlab.__file__).parent / "fonts"

ALONE = """
import sys
from pathlib import Path
from generator.orchestration.build import build_pdf
from generator.orchestration.options import BuildOptions
game, lang, out = sys.argv[1:]
build_pdf(game, BuildOptions(lang=lang, out_dir=Path(out)))
"""


def files(folder: Path) -> dict[str, bytes]:
    """Every file a build wrote, by its path inside the output folder."""
    return {str(f.relative_to(folder)): f.read_bytes() for f in sorted(folder.rglob("*"))
            if f.is_file() and f.name != ".lock"}


@pytest.fixture
def starter(tmp_path) -> Path:
    """A ``pnp init`` project whose theme draws its titles in a font of its own."""
    folder = tmp_path / "starter"
    project.init_project(folder)
    (folder / "fonts").mkdir()
    shutil.copy(VERA / "VeraBd.ttf", folder / "fonts" / "Own-Bold.ttf")
    with (folder / "themes" / "starter.yaml").open("a", encoding="utf-8") as theme:
        theme.write("fonts:\n  title: Own-Bold\n")
    return folder / "game.yaml"


@pytest.mark.slow
def test_two_projects_on_two_threads_print_what_each_prints_alone(starter, tmp_path,
                                                                  fresh_cache):
    jobs = {"built-in": ("moving-target", "fr"), "project": (str(starter), "en")}
    alone: dict[str, dict[str, bytes]] = {}
    for name, (game, lang) in jobs.items():
        out = tmp_path / "alone" / name
        subprocess.run([sys.executable, "-c", ALONE, game, lang, str(out)], check=True,
                       cwd=paths.ROOT, env={**os.environ, "PNP_CACHE": "0"})
        alone[name] = files(out)
        assert any(path.endswith(".pdf") for path in alone[name])

    start = threading.Barrier(len(jobs))
    failures: list[BaseException] = []

    def builds(name: str) -> None:
        game, lang = jobs[name]
        try:
            start.wait()
            for round_ in range(BUILDS):
                build_pdf(game, BuildOptions(lang=lang, out_dir=tmp_path / name / str(round_)))
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)  # the threads take turns often: every stage interleaves
    try:
        threads = [threading.Thread(target=builds, args=(name,)) for name in jobs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(before)
    if failures:
        raise failures[0]
    for name in jobs:
        for round_ in range(BUILDS):
            assert files(tmp_path / name / str(round_)) == alone[name], (name, round_)
    assert list(fresh_cache.glob("faces-*.json")), "the face cache was in use"


def test_a_thread_starts_from_the_built_ins_whatever_another_thread_uses(tmp_path):
    """The project in use, the game folder and the language session are per context: a
    thread never sees the main thread's."""
    project.use(project.Project(tmp_path))
    context.current().game_folder = tmp_path
    seen: list[object] = []

    def look() -> None:
        ctx = context.current()
        seen.extend([project.current(), ctx.game_folder, ctx.session])

    thread = threading.Thread(target=look)
    thread.start()
    thread.join()
    assert seen == [project.BUILTINS, None, None]
    assert project.current().root == tmp_path


@pytest.mark.slow
def test_a_build_leaves_the_callers_state_as_it_was(tmp_path):
    project.use(project.Project(tmp_path))
    build_pdf("moving-target", BuildOptions(out_dir=tmp_path / "out"))
    assert project.current().root == tmp_path  # the build's project was its own


def test_every_memo_table_is_registered_and_forgotten_at_once():
    """No ``functools`` cache is left outside the registry in the modules this part owns;
    ``forget_all`` empties every table but the code's (the running code's digests)."""
    from generator.data.design import templates
    from generator.data.files import resolve
    from generator.faces import face_cache

    names = memo.tables()
    for table in ("generator.data.design.templates._template_at",
                  "generator.data.design.icons._icon_at",
                  "generator.data.files.resolve._found_template",
                  "generator.data.files.resolve.check_image",
                  "generator.data.typefaces.fonts._WIDTHS", "generator.core.yamlfile._MEMO",
                  "generator.data.translation.i18n_files._messages_at",
                  "generator.faces.face_cache.code_digest",
                  "generator.core.cache.code_digest"):
        assert table in names, table
    templates.load_template("playing-card")
    face_cache.code_digest(("generator.orchestration.drawing",))
    held = face_cache.code_digest.cache_info().currsize
    assert templates._template_at.cache_info().currsize and held
    memo.forget_all()
    assert templates._template_at.cache_info().currsize == 0
    assert resolve.check_image.cache_info().currsize == 0
    assert face_cache.code_digest.cache_info().currsize == held  # the code did not change


def test_files_are_read_by_content_once_per_build(tmp_path):
    file = tmp_path / "a.yaml"
    file.write_text("x: 1\n", encoding="utf-8")
    outside = context.version(file)
    stat = os.stat(file)
    file.write_text("x: 2\n", encoding="utf-8")
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same time
    assert context.version(file) != outside  # outside a build: read at every call
    with context.building():
        inside = context.version(file)
        file.write_text("x: 3\n", encoding="utf-8")
        assert context.version(file) == inside  # a build reads a file once
        with context.recording() as read:
            context.version(tmp_path / "absent.yaml")
            context.listing_version(tmp_path / "nothing")
        assert read == {str(tmp_path / "absent.yaml"): None,
                        os.path.join(str(tmp_path / "nothing"), ""): None}


# Modules other parts of the work are rewriting: their tables join the registry there.
# Nothing else may keep a table of its own.
NOT_YET: set[str] = set()


def test_no_memo_table_outside_the_registry():
    import re

    unregistered = re.compile(r"lru_cache|functools\.cache\b|^\s*@cache\b"
                              r"|from functools import [^\n]*\bcache\b", re.M)
    found = sorted(str(f.relative_to(paths.PACKAGE)) for f in paths.PACKAGE.rglob("*.py")
                   if unregistered.search(f.read_text(encoding="utf-8")))
    assert set(found) - NOT_YET == {"core/memo.py"}, found
