"""The element vocabulary of face templates: one spec per kind, everything else derived.

A face template's element (``rect``, ``circle``, ``text``, ...) is declared once, here: its
fields (type, default, meaning), what it is, the units of work drawing it costs its face, the
primitive class it makes (generator/core/primitives.py, where each class says its own extent
and whether it hides what lies under it), whether it is game information by default, and an
example the tests draw. Read from here, never restated:

- the fields a template may give, checked before drawing (generator/faces/template.py's
  ``PRIMITIVE_FIELDS``) and the work table (``ELEMENT_WORK``: a kind without a cost cannot
  be declared, ``work`` has no default);
- the editors' JSON Schema and the authoring reference (generator/orchestration/
  schema_export.py, reference_doc.py: docs/authoring.md) and the work table of
  docs/input-limits.md (the same command rewrites it; tests keep both current);
- the tests that draw every kind through every renderer (tests/test_elements.py).

Each renderer draws through a ``Handlers`` table keyed by primitive class; a class without a
handler raises ``UnknownPrimitive`` (never drawn as nothing), and a test checks every table
is complete. CONTRIBUTING.md ("A face primitive") is the recipe for a new kind.
"""
from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from generator.core import primitives as p

# A field's type is a name (what generator/faces/template.py's ``coerce`` checks), or the
# tuple of the words it may be.
FieldType = str | tuple[str, ...]
REQUIRED: Any = ...  # the default of a field that must be given


@dataclass(frozen=True)
class Field:
    """One field of an element: its type, its default (``REQUIRED``: none) and what it means
    (empty: the shared meaning of the name, ``MEANINGS``)."""

    type: FieldType
    default: Any = REQUIRED
    about: str = ""


@dataclass(frozen=True)
class Element:
    """One kind of template element.

    ``makes``: the primitive classes it draws (``image`` makes an ``Image``, or a ``Vector``
    for SVG art); ``work``: units of work drawing it costs its face beyond its expressions
    (weighed against an expression's step, ~0.3 us: a rectangle of constant fields takes
    ~15 us, an icon ~40 us), and ``work_note`` what it costs besides (per character of path
    data...); ``info``: game information unless the template says (pre-flight keeps it
    3 mm inside the cut); ``example``: its fields as a template writes them, drawn by the
    tests through every renderer (a ``.png`` it names is a picture the test writes);
    ``refuse``: for values that cannot draw, the field and what was expected (the template
    reports it at the file, line and field)."""

    name: str
    about: str
    fields: Mapping[str, Field]
    work: int
    makes: tuple[type, ...]
    example: Mapping[str, Any]
    info: bool = False
    work_note: str = ""
    # Values that cannot draw (a negative radius): (field, what was expected), or None.
    refuse: Callable[[Mapping[str, Any]], tuple[str, str] | None] | None = None

    def __post_init__(self) -> None:
        # Every kind may say whether it is game information (default: ``info``).
        object.__setattr__(self, "fields", {**self.fields, "info": Field("bool", None)})

    def meaning(self, name: str) -> str:
        """What field ``name`` means: its own words, else the name's shared meaning."""
        return self.fields[name].about or MEANINGS.get(name, "")

    def primitive(self, args: Mapping[str, Any]) -> Any:
        """The primitive of checked field values whose names are the class's fields (rect,
        circle, line): made directly. Kinds whose fields are not (text, icon...) are made
        by generator/faces/template.py."""
        cls = self.makes[0]
        return cls(**{f.name: args[f.name] for f in dataclasses.fields(cls)})


