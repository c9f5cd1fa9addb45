"""The authoring reference, docs/authoring.md, written from the code that checks the files.

``python -m generator reference`` regenerates it; tests/test_reference_doc.py fails when the
committed page differs from what this module writes, so the page cannot drift from the
schemas. Every table comes from a live source, read at run time:

- the data file: the JSON Schema of the pydantic models
  (generator/orchestration/exporters/schema_export.py, from generator/data/tables/schema.py), column
  types (generator/data/tables/columns.py), the settings each rules module reads
  (``schema.SETTINGS``), size presets (generator/core/sizes.py);
- face templates: each element kind's spec (generator/core/elements.py): fields, meanings;
- themes: their sections and the font keys (generator/data/typefaces/fonts.py), the built-in themes.

Only the prose around the tables (and ``NOTES``, a line per field the models do not
describe) is written here. Output is deterministic: no absolute paths, no dates.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from generator.core import paths
from generator.core.elements import ELEMENTS, work_rows
from generator.orchestration.exporters.schema_export import (
    face_schema,
    game_schema,
    primitive_fields,
    type_name,
)

# What a field means, where the model itself says nothing ("Model.field": text).
NOTES: dict[str, str] = {
    "GameSpec.id": "the game's id: its kit goes to `output/<id>/`",
    "GameSpec.title": "the game's name, printed on the contents sheet",
    "GameSpec.credit": "designer, year and rights, printed on the contents sheet",
    "GameSpec.rules": "a rules module of generator/rules/, or the project's own "
                      "(rules.py; run only in a trusted folder: docs/engines.md)",
    "GameSpec.theme": "a theme name (see Themes)",
    "GameSpec.players": "[min, max] players, 1-12",
    "GameSpec.include": ".yaml files beside this one whose `tables` are added to this one's",
    "GameSpec.settings": "values the rules module reads (see Settings)",
    "GameSpec.tables": "named lists of rows (mappings); components generate items from them",
    "GameSpec.components": "the pieces to print, in order",
    "GameSpec.preflight": "what pre-flight checks beyond the defaults",
    "GameSpec.columns": "column types per table: `{table: {column: type}}` (see Column types)",
    "GameSpec.checks": "rules every row of a table keeps, checked at load",
    "GameSpec.rules_coverage": "each rule of the seed text and the printed line carrying it",
    "ComponentSpec.id": "the component's id (unique in the game)",
    "ComponentSpec.kind": "what is printed (see Component kinds)",
    "ComponentSpec.name": "the name on the contents sheet",
    "ComponentSpec.size": "a preset name (see Sizes), `page`, `{w, h}`, `{diameter}` or "
                          "`{grid: ...}`, in mm",
    "ComponentSpec.face": "the face template drawing the front",
    "ComponentSpec.back": "the face template drawing the back (none: blank backs)",
    "ComponentSpec.shape": "`round` pieces are cut along a circle",
    "ComponentSpec.corner": "the radius of a rectangular piece's rounded corners, mm, in the "
                            "cut file (`build --cut-svg`); the printed cut marks stay straight",
    "ComponentSpec.items": "the pieces written out, each a mapping (`count` copies)",
    "ComponentSpec.generate": "the pieces made from tables",
    "ComponentSpec.params": "values every face of the component sees as `params`",
    "ComponentSpec.label": "an expression naming each piece, e.g. `{{ item.name }}`",
    "ComponentSpec.assembly": "how to cut, fold or join it (required for die and board)",
    "ComponentSpec.seams": "a board's cell boundaries `{x: [mm...], y: [mm...]}` and start "
                           "space: a tiled board's seams follow them, clear of the start "
                           "space and of printed words, where the tiles still fit",
    "Seams.x": "vertical cell boundaries, mm from the board's left edge",
    "Seams.y": "horizontal cell boundaries, mm from the board's top edge",
    "Seams.gap": "each boundary is the middle of a gap this wide between cells (mm; 0: the "
                 "cells touch): a seam anywhere inside it crosses no cell",
    "Seams.start": "the start space `{name, x, y, w, h}` (mm): as few seams as the paper "
                   "allows cross it, and the contents sheet says which",
    "StartSpace.name": "the start space's name as the board prints it (`C3`)",
    "StartSpace.x": "its left edge, mm from the board's left edge",
    "StartSpace.y": "its top edge, mm from the board's top edge",
    "StartSpace.w": "its width (mm)",
    "StartSpace.h": "its height (mm)",
    "Generate.product": "`{name: table}`: one item per combination of rows",
    "Generate.table": "one item per row of this table",
    "Generate.where": "keep rows whose field has this value (or one of these values)",
    "Generate.extra": "fields added to every item",
    "Generate.count": "copies of each item (times the row's own `count`)",
    "GameSpec.verify": "declarative checks of the printed set, run by verify and before "
                       "every build",
    "TableFile.file": "a .csv or .xlsx file, relative to the file naming it",
    "TableFile.sheet": "the sheet of an .xlsx file (default: the first)",
    "TableFile.delimiter": "the separator of a .csv file",
    "CompositionCheck.name": "what the check says, printed by verify",
    "CompositionCheck.component": "the component id(s) whose pieces are counted",
    "CompositionCheck.where": "count only the pieces matching these field values",
    "CompositionCheck.per": "count per value (or combination) of these fields",
    "CompositionCheck.count": "how many pieces (per value with `per`): a number or "
                              "`{min, max}`",
    "CompositionCheck.counts": "the exact count of each value of `per`",
    "CompositionCheck.total": "a field (or expression) summed over the pieces",
    "CompositionCheck.is": "what `total` must come to",
    "CompositionCheck.unique": "no two pieces share these fields",
    "CompositionCheck.product": "`{field: table}`: every combination of rows is present",
    "CompositionCheck.complete": "with `per` + `count`: every combination of the values must "
                                 "occur (`true`: the values seen; `[a, b, c]`: the values of "
                                 "the one field of `per`; `{field: table}`, `{field: {min, "
                                 "max}}` or `{field: [a, b]}` declares a field's values; "
                                 "`false`: the gaps are meant, no warning)",
    "GameSpec.deal": "questions about dealing a deck, answered by verify and the preview "
                     "(docs/deal-statistics.md)",
    "DealQuestion.name": "what the question asks, printed by verify beside its figure",
    "DealQuestion.component": "the deck dealt (default: the card component of the most "
                              "pieces)",
    "DealQuestion.players": "hands dealt",
    "DealQuestion.hand": "cards in each hand",
    "DealQuestion.who": "`one`: a given player's hand (exact); `anyone`: some player's "
                        "(Monte Carlo)",
    "DealQuestion.lengths": "the field that is the suit: how many cards of each suit one "
                            "hand holds",
    "DealQuestion.void": "the field that is the suit: a hand missing some suit",
    "DealQuestion.none": "a condition as a check's `where`: a hand with no card matching",
    "DealQuestion.at_least": "a hand holding this many cards matching `where`, or more",
    "DealQuestion.where": "the cards `at_least` counts, as a check's `where`",
    "DealQuestion.draws": "with `none` or `at_least`: ask of the first D cards drawn from "
                          "the deck after the deal instead of a hand (exact)",
    "DealQuestion.trials": "seeded deals of a Monte Carlo figure",
    "DealQuestion.seed": "the Monte Carlo's seed: the same figure every run",
    "DealQuestion.expect": "`{min: 5 %}`, `{max: 40 %}` or both: the figure's bounds; "
                           "past one, verify fails (a Monte Carlo interval straddling one "
                           "warns: `verify --strict` fails)",
    "DealExpect.min": "the least the figure may be, a percentage (`5 %`)",
    "DealExpect.max": "the most the figure may be, a percentage (`40 %`)",
    "PreflightSpec.colour_groups": "colours that carry information, checked for colour-blind "
                                   "and greyscale readers",
    "PreflightSpec.sheets": "paper (a3, a4, letter) -> the most sheets the kit may take; "
                            "verify --strict fails a kit over it",
    "ColourGroup.name": "what the colours tell apart, e.g. suits",
    "ColourGroup.colours": "value -> colour or theme expression",
    "ColourGroup.second_cue": "the symbol or word that tells them apart without colour",
    "RulesCoverage.seed": "the seed text's file name",
    "RulesCoverage.rules": "each rule and where it is printed",
    "RulesCoverage.not_rules": "seed lines that hold no rule",
    "SeedRule.line": "a seed line, or a range `12-14`",
    "SeedRule.rule": "the rule, quoted or paraphrased",
    "SeedRule.printed": "the words of the rules pages that carry it, exactly",
    "SeedRule.printed_in": "the same words in a kit of another language, by language code: "
                           "`{fr: \"...\"}` (checked only in that language)",
    "SeedAside.line": "a seed line, or a range `12-14`",
    "SeedAside.why": "why it holds no rule",
    "WH.w": "width, mm",
    "WH.h": "height, mm",
    "Round.diameter": "diameter, mm (a round piece)",
    "GridSpec.grid": "a board of equal cells",
    "GridSize.cell": "the cell's size: a preset or `{w, h}`",
    "GridSize.rows": "rows of cells",
    "GridSize.cols": "columns of cells",
    "GridSize.gap": "space between cells, mm",
    "GridSize.border": "margin around the cells, mm",
    "CountRange.min": "at least this many",
    "ValueRange.min": "the smallest value",
    "ValueRange.max": "the largest value (at most 10,000 values in all)",
    "CountRange.max": "at most this many",
    "RowCheck.table": "the table whose rows are checked",
    "RowCheck.when": "the rows the rule applies to",
    "RowCheck.expect": "true for a good row",
    "RowCheck.field": "the column to point at in the error",
    "RowCheck.message": "the error for a bad row",
}
CONTEXT_NAMES = (
    ("W, H", "the face's trim width and height, mm"),
    ("bleed", "how far art may run past the trim, mm"),
    ("item", "the piece being drawn: its row or item fields"),
    ("index", "the piece's position in the component (from 0)"),
    ("component", "id, name, params, total and kind of the component; its trim `size` {w, h} "
                  "(mm), and for a board of cells its `grid`: rows, cols, gap, border, cell "
                  "{w, h}"),
    ("params", "the component's `params`"),
    ("game", "id, title and credit of the game"),
    ("settings, tables", "the data file's settings and tables"),
    ("palette, fonts, labels", "the theme's sections; `theme` is the whole theme"),
    ("ink_saver", "true when built with --ink-saver"),
    ("examples", "rules and aid components: worked examples from the rules module"),
    ("lang", "the kit's language code (`en`, `fr`); `t(value)` prints a data value in it "
             "(README: Kits in other languages)"),
)


def _md(text: str) -> str:
    """A docstring as Markdown: ``code`` -> `code`."""
    return re.sub(r"``([^`]+)``", r"`\1`", text.strip())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out + [""]


def _bounds(node: dict[str, Any], low: str, high: str, unit: str = "") -> str:
    parts = []
    if low in node:
        parts.append(f"≥ {node[low]:g}" if isinstance(node[low], float) else f"≥ {node[low]}")
    if "exclusiveMinimum" in node:
        parts.append(f"> {node['exclusiveMinimum']}")
    if high in node:
        parts.append(f"≤ {node[high]}")
    return f" ({', '.join(parts)}{unit})" if parts else ""


def _patterns() -> dict[str, str]:
    from generator.data.tables import schema

    found = {getattr(schema, "ID_PATTERN", ""): "name (a-z, 0-9, - and _)",
             getattr(schema, "RULES_PATTERN", ""): ("name (a-z, 0-9 and _), or the project's own "
                                                    "rules.py or rules/ package"),
             getattr(schema, "LINES_PATTERN", ""): "line or range (12-14)"}
    found.pop("", None)
    return found


PATTERNS = _patterns()


def type_text(node: Any) -> str:
    """A JSON Schema node in words, with links to the definitions it refers to."""
    if not isinstance(node, dict) or node in ({}, True):
        return "anything"
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{name.lower()})"
    for key in ("anyOf", "oneOf"):
        if key in node:
            choices = [type_text(n) for n in node[key] if n != {"type": "null"}]
            return " or ".join(dict.fromkeys(choices)) or "null"
    if "enum" in node:
        return "one of " + ", ".join(_literal(v) for v in node["enum"])
    if "const" in node:
        return f"`{node['const']}`"
    kind = node.get("type")
    if kind == "string":
        pattern = node.get("pattern")
        if pattern is not None:
            return PATTERNS.get(pattern, f"text matching `{pattern}`")
        return "text" + _bounds(node, "minLength", "maxLength", " characters")
    if kind == "integer":
        return "whole number" + _bounds(node, "minimum", "maximum")
    if kind == "number":
        return "number" + _bounds(node, "minimum", "maximum")
    if kind == "boolean":
        return "true or false"
    if kind == "array":
        item = type_text(node.get("items", {}))
        if node.get("minItems") is not None and node.get("minItems") == node.get("maxItems"):
            return f"[{', '.join([item] * node['minItems'])}]"
        most = f", at most {node['maxItems']}" if "maxItems" in node else ""
        return f"list of {item}{most}"
    if kind == "object":
        extra = node.get("additionalProperties", True)
        if extra is True or extra == {}:
            return "mapping"
        return f"mapping of name → {type_text(extra)}"
    if isinstance(kind, list):
        return " or ".join(kind)
    return "anything"


def _literal(value: Any) -> str:
    """An enum value as code; one with blanks or control characters as JSON (``"\\t"``)."""
    text = str(value)
    return f"`{text}`" if text.isprintable() and text.strip() == text else \
        f"`{json.dumps(value)}`"


def _default(node: dict[str, Any]) -> str:
    if "default" not in node:
        return ""
    value = node["default"]
    if value is None:
        return "none"
    if value in ("", [], {}):
        return "empty"
    return f"`{json.dumps(value)}`"


def _models(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """The root model and every definition it reaches, in the order a reader meets them,
    each with where it is first used."""
    defs = schema.get("$defs", {})
    order: list[tuple[str, dict[str, Any], str]] = [("GameSpec", schema, "the data file")]
    seen = {"GameSpec"}
    index = 0
    while index < len(order):
        owner, node, _ = order[index]
        index += 1
        for field, prop in node.get("properties", {}).items():
            for ref in re.findall(r'"\$ref": "#/\$defs/([^"]+)"', json.dumps(prop)):
                if ref not in seen and ref in defs:
                    seen.add(ref)
                    order.append((ref, defs[ref], f"`{owner}.{field}`"))
    return order


def data_file_section() -> list[str]:
    schema = game_schema()
    out = ["## The game data file", "",
           "A game is one YAML file: what the game is (`id`, `title`, `credit`, `players`), "
           "the tables its pieces are made from, the components to print, and the checks "
           "that keep the set right. Unknown fields are errors (a typo is never ignored). "
           "The tables below list each part's fields; the loader reports a bad value at its "
           "own line.", ""]
    for name, node, used in _models(schema):
        out += [f"### {name}", ""]
        about = _md(node.get("description", "")) if name != "GameSpec" else ""
        if about:
            out += [about, ""]
        out += [f"Used in: {used}.", ""]
        required = set(node.get("required", []))
        rows = []
        for field, prop in node.get("properties", {}).items():
            need = "required" if field in required else (_default(prop) or "optional")
            note = NOTES.get(f"{name}.{field}") or _md(prop.get("description", ""))
            rows.append((f"`{field}`", type_text(prop), need, note))
        out += _table(("field", "type", "default", "meaning"), rows)
    return out


def kinds_and_sizes_section() -> list[str]:
    from generator.core.sizes import CARD_SIZES, PAPER_SIZES

    kinds = game_schema()["$defs"]["ComponentSpec"]["properties"]["kind"].get("enum", [])
    out = ["## Component kinds", "",
           "`kind` says how a component is laid out and what pre-flight expects of it:", "",
           ", ".join(f"`{k}`" for k in kinds) + ".", "",
           "## Sizes", "",
           "A component's `size` is a preset name, `page` (the printable area of the paper), "
           "`{w: 63.5, h: 88.9}` in mm, `{diameter: 30}` or `{grid: {cell, rows, cols, gap, "
           "border}}` (a board of equal cells). The presets:", ""]
    rows = [(f"`{name}`", f"{s.w:g} × {s.h:g}", f"{s.w / 25.4:.2f} × {s.h / 25.4:.2f}")
            for name, s in CARD_SIZES.items()]
    out += _table(("preset", "mm", "inches"), rows)
    out += ["Paper (`--paper`): " + ", ".join(f"`{n}` ({s.w:g} × {s.h:g} mm)"
                                              for n, s in PAPER_SIZES.items()) + ".", ""]
    return out


def columns_section() -> list[str]:
    from generator.data.tables import columns
    from generator.data.tables.schema import SETTINGS

    out = ["## Column types", "",
           "`columns:` declares, per table, each column's type; a row with a bad value, a "
           "missing column or an unknown one is reported at its own line "
           "(`\"*\": any` allows any other column). A column `<column>@<lang>` (`name@fr` "
           "beside `name`) is that column's translation, typed as it and optional: a kit in "
           "that language prints it in the column's place (README, Kits in other "
           "languages).", ""]
    rows: list[tuple[str, ...]] = [(f"`{base}`", columns.parse_type(base).describe())
                                   for base in columns.BASES]
    for example in ("int 1..13", "number 0..1", "str 1..80", "point 0..1", "list of point",
                    "list of str, at most 4", "list of int, at least 1, at most 6",
                    "one of red|blue", "one of 3|4|6", "id of suits", "str?"):
        kind = columns.parse_type(example)
        text = kind.describe() + (" (may be missing or null)" if kind.optional else "")
        rows.append((f"`{example}`", text))
    rows.append(("`{table: suits}`", "an id of table suits, replaced by that row (a join: "
                                     "`by: name` to match another column, `optional: true`; "
                                     "docs/spreadsheets.md)"))
    out += _table(("type", "accepts"), rows)
    out += ["## Settings", "",
            "The settings each rules module reads, in the same notation (`per players T`: a "
            "mapping of player count to T). A game with another rules module, or none, takes "
            "any settings.", ""]
    rows = [(f"`{module}`", f"`{key}`", f"`{spec}`") for module, keys in SETTINGS.items()
            for key, spec in keys.items()]
    out += _table(("rules", "setting", "type"), rows)
    return out


def faces_section() -> list[str]:
    out = ["## Face templates", "",
           "A face template (`faces/<name>.yaml`) draws one side of a piece: optional "
           "`vars` (name: expression, evaluated in order), then `elements`, drawn in order, "
           "in millimetres from the top-left of the trim. Any value may be an expression, "
           "`\"{{ W / 2 }}\"`, evaluated in a sandbox with these names:", ""]
    out += _table(("name", "value"), [(f"`{n}`", v) for n, v in CONTEXT_NAMES])
    out += ["### Primitives", "",
            "Each element is one primitive, `{rect: {x: 0, y: 0, w: 10, h: 5}}`, or a "
            "control element. `info` marks game information, which pre-flight keeps 3 mm "
            "inside the cut (default: true for text and icon).", ""]
    for kind, fields in primitive_fields().items():
        rows = []
        for field, (typ, default) in fields.items():
            shown = "required" if default is ... else (
                "none" if default is None else f"`{json.dumps(default)}`")
            rows.append((f"`{field}`", type_name(typ), shown, ELEMENTS[kind].meaning(field)))
        about = ELEMENTS[kind].about
        out += [f"#### {kind}", ""] + ([about[:1].upper() + about[1:] + ".", ""] if about
                                        else [])
        out += _table(("field", "type", "default", "meaning"), rows)
    defs = face_schema()["$defs"]
    out += ["### Control elements", ""]
    examples = {
        "each": "{each: \"{{ item.pips }}\", as: pip, do: [{circle: {cx: \"{{ pip[0] }}\", "
                "cy: \"{{ pip[1] }}\", r: 2}}]}",
        "if": "{if: \"{{ item.court }}\", do: [...], else: [...]}",
        "include": "{include: rules-section, with: {box: [0, 0, 50, 20]}}",
    }
    for kind in ("each", "if", "include"):
        names = ", ".join(f"`{f}`" for f in defs[kind]["properties"])
        out += [f"- **{kind}** ({names}): {defs[kind]['description']} "
                f"`{examples[kind]}`"]
    out += ["", "### What a template reads", "",
            "`fields:` declares, in the notation of column types, what the template reads "
            "of a game's data; every value is checked when the game is loaded and a bad one "
            "is reported at its own line of the data file, not at the template's. Each key "
            "is a mapping of field: type, and any key not listed here names a record type "
            "its fields may use (`list of section`). Every built-in template declares what "
            "it reads.", ""]
    out += _table(("key", "what is checked"), [(f"`{key}`", about) for key, about in (
        ("item", "each piece's data: its entry of `items:`, the table row it was made from"),
        ("params", "the component's `params`"),
        ("settings", "the game's `settings`"),
        ("tables", "tables by name: `{vehicles: list of vehicle}`"),
        ("size", "the piece's trim, `{w: number 40..2000, h: ...}`: the smallest it draws "
                 "(a `page` is not checked)"),
        ("rules", "the data file's `rules:` (a type such as `one of movement_game`), for a "
                  "template drawing that engine's `examples`"),
        ("named_by", "the mapping whose field of type `face` names this template (a rules "
                     "section naming its `diagram`)"),
        ("closed", "not a record: a list of the records declared here (`[params, section]`) "
                   "whose undeclared fields are refused at their line, as misspellings; "
                   "other records leave fields they do not declare alone"))])
    return out


def themes_section() -> list[str]:
    from generator.data.typefaces import fonts

    out = ["## Themes", "",
           "A theme (`themes/<name>.yaml`) holds a game's look, so faces say "
           "`\"{{ palette.ink }}\"` rather than a colour. `extends:` names a parent (a "
           "built-in theme or a .yaml file beside this one) whose fields this one "
           "overrides, recursively; any other key is theme data faces read as `theme.<key>`.",
           ""]
    rows = [("`name`", "text", "the theme's name"),
            ("`extends`", "name or .yaml file", "the parent theme"),
            ("`palette`", "mapping of name → colour (`#rgb`, `#rrggbb`, a CSS name such as "
             "`teal`, or translucent `#rgba` / `#rrggbbaa`)", "colours faces use"),
            ("`fonts`", "mapping of role → font key or project font",
             "fonts faces use (`fonts.title`)"),
            ("`labels`", "mapping", "words and names faces print"),
            ("`ink_saver`", "mapping (palette, fonts, labels)",
             "overrides applied with `--ink-saver` (white backgrounds, outlines)")]
    out += _table(("field", "type", "meaning"), rows)
    out += ["Font keys (in themes and in a text's `font`):", ""]
    out += _table(("key", "font file"), [(f"`{key}`", file.name) for key, file
                                         in fonts.font_files().items()])
    out += ["A project's own fonts: a `.ttf` (or TrueType-outline `.otf`) file in its `fonts/` "
            "folder is named by its file name without the extension (`fonts/Lobster-Regular.ttf`"
            " is `font: Lobster-Regular`; case does not matter); one named like a key above "
            "replaces that font in the project. Characters a font has no glyph for are a "
            "`verify` finding and make `build` refuse the text.", ""]
    themes = sorted(p.stem for p in paths.THEMES.glob("*.yaml"))
    out += ["Built-in themes: " + ", ".join(f"`{t}`" for t in themes) + ".", ""]
    return out


def builtin_faces() -> list[str]:
    """Every built-in face template: what its opening comment says it draws, and the
    ``fields:`` it declares (what it reads of a game's data: ``item`` is each piece's row),
    as written in the file, so a designer who ejects one (``pnp eject face NAME``) knows
    what their data must hold."""
    out = ["## Built-in faces", "",
           "A component's `face:` may name any of these; `pnp eject face NAME DIR` copies one "
           "into a project to change it there. Each reads what its `fields:` declare "
           "(`item`: the piece's row; a record type, such as `section`, describes a value "
           "inside it), checked at the data's own lines when the game is loaded.", ""]
    for file in sorted(paths.FACES.glob("*.yaml")):
        lines = file.read_text(encoding="utf-8").splitlines()
        about = []
        for line in lines:
            if not line.startswith("#"):
                break
            about.append(line.lstrip("#").strip())
        summary = " ".join(about).strip() or "(no description)"
        start = next((n for n, line in enumerate(lines) if line.startswith("fields:")), None)
        out += [f"### {file.stem}", "", summary, ""]
        if start is None:
            out += ["Declares no fields: it reads only what every face sees.", ""]
            continue
        end = next((n for n in range(start + 1, len(lines))
                    if lines[n] and not lines[n].startswith((" ", "#"))), len(lines))
        block = [line for line in lines[start:end] if line.strip()]
        out += ["```yaml", *block, "```", ""]
    return out


EDITORS = """## Editor support

