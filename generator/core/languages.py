"""Which kit languages exist: one furniture messages file each (templates/messages/<code>.yaml).

On the ground floor, apart from the catalogues themselves
(generator/data/translation/i18n_files.py), so the command line can offer ``--lang`` choices without
loading YAML or the data layer.
"""
from __future__ import annotations

import re
from pathlib import Path

from generator.core import paths

SOURCE = "en"  # the language every kit text is written in
LANG = re.compile(r"^[a-z]{2,3}$")


def messages_folder() -> Path:
    return paths.TEMPLATES / "messages"


def languages() -> tuple[str, ...]:
    """The kit languages offered: one furniture messages file each, English first."""
    found = sorted(p.stem for p in messages_folder().glob("*.yaml") if LANG.match(p.stem))
    return tuple(sorted(found, key=lambda code: code != SOURCE))
