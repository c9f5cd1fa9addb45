"""Build hook: ship the built-in data inside the package.

In the checkout the built-in templates, themes, icons, fonts, the starter project and the five
games stay where the project layout wants them (``templates/``, ``card_data/`` at the root).
A wheel (``pip install .``) carries them as ``generator/builtin/templates`` and
``generator/builtin/card_data``, where generator/core/paths.py finds them. An editable install
copies nothing: it runs from the checkout, whose folders paths.py finds directly.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SHIPPED = ("templates", "card_data")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")


class BuildWithData(build_py):
    """build_py, then the built-in data folders copied into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "generator" / "builtin"
        for name in SHIPPED:
            source = HERE / name
            if not source.is_dir():
                raise SystemExit(f"cannot build: {source} is missing")
            shutil.rmtree(target / name, ignore_errors=True)
            shutil.copytree(source, target / name, ignore=SKIP)


setup(cmdclass={"build_py": BuildWithData})
