"""Face templates: sandboxed expressions, text fitting, icon paths."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import fonts, paths
from generator.errors import DataError
from generator.faces import primitives as p
from generator.faces.expressions import ExpressionError, evaluate
from generator.faces.icons import flatten, load_icon, parse_path
from generator.faces.template import dependencies, load_template, render_face
from generator.faces.text import TextBox, TextDoesNotFit, fit, layout, wrap

# Timing varies (first font load, a big grid): no per-example deadline, so no flaky runs.
NO_DEADLINE = settings(deadline=None)

# -- expressions ---------------------------------------------------------------------------

@pytest.mark.parametrize("expr", [
    "{{ ''.__class__ }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "card {{ ().__class__.__base__ }}",
    "{{ cycler.__init__.__globals__ }}",
    "{{ item.__class__ }}",
])
def test_sandbox_blocks_dunder_access(expr):
    with pytest.raises(ExpressionError, match=r"not allowed in .*unsafe"):
        evaluate(expr, {"item": {"a": 1}})


@pytest.mark.parametrize(("expr", "message"), [
    ('{{ "x" * 100000 }}', "longer than 10000"),
    ("{{ [0] * 20000 }}", "longer than 10000"),
    ("{{ 2 ** 1000 }}", "exponent 1000 is larger than 64"),
    ("{{ range(10 ** 8) | list | length }}", "Range too big"),
    ("{{ (10.0 ** 64) ** 64 }}", "out of range"),
    ("{{ 1 / 0 }}", "division by zero"),
])
def test_expensive_or_failing_expressions_are_clear_errors(expr, message):
    with pytest.raises(ExpressionError, match=message):
        evaluate(expr, {})


@pytest.mark.parametrize(("expr", "name"), [
    ("{{ nosuch }}", "'nosuch' is undefined"),
    ("Ace of {{ suitt.name }}", "'suitt' is undefined"),
    ("{{ item.colour }}", "has no attribute 'colour'"),
])
def test_undefined_names_fail(expr, name):
    with pytest.raises(ExpressionError, match=name):
        evaluate(expr, {"item": {"suit": "S"}})


def test_expressions_evaluate_to_native_values():
    ctx = {"item": {"rank": {"name": "Ace", "value": 1}}, "W": 63.5}
    assert evaluate("{{ W / 2 }}", ctx) == 31.75
    assert evaluate("{{ [1, 2] }}", ctx) == [1, 2]
    assert evaluate("{{ item.rank.name }} of Spades", ctx) == "Ace of Spades"
    assert evaluate({"a": ["{{ item.rank.value + 1 }}", 7]}, ctx) == {"a": [2, 7]}
    assert evaluate("plain", ctx) == "plain"


# -- templates -----------------------------------------------------------------------------

def template(tmp_path, body: str, name: str = "t"):
    (tmp_path / f"{name}.yaml").write_text(body, encoding="utf-8")
    return load_template(name, tmp_path)


def test_template_errors_name_file_line_and_field(tmp_path):
    t = template(tmp_path, "elements:\n"
                           "  - rect: {x: 0, y: 0, w: 10, h: 10}\n"
                           "  - rect: {x: 0, y: 0, w: \"{{ ''.__class__ }}\", h: 10}\n")
    with pytest.raises(DataError) as info:
        render_face(t, 63.5, 88.9, {})
    err = info.value
    assert (err.file, err.line, err.field) == (str(tmp_path / "t.yaml"), 3, "elements[1].rect.w")
    assert "unsafe" in err.expected


def test_template_undefined_name_is_strict(tmp_path):
    t = template(tmp_path, "vars:\n  a: 1\nelements:\n"
                           "  - circle: {cx: '{{ a }}', cy: 1,\n"
                           "             r: '{{ radius }}'}\n")
    with pytest.raises(DataError) as info:
        render_face(t, 10, 10, {})
    assert info.value.line == 5 and info.value.field == "elements[0].circle.r"
    assert "'radius' is undefined" in info.value.expected


@pytest.mark.parametrize(("element", "expected"), [
    ("rect: {x: 0, y: 0, w: 1, h: 1, colour: red}", "unknown field for rect"),
    ("rect: {x: 0, y: 0, w: 1}", "required field of rect is missing"),
    ("rect: {x: 0, y: 0, w: 1, h: 1, fill: red}", "expected a colour like #1a2b3c"),
    ("rect: {x: 0, y: 0, w: abc, h: 1}", "expected a number, got 'abc'"),
    ("text: {x: 0, y: 0, w: 1, h: 1, text: a, rotate: 45}", "rotation of 0, 90, 180 or 270"),
    ("text: {x: 0, y: 0, w: 1, h: 1, text: a, font: comic}", "expected a font key"),
    ("icon: {name: joker, x: 0, y: 0, w: 1, h: 1}", "no icon named 'joker'"),
    ("path: {d: 'm 0 0 l 1 1'}", "bad path: relative command"),
    ("blob: {}", "expected exactly one of: rect"),
])
def test_bad_elements(tmp_path, element, expected):
    t = template(tmp_path, f"elements:\n  - {element}\n")
    with pytest.raises(DataError, match=expected) as info:
        render_face(t, 10, 10, {})
    assert info.value.line == 2 and info.value.field.startswith("elements[0]")


def test_each_and_if(tmp_path):
    t = template(tmp_path, """\
