"""The command line talks only to the application layer (generator/app.py), never straight
to the data, layout, render or rules stages: a second front end then behaves the same."""
from __future__ import annotations

import ast

from generator import paths

ALLOWED = {"app", "progress"}  # the application layer, and the terminal's progress bar


def test_the_cli_imports_only_the_application_layer():
    tree = ast.parse((paths.ROOT / "generator" / "cli.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            imported |= {node.module} if node.module else {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("generator"):
            imported.add(node.module)
    assert imported and imported <= ALLOWED, imported - ALLOWED
