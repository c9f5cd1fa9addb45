"""Face templates found, read and checked: by name, and for a whole game at load time.

A template's name is looked up where generator/data/files/project.py says (an including
template's own folder first, then the project's faces/, then the built-in ones), each folder
confined by generator/data/files/resolve.py; the file is parsed once per version of its content
(generator/core/context.py) and must be a mapping with an ``elements`` list and, if any, a
``vars`` mapping. What the elements draw is checked where they are drawn
(generator/faces/template.py), since it depends on each item.

``known_faces`` loads, when a game is loaded, every template its components name, the
templates those include by a fixed name (not ``include: "{{ ... }}"``) and the icons their
elements name by a fixed name (``icon: {name: sun}``), so drawing reads them from the model
(``Known``) instead of looking them up for each piece.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from generator.core import context, memo
from generator.core.errors import DataError
from generator.core.model import MAX_INCLUDE_DEPTH, FaceTemplate, Known, TemplateKey
from generator.core.vector import IconDef
from generator.core.yamlfile import load_yaml
from generator.data.design.icons import load_icon
from generator.data.files import resolve


def load_template(name: str, folder: Path | None = None) -> FaceTemplate:
    """A face template by name: ``folder`` first when given (an including template's own),
    then where generator/data/files/project.py looks (the project's faces/, then the built-in
    ones), each confined by generator/data/files/resolve.py. The name is looked up at every call
    (the project in use may change); the file is read once per version (its content:
    generator/core/context.py)."""
    file = resolve.template_file(name, folder, "face")
    return _template_at(name, file, context.version(file))


@memo.memo
def _template_at(name: str, file: Path, version: str | None) -> FaceTemplate:
    doc = load_yaml(file)
    if not isinstance(doc.data, dict) or not isinstance(doc.data.get("elements"), list):
        raise doc.error((), "expected a mapping with an 'elements' list")
    if not isinstance(doc.data.get("vars", {}), dict):
        raise doc.error(("vars",), "expected a mapping of name: expression")
    return FaceTemplate(name, doc)


load_template.cache_clear = _template_at.cache_clear  # type: ignore[attr-defined]


def static_includes(template: FaceTemplate) -> list[str]:
    """The names ``template`` includes as written (``include: rules-section``), in order,
    once each; a name made by an expression is known only while drawing and is left out."""
    return _fixed(template, lambda node: node.get("include"))


def static_icons(template: FaceTemplate) -> list[str]:
    """The icons ``template``'s elements name as written (``icon: {name: sun}``)."""
    return _fixed(template, lambda node: node["icon"].get("name")
                  if isinstance(node.get("icon"), dict) else None)


def _fixed(template: FaceTemplate, pick: Callable[[dict[Any, Any]], Any]) -> list[str]:
    """What ``pick`` finds in any mapping of the elements, kept when it is a fixed name."""
    found: dict[str, None] = {}

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for child in node:
                walk(child)
        elif isinstance(node, dict):
            name = pick(node)
            if isinstance(name, str) and "{" not in name:
                found.setdefault(name)
            for child in node.values():
                walk(child)

    walk(template.doc.data.get("elements"))
    return list(found)


def known_faces(names: Iterable[str]) -> Known:
    """The templates ``names`` (a game's components' faces and backs), loaded and checked,
    with every template they include by a fixed name (as deep as drawing may include), and
    every icon these name by a fixed name. A template named by the game that cannot be
    loaded raises its DataError; an include or icon that cannot is left to be reported
    where it is drawn, at its own line (it may sit in a branch no piece takes)."""
    templates: dict[TemplateKey, context.Sourced[FaceTemplate]] = {}
    for name in dict.fromkeys(names):
        loaded = context.sourced(partial(load_template, name))
        templates[(name, None)] = loaded
        for key, include in _includes(loaded.value, 1):
            templates.setdefault(key, include)
    icons: dict[str, context.Sourced[IconDef]] = {}
    for loaded in templates.values():
        for icon in static_icons(loaded.value):
            if icon not in icons:
                try:
                    icons[icon] = context.sourced(partial(load_icon, icon))
                except DataError:
                    continue  # reported where it is drawn
    return Known(icons=icons, templates=templates)


def family(name: str) -> list[FaceTemplate]:
    """The template ``name`` and those it includes by a fixed name, as deep as drawing may
    include, once each (an include that cannot be loaded is left out: reported where it is
    drawn). What a component's face reads, for generator/data/tables/fields.py."""
    found: dict[TemplateKey, FaceTemplate] = {(name, None): load_template(name)}
    for key, loaded in _includes(found[(name, None)], 1):
        found.setdefault(key, loaded.value)
    return list(found.values())


def _includes(template: FaceTemplate, depth: int
              ) -> Iterator[tuple[TemplateKey, context.Sourced[FaceTemplate]]]:
    if depth > MAX_INCLUDE_DEPTH:
        return
    folder = template.file.parent
    for name in static_includes(template):
        try:
            loaded = context.sourced(partial(load_template, name, folder))
        except DataError:
            continue  # reported where it is drawn, at the including line
        yield (name, str(folder)), loaded
        yield from _includes(loaded.value, depth + 1)