# What a field means, by name: the same name means the same in every kind (``Field.about``
# overrides it where a kind needs its own words).
MEANINGS: dict[str, str] = {
    "x": "left edge, mm", "y": "top edge, mm", "w": "width, mm", "h": "height, mm",
    "cx": "centre, mm", "cy": "centre, mm", "r": "radius, mm",
    "x1": "start, mm", "y1": "start, mm", "x2": "end, mm", "y2": "end, mm",
    "fill": "inside colour", "stroke": "outline colour", "width": "outline width, mm",
    "radius": "corner radius, mm", "dash": "dash pattern, e.g. [1, 1]",
    "d": "SVG-style path: M, L, C, Q, Z (mm)", "dx": "shift right, mm", "dy": "shift down, mm",
    "scale": "scale factor of the path", "points": "corners, mm", "closed": "join last to first",
    "text": "the words; several lines wrap to the box; each line (a blank line in a folded "
            "`>-` block) is a paragraph, and one starting `1. `, `12) ` or `- ` is a list "
            "item, its number in a gutter and its lines indented after it (left-aligned text); "
            "markup: `**bold**`, `*italic*`, `[red]colour[/]`, an inline icon `:heart:`, "
            "`\\*` a literal `*` (README: Rich text)",
    "font": "a font key or a project font (see Themes)",
    "size": "font size, pt", "min_size": "shrink to fit down to this size, pt (default: 6 "
    "or size)", "align": "horizontal alignment", "valign": "vertical alignment",
    "line_height": "line spacing, times the size", "rotate": "turn the box, degrees",
    "name": "an icon of icons/ (`<name>.yaml` or `<name>.svg`)",
    "accent": "the icon's second colour (a text's: of its inline icons)",
    "hyphenate": "break a word wider than the box with a hyphen, in the kit's language",
    "fit": "contain: the whole picture, shape kept; cover: the box filled, the overflow "
           "cropped; stretch: the box, shape changed",
    "focus": "the point of the picture kept in view when cropping (0, 0 top-left)",
    "path": "a picture of the game's art: PNG, JPEG, WebP, GIF or TIFF, or SVG (drawn as "
            "vectors; see docs/svg.md)",
    "info": "game information (kept 3 mm inside the cut)",
}

_NUM = Field("num")
_COLOUR = Field("colour", None)

KINDS: tuple[Element, ...] = (
    Element("rect", "a rectangle, optionally rounded",
            {"x": _NUM, "y": _NUM, "w": _NUM, "h": _NUM, "fill": _COLOUR, "stroke": _COLOUR,
             "width": Field("num", 0.3), "radius": Field("num", 0.0),
             "dash": Field("dash", None)},
            work=30, makes=(p.Rect,),
            example={"x": 4, "y": 4, "w": 30, "h": 16, "fill": "#a8322a", "stroke": "#1b1b1b",
                     "width": 0.6, "radius": 2}),
    Element("circle", "a circle",
            {"cx": _NUM, "cy": _NUM, "r": _NUM, "fill": _COLOUR, "stroke": _COLOUR,
             "width": Field("num", 0.3)},
            work=30, makes=(p.Circle,),
            example={"cx": 20, "cy": 14, "r": 8, "fill": "#1f3a5f", "stroke": "#1b1b1b",
                     "width": 0.8}),
    Element("ellipse", "an ellipse, its radii across and down",
            {"cx": _NUM, "cy": _NUM, "rx": Field("num", about="radius across, mm"),
             "ry": Field("num", about="radius down, mm"), "fill": _COLOUR, "stroke": _COLOUR,
             "width": Field("num", 0.3)},
            work=30, makes=(p.Ellipse,),
            refuse=lambda a: next(((name, f"expected a radius of 0 or more, got {a[name]:g}")
                                   for name in ("rx", "ry") if a[name] < 0), None),
            example={"cx": 30, "cy": 20, "rx": 20, "ry": 9, "fill": "#f2d14b",
                     "stroke": "#1b1b1b", "width": 0.6}),
    Element("line", "a straight line",
            {"x1": _NUM, "y1": _NUM, "x2": _NUM, "y2": _NUM,
             "stroke": Field("colour", "#000000"), "width": Field("num", 0.2),
             "dash": Field("dash", None)},
            work=30, makes=(p.Line,),
            example={"x1": 4, "y1": 6, "x2": 50, "y2": 30, "stroke": "#1f3a5f", "width": 0.8}),
    Element("path", "a shape drawn by path commands",
            {"d": Field("str"), "fill": _COLOUR, "stroke": _COLOUR, "width": Field("num", 0.3),
             "dx": Field("num", 0.0), "dy": Field("num", 0.0), "scale": Field("num", 1.0)},
            work=30, makes=(p.Path,), work_note="plus 2 a character of path data",
            example={"d": "M 4 30 L 20 4 L 36 30 Z", "fill": "#f2d14b", "stroke": "#1b1b1b",
                     "width": 0.5, "dx": 2}),
    Element("polygon", "straight segments through points",
            {"points": Field("points"), "fill": _COLOUR, "stroke": _COLOUR,
             "width": Field("num", 0.3), "closed": Field("bool", True)},
            work=30, makes=(p.Path,), work_note="plus 2 a point",
            example={"points": [[4, 4], [40, 8], [30, 30]], "fill": "#3f7f3a",
                     "stroke": "#1b1b1b"}),
    Element("text", "words fitted into a box",
            {"x": _NUM, "y": _NUM, "w": _NUM, "h": _NUM, "text": Field("str"),
             "font": Field("font", "sans"), "size": Field("num", 10.0),
             "min_size": Field("num", None), "fill": Field("colour", "#000000"),
             "align": Field(("left", "center", "right"), "left"),
             "valign": Field(("top", "middle", "bottom"), "top"),
             "line_height": Field("num", 1.18), "rotate": Field("angle", 0),
             "hyphenate": Field("bool", True), "accent": Field("colour", "#ffffff")},
            work=150, makes=(p.Text,), info=True, work_note="plus 1 a character measured",
            example={"x": 4, "y": 4, "w": 50, "h": 30, "text": "Draw **two** :heart:",
                     "size": 12, "fill": "#1b1b1b"}),
    Element("icon", "a vector icon (YAML or SVG) scaled into a box",
            {"name": Field("str"), "x": _NUM, "y": _NUM, "w": _NUM, "h": _NUM,
             "fill": Field("colour", "#000000"), "accent": Field("colour", "#ffffff"),
             "rotate": Field("angle", 0)},
            work=80, makes=(p.Icon,), info=True, work_note="plus what drawing its outline "
            "takes at its size (below)",
            example={"name": "spade", "x": 10, "y": 6, "w": 20, "h": 20, "rotate": 90}),
    Element("image", "a picture (raster, or SVG drawn as vectors) fitted into a box",
            {"fit": Field(("contain", "cover", "stretch"), "contain"),
             "focus": Field("focus", None), "path": Field("str"), "x": _NUM, "y": _NUM,
             "w": _NUM, "h": _NUM},
            work=80, makes=(p.Image, p.Vector), work_note="plus, for SVG art, what drawing it "
            "takes at its size (below)",
            example={"path": "example.png", "x": 4, "y": 4, "w": 40, "h": 24, "fit": "cover"}),
)
ELEMENTS: dict[str, Element] = {kind.name: kind for kind in KINDS}

