"""``python -m generator``: see generator/cli.py."""
import sys

from .cli import run

sys.exit(run())
