"""JSON Schema files for editors: ``python -m generator schema [--out DIR]``.

An editor with a YAML language server (VS Code's YAML extension, and others built on
``yaml-language-server``) offers completion, hover text and inline errors for a YAML file
once it knows the file's JSON Schema. Three are written:

- ``game.schema.json``: a game data file, made from the pydantic models that validate it
  (``generator/data/tables/schema.py``: ``GameSpec``), so it follows them as they change;
- ``face.schema.json``: a face template, made from the element kinds' specs
  (``generator/core/elements.py``) plus the ``each``/``if``/``include``
  control elements;
- ``theme.schema.json``: a theme, from the rules ``generator/data/design/themes.py`` enforces;
- ``icon.schema.json``: a YAML icon (``generator/data/design/icons.py``: a view box and shapes);
- ``messages.schema.json``: a translation catalogue (``generator/data/translation/i18n_files.py``:
  ``strings`` and ``furniture``).

``editor_settings`` maps them onto a project's files for VS Code's YAML extension
(``.vscode/settings.json``, written by ``pnp init``).

Everything is built at run time from those tables, never copied, so a new field shows up
in the schemas (and in docs/authoring.md, written from the same functions) when they are
regenerated. The schemas are a guide for editors: the loaders stay the authority (they also
check what a schema cannot say, such as table names a component refers to). Output is
deterministic (sorted keys), so the same code writes the same bytes.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generator.core.colours import HEX_PATTERN, NAMES

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
# Any value of a face template (and some of a data file) may be a Jinja expression.
EXPRESSION: dict[str, Any] = {"type": "string", "pattern": r"\{[{%]",
                              "description": "an expression, e.g. \"{{ W / 2 }}\""}
COLOUR_PATTERN = HEX_PATTERN  # #rgb(a) or #rrggbb(aa); a CSS name is the other choice
COLOUR: dict[str, Any] = {"anyOf": [{"type": "string", "pattern": COLOUR_PATTERN},
                                    {"enum": list(NAMES)}]}
# What each type of the primitive field table accepts (besides an expression).
FIELD_TYPES: dict[str, tuple[str, dict[str, Any]]] = {
    "num": ("number", {"type": "number"}),
    "str": ("text", {"type": "string"}),
    "colour": ("colour #rgb, #rrggbb, a CSS name, translucent #rrggbbaa, or none",
               {"anyOf": [*COLOUR["anyOf"], {"enum": ["none", ""]}, {"type": "null"}]}),
    "font": ("font key, or a project font's file name",
             {"type": "string"}),  # filled in by font_schema()
    "angle": ("rotation 0, 90, 180 or 270", {"enum": [0, 90, 180, 270]}),
    "focus": ("[x, y], each 0 to 1: the part of a cropped picture kept in view",
              {"anyOf": [{"type": "array", "items": {"type": "number", "minimum": 0,
                                                      "maximum": 1},
                          "minItems": 2, "maxItems": 2}, {"type": "null"}]}),
    "dash": ("list of dash lengths (mm)",
             {"anyOf": [{"type": "array", "items": {"type": "number"}}, {"type": "null"}]}),
    "points": ("list of [x, y] points",
               {"type": "array", "minItems": 2,
                "items": {"type": "array", "minItems": 2, "maxItems": 2,
                          "items": {"anyOf": [{"type": "number"}, EXPRESSION]}}}),
    "bool": ("true or false", {"anyOf": [{"type": "boolean"}, {"type": "null"}]}),
}
FILES = ("game", "face", "theme", "icon", "messages")
# Which files of a project each schema describes (globs from the project folder).
PROJECT_FILES = {"game": ["game.yaml"], "face": ["faces/*.yaml"], "theme": ["themes/*.yaml"],
                 "icon": ["icons/*.yaml"], "messages": ["messages/*.yaml"]}


def font_keys() -> list[str]:
    from generator.data.typefaces import fonts

    return list(fonts.font_files())


def font_schema() -> dict[str, Any]:
    """A built-in font key (offered for completion) or the name of a font file of the
    project's fonts/ (which the schema cannot list: any name of the allowed characters)."""
    from generator.data.typefaces.project_fonts import FONT_NAME

    return {"anyOf": [{"enum": font_keys()}, {"type": "string", "pattern": FONT_NAME.pattern}]}


