"""Themes: palette, fonts, labels and art choices, layered without code.

A theme file may ``extends:`` another (by name or path); the child overrides any field of the
parent, recursively. A user theme passed as a path extends the game's own theme unless it says
otherwise. Ink-saver mode applies the theme's ``ink_saver`` overrides on top (white backgrounds,
outlines), so every game gets it from its theme file.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import fonts, paths
from .data.yamlfile import YamlDoc, load_yaml
from .errors import DataError

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class Theme:
    name: str
    palette: Mapping[str, str]
    fonts: Mapping[str, str]
    labels: Mapping[str, Any]
    data: Mapping[str, Any]
    ink_saver: bool = False

    def context(self) -> dict[str, Any]:
        """What face templates see of the theme."""
        return {"theme": self.data, "palette": self.palette, "fonts": self.fonts,
                "labels": self.labels, "ink_saver": self.ink_saver}


def merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Recursive override: mappings merge, anything else is replaced."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def theme_file(name: str) -> Path:
    candidate = Path(name)
    if candidate.suffix in (".yaml", ".yml"):
        return candidate
    return paths.THEMES / f"{name}.yaml"


def _load_chain(name: str, default_parent: str | None, seen: tuple[str, ...] = ()
                ) -> tuple[dict[str, Any], list[YamlDoc]]:
    file = theme_file(name)
    if not file.exists():
        known = ", ".join(sorted(p.stem for p in paths.THEMES.glob("*.yaml")))
        raise DataError(file, None, "theme", f"no theme {name!r} (built-in themes: {known})")
    doc = load_yaml(file)
    if not isinstance(doc.data, dict):
        raise doc.error((), "expected a mapping (palette, fonts, labels, ...)")
    parent = doc.data.get("extends", default_parent)
    if parent and str(file.resolve()) in seen:
        raise doc.error(("extends",), "themes extend each other in a loop")
    if not parent:
        return dict(doc.data), [doc]
    base, docs = _load_chain(str(parent), None, seen + (str(file.resolve()),))
    return merge(base, doc.data), docs + [doc]


def _check(data: Mapping[str, Any], docs: list[YamlDoc]) -> None:
    """Validate the merged theme, blaming the file (and line) that set each bad value."""
    def blame(path: tuple[str, ...]) -> YamlDoc:
        for doc in reversed(docs):
            if path in doc.lines:
                return doc
        return docs[-1]

    for section in ("palette", "fonts", "labels"):
        if not isinstance(data.get(section, {}), Mapping):
            path = (section,)
            raise blame(path).error(path, "expected a mapping")
    for key, value in data.get("palette", {}).items():
        if not (isinstance(value, str) and _COLOUR.match(value)):
            path = ("palette", key)
            raise blame(path).error(path, f"expected a colour like #1a2b3c, got {value!r}")
    for key, value in data.get("fonts", {}).items():
        if not (isinstance(value, str) and fonts.known(value)):
            path = ("fonts", key)
            known = ", ".join(fonts.font_files())
            raise blame(path).error(path, f"expected a font key ({known}), got {value!r}")


def load_theme(name: str, game_theme: str | None = None, ink_saver: bool = False) -> Theme:
    """Load a built-in theme by name, or a user theme file (which extends ``game_theme``)."""
    is_user_file = Path(name).suffix in (".yaml", ".yml")
    data, docs = _load_chain(name, game_theme if is_user_file else None)
    if ink_saver:
        data = merge(data, data.get("ink_saver", {}))
    _check(data, docs)
    return Theme(name=str(data.get("name", Path(name).stem)), palette=dict(data.get("palette", {})),
                 fonts=dict(data.get("fonts", {})), labels=dict(data.get("labels", {})),
                 data=data, ink_saver=ink_saver)