# The control elements' costs, and a repetition of an ``each`` (a scope made each time).
CONTROL_WORK = 8  # each, if, or an element that is not one (refused)
INCLUDE_WORK = 80
REPETITION_WORK = 10

# Every primitive class (the ``Primitive`` union), in the union's order.
PRIMITIVE_CLASSES: tuple[type, ...] = typing.get_args(p.Primitive)


# -- renderers' tables --------------------------------------------------------------------

class UnknownPrimitive(TypeError):
    """A renderer was given a primitive it has no handler for: a bug of ours (a new
    primitive class without its handler), never a user's error."""


H = TypeVar("H", bound=Callable[..., Any])


class Handlers(Generic[H]):
    """A renderer's handlers, one per primitive class: ``@table.on(p.Rect)`` registers
    one; ``table.of(prim)`` finds it or raises ``UnknownPrimitive`` naming the class and
    the renderer (a kind is never skipped as if it drew nothing). ``missing()`` lists the
    classes without one (tests/test_elements.py: empty for every renderer)."""

    def __init__(self, renderer: str) -> None:
        self.renderer = renderer
        self.table: dict[type, H] = {}

    def on(self, *classes: type) -> Callable[[H], H]:
        def register(handler: H) -> H:
            for cls in classes:
                self.table[cls] = handler
            return handler
        return register

    def of(self, prim: object) -> H:
        try:
            return self.table[type(prim)]
        except KeyError:
            raise UnknownPrimitive(f"{self.renderer} has no handler for "
                                   f"{type(prim).__name__} (register one: CONTRIBUTING.md, "
                                   "A face primitive)") from None

    def missing(self) -> list[str]:
        return [cls.__name__ for cls in PRIMITIVE_CLASSES if cls not in self.table]

    def __iter__(self) -> Iterator[type]:
        return iter(self.table)


def field_table() -> dict[str, dict[str, tuple[FieldType, Any]]]:
    """kind -> field -> (type, default), in the vocabulary's order: what a template may give
    (generator/faces/template.py checks it) and what the editors' schema allows."""
    return {kind.name: {name: (f.type, f.default) for name, f in kind.fields.items()}
            for kind in KINDS}


def work_rows() -> list[tuple[str, str]]:
    """(element, what drawing it costs) for docs/input-limits.md, in the vocabulary's order,
    then the control elements."""
    rows = [(f"`{kind.name}`", f"{kind.work}" + (f", {kind.work_note}" if kind.work_note
                                                    else "")) for kind in KINDS]
    return rows + [("`each`, `if`", f"{CONTROL_WORK}"), ("`include`", f"{INCLUDE_WORK}"),
                   ("a repetition of an `each`", f"{REPETITION_WORK}")]
