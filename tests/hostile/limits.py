"""Hostile reproductions run as a user runs them: the command line in a child process whose
address space is capped (``RLIMIT_AS``), so a reproduction that allocates past the cap fails
the test by its message (a MemoryError, or the kernel's kill) instead of taking the machine.

Reproductions that are small data edits (no bomb: each is there to show the one-line error
holds under the cap too) run together, one after another, in one capped child
(``pnp_limited_each``), as ``pnp watch`` runs build after build in one process: the cap then
holds for each and for all of them together, and the suite starts one interpreter, not one
per case.

A CPU-time limit is set too, far above any honest run: a backstop so that a regression ends
the child instead of hanging the suite, never a measurement (no test asserts seconds)."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace

from generator.core import paths

LIMIT_MB = 500  # issue 24: every hostile reproduction within 500 MB
BACKSTOP_CPU_SECONDS = 120


def capped(limit_mb: int) -> Callable[[], None]:
    """What a child runs before the command: its address space and CPU time capped."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb * 2**20, limit_mb * 2**20))
        resource.setrlimit(resource.RLIMIT_CPU, (BACKSTOP_CPU_SECONDS, BACKSTOP_CPU_SECONDS))
    return cap


def pnp_limited(args: Sequence[str | Path], limit_mb: int = LIMIT_MB,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m generator ARGS`` with its address space capped at ``limit_mb``; the face
    cache off unless ``env`` says otherwise."""
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)],
                          cwd=paths.ROOT, capture_output=True, text=True,
                          preexec_fn=capped(limit_mb),
                          env={**os.environ, "PNP_CACHE": "0", **(env or {})}, check=False)


_EACH = """
import contextlib, io, json, sys
from generator.frontends.cli import main
done = []
for args in json.loads(sys.stdin.read()):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    done.append([code, out.getvalue(), err.getvalue()])
print(json.dumps(done))
"""


def _without_safe_path() -> dict[str, str]:
    """This environment less ``PYTHONSAFEPATH``, which the tool sets for its own children once
    it starts one (generator/core/children.py): the ``python -c`` child here imports the
    checkout from its working folder."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONSAFEPATH"}


def pnp_limited_each(runs: Sequence[Sequence[str | Path]], limit_mb: int = LIMIT_MB,
                     env: dict[str, str] | None = None) -> list[SimpleNamespace]:
    """Each ``pnp ARGS`` of ``runs``, one after another in one child capped as
    ``pnp_limited``'s, through the command line's ``main`` (its exit code and what it
    printed): ``returncode``, ``stdout`` and ``stderr`` of each, in order."""
    child = subprocess.run([sys.executable, "-c", _EACH], cwd=paths.ROOT, capture_output=True,
                           text=True, preexec_fn=capped(limit_mb), check=False,
                           input=json.dumps([[str(a) for a in args] for args in runs]),
                           env={**_without_safe_path(), "PNP_CACHE": "0", **(env or {})})
    assert child.returncode == 0, child.stderr[-3000:]  # a traceback: a bug, or the cap hit
    return [SimpleNamespace(returncode=code, stdout=out, stderr=err)
            for code, out, err in json.loads(child.stdout)]


def one_error_line(result: subprocess.CompletedProcess[str] | SimpleNamespace) -> str:
    """The single ``error:`` line a refused reproduction must end with (no traceback)."""
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr + result.stdout, result.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr[-2000:]
    return lines[0]
