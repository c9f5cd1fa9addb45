"""Face templates: sandboxed expressions, text fitting, icon paths."""
from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core import paths
from generator.core import primitives as p
from generator.core.errors import DataError
from generator.core.vector import flatten, parse_path
from generator.data import game_ids, load_game
from generator.data.design.icons import load_icon
from generator.data.design.templates import load_template
from generator.data.design.themes import load_theme
from generator.data.typefaces import fonts
from generator.expressions import ExpressionError, evaluate
from generator.faces.text import TextBox, TextDoesNotFit
from tests.drawing import dependencies, fit, layout, render_face, wrap

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
    ("rect: {x: 0, y: 0, w: 1, h: 1, fill: reddish}", "expected a colour: #rgb, #rrggbb or a CSS"),
    ("rect: {x: 0, y: 0, w: 1, h: 1, fill: '#1122334'}", r"\(translucent: #rgba, #rrggbbaa\)"),
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


def test_include_draws_another_template_with_the_given_values(tmp_path):
    template(tmp_path, """\
vars:
  r: "{{ box.w / 2 }}"
elements:
  - circle: {cx: "{{ box.x + r }}", cy: "{{ box.y }}", r: "{{ r }}"}
  - text: {x: 0, y: 0, w: 5, h: 5, text: "{{ item.n }}", info: false}
""", "part")
    t = template(tmp_path, """\
elements:
  - rect: {x: 0, y: 0, w: 1, h: 1}
  - each: [2, 4]
    as: w
    do:
      - include: part
        with: {box: "{{ {'x': w, 'y': 1, 'w': w} }}"}
""")
    face = render_face(t, 10, 10, {"item": {"n": "7"}})
    circles = [prim for prim in face.prims if isinstance(prim, p.Circle)]
    assert circles == [p.Circle(3.0, 1.0, 1.0), p.Circle(6.0, 1.0, 2.0)]
    assert len(face.origins) == len(face.prims) == 5
    # The included text names its own line and carries its own info flag.
    assert [(o.line, o.info) for o in face.origins][1:3] == [(4, False), (5, False)]
    assert "item" in dependencies(t)  # read only inside the included template


@pytest.mark.parametrize("body, expected", [
    ("elements:\n  - include: t\n", "includes nest more than 4 deep"),
    ("elements:\n  - include: missing\n", "no face template .missing."),
    ("elements:\n  - include: t\n    with: [1]\n", "expected a mapping of name: value"),
    ("elements:\n  - include: t\n    at: 1\n", "unknown field for include"),
])
def test_bad_includes_are_clear_errors(tmp_path, body, expected):
    t = template(tmp_path, body)
    with pytest.raises(DataError, match=expected):
        render_face(t, 10, 10, {})


@pytest.mark.parametrize(("written", "drawn"), [
    ("'#1A2B3C'", "#1a2b3c"), ("'#fa0'", "#ffaa00"), ("teal", "#008080"),
    ("RebeccaPurple", "#663399"), ("none", None)])
def test_colours_may_be_short_hex_or_css_names(tmp_path, written, drawn):
    t = template(tmp_path, f"elements:\n  - rect: {{x: 0, y: 0, w: 1, h: 1, fill: {written}}}\n")
    assert render_face(t, 10, 10, {}).prims[0].fill == drawn


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


# -- print safety: every card, tile and token face of every game ---------------------------

SAFE_MM = 3.0  # game information stays this far inside the trim (cutting tolerance)
MIN_PT = 6.0  # smallest face text at print size
CUT_KINDS = ("card", "tile", "token")
SLASHED_ZERO_FONTS = ("sans", "sans-bold", "sans-italic")  # Atkinson Hyperlegible: 0 reads as Ø


def _turn(x, y, prim):
    """A point of a turned Text, turned about its pivot (counter-clockwise on the page)."""
    cos, sin = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[prim.rotate]
    dx, dy = x - prim.ox, y - prim.oy
    return prim.ox + dx * cos + dy * sin, prim.oy - dx * sin + dy * cos


