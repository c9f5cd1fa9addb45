"""One element vocabulary (generator/core/elements.py): every kind declared once, every
renderer able to draw every primitive class, an unknown one refused out loud.

Each kind's ``example`` is drawn here through the template, both renderers (PNG and PDF must
agree), the translucent PNG paint, pre-flight's geometry and the face cache's codec: a new
kind is tested by declaring it, with no test to add (CONTRIBUTING.md, A face primitive).
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from PIL import Image

from generator.core import elements
from generator.core import primitives as p
from generator.core.elements import ELEMENTS, KINDS, PRIMITIVE_CLASSES, UnknownPrimitive
from generator.core.errors import DataError
from generator.core.model import Size
from generator.data.design.resources import load_resources
from generator.data.design.templates import load_template
from generator.faces import face_codec
from generator.faces.template import ELEMENT_WORK, INFO_BY_DEFAULT, PRIMITIVE_FIELDS
from generator.layout.page import Page, Placement
from generator.orchestration.exporters import reference_doc
from generator.orchestration.exporters.schema_export import FIELD_TYPES
from generator.render import pdf, png
from generator.render.pdf import write_pdf
from generator.render.png import render_png
from tests import parity
from tests.drawing import bounds, render_face

RENDERERS = {"pdf": pdf.DRAW, "png": png.PAINT}


def test_every_renderer_has_a_handler_for_every_primitive_class():
    assert len(PRIMITIVE_CLASSES) >= 8
    for name, table in RENDERERS.items():
        assert table.missing() == [], name
        assert set(table) == set(PRIMITIVE_CLASSES), name  # and nothing that is not one


def test_every_primitive_class_says_its_own_extent_and_whether_it_hides():
    for cls in PRIMITIVE_CLASSES:
        assert "extent" in vars(cls) and "hides" in vars(cls), cls.__name__


def test_every_primitive_class_is_made_by_a_kind_and_every_kind_is_complete():
    made = {cls for kind in KINDS for cls in kind.makes}
    assert made == set(PRIMITIVE_CLASSES)
    assert list(PRIMITIVE_FIELDS) == list(ELEMENTS)
    for kind in KINDS:
        assert isinstance(kind.work, int) and kind.work > 0, kind.name
        assert ELEMENT_WORK[kind.name] == kind.work
        assert (kind.name in INFO_BY_DEFAULT) == kind.info
        assert kind.about, kind.name
        for name, field in kind.fields.items():
            assert kind.meaning(name), (kind.name, name)  # the reference says what it means
            assert isinstance(field.type, tuple) or field.type in FIELD_TYPES \
                or field.type == "font", (kind.name, name, field.type)
            assert PRIMITIVE_FIELDS[kind.name][name] == (field.type, field.default)
        required = {n for n, f in kind.fields.items() if f.default is elements.REQUIRED}
        assert required <= set(kind.example) <= set(kind.fields), kind.name


def _face(*prims: p.Primitive) -> p.Face:
    return p.Face(60.0, 40.0, 2.0, (p.Rect(-2, -2, 64, 44, fill="#f4efe1"), *prims), "case")


def _pdf_bytes(face: p.Face, tmp_path: Path) -> None:
    page = Page(Size(100, 100), (Placement(face, 10, 10, (10, 10, 60, 40)),), ())
    write_pdf([page], tmp_path / "f.pdf", title="t", resources=load_resources(face.prims))


@pytest.mark.parametrize("renderer", sorted(RENDERERS))
def test_a_renderer_without_a_handler_refuses_the_primitive(renderer, tmp_path, monkeypatch):
    table = RENDERERS[renderer]
    monkeypatch.delitem(table.table, p.Circle)
    assert table.missing() == ["Circle"]  # what the completeness test above would report
    face = _face(p.Circle(30, 20, 5, fill="#1b1b1b"))
    with pytest.raises(UnknownPrimitive, match="has no handler for Circle"):
        if renderer == "pdf":
            _pdf_bytes(face, tmp_path)
        else:
            render_png(face, dpi=50, resources=load_resources(face.prims))


@dataclasses.dataclass(frozen=True)
class Star:  # a primitive class no renderer knows
    cx: float

    def extent(self) -> p.Box | None:
        return None

    def hides(self) -> bool:
        return False


def test_an_unknown_primitive_is_refused_never_skipped(tmp_path):
    face = _face(Star(1.0))  # type: ignore[arg-type]
    with pytest.raises(UnknownPrimitive, match="the PNG renderer has no handler for Star"):
        render_png(face, dpi=50, resources=load_resources(()))
    with pytest.raises(UnknownPrimitive, match="the PDF renderer has no handler for Star"):
        _pdf_bytes(face, tmp_path)


def _element(kind: str, fields: dict[str, object], folder: Path) -> p.Face:
    """The face of one element of ``kind`` drawn from a template in ``folder``."""
    from generator.data.files import resolve

    for value in fields.values():  # a picture the example names: a photo-like one
        if isinstance(value, str) and value.endswith(".png") and not (folder / value).exists():
            photo = Image.new("RGB", (300, 180), "#4a7db3")
            photo.paste((63, 127, 58), (0, 120, 300, 180))
            photo.paste((122, 59, 46), (40, 60, 90, 150))
            photo.save(folder / value)
    resolve.allow_game_folder(folder)
    (folder / "t.yaml").write_text(
        "elements:\n  - rect: {x: -2, y: -2, w: 64, h: 44, fill: '#f4efe1'}\n"
        f"  - {json.dumps({kind: fields})}\n", encoding="utf-8")
    return render_face(load_template("t", folder), 60.0, 40.0, {}, label=kind)


@pytest.mark.parametrize("kind", [k.name for k in KINDS])
def test_each_kind_draws_the_same_in_png_and_pdf_and_is_measured(kind, tmp_path):
    spec = ELEMENTS[kind]
    face = _element(kind, dict(spec.example), tmp_path)
    made = face.prims[-1]
    assert type(made) in spec.makes
    assert face.origins[-1].info == spec.info
    result = parity.compare_face(face)
    assert result.ok, result.describe()
    box = bounds(made)  # pre-flight's measure: where the example's ink lies, on the face
    assert box is not None and -1 <= box[0] < box[2] <= 61 and -1 <= box[1] < box[3] <= 41
    again = face_codec.decode(json.loads(json.dumps(face_codec.encode([face]))))
    assert again == [face]  # the face cache keeps it exactly


@pytest.mark.parametrize("kind", [k.name for k in KINDS if "fill" in k.fields
                                  and k.fields["fill"].type == "colour"])
def test_each_kind_painted_translucent_agrees(kind, tmp_path):
    fields = {**ELEMENTS[kind].example, "fill": "#a8322a80"}
    if "stroke" in fields:
        fields["stroke"] = "#1b1b1b99"
    face = _element(kind, fields, tmp_path)
    result = parity.compare_face(face)
    assert result.ok, result.describe()


def test_the_limits_page_shows_each_kinds_work_as_declared():
    target = reference_doc.limits_target()
    assert target is not None
    committed = target.read_text(encoding="utf-8")
    assert committed == reference_doc.limits_text(committed), (
        "docs/input-limits.md is out of date: run `python -m generator reference`")
    for kind in KINDS:
        assert f"| `{kind.name}` | {kind.work}" in committed


def _refusals() -> list[tuple[str, str]]:
    """(kind, field) of each number of a kind's example its ``refuse`` turns down when
    negative (a radius below 0)."""
    found = []
    for kind in KINDS:
        given = {**{n: f.default for n, f in kind.fields.items()}, **kind.example}
        for name, value in kind.example.items():
            if kind.refuse is not None and isinstance(value, (int, float)) \
                    and kind.refuse({**given, name: -1.0}):
                found.append((kind.name, name))
    return found


@pytest.mark.parametrize(("kind", "field"), _refusals())
def test_a_value_a_kind_cannot_draw_is_refused_at_its_line_and_field(kind, field, tmp_path):
    with pytest.raises(DataError) as caught:
        _element(kind, {**ELEMENTS[kind].example, field: -1}, tmp_path)
    assert caught.value.line == 3 and caught.value.field == f"elements[1].{kind}.{field}"
    assert "expected" in caught.value.expected


def test_refuse_is_asked_before_a_kind_is_made(tmp_path, monkeypatch):
    circle = ELEMENTS["circle"]
    monkeypatch.setitem(ELEMENTS, "circle", dataclasses.replace(
        circle, refuse=lambda a: ("r", "expected a radius of 0 or more") if a["r"] < 0 else None))
    assert _element("circle", {"cx": 1, "cy": 1, "r": 1}, tmp_path).prims[-1] == p.Circle(1, 1, 1)
    with pytest.raises(DataError, match="expected a radius of 0 or more") as caught:
        _element("circle", {"cx": 1, "cy": 1, "r": -1}, tmp_path)
    assert caught.value.line == 3 and caught.value.field == "elements[1].circle.r"