def size_presets() -> list[str]:
    from generator.core.sizes import CARD_SIZES

    return [*CARD_SIZES, "page"]


# -- game data files ------------------------------------------------------------------------

def game_schema() -> dict[str, Any]:
    """The schema of a game data file, from the pydantic model ``GameSpec`` (read now)."""
    from generator.data.tables.schema import GameSpec

    schema = GameSpec.model_json_schema()
    _portable(schema)
    _size_presets(schema)
    return {"$schema": SCHEMA_DIALECT, **schema,
            "title": "Game data file",
            "description": "A print-and-play game: its pieces, tables and checks "
                           "(see docs/authoring.md)."}


def _portable(node: Any) -> None:
    """Tuples of one item type become ``items`` + length bounds: every JSON Schema draft and
    every editor reads that, while ``prefixItems`` is 2020-12 only."""
    if isinstance(node, dict):
        prefix = node.get("prefixItems")
        if isinstance(prefix, list) and prefix and all(p == prefix[0] for p in prefix) \
                and "items" not in node:
            node.pop("prefixItems")
            node["items"] = prefix[0]
            node.setdefault("minItems", len(prefix))
            node.setdefault("maxItems", len(prefix))
        for value in node.values():
            _portable(value)
    elif isinstance(node, list):
        for value in node:
            _portable(value)


