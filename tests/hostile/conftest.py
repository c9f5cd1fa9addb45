"""What the hostile reproductions share: a fresh ``pnp init`` project to make hostile."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.frontends.cli import main


@pytest.fixture
def starter(tmp_path: Path) -> Path:
    """The starter project, made through the command a stranger's user would run."""
    assert main(["init", str(tmp_path / "game")]) == 0
    return tmp_path / "game"