`pnp init` sets a new project up for editors: its `schemas/` folder holds five JSON Schema
files, `game.schema.json` (the data file), `face.schema.json` (face templates),
`theme.schema.json` (themes), `icon.schema.json` (YAML icons) and `messages.schema.json`
(translation catalogues), and `.vscode/settings.json` maps them onto the project's files for
VS Code's YAML extension (Red Hat's; others built on `yaml-language-server` read the same
setting), which then completes field names, shows their types and marks errors as you type:

```json
{
  "yaml.schemas": {
    "./schemas/face.schema.json": ["faces/*.yaml"],
    "./schemas/game.schema.json": ["game.yaml"],
    "./schemas/icon.schema.json": ["icons/*.yaml"],
    "./schemas/messages.schema.json": ["messages/*.yaml"],
    "./schemas/theme.schema.json": ["themes/*.yaml"]
  }
}
```

`pnp schema --out schemas` writes the same files again (after an upgrade of the tool). In
another editor, or for a file elsewhere, put a first line in the file naming its schema,
relative to the file:

```yaml
# yaml-language-server: $schema=../schemas/game.schema.json
id: my-game
```

The schemas guide; the build decides. It also checks what a schema cannot say (a table a
component names exists, a face template exists, a setting suits its rules module).
"""


def reference_text() -> str:
    """The whole page, as committed in docs/authoring.md."""
    lines = ["# Authoring reference", "",
             "<!-- Generated by `python -m generator reference` from the schemas and "
             "tables in generator/; do not edit by hand. -->", "",
             "Everything a game's files may say: the data file, face templates and themes. "
             "Each section is written from the code that checks those files, so it is "
             "current for this version.", ""]
    for section in (data_file_section, kinds_and_sizes_section, columns_section,
                    faces_section, builtin_faces, themes_section):
        lines += section()
    text = "\n".join(lines) + "\n" + EDITORS
    return re.sub(r"\n{3,}", "\n\n", text)


def default_target() -> Path:
    """docs/authoring.md in a checkout (the committed copy a test keeps current); installed,
    ./authoring.md: an installed package's folder is no place to write (nor, often, writable).
    """
    if paths.INSTALLED:
        return Path.cwd() / "authoring.md"
    return paths.ROOT / "docs" / "authoring.md"


WORK_START = ("<!-- The work of each element: written by `python -m generator reference` "
              "from generator/core/elements.py; do not edit by hand. -->")
WORK_END = "<!-- End of the element work table. -->"


def limits_text(committed: str) -> str:
    """docs/input-limits.md (``committed``) with its element work table written from the
    element specs: the same command keeps the two pages current (tests/test_reference_doc.py)."""
    before, rest = committed.split(WORK_START, 1)
    _, after = rest.split(WORK_END, 1)
    table = _table(("element", "units of work"), work_rows())
    return before + "\n".join([WORK_START, *table, WORK_END]) + after


def limits_target() -> Path | None:
    """docs/input-limits.md in a checkout (an installed package has none to rewrite)."""
    return None if paths.INSTALLED else paths.ROOT / "docs" / "input-limits.md"


def write_reference(target: Path | None = None) -> Path:
    """Write the reference (atomically) to ``target`` (default docs/authoring.md, and the
    element work table of docs/input-limits.md beside it)."""
    from generator.core.atomic import atomic_file

    limits = limits_target() if target is None else None
    target = target or default_target()
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(target) as handle:
        handle.write(reference_text().encode("utf-8"))
    if limits is not None:
        text = limits_text(limits.read_text(encoding="utf-8"))
        with atomic_file(limits) as handle:
            handle.write(text.encode("utf-8"))
    return target