def _size_presets(schema: dict[str, Any]) -> None:
    """A size (or a grid cell) given by name must be a preset: say which, for completion."""
    def visit(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.get("properties", {}).items():
                if key in ("size", "cell") and isinstance(value, dict):
                    for choice in value.get("anyOf", []):
                        if choice == {"type": "string"}:
                            choice["enum"] = size_presets()
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(schema)


# -- face templates -------------------------------------------------------------------------

def primitive_fields() -> dict[str, dict[str, tuple[Any, Any]]]:
    """The field table of the face primitives: kind -> field -> (type, default); a default
    of ``...`` means required: each element kind's spec (generator/core/elements.py)."""
    from generator.core.elements import field_table

    return field_table()


def field_schema(typ: Any) -> dict[str, Any]:
    """What one primitive field accepts: its type, or an expression that gives it."""
    if isinstance(typ, tuple):
        concrete: dict[str, Any] = {"enum": list(typ)}
    elif typ == "font":
        concrete = font_schema()
    else:
        concrete = json.loads(json.dumps(FIELD_TYPES.get(typ, ("", {}))[1]))
    return {"anyOf": [concrete, EXPRESSION]}


def type_name(typ: Any) -> str:
    """A primitive field's type in words, for the reference."""
    if isinstance(typ, tuple):
        return "one of " + ", ".join(typ)
    return FIELD_TYPES.get(typ, (str(typ), {}))[0]


def face_schema() -> dict[str, Any]:
    """The schema of a face template: ``vars`` and ``elements``, each element one primitive
    (with its fields) or a control element."""
    element_ref = {"$ref": "#/$defs/element"}
    elements = {"type": "array", "items": element_ref}
    defs: dict[str, Any] = {"elements": elements}
    choices: list[dict[str, Any]] = []
    for kind, fields in primitive_fields().items():
        required = [name for name, (_, default) in fields.items() if default is ...]
        body = {"type": "object", "additionalProperties": False,
                "properties": {name: field_schema(typ) for name, (typ, _) in fields.items()},
                "required": required}
        defs[kind] = {"type": "object", "additionalProperties": False,
                      "properties": {kind: body}, "required": [kind]}
        choices.append({"$ref": f"#/$defs/{kind}"})
    name = {"type": "string", "pattern": r"^[A-Za-z_][A-Za-z0-9_]*$"}
    defs["each"] = {
        "type": "object", "additionalProperties": False, "required": ["each"],
        "description": "Repeat `do` once per value of `each`, the value named `as` "
                       "(default it), its position `index` (default loop_index).",
        "properties": {"each": {"anyOf": [{"type": "array"}, EXPRESSION]}, "as": name,
                       "index": name, "do": {"$ref": "#/$defs/elements"}}}
    defs["if"] = {
        "type": "object", "additionalProperties": False, "required": ["if"],
        "description": "Draw `do` when the condition holds, else `else`.",
        "properties": {"if": {"anyOf": [{"type": "boolean"}, EXPRESSION]},
                       "do": {"$ref": "#/$defs/elements"},
                       "else": {"$ref": "#/$defs/elements"}}}
    defs["include"] = {
        "type": "object", "additionalProperties": False, "required": ["include"],
        "description": "Draw another face template here; its vars and elements see the "
                       "`with` values.",
        "properties": {"include": {"type": "string"},
                       "with": {"type": "object",
                                "propertyNames": {"pattern": name["pattern"]}}}}
    choices += [{"$ref": "#/$defs/each"}, {"$ref": "#/$defs/if"}, {"$ref": "#/$defs/include"}]
    defs["element"] = {"oneOf": choices}
    return {"$schema": SCHEMA_DIALECT, "title": "Face template",
            "description": "A card face: vars, then elements drawn in order "
                           "(see docs/authoring.md).",
            "type": "object", "required": ["elements"],
            "properties": {"vars": {"type": "object"}, "elements": {"$ref": "#/$defs/elements"},
                           "fields": {"type": "object", "description": "What the template "
                                      "reads of a game's data, typed (docs/authoring.md)"}},
            "$defs": defs}


# -- themes ---------------------------------------------------------------------------------

def theme_schema() -> dict[str, Any]:
    """The schema of a theme: the sections generator/data/design/themes.py checks; any other key is
    theme data a face template may read (``theme.<key>``)."""
    sections = {
        "palette": {"type": "object",
                    "description": "palette key -> colour (#rgb, #rrggbb, a CSS name or "
                                   "translucent #rrggbbaa)",
                    "additionalProperties": COLOUR},
        "fonts": {"type": "object", "description": "role (title, body...) -> font key or a "
                                                   "project font's file name",
                  "additionalProperties": font_schema()},
        "labels": {"type": "object", "description": "words and names faces print"},
    }
    ink_saver = {"type": "object", "description": "overrides applied with --ink-saver",
                 "properties": dict(sections)}
    return {"$schema": SCHEMA_DIALECT, "title": "Theme",
            "description": "Palette, fonts and labels of a game's look (see "
                           "docs/authoring.md).",
            "type": "object",
            "properties": {"name": {"type": "string"},
                           "extends": {"type": "string",
                                       "description": "a built-in theme's name or a .yaml "
                                                      "file beside this one"},
                           **sections, "ink_saver": ink_saver}}


# -- icons and catalogues -------------------------------------------------------------------

def icon_schema() -> dict[str, Any]:
    """A YAML icon: a view box and up to 500 shapes (generator/data/design/icons.py checks it)."""
    from generator.data.design.icons import MAX_SHAPES

    number = {"type": "number", "minimum": -10_000, "maximum": 10_000}
    paint = {"anyOf": [{"enum": ["main", "accent", "none"]}, *COLOUR["anyOf"]],
             "description": "main or accent (the colours a face gives the icon), none, or a "
                            "colour"}
    shape = {"type": "object", "additionalProperties": False,
             "properties": {
                 "path": {"type": "string", "description": "SVG-style path: M, L, H, V, C, "
                                                           "Q, Z (absolute)"},
                 "circle": {"type": "array", "items": number, "minItems": 3, "maxItems": 3,
                            "description": "[cx, cy, r] in the view box"},
                 "fill": paint, "stroke": paint,
                 "width": {**number, "description": "stroke width in view-box units"}},
             "oneOf": [{"required": ["path"]}, {"required": ["circle"]}]}
    return {"$schema": SCHEMA_DIALECT, "title": "Icon",
            "description": "A vector icon of your own: shapes in a view box, painted with the "
                           "colours a face gives it.",
            "type": "object", "additionalProperties": False, "required": ["shapes"],
            "properties": {
                "view": {"type": "array", "minItems": 2, "maxItems": 2,
                         "items": {"type": "number", "exclusiveMinimum": 0,
                                   "maximum": 10_000},
                         "description": "[width, height] of the drawing's box"},
                "shapes": {"type": "array", "minItems": 1, "maxItems": MAX_SHAPES,
                           "items": shape}}}


def messages_schema() -> dict[str, Any]:
    """A translation catalogue: English text -> translation, and furniture message keys."""
    from generator.data.translation.i18n_files import KEY, MAX_TEXT

    text = {"type": "string", "maxLength": MAX_TEXT}
    return {"$schema": SCHEMA_DIALECT, "title": "Translation catalogue",
            "description": "A project's messages/<lang>.yaml: what its kit prints, translated.",
            "type": "object", "additionalProperties": False,
            "properties": {
                "strings": {"type": "object", "additionalProperties": text,
                            "description": "English text as the data or a face prints it -> "
                                           "its translation"},
                "furniture": {"type": "object", "additionalProperties": False,
                              "patternProperties": {KEY.pattern: text},
                              "description": "a message key of the kit's furniture (contents "
                                             "sheet, footers) -> this kit's wording"}}}


def editor_settings(schemas: str = "schemas") -> dict[str, Any]:
    """VS Code settings mapping each schema (in the folder ``schemas``, relative to the
    project) onto the project's files, for the YAML extension (yaml-language-server)."""
    return {"yaml.schemas": {f"./{schemas}/{kind}.schema.json": PROJECT_FILES[kind]
                             for kind in FILES}}


SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "game": game_schema, "face": face_schema, "theme": theme_schema, "icon": icon_schema,
    "messages": messages_schema}


