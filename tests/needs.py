"""The programs and libraries outside Python's packages that some tests need, and what a run
does without one: on a developer's machine the test is skipped, naming what to install; under
CI=1 it fails, naming the same, for a CI run must not pass by skipping what it was meant to
check (.ci/run installs poppler-utils, chromium and chromium-driver; PyYAML's wheel brings
libyaml). A test says what it needs with ``@pytest.mark.needs("browser")`` (conftest.py reads
the mark before the test runs), or calls ``need("poppler")`` where it starts the program."""
from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Callable

import pytest

# CI sets CI (to 1 or true): a run there must not pass by skipping what it was meant to check.
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def chromium() -> str | None:
    """The chromium browser's program, by either of its usual names."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromedriver() -> str | None:
    return shutil.which("chromedriver")


def _libyaml() -> bool:
    from generator.core import yamlfast

    return yamlfast.AVAILABLE


# name: (whether it is here, what is missing and how to install it)
TOOLS: dict[str, tuple[Callable[[], bool], str]] = {
    "browser": (lambda: bool(chromium() and chromedriver()
                             and importlib.util.find_spec("selenium")),
                "chromium, chromedriver and selenium (apt-get install chromium chromium-driver;"
                " selenium comes with requirements-dev.lock)"),
    "poppler": (lambda: shutil.which("pdftoppm") is not None,
                "poppler's pdftoppm (apt-get install poppler-utils)"),
    "libyaml": (_libyaml,
                "PyYAML built with libyaml, yaml.CLoader (the PyYAML wheels of"
                " requirements-dev.lock carry it; a PyYAML built from source needs"
                " libyaml-dev first)"),
}


def need(name: str) -> None:
    """Return if ``name`` (a key of TOOLS) is here; else skip the calling test, or under CI=1
    fail it, with one line naming what to install."""
    present, what = TOOLS[name]
    if present():
        return
    if IN_CI:
        pytest.fail(f"not found, and CI=1 needs it: {what}", pytrace=False)
    pytest.skip(f"not found: {what}")
