"""Read YAML while remembering the line of every key, so errors can point at the source line."""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..errors import DataError

Path_ = tuple[Hashable, ...]


@dataclass(frozen=True)
class YamlDoc:
    """Parsed data plus a map from field path (keys and list indices) to 1-based line numbers."""

    file: Path
    data: Any
    lines: dict[Path_, int]

    def line_of(self, path: Path_) -> int | None:
        """The line of ``path`` or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def error(self, path: Path_, expected: str) -> DataError:
        return DataError(self.file, self.line_of(path), format_path(path), expected)


def format_path(path: Path_) -> str:
    """``('components', 0, 'size')`` -> ``components[0].size``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _record_lines(node: yaml.Node, path: Path_, lines: dict[Path_, int]) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
            lines[path + (key,)] = key_node.start_mark.line + 1
            _record_lines(value_node, path + (key,), lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, child in enumerate(node.value):
            _record_lines(child, path + (index,), lines)


def load_yaml(file: Path) -> YamlDoc:
    """Load one YAML document; syntax errors become a DataError with the offending line."""
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(file, None, "", f"cannot read file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise DataError(file, None, "", "expected UTF-8 text") from None
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise DataError(file, line, "", f"invalid YAML: {exc.problem or exc.context}") from None
    finally:
        loader.dispose()
    lines: dict[Path_, int] = {}
    if node is not None:
        _record_lines(node, (), lines)
    return YamlDoc(file, data, lines)