elements:
  - each: "{{ item.xs }}"
    as: x
    do:
      - if: "{{ x > 1 }}"
        do: [{circle: {cx: "{{ x }}", cy: "{{ loop_index }}", r: 1, fill: "#ff0000"}}]
        else: [{rect: {x: "{{ x }}", y: 0, w: 1, h: 1}}]
""")
    face = render_face(t, 10, 10, {"item": {"xs": [1, 2, 3]}}, "lbl")
    assert face.label == "lbl" and (face.w, face.h) == (10, 10)
    assert face.prims == (p.Rect(1.0, 0.0, 1.0, 1.0), p.Circle(2.0, 1.0, 1.0, "#ff0000"),
                          p.Circle(3.0, 2.0, 1.0, "#ff0000"))


def test_shared_back_does_not_depend_on_the_item():
    assert "item" not in dependencies(load_template("playing-card-back"))
    assert "item" in dependencies(load_template("playing-card"))


# -- text ----------------------------------------------------------------------------------

RULE = ("Place one card from your hand on an empty cell orthogonally next to a card already on "
        "the grid. It must share its suit or its value with every card it touches.")


def test_long_text_shrinks_but_not_below_minimum():
    box = TextBox(0, 0, 40, 20, RULE, "sans", 12, 6)
    lines, size = fit(box)
    assert 6 <= size < 12
    assert " ".join(lines) == RULE
    assert len(lines) * size * fonts.PT_TO_MM * box.line_height <= box.h + 1e-6
    assert all(fonts.text_width_mm("sans", line, size) <= box.w + 1e-6 for line in lines)
    # It is the largest such size: one step up no longer fits.
    with pytest.raises(TextDoesNotFit):
        fit(TextBox(0, 0, 40, 20, RULE, "sans", size + 0.25, size + 0.25))


def test_short_text_keeps_its_size():
    assert fit(TextBox(0, 0, 40, 20, "Ace of Spades", "sans", 12, 6)) == (["Ace of Spades"], 12)


def test_text_too_long_raises():
    with pytest.raises(TextDoesNotFit, match=r"does not fit a 20 x 5 mm box .* minimum size 6"):
        fit(TextBox(0, 0, 20, 5, RULE, "sans", 12, 6))
    with pytest.raises(TextDoesNotFit):  # a single word wider than the box
        fit(TextBox(0, 0, 5, 50, "Incomprehensibilities", "sans", 12, 6))


def test_layout_places_lines_inside_the_box():
    box = TextBox(5, 7, 40, 30, RULE, "sans", 12, 6, align="center", valign="middle")
    text = layout(box)
    for x, baseline, line in text.lines:
        width = fonts.text_width_mm("sans", line, text.size)
        assert box.x - 1e-3 <= x and x + width <= box.x + box.w + 1e-3
        assert x - box.x == pytest.approx(box.x + box.w - (x + width), abs=1e-3)  # centred
        assert box.y < baseline < box.y + box.h
    baselines = [b for _, b, _ in text.lines]
    assert baselines == sorted(baselines)


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789.,;'-é", min_size=1,
                max_size=14)


@NO_DEADLINE
@given(st.lists(words, min_size=1, max_size=40), st.floats(15, 120), st.floats(5, 16),
       st.sampled_from(["sans", "sans-bold", "condensed"]))
def test_wrapped_lines_fit_and_keep_every_word(ws, width, size, font):
    text = " ".join(ws)
    lines = wrap(text, font, size, width)
    if lines is None:  # only when some word alone is wider than the box
        assert any(fonts.text_width_mm(font, w, size) > width for w in ws)
        return
    assert all(fonts.text_width_mm(font, line, size) <= width for line in lines)
    assert " ".join(lines).split() == ws
    # Greedy: the next line's first word would not have fitted on the line before.
    for before, after in itertools.pairwise(lines):
        trial = f"{before} {after.split()[0]}"
        assert fonts.text_width_mm(font, trial, size) > width


# -- icons ---------------------------------------------------------------------------------

def test_parse_simple_path():
    assert parse_path("M 10 20 L 30 20 H 40 V 50 Z") == (
        ("M", (10.0, 20.0)), ("L", (30.0, 20.0)), ("L", (40.0, 20.0)), ("L", (40.0, 50.0)),
        ("Z", ()))
    # Pairs after M are line-tos; numbers may touch their sign and use exponents.
    assert parse_path("M0,0 5-5 1e1 0") == (("M", (0.0, 0.0)), ("L", (5.0, -5.0)),
                                           ("L", (10.0, 0.0)))


def test_quadratic_becomes_cubic():
    (_, _), (op, args) = parse_path("M 0 0 Q 30 30 60 0")
    assert op == "C"
    assert args == pytest.approx((20, 20, 40, 20, 60, 0))
    points = flatten(parse_path("M 0 0 Q 30 30 60 0"), steps=2)[0]
    assert points == [(0, 0), pytest.approx((30, 15)), pytest.approx((60, 0))]


@pytest.mark.parametrize(("path", "message"), [
    ("", "empty path"),
    ("L 1 1", "must start with M"),
    ("M 0 0 l 1 1", "relative command"),
    ("M 0 0 C 1 2 3", "needs 6 numbers"),
    ("M 0 0 Z 4 4", "without a command"),
])
def test_bad_paths(path, message):
    with pytest.raises(ValueError, match=message):
        parse_path(path)


# The PDF draws each icon as a form whose BBox is the view box, and a form is clipped to its
# BBox: art outside it would be cut off in the PDF (but not in the PNGs).
ICONS = sorted(f.stem for f in paths.ICONS.glob("*.yaml"))


@pytest.mark.parametrize("name", ICONS)
def test_every_icon_loads_and_stays_in_its_view_box(name):
    icon = load_icon(name)
    assert icon.shapes
    for shape in icon.shapes:
        if shape.circle:
            cx, cy, r = shape.circle
            assert cx - r >= 0 and cx + r <= icon.view_w and cy - r >= 0 and cy + r <= icon.view_h
        for poly in flatten(shape.segments):
            for x, y in poly:
                assert -0.5 <= x <= icon.view_w + 0.5 and -0.5 <= y <= icon.view_h + 0.5


def test_bad_icon_file_names_the_line(tmp_path):
    (tmp_path / "bad.yaml").write_text("view: [10, 10]\nshapes:\n  - circle: [5, 5, 4]\n"
                                       "  - path: M 0 0 L 5\n")
    with pytest.raises(DataError, match="bad path: command L needs 2 numbers") as info:
        load_icon("bad", tmp_path)
    assert info.value.line == 4 and info.value.field == "shapes[1].path"
