"""The import path holds only the tool (issue 35, deliver 1).

A project folder ships modules named like the ones the tool imports (``multiprocessing/``,
``jinja2/``, ``json.py``; ``generator/`` itself), each writing a marker file when imported.
Every command is run from inside the folder as a user would (``python -m generator ...``), the
children it starts with each start method forced (``PNP_START_METHOD``:
generator/core/children.py), and no marker may ever appear: the current folder is dropped
first thing by ``python -m generator``, and every child starts with ``PYTHONSAFEPATH=1`` (a
``python -c`` child, as spawn and forkserver start, would otherwise put it first).

``generator/`` can only be kept out by the interpreter itself (``python -P -m generator``, as
the README says): the module named on the command line is found before any of the tool runs.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from generator.core import children, paths
from generator.frontends.cli import main

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

SHADOWS = ("multiprocessing", "jinja2", "json", "generator")
PATIENCE_S = 240  # how long a child may take before the test gives up on it (no assertion)


def hostile_project(tmp_path: Path, shadows: tuple[str, ...]) -> tuple[Path, Path]:
    """A project with its own engine (trusted), shipping a module for each name of
    ``shadows`` that leaves a marker in the returned folder when imported."""
    folder, marks = tmp_path / "g", tmp_path / "marks"
    marks.mkdir()
    assert main(["init", str(folder), "--engine"]) == 0
    for name in shadows:
        code = f"open({str(marks / name)!r}, 'w').close()\n"
        if name == "json":
            (folder / "json.py").write_text(code, encoding="utf-8")
        else:
            (folder / name).mkdir()
            (folder / name / "__init__.py").write_text(code, encoding="utf-8")
            if name == "generator":
                (folder / name / "__main__.py").write_text(code, encoding="utf-8")
    assert main(["trust", str(folder)]) == 0
    return folder, marks


def environment(method: str | None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    for name in ("PYTHONSAFEPATH", children.METHOD_ENV, "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    if method is not None:
        env[children.METHOD_ENV] = method
    return env


def pnp(folder: Path, *argv: str, method: str | None = None, safe: bool = False
        ) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, *(["-P"] if safe else []), "-m", "generator", *argv]
    return subprocess.run(command, cwd=folder, env=environment(method), capture_output=True,
                          text=True, timeout=PATIENCE_S)


def started(folder: Path, *argv: str, method: str | None = None, safe: bool = False
            ) -> subprocess.Popen[str]:
    """A command that runs until Ctrl-C (watch, serve), from inside ``folder``."""
    command = [sys.executable, *(["-P"] if safe else []), "-m", "generator", *argv]
    return subprocess.Popen(command, cwd=folder, env=environment(method),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def stop(child: subprocess.Popen[str]) -> str:
    if child.poll() is None:
        child.send_signal(signal.SIGINT)
    try:
        rest, _ = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    return rest or ""


def no_marks(marks: Path, what: str) -> None:
    assert not sorted(p.name for p in marks.iterdir()), f"{what} imported from the project"


@pytest.fixture(autouse=True)
def config(tmp_path, monkeypatch) -> None:
    """The trust file of this test's own (the children inherit it)."""
    monkeypatch.setenv("PNP_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("PNP_TRUST_RUN", raising=False)


@pytest.fixture
def shadowed(tmp_path) -> tuple[Path, Path]:
    """Every shadow but ``generator/`` (which needs ``-P``: see the module docstring)."""
    return hostile_project(tmp_path, SHADOWS[:-1])


def test_building_verifying_and_exporting_import_nothing_from_the_folder(shadowed):
    folder, marks = shadowed
    for argv in (["build", "."], ["verify", "."], ["png", ".", "--jobs", "2"],
                 ["preview", ".", "--n", "20"]):
        done = pnp(folder, *argv)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (argv, done.stderr)
        no_marks(marks, " ".join(argv))


@pytest.mark.parametrize("method", [None, "spawn", "forkserver"])
def test_simulating_imports_nothing_from_the_folder_whatever_the_start_method(shadowed,
                                                                               method):
    folder, marks = shadowed
    done = pnp(folder, "simulate", ".", "--n", "30", "--players", "2", "--jobs", "2",
               method=method)
    assert done.returncode == 0 and "seat 1:" in done.stdout, done.stderr
    no_marks(marks, f"simulate ({method or 'default'})")


def test_watching_imports_nothing_from_the_folder(shadowed):
    folder, marks = shadowed
    child = started(folder, "watch", ".")
    try:
        assert child.stdout is not None
        lines = []
        while child.poll() is None and not any("built" in line for line in lines):
            lines.append(child.stdout.readline())
        assert any("built" in line for line in lines), lines
    finally:
        rest = stop(child)
    assert "Traceback" not in "".join(lines) + rest
    no_marks(marks, "watch")


def serve_until_played(folder: Path, method: str | None, safe: bool = False) -> dict:
    """``pnp serve`` from inside ``folder`` until its play child has reported; its state."""
    child = started(folder, "serve", "--no-open", method=method, safe=safe)
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=(\S+)", first)
        assert found, first + stop(child)
        end = time.monotonic() + PATIENCE_S
        while True:
            with urllib.request.urlopen(f"{found.group(1)}/api/state?token={found.group(2)}",
                                        timeout=30) as answer:
                state = json.loads(answer.read())
            if state["play"] is not None or time.monotonic() > end:
                return state
            time.sleep(0.2)
    finally:
        rest = stop(child)
        assert "Traceback" not in rest, rest


@pytest.mark.parametrize("method", [None, "forkserver"])
def test_the_studios_play_child_imports_nothing_from_the_folder(shadowed, method):
    """The play child is started with spawn (a fresh interpreter, ``python -c``): the hole
    of issue 35, where the project's ``multiprocessing/__init__.py`` ran untrusted."""
    folder, marks = shadowed
    state = serve_until_played(folder, method)
    assert state["play"] and "seat win rate" in state["play"]["text"], state["play"]
    no_marks(marks, f"serve ({method or 'spawn'})")


def test_a_project_shipping_generator_runs_the_tool_with_python_p(tmp_path):
    """``python -P -m generator`` (the README's advice where a folder could shadow the tool):
    every shadow, ``generator/`` too, and the children started with spawn."""
    folder, marks = hostile_project(tmp_path, SHADOWS)
    done = pnp(folder, "build", ".", safe=True)
    assert done.returncode == 0, done.stderr
    done = pnp(folder, "simulate", ".", "--n", "30", "--players", "2", "--jobs", "2",
               method="spawn", safe=True)
    assert done.returncode == 0 and "seat 1:" in done.stdout, done.stderr
    state = serve_until_played(folder, None, safe=True)
    assert state["play"] and "seat win rate" in state["play"]["text"], state["play"]
    no_marks(marks, "python -P -m generator")


def test_every_child_starts_with_a_safe_path_and_without_the_current_folder(tmp_path,
                                                                              monkeypatch):
    """In-process: ``children.context`` sets PYTHONSAFEPATH for every child to come and
    takes the current folder (not the tool's own checkout) off the path they copy."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", ["", str(tmp_path), *sys.path])
    assert children.context("spawn").get_start_method() == "spawn"
    assert os.environ["PYTHONSAFEPATH"] == "1"
    assert "" not in sys.path and str(tmp_path) not in sys.path
    monkeypatch.setenv(children.METHOD_ENV, "forkserver")
    assert children.context("spawn").get_start_method() == "forkserver"
    assert children.context("fork").get_start_method() == "fork"  # fork needs the parent
    monkeypatch.chdir(children.TOOL_ROOT)  # the checkout itself: kept
    monkeypatch.setattr(sys, "path", ["", *sys.path])
    children.drop_cwd()
    assert "" in sys.path
