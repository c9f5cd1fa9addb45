"""The command line as a designer uses it, for tests that drive it in-process: run a command
and read what it printed, edit one of the project's files in place."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.frontends.cli import main


def run(capsys: Any, *argv: object) -> tuple[int, str, str]:
    """``pnp ARGV...``: the exit code, and what it printed on stdout and stderr."""
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def edit(file: Path, old: str, new: str) -> int:
    """Replace ``old``, which must occur exactly once, by ``new``; the line it was on."""
    text = file.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {file}"
    file.write_text(text.replace(old, new), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def starter(folder: Path) -> Path:
    """A starter project with its own engine (``pnp init --engine``) in ``folder``."""
    from generator.data.files import project

    project.init_project(folder, engine=True)
    return folder
