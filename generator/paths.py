"""Where the project's data lives. One place, so tests and tools can point elsewhere."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARD_DATA = ROOT / "card_data"
TEMPLATES = ROOT / "templates"
FACES = TEMPLATES / "faces"
THEMES = TEMPLATES / "themes"
ICONS = TEMPLATES / "icons"
OUTPUT = ROOT / "output"
# Images a face template may draw: this folder, or the folder of the game data file being
# built (see generator/resolve.py, where every file reference is confined).
ART = ROOT / "art"
