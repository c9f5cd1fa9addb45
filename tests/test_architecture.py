"""The walls of docs/architecture.md, held by tests.

- the layer, ground-floor and command-line contracts of ``[tool.importlinter]`` in
  pyproject.toml (import-linter, which counts every import form: top-level, deferred inside a
  function, and ``if TYPE_CHECKING:``);
- no import cycles, between modules or between packages (grimp's graph, the same one);
- no module imports another module's ``_private`` names.

A wall here fails with the import that breaks it, so a newcomer sees which line to move.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp
import pytest

from generator.core import paths

PACKAGE = paths.ROOT / "generator"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("generator", include_external_packages=False)


def test_the_import_contracts_hold():
    # import-linter's own command, as `make test` and a developer run it (its in-process API
    # needs settings only the command sets up)
    command = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(command), "--no-cache", "--config",
                             str(paths.ROOT / "pyproject.toml")], cwd=paths.ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycles_finds_a_cycle_and_nothing_else():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back(graph):
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    # A package's __init__ importing its own submodules is how it offers its interface;
    # a submodule importing its package back is then the cycle this test is about.
    assert cycles(edges) == []


def package_of(module: str) -> str:
    """The package a module belongs to: the module itself for a package, else its parent."""
    path = PACKAGE.parent.joinpath(*module.split("."))
    return module if path.is_dir() else module.rpartition(".")[0]


def test_no_package_imports_itself_back(graph):
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        source = package_of(module)
        for target in graph.find_modules_directly_imported_by(module):
            target_package = package_of(target)
            # a package may use its own subpackages, and they the package's modules
            related = (target_package.startswith(source + ".")
                       or source.startswith(target_package + ".") or target_package == source)
            if not related:
                edges.setdefault(source, set()).add(target_package)
    assert cycles(edges) == []


def private_imports() -> list[str]:
    """``from x import _name`` across modules, anywhere in generator/."""
    found = []
    for file in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{file.relative_to(paths.ROOT)}:{node.lineno} {alias.name}")
    return found


@pytest.mark.slow
def test_no_module_imports_another_modules_private_names():
    assert private_imports() == []
