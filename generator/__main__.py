"""``python -m generator``: see generator/frontends/cli.py.

Python put the current folder first on the import path; a project folder there could shadow
any library the tool imports (``jinja2/``, ``json.py``), so it goes first thing
(generator/core/children.py), before anything else is imported. ``python -P -m generator``
keeps it off from the start: needed where the folder could shadow ``generator`` itself or a
module Python imports before this file runs (README.md)."""
import sys

from generator.core.children import drop_cwd

drop_cwd()

from generator.frontends.cli import run  # noqa: E402  (after the path is the tool's)

sys.exit(run())
