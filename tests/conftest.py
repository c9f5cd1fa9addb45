"""Shared fixtures: the Moving Target kit built once per session, plus small helpers."""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.core import context, memo, paths
from generator.orchestration.build import BuildOptions, build_pdf

GAME = "moving-target"
MOVING_TARGET_YAML = paths.CARD_DATA / f"{GAME}.yaml"


@dataclass(frozen=True)
class Built:
    """One built kit: the options used, where the PDF went and how many pages build_pdf said."""

    opts: BuildOptions
    path: Path
    pages: int


def _build(out_dir: Path, **options) -> Built:
    opts = BuildOptions(out_dir=out_dir, **options)
    path, pages = build_pdf(GAME, opts)
    return Built(opts, path, pages)


@pytest.fixture(autouse=True)
def fresh_state() -> Iterator[None]:
    """Each test starts as a new process would: no project in use, no language session, no
    file versions (generator/core/context.py), no memo of an earlier test
    (generator/core/memo.py), so no test passes or fails by the order the suite runs in."""
    memo.forget_all()
    context.fresh()
    yield


@pytest.fixture(scope="session", autouse=True)
def pnp_cache_dir(tmp_path_factory) -> Iterator[Path]:
    """The rules engines' on-disk cache (generator/core/cache.py) in a folder of this session's
    own, so tests never write to $HOME and never read a cache another run left."""
    old = os.environ.get("PNP_CACHE_DIR")
    folder = tmp_path_factory.mktemp("pnp-cache")
    os.environ["PNP_CACHE_DIR"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("PNP_CACHE_DIR", None)
    else:
        os.environ["PNP_CACHE_DIR"] = old


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch) -> Path:
    """An empty, enabled cache folder for one test (PNP_CACHE unset whatever the shell says)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    monkeypatch.delenv("PNP_CACHE", raising=False)
    return folder


@pytest.fixture(scope="session")
def kit_a4(tmp_path_factory) -> Built:
    return _build(tmp_path_factory.mktemp("kit-a4"), paper="a4")


@pytest.fixture(scope="session")
def kit_letter(tmp_path_factory) -> Built:
    return _build(tmp_path_factory.mktemp("kit-letter"), paper="letter")


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