def _extent(prim):
    """(x0, y0, x1, y1) of a primitive in face mm: text lines from ascent to descent, icon and
    rect boxes, circles centre +/- r, paths every coordinate; strokes of rects and circles."""
    if isinstance(prim, p.Text):
        ascent, descent = fonts.vertical_metrics(prim.font)
        k = prim.size * fonts.PT_TO_MM
        pts = [_turn(x + dx, base - up * k, prim) for x, base, line in prim.lines if line.strip()
               for dx in (0, fonts.text_width_mm(prim.font, line, prim.size))
               for up in (ascent, descent)]
    elif isinstance(prim, (p.Icon, p.Rect, p.Image)):
        pad = prim.width / 2 if isinstance(prim, p.Rect) and prim.stroke else 0.0
        pts = [(prim.x - pad, prim.y - pad), (prim.x + prim.w + pad, prim.y + prim.h + pad)]
    elif isinstance(prim, p.Circle):
        r = prim.r + (prim.width / 2 if prim.stroke else 0.0)
        pts = [(prim.cx - r, prim.cy - r), (prim.cx + r, prim.cy + r)]
    elif isinstance(prim, p.Line):
        pts = [(prim.x1, prim.y1), (prim.x2, prim.y2)]
    else:
        pts = [(a[i], a[i + 1]) for _, a in prim.segments for i in range(0, len(a), 2)]
    if not pts:
        return None
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _inside(face, box, round_piece):
    """How far inside the trim a box lies; a round token's trim is its inscribed circle."""
    x0, y0, x1, y1 = box
    if round_piece:
        r = face.w / 2
        return r - max(math.hypot(x - r, y - r) for x in (x0, x1) for y in (y0, y1))
    return min(x0, y0, face.w - x1, face.h - y1)


def _piece_faces(game_id):
    """Every distinct front and back of the game's cards, tiles and tokens, with its piece."""
    game = load_game(game_id)
    theme = load_theme(game.theme, game.theme, False)
    for comp in game.components:
        if comp.kind not in CUT_KINDS:
            continue
        base = {**theme.context(), "game": {"id": game.id, "title": game.title,
                                             "credit": game.credit},
                "component": {"id": comp.id, "name": comp.name, "params": comp.params,
                              "total": comp.total, "kind": comp.kind},
                "params": comp.params, "settings": game.data["settings"],
                "tables": game.data["tables"]}
        for index, item in enumerate(comp.items):
            ctx = {**base, "item": item.data, "index": index}
            for name in filter(None, (comp.face, comp.back)):
                label = f"{comp.id}[{index}] {name}"
                yield comp, render_face(load_template(name), comp.size.w, comp.size.h, ctx, label)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", game_ids())
def test_piece_faces_keep_information_inside_the_safe_zone_and_text_readable(game_id):
    problems = []
    for comp, face in _piece_faces(game_id):
        assert len(face.origins) == len(face.prims)
        for prim, origin in zip(face.prims, face.origins, strict=True):
            where = f"{face.label} ({face.template.split('/')[-1]}:{origin.line})"
            if isinstance(prim, p.Text) and prim.size < MIN_PT - 1e-6:
                problems.append(f"{where}: {prim.size:g} pt text")
            if isinstance(prim, p.Text) and prim.font in SLASHED_ZERO_FONTS and any(
                    "0" in line for _, _, line in prim.lines):
                problems.append(f"{where}: a 0 in {prim.font}, whose zero is slashed")
            box = _extent(prim) if origin.info else None
            if box and _inside(face, box, comp.shape == "round") < SAFE_MM - 1e-6:
                distance = _inside(face, box, comp.shape == "round")
                problems.append(f"{where}: {type(prim).__name__} {distance:.2f} mm from the trim")
    assert not problems, "\n".join(sorted(set(problems)))


def test_face_templates_never_shrink_text_below_6pt():
    """A literal min_size under 6 pt would let shrink-to-fit print unreadable text."""
    def walk(node):
        if isinstance(node, dict):
            fields = node.get("text")
            if isinstance(fields, dict):
                yield fields
            for child in node.values():
                yield from walk(child)
        elif isinstance(node, list):
            for child in node:
                yield from walk(child)
    for file in sorted(paths.FACES.glob("*.yaml")):
        for fields in walk(load_template(file.stem).doc.data):
            for key in ("size", "min_size"):
                value = fields.get(key)
                if isinstance(value, (int, float)):
                    assert value >= MIN_PT, f"{file.name}: text {key} {value} under {MIN_PT} pt"


def test_decktet_suit_badges_never_overlap():
    """The small badges down the left side and the large ones in the middle stay apart."""
    for _, face in _piece_faces("moving-day"):
        badges = [prim for prim in face.prims
                  if isinstance(prim, p.Icon) and prim.name.startswith("suit-")]
        for a, b in itertools.combinations(badges, 2):
            gap = math.hypot(a.x + a.w / 2 - b.x - b.w / 2, a.y + a.h / 2 - b.y - b.h / 2)
            assert gap >= (a.w + b.w) / 2, f"{face.label}: {a.name} and {b.name} overlap"
