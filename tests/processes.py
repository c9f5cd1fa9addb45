"""Running a counting script in a fresh process: what a second process does with the caches a
first one left (compiled code, font tables) is only seen from a new interpreter."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from generator.core import paths


def run_script(script: str, cache: Path, **env: str) -> Any:
    """``script`` run by this interpreter in the checkout, with its own cache folder and no
    results remembered (``PNP_CACHE=0``) plus ``env``; what it printed, read as JSON."""
    done = subprocess.run([sys.executable, "-c", script], cwd=paths.ROOT, check=True,
                          capture_output=True, text=True,
                          env={**os.environ, "PNP_CACHE_DIR": str(cache), "PNP_CACHE": "0",
                               **env})
    return json.loads(done.stdout)