def schema_text(kind: str) -> str:
    """One schema as the bytes written: sorted keys, two-space indent, final newline."""
    return json.dumps(SCHEMAS[kind](), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(out_dir: Path) -> list[Path]:
    """Write ``<kind>.schema.json`` for each kind into ``out_dir`` (created if missing),
    each atomically; returns the files written. ``out_dir`` is entered from its parent, as
    an output folder is (generator/core/atomic.py): a project may ship ``schemas`` as a link
    to anywhere, and ``pnp schema`` run inside it must not write there (UnsafeOutput)."""
    from generator.core.atomic import atomic_file, make_folder, output_root

    written = []
    with output_root(out_dir.parent):
        make_folder(out_dir)
        for kind in FILES:
            target = out_dir / f"{kind}.schema.json"
            with atomic_file(target) as handle:
                handle.write(schema_text(kind).encode("utf-8"))
            written.append(target)
    return written


def write_editor_settings(project: Path) -> Path:
    """``.vscode/settings.json`` in a project, pointing the YAML extension at its
    ``schemas/`` (written atomically; anything already there, a link included, is left
    alone: it is the user's; a ``.vscode`` link is refused, never followed)."""
    from generator.core.atomic import atomic_file, make_folder, output_root

    target = project / ".vscode" / "settings.json"
    with output_root(project):
        make_folder(target.parent)
        if not os.path.lexists(target):
            with atomic_file(target) as handle:
                handle.write((json.dumps(editor_settings(), indent=2, sort_keys=True)
                              + "\n").encode("utf-8"))
    return target
