"""The installable package: a wheel built from the checkout ships the built-in data (templates,
themes, icons, fonts, the starter project, the five games) and the `pnp` command, and an
installed copy works from outside the checkout. Built offline (--no-build-isolation, --no-index)
from a copy of the sources, so the checkout gets no build/ folder."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from generator.core import paths
from generator.data import game_ids

SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "generator",
           "templates", "card_data")


def _setuptools_ok() -> bool:
    try:
        return int(metadata.version("setuptools").split(".")[0]) >= 77
    except (metadata.PackageNotFoundError, ValueError):
        return False


pytestmark = [pytest.mark.slow,  # builds and installs a wheel in a new virtual environment
              pytest.mark.skipif(not _setuptools_ok(),
                                 reason="needs setuptools>=77 (requirements-dev.lock)")]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "builtin")
    for name in SOURCES:
        source = paths.ROOT / name
        if source.is_dir():
            shutil.copytree(source, src / name, ignore=skip)
        else:
            shutil.copy(source, src / name)
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                             "--no-build-isolation", "--no-index", "--disable-pip-version-check",
                             "-q", str(src), "-w", str(out)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    (found,) = out.glob("pnp_generator-*.whl")
    return found


def test_the_wheel_ships_the_built_in_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    base = "generator/builtin/"
    for folder in ("templates/faces", "templates/themes", "templates/icons", "templates/preview"):
        shipped = {n for n in names if n.startswith(base + folder + "/")}
        here = {f"{base}{p.relative_to(paths.ROOT).as_posix()}"
                for p in (paths.ROOT / folder).iterdir() if p.is_file()}
        assert here and here <= shipped, sorted(here - shipped)[:5]
    for game in game_ids():
        assert f"{base}card_data/{game}.yaml" in names, game
    assert len(game_ids()) >= 5
    for file in ("game.yaml", "faces/card.yaml", "faces/card-back.yaml", "faces/token.yaml",
                 "themes/starter.yaml", "icons/sun.yaml", "README.md"):
        assert f"{base}templates/starter/{file}" in names, file
    assert ("generator/frontends/cli.py" in names
            and "generator/rules/moving_target/engine.py" in names)
    assert not any("__pycache__" in n for n in names)


def test_the_wheel_declares_the_command_and_the_runtime_dependencies(wheel):
    archive = zipfile.ZipFile(wheel)
    (entry,) = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "pnp = generator.frontends.cli:run" in archive.read(entry).decode()
    (meta,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    text = archive.read(meta).decode()
    requires = [line.split(":", 1)[1].strip() for line in text.splitlines()
                if line.startswith("Requires-Dist:")]
    runtime = [r for r in requires if "extra ==" not in r]
    locked = (paths.ROOT / "requirements.lock").read_text(encoding="utf-8").lower()
    for name in ("reportlab", "pillow", "jinja2", "pyyaml", "pydantic", "openpyxl",
                 "watchfiles", "fontpkg-atkinson-hyperlegible"):
        pin = next(r for r in runtime if r.lower().startswith(name + "=="))
        assert pin.lower().replace("-", "_") in locked.replace("-", "_"), pin
    # A lean install: no typesetter (rinohtype came with the DejaVu font package, whose files
    # now ship in the wheel with their licence), nothing the tool does not import.
    assert not [r for r in runtime if "rinoh" in r.lower()], runtime
    assert "rinoh" not in locked and "sphinx" not in locked
    names = archive.namelist()
    for font in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
                 "DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf", "LICENSE"):
        assert f"generator/builtin/templates/fonts/dejavu/{font}" in names, font
    assert any("pytest" in r and 'extra == "test"' in r for r in requires)
    assert any("selenium" in r and 'extra == "browser"' in r for r in requires)


def test_an_installed_copy_works_outside_the_checkout(wheel, tmp_path):
    """Unpacked with --target (its dependencies are this environment's): list, init, build."""
    target = tmp_path / "site"
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                             "--disable-pip-version-check", "-q", "--target", str(target),
                             str(wheel)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}

    def pnp(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "generator", *args], cwd=work, env=env,
                              capture_output=True, text=True, timeout=300)

    where = subprocess.run([sys.executable, "-c", "from generator.core import paths; "
                            "print(paths.INSTALLED, paths.BUILTIN)"], cwd=work, env=env,
                           capture_output=True, text=True, timeout=60)
    assert where.stdout.split() == ["True", str(target / "generator" / "builtin")]
    listed = pnp("list")
    assert listed.returncode == 0 and "moving-target: Moving Target" in listed.stdout
    assert pnp("--version").stdout.strip() == "pnp 0.1.0"
    assert pnp("init", "mygame").returncode == 0
    built = pnp("build", "mygame")
    assert built.returncode == 0, built.stderr
    assert (work / "mygame" / "output" / "mygame" / "mygame.pdf").stat().st_size > 10_000
    # The authoring reference goes to the current folder, never into the installed package.
    assert pnp("reference").returncode == 0
    assert "# " in (work / "authoring.md").read_text(encoding="utf-8")
    assert not list(target.rglob("authoring.md"))
