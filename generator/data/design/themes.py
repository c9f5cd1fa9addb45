"""Themes: palette, fonts, labels and art choices, layered without code.

A theme file may ``extends:`` another (by name or path); the child overrides any field of the
parent, recursively. A user theme passed as a path extends the game's own theme unless it says
otherwise. Ink-saver mode applies the theme's ``ink_saver`` overrides on top (white backgrounds,
outlines), so every game gets it from its theme file.

A theme file given as a path may be anywhere the user points, but what a theme names is
confined (generator/data/files/resolve.py): ``extends:`` is a theme's name or a .yaml file in the
extending file's own folder, and every ``icon:`` value names an icon. Names are looked up
where generator/data/files/project.py says: the project's themes/ (icons/), then the built-in ones;
a project theme may shadow a built-in one and extend it by the same name.

A loaded theme is resolved once: every colour parsed, every font checked (its file read and
registered), every icon it names loaded into its drawing. It carries them (``Theme.known``),
so the faces that draw the theme's parts read them instead of looking them up again.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from generator.core import context
from generator.core.colours import NotAColour, parse_colour
from generator.core.errors import DataError
from generator.core.model import NOTHING_KNOWN, Known
from generator.core.vector import IconDef
from generator.core.words import said
from generator.core.yamlfile import YamlDoc, load_yaml
from generator.data.design.icons import load_icon
from generator.data.files import project, resolve
from generator.data.typefaces import fonts


@dataclass(frozen=True)
class Theme:
    name: str
    palette: Mapping[str, str]
    fonts: Mapping[str, str]
    labels: Mapping[str, Any]
    data: Mapping[str, Any]
    ink_saver: bool = False
    # Its fonts (checked) and icons (loaded), for the faces: left out of equality.
    known: Known = field(default=NOTHING_KNOWN, compare=False)

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


def is_theme_path(name: str) -> bool:
    """A theme named by file (``examples/my-theme.yaml``) rather than by name."""
    return Path(name).suffix in (".yaml", ".yml")


def theme_file(name: str) -> Path:
    """The file of a theme given on the command line or in a data file: a path is taken as
    the user gave it (the loader has made a data file's own path absolute); a name must be a
    theme of the project in use or a built-in one."""
    if is_theme_path(name):
        return Path(name)
    try:
        return resolve.theme_file(name)
    except resolve.Refused as exc:
        raise DataError(project.builtin("themes"), None, "theme", _unknown(name, exc)) from None


def _unknown(name: object, exc: resolve.Refused) -> str:
    if not isinstance(name, str) or not resolve.NAME.match(name):
        return str(exc)
    if not str(exc).startswith("no "):
        return str(exc)  # found but refused (a symlink out of its folder...)
    known = ", ".join(project.known("themes"))
    which = "built-in themes" if len(project.folders("themes")) == 1 else "project and built-in"
    return f"no theme {said(name)} ({which}: {known})"


def _parent_file(doc: YamlDoc, parent: object) -> Path:
    """The theme an ``extends:`` names: a theme name, or a .yaml file beside ``doc``. A theme
    extending its own name (a project's ``standard`` over the built-in one) gets the next
    theme of that name along the search path, not itself."""
    if not isinstance(parent, str):
        raise doc.error(("extends",), f"expected a theme name or a .yaml file, got {said(parent)}")
    try:
        if is_theme_path(parent):
            return resolve.extends_file(parent, doc.file.resolve().parent)
        return resolve.theme_file(parent, skip=doc.file)
    except resolve.Refused as exc:
        raise doc.error(("extends",), _unknown(parent, exc)) from None


def _load_chain(file: Path, default_parent: str | None, seen: tuple[str, ...] = ()
                ) -> tuple[dict[str, Any], list[YamlDoc]]:
    if len(seen) > 20:
        raise DataError(file, None, "extends", "themes extend each other more than 20 deep")
    doc = load_yaml(file)
    if not isinstance(doc.data, dict):
        raise doc.error((), "expected a mapping (palette, fonts, labels, ...)")
    parent = doc.data.get("extends", default_parent)
    if parent and str(file.resolve()) in seen:
        raise doc.error(("extends",), "themes extend each other in a loop")
    if not parent:
        return dict(doc.data), [doc]
    # A user file without ``extends`` extends the game's own theme (a checked name).
    parent_file = _parent_file(doc, parent) if "extends" in doc.data else theme_file(str(parent))
    base, docs = _load_chain(parent_file, None, seen + (str(file.resolve()),))
    return merge(base, doc.data), docs + [doc]


def _check(data: Mapping[str, Any], docs: list[YamlDoc]) -> Known:
    """Validate the merged theme, blaming the file (and line) that set each bad value; its
    fonts (checked) and icons (loaded, with the files each look-up read). The ``ink_saver``
    overrides are checked as written, at their own lines, whether or not this build uses
    them: merged in first, a bad one was blamed on the line of the value it overrides,
    in another file (the built-in theme a user theme extends)."""
    def blame(path: tuple[Any, ...]) -> YamlDoc:
        for doc in reversed(docs):
            if path in doc.lines:
                return doc
        return docs[-1]

    _check_part(data, (), blame)
    if isinstance(data.get("ink_saver"), Mapping):
        _check_part(data["ink_saver"], ("ink_saver",), blame)
    icons: dict[str, context.Sourced[IconDef]] = {}
    for path, value in _icons(data, ()):
        try:
            resolve.icon_file(value)
        except resolve.Refused as exc:
            raise blame(path).error(path, str(exc)) from None
        if value not in icons:  # a broken icon file fails here, naming that file
            icons[value] = context.sourced(partial(load_icon, value))
    return Known(icons=icons, fonts=frozenset(data.get("fonts", {}).values()))


def _check_part(data: Mapping[str, Any], prefix: tuple[Any, ...],
                blame: Callable[[tuple[Any, ...]], YamlDoc]) -> None:
    """The sections, name, colours and fonts of a theme, or of its ``ink_saver`` overrides
    (``prefix``), each bad value at the line of the file that set it."""
    for section in ("palette", "fonts", "labels", "ink_saver"):
        if not isinstance(data.get(section, {}), Mapping):
            path: tuple[Any, ...] = (*prefix, section)
            raise blame(path).error(path, "expected a mapping")
    if not isinstance(data.get("name", ""), str):
        path = (*prefix, "name")
        raise blame(path).error(path, "expected the theme's name as text")
    for key, value in data.get("palette", {}).items():
        try:
            parse_colour(value)
        except NotAColour as exc:
            path = (*prefix, "palette", key)
            raise blame(path).error(path, str(exc)) from None
    for key, value in data.get("fonts", {}).items():
        try:
            fonts.check(value)  # a built-in key or the project's fonts/ file, read once
        except fonts.FontError as exc:
            path = (*prefix, "fonts", key)
            raise blame(path).error(path, str(exc)) from None


def _icons(node: Any, path: tuple[Any, ...]) -> list[tuple[tuple[Any, ...], Any]]:
    """Every value of a key named ``icon`` (an icon name), with its field path."""
    found = []
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "icon":
                found.append((path + (key,), value))
            else:
                found += _icons(value, path + (str(key),))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _icons(value, path + (index,))
    return found


def load_theme(name: str, game_theme: str | None = None, ink_saver: bool = False) -> Theme:
    """Load a built-in theme by name, or a user theme file (which extends ``game_theme``)."""
    is_user_file = is_theme_path(name)
    data, docs = _load_chain(theme_file(name), game_theme if is_user_file else None)
    known = _check(data, docs)  # ink_saver must be a mapping before it is merged
    if ink_saver:
        data = merge(data, data.get("ink_saver", {}))
        known = _check(data, docs)
    palette = {key: parse_colour(value) for key, value in data.get("palette", {}).items()}
    return Theme(name=str(data.get("name", Path(name).stem)), palette=palette,
                 fonts=dict(data.get("fonts", {})), labels=dict(data.get("labels", {})),
                 data=data, ink_saver=ink_saver, known=known)
