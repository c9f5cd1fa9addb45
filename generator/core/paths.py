"""Where the built-in data lives: templates, themes, icons, fonts and the five games.

Two layouts, one set of names. In a checkout the folders sit at the repository's root
(``templates/``, ``card_data/``), where the project layout wants them. An installed copy
(``pip install .``) carries the same folders inside the package, under ``generator/builtin/``
(copied there when the wheel is built: see setup.py); they are found there when present.

These are the *built-in* locations only. What a build actually searches (a project folder
first, then these) is decided by generator/data/files/project.py; code looks things up through it.
"""
from __future__ import annotations

from pathlib import Path

# generator/ (this file is generator/core/paths.py)
PACKAGE = Path(__file__).resolve().parent.parent
# The checkout's root (for the Makefile, docs and tests); an installed package has none.
ROOT = PACKAGE.parent
_INSTALLED = PACKAGE / "builtin"
INSTALLED = (_INSTALLED / "templates").is_dir() and (_INSTALLED / "card_data").is_dir()
BUILTIN = _INSTALLED if INSTALLED else ROOT

CARD_DATA = BUILTIN / "card_data"
TEMPLATES = BUILTIN / "templates"
FACES = TEMPLATES / "faces"
THEMES = TEMPLATES / "themes"
ICONS = TEMPLATES / "icons"
STARTER = TEMPLATES / "starter"
# Font files shipped with their licence (DejaVu Sans: no pinned PyPI package carries it
# without a typesetter's dependencies); the other built-in fonts come from a pinned package.
FONTS = TEMPLATES / "fonts"
# Images a face template may draw: this folder, or the folder of the game data file being
# built (see generator/data/files/resolve.py, where every file reference is confined).
ART = BUILTIN / "art"
# Built-in games write their kits here: the checkout's output/ in development; the current
# folder's output/ when installed (a package folder is no place for kits). A project's kits go
# to its own output/ folder (generator/data/files/project.py).
OUTPUT = Path.cwd() / "output" if INSTALLED else ROOT / "output"


def user_folder(explicit: str, xdg: str, fallback: str) -> Path | None:
    """A folder of the user's for this tool (caches, config), per the XDG base directories:
    the environment variable ``explicit`` when set (tests point it at a temporary folder),
    else ``$<xdg>/pnp`` (an absolute path only, as the spec says), else ``~/<fallback>/pnp``;
    None when no home is known."""
    import os

    named = os.environ.get(explicit)
    if named:
        return Path(named)
    base = os.environ.get(xdg)
    if base and os.path.isabs(base):
        return Path(base) / "pnp"
    try:
        return Path.home() / fallback / "pnp"
    except (RuntimeError, KeyError, OSError):
        return None


def version() -> str:
    """This tool's version. Run from a checkout, its pyproject.toml says (an editable or
    stale install's metadata may lag behind the code that runs); installed, the
    distribution's metadata."""
    import tomllib

    if not INSTALLED:
        try:
            with open(ROOT / "pyproject.toml", "rb") as fh:
                return str(tomllib.load(fh)["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            pass
    from importlib import metadata  # only installed: its import is most of `pnp --version`

    try:
        return metadata.version("pnp-generator")
    except metadata.PackageNotFoundError:
        return "unknown"
