"""The authoring reference and the JSON Schemas: current, valid, and they catch bad files.

docs/authoring.md is generated (generator/orchestration/exporters/reference_doc.py); a change to
the models, the primitive table, the column types, sizes or fonts must be followed by
regenerating it.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from generator.core import paths
from generator.core.sizes import CARD_SIZES
from generator.faces.template import PRIMITIVE_FIELDS
from generator.frontends.cli import main
from generator.orchestration.exporters.reference_doc import default_target, reference_text
from generator.orchestration.exporters.schema_export import FILES, SCHEMAS

REGENERATE = "python -m generator reference"


def _load(file: Path) -> Any:
    return yaml.safe_load(file.read_text(encoding="utf-8"))


def game_files() -> list[Path]:
    """Every built-in game data file (a YAML file with ``components``), wherever kept."""
    found = []
    for file in sorted(paths.CARD_DATA.rglob("*.yaml")):
        data = _load(file)
        if isinstance(data, dict) and "components" in data:
            found.append(file)
    return found


def test_committed_reference_is_current() -> None:
    committed = default_target().read_text(encoding="utf-8")
    assert committed == reference_text(), (
        f"docs/authoring.md is out of date: run `{REGENERATE}` and commit the result")


def test_reference_covers_every_primitive_field_preset_and_check(tmp_path: Path,
                                                                 capsys: Any) -> None:
    text = reference_text()
    for kind, fields in PRIMITIVE_FIELDS.items():
        section = text.split(f"#### {kind}\n", 1)[1].split("####", 1)[0]
        for field in fields:
            assert f"| `{field}` |" in section, (kind, field)
    for preset in CARD_SIZES:
        assert f"| `{preset}` |" in text
    for name in ("### ComponentSpec", "### RowCheck", "## Column types", "`each`",
                 "`include`", "`palette`", "`sans-bold`", "yaml-language-server: $schema="):
        assert name in text, name
    # Every data-file model reached from GameSpec has its section, and links resolve.
    for anchor in set(re.findall(r"\]\(#([a-z0-9-]+)\)", text)):
        assert re.search(rf"^### {anchor}$", text, re.M | re.I), anchor
    # The command writes what the test compares against.
    assert main(["reference", "--out", str(tmp_path / "ref.md")]) == 0
    assert (tmp_path / "ref.md").read_text(encoding="utf-8") == text
    assert "authoring reference ->" in capsys.readouterr().out


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The schemas as ``schema`` writes them, each checked against its meta-schema."""
    out = tmp_path_factory.mktemp("schemas")
    assert main(["schema", "--out", str(out)]) == 0
    written = {}
    for kind in FILES:
        schema = json.loads((out / f"{kind}.schema.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema == json.loads(json.dumps(SCHEMAS[kind]()))
        written[kind] = schema
    return written


def errors(schema: dict[str, Any], data: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{list(e.absolute_path)}: {e.message[:120]}" for e in validator.iter_errors(data)]


@pytest.mark.slow
def test_every_built_in_file_validates(schemas: dict[str, dict[str, Any]]) -> None:
    games = game_files()
    assert len(games) >= 5
    for file in games:
        assert not errors(schemas["game"], _load(file)), file
    faces = sorted(paths.FACES.glob("*.yaml"))
    themes = sorted(paths.THEMES.glob("*.yaml"))
    assert faces and themes
    for file in faces:
        assert not errors(schemas["face"], _load(file)), (file, errors(schemas["face"],
                                                                       _load(file)))
    for file in themes:
        assert not errors(schemas["theme"], _load(file)), file
    icons = sorted(paths.ICONS.glob("*.yaml")) + sorted((paths.STARTER / "icons").glob("*.yaml"))
    catalogues = sorted((paths.CARD_DATA / "messages").glob("*.yaml"))
    assert len(icons) > 10 and len(catalogues) >= 5
    for file in icons:
        assert not errors(schemas["icon"], _load(file)), (file, errors(schemas["icon"],
                                                                       _load(file)))
    for file in catalogues:
        assert not errors(schemas["messages"], _load(file)), file


def test_wrong_icons_and_catalogues_fail(schemas: dict[str, dict[str, Any]]) -> None:
    icon = {"view": [100, 100], "shapes": [{"circle": [50, 50, 10], "fill": "accent"}]}
    assert not errors(schemas["icon"], icon)
    for bad in ({"view": [100, 100], "shapes": []},  # no shape
                {"shapes": [{"circle": [50, 50]}]},  # a circle needs cx, cy and r
                {"shapes": [{"path": "M 0 0 L 1 1", "fill": "mauvish"}]},  # no such colour
                {"shapes": [{"square": [1, 2, 3]}]},  # neither path nor circle
                {"view": [0, 100], "shapes": [{"circle": [1, 1, 1]}]}):  # an empty box
        assert errors(schemas["icon"], bad), bad
    catalogue = {"strings": {"Cards": "Cartes"}, "furniture": {"contents.title": "Matériel"}}
    assert not errors(schemas["messages"], catalogue)
    assert errors(schemas["messages"], {"string": {"Cards": "Cartes"}})  # a typo
    assert errors(schemas["messages"], {"furniture": {"Contents Title": "x"}})  # not a key


@pytest.mark.slow
def test_wrong_files_fail(schemas: dict[str, dict[str, Any]]) -> None:
    game = next(data for data in map(_load, game_files()) if data["id"] == "moving-target")
    for change, where in (
            (lambda g: g["components"][0].update(kind="kard"), "kind"),
            (lambda g: g["components"][0].update(size="jumbo"), "size"),
            (lambda g: g.update(titel="typo"), "titel"),
            (lambda g: g.pop("components"), "components"),
            (lambda g: g.update(players=[2]), "players")):
        bad = json.loads(json.dumps(game))
        change(bad)
        found = errors(schemas["game"], bad)
        assert found and any(where in e for e in found), (where, found)
    face = {"elements": [{"rect": {"x": 0, "y": 0, "w": 5}}]}  # h missing
    assert errors(schemas["face"], face)
    face = {"elements": [{"text": {"x": 0, "y": 0, "w": 5, "h": 5, "text": "a",
                                   "font": "comic sans"}}]}
    assert errors(schemas["face"], face)  # no key, and no font file could have this name
    face["elements"][0]["text"]["font"] = "Lobster-Regular"  # a project's fonts/ file
    assert not errors(schemas["face"], face)
    face = {"elements": [{"circle": {"cx": "{{ W / 2 }}", "cy": 3, "r": 1, "fill": "reddish"}}]}
    assert errors(schemas["face"], face)  # neither #rgb, #rrggbb nor a CSS name
    face["elements"][0]["circle"]["fill"] = "red"
    assert not errors(schemas["face"], face)
    face["elements"][0]["circle"]["fill"] = "{{ palette.ink }}"
    assert not errors(schemas["face"], face)  # an expression may give any field
    assert errors(schemas["theme"], {"palette": {"ink": "blackish"}})
    assert not errors(schemas["theme"], {"palette": {"ink": "black", "card": "#fff"}})
    assert errors(schemas["theme"], {"fonts": {"body": "Times New Roman"}})
    assert not errors(schemas["theme"], {"fonts": {"body": "Times-Roman"}})  # fonts/ file


def test_the_editor_settings_the_reference_shows_are_what_init_writes() -> None:
    from generator.orchestration.exporters.schema_export import editor_settings

    section = default_target().read_text(encoding="utf-8").split("## Editor support", 1)[1]
    shown = section.split("```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(shown) == editor_settings()
