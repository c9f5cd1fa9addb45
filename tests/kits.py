"""What the kit fixtures of conftest.py hand to tests (a module of its own so that test
modules can name the type; conftest.py is not imported by tests)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from generator.layout.manifest import manifest_path
from generator.orchestration.options import BuildOptions


@dataclass(frozen=True)
class Built:
    """One built kit: the options used, where the PDF went and how many pages build_pdf said."""

    opts: BuildOptions
    path: Path
    pages: int

    @property
    def pdf(self) -> Path:
        return self.path

    @cached_property
    def manifest(self) -> dict[str, Any]:
        return json.loads(manifest_path(self.path).read_text(encoding="utf-8"))
