"""Hostile reproductions run as a user runs them: the command line in a child process whose
address space is capped (``RLIMIT_AS``), so a reproduction that allocates past the cap fails
the test by its message (a MemoryError, or the kernel's kill) instead of taking the machine.

A CPU-time limit is set too, far above any honest run: a backstop so that a regression ends
the child instead of hanging the suite, never a measurement (no test asserts seconds)."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from generator.core import paths

LIMIT_MB = 500  # issue 24: every hostile reproduction within 500 MB
BACKSTOP_CPU_SECONDS = 120


def pnp_limited(args: Sequence[str | Path], limit_mb: int = LIMIT_MB,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m generator ARGS`` with its address space capped at ``limit_mb``; the face
    cache off unless ``env`` says otherwise."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb * 2**20, limit_mb * 2**20))
        resource.setrlimit(resource.RLIMIT_CPU, (BACKSTOP_CPU_SECONDS, BACKSTOP_CPU_SECONDS))

    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)],
                          cwd=paths.ROOT, capture_output=True, text=True, preexec_fn=cap,
                          env={**os.environ, "PNP_CACHE": "0", **(env or {})}, check=False)


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The single ``error:`` line a refused reproduction must end with (no traceback)."""
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr + result.stdout, result.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr[-2000:]
    return lines[0]
