"""``python -m generator``: see generator/frontends/cli.py."""
import sys

from generator.frontends.cli import run

sys.exit(run())
