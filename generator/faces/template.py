"""Face templates: YAML lists of primitives whose values may be jinja2 expressions.

A template (templates/faces/<name>.yaml) has optional ``vars`` (evaluated in order, each can
use the ones before) and ``elements``. An element is one primitive (a kind declared in
generator/core/elements.py: its fields, work and the class it makes) or a control element:
``each: <list> / as: <name> / index: <name> / do: [...]`` and
``if: <condition> / do: [...] / else: [...]``, and ``include: <template> / with: {name: value}``,
which draws another face template's elements here, its ``vars`` and elements seeing the
``with`` values (e.g. the box to draw in); rules pages include engine-drawn examples this way.
Evaluating a template for one item gives a ``Face``: plain primitives in millimetres.

What a face draws with is read from the model first (``Known``, generator/core/model.py:
what loading resolved: the theme's icons and fonts, the icons a game's data names, the
templates its components name and their fixed includes), and from the ``FaceInputs`` the
caller hands ``draw_face`` (generator/core/drawing.py): the build's ``FontBook`` (fonts by
name, their metrics), its ``Translator`` (a text in the kit's language; what the drawing
would tell the translation record comes back in the result, ``Drawn.told``) and its
``Resolver``, the one door for a name computed while drawing (``{{ item.suit }}``). Nothing
here imports the data layer or reads the build's context (an import-linter contract).
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from generator.core import memo
from generator.core import primitives as p
from generator.core.colours import NotAColour, parse_colour
from generator.core.context import Spender
from generator.core.drawing import (
    Drawn,
    FaceInputs,
    FontBook,
    FontError,
    Resolver,
    Told,
    Unusable,
)
from generator.core.elements import (
    CONTROL_WORK,
    ELEMENTS,
    INCLUDE_WORK,
    KINDS,
    REPETITION_WORK,
    field_table,
)
from generator.core.errors import DataError, DataErrors, shown
from generator.core.fit import fit_box
from generator.core.model import MAX_INCLUDE_DEPTH, NOTHING_KNOWN, FaceTemplate, Known
from generator.core.vector import EDGE_ROW_WORK, POINT_WORK, IconDef, parse_path
from generator.core.words import said
from generator.core.yamlfile import YamlDoc, format_path
from generator.expressions import (
    MAX_FACE_PRIMITIVES,
    MAX_FACE_WORK,
    BudgetSpent,
    ExpressionError,
    Scope,
    Spending,
    charge,
    check_backstop,
    count_loops,
    evaluate,
    names_used,
    work_budget,
)

from . import markup
from .rich_layout import IconFinder, MarkupError, layout_markup
from .text import TextBox, TextDoesNotFit

FACE_BLEED = 3.175  # art extends this far past the trim; layouts clip to what they need
# The fields of each element kind, from its spec (generator/core/elements.py): kind ->
# field -> (type, default); a type is a name or the tuple of the words it may be, a default
# of ... means required. ``info`` (game information? default: the kind's) is every kind's.
PRIMITIVE_FIELDS = field_table()
PRIMITIVES = tuple(PRIMITIVE_FIELDS)  # the element kinds a template may draw

# Units of work an element costs its face beyond its expressions' (each field's expression is
# metered on its own), and each repetition of an ``each``: the spec's (``Element.work``), so
# a face's units, and a build's, track its time whatever it draws, and the wall clock
# decides nothing. Every kind has one (the spec cannot be written without it).
ELEMENT_WORK = {"each": CONTROL_WORK, "if": CONTROL_WORK, "include": INCLUDE_WORK,
                **{kind.name: kind.work for kind in KINDS}}
INFO_BY_DEFAULT = tuple(kind.name for kind in KINDS if kind.info)
_FIELD_NAMES = {kind: frozenset(spec) for kind, spec in PRIMITIVE_FIELDS.items()}


def dependencies(template: FaceTemplate, known: Known = NOTHING_KNOWN,
                 resolver: Resolver | None = None, _depth: int = 0) -> frozenset[str]:
    """Every top-level name the template reads: a back that never reads ``item`` is the
    same for every card and is evaluated once. Its includes are read from ``known`` (what
    loading resolved) or looked up through ``resolver``, as drawing does (without one, an
    include loading did not resolve may read anything)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            found.update(names_used(node))
        elif isinstance(node, list):
            for child in node:
                walk(child)
        elif isinstance(node, dict):
            for child in node.values():
                walk(child)
        if isinstance(node, dict) and "include" in node:
            found.update(_included_dependencies(template, node["include"], known, resolver,
                                                depth))

    depth = _depth
    walk(template.doc.data)
    declared = set(template.doc.data.get("vars", {}))
    return frozenset(found - declared)


def _included_dependencies(includer: FaceTemplate, name: Any, known: Known,
                           resolver: Resolver | None, depth: int) -> set[str]:
    """What an included template reads (the one drawing includes: beside its includer
    first); a name computed by an expression, or one that cannot be loaded, may read
    anything (the face then counts as depending on its item)."""
    if isinstance(name, str) and "{" not in name and depth < MAX_INCLUDE_DEPTH:
        try:
            included = _included(includer.doc, name, known, resolver)
        except Unusable:
            pass  # reported where the face is drawn
        else:
            return set(dependencies(included, known, resolver, depth + 1))
    return {"item", "index"}


def _included(doc: YamlDoc, name: str, known: Known, resolver: Resolver | None
              ) -> FaceTemplate:
    """A template included by ``doc``: beside it first, as loading resolved it, else looked
    up through ``resolver`` (Unusable when there is none)."""
    folder = doc.file.parent
    found = known.templates.get((name, str(folder)))
    if found is not None:
        return found.use()
    if resolver is None:
        raise Unusable(f"template {said(name)} was not resolved when the game loaded")
    return resolver.face(name, folder)


def draw_face(template: FaceTemplate, w: float, h: float, ctx: Mapping[str, Any],
              inputs: FaceInputs, label: str = "", known: Known = NOTHING_KNOWN) -> Drawn:
    """Evaluate a template for one item. ``ctx`` holds item, theme, palette, fonts, game...;
    ``known``, what loading resolved (the game's and the theme's), is read before anything
    is looked up; ``inputs`` are the build's fonts, translator and resolver. The result is
    the face and what its drawing tells the kit's translation record (the caller tells it:
    generator/data/translation/i18n.py's ``Session.record``).

    A template is user input: one face gets ``MAX_FACE_WORK`` units of work, ``MAX_LOOP``
    repetitions of ``each`` and ``MAX_FACE_PRIMITIVES`` primitives (generator/expressions/);
    past any, a DataError names the line. What each of its vars and top-level elements
    spends is counted in the build's budget as that line's (an include's, as the line
    including it), so a build that runs out names the heaviest.
    Drawing past the memory there is is a DataError naming the template and the piece."""
    told = Told()
    try:
        with inputs.translator.drawing(told):
            face = _render_face(template, w, h, ctx, label, known, inputs, told)
        return Drawn(face, told)
    except MemoryError:
        pass  # reported below, once the failed drawing (and all it held) is let go
    raise DataError(template.file, None, "", f"drawing {said(label or 'a face')} ran out of "
                    "memory: the template draws too much (fewer or simpler elements, fewer "
                    "repetitions of each)")


def _render_face(template: FaceTemplate, w: float, h: float, ctx: Mapping[str, Any],
                 label: str, known: Known, inputs: FaceInputs, told: Told) -> Face:
    scope = Scope(ctx)
    scope.set("W", w)
    scope.set("H", h)
    scope.set("bleed", FACE_BLEED)
    run = _Run(template.doc, inputs, told, known=known)
    out: list[p.Primitive] = []
    try:
        with work_budget():
            for key, raw in template.doc.data.get("vars", {}).items():
                with Spending(run.spender(("vars", key))):
                    scope.set(key, run.value(("vars", key), raw, scope))
            elements = template.doc.data["elements"]
            if not isinstance(elements, list):
                raise run.fail(("elements",), "expected a list of elements")
            for index, element in enumerate(elements):
                with Spending(run.spender(("elements", index))):
                    run.element(("elements", index), element, scope, out)
    except BudgetSpent:
        raise  # names its own spender, whichever piece was drawing
    except DataError as exc:
        if label and not isinstance(exc, DataErrors):
            # Name the piece being drawn: the template is shared by every card of a deck.
            named = DataError(exc.file, exc.line, exc.field,
                              f"{exc.expected} (drawing {said(label)})")
            named.printed = exc.printed
            raise named from None
        raise
    return p.Face(w, h, FACE_BLEED, tuple(out), label, tuple(run.origins),
                  str(template.file))


Face = p.Face


def _laid_out(box: TextBox, hyphenation: bool, lang: str, accent: str | None,
              inputs: FaceInputs, icon: IconFinder | None = None) -> p.Text:
    """``layout_markup``, remembered for plain text: half a kit's text elements repeat one
    laid out before (the same label on every card), and fitting words is a text's cost.

    Only where the layout is a function of the key alone: no markup (inline icons are
    files), every glyph in the font (pre-flight lays such text out where a build refuses
    it), and the font book with the font's registered TTFont in the key (a new file version
    is a new object).
    Refusals are never remembered (generator/core/memo.py: watch forgets them before a rebuild).
    A remembered layout costs the face the work laying it out did (the characters measured):
    a face costs the same whatever was laid out before it in this process."""
    text = box.text
    book = inputs.fonts
    if markup.has_markup(text):  # inline icons: as given, else by the resolver handed in
        return layout_markup(box, book, hyphenation, lang, accent,
                             icon or inputs.resolver.icon)
    try:
        font = book.font_key(box.font)
        missing = book.missing_glyphs(box.font, text)
    except FontError:
        missing = "?"
    if missing:
        return layout_markup(box, book, hyphenation, lang, accent)
    with work_budget() as meter:  # the face's (one of its own outside a face)
        before = meter.work
        laid_out, cost = _plain_layout(box, hyphenation, lang, accent, book, font)
        charge(cost - (meter.work - before))  # a remembered layout: what laying it out cost
    return laid_out


@memo.memo(maxsize=4096)
def _plain_layout(box: TextBox, hyphenation: bool, lang: str, accent: str | None,
                  book: FontBook, _font: object) -> tuple[p.Text, int]:
    """The layout and the work it cost (measuring its characters)."""
    with work_budget() as meter:
        before = meter.work
        laid_out = layout_markup(box, book, hyphenation, lang, accent)
        return laid_out, meter.work - before


class _Run:
    """One evaluation of a template; knows the file so every error names its line."""

    def __init__(self, doc: YamlDoc, inputs: FaceInputs, told: Told, depth: int = 0,
                 known: Known = NOTHING_KNOWN) -> None:
        self.doc = doc
        self.inputs = inputs  # the build's fonts, translator and resolver
        self.told = told  # what the face tells the translation record (shared with includes)
        self.translating = inputs.translator.translating
        self.depth = depth  # how many includes deep this template is drawn
        self.known = known  # what loading resolved: read before anything is looked up
        self.origins: list[p.Origin] = []  # parallel to the primitives produced
        self.weighed = [0]  # the face's primitive weight so far (p.weight), shared with includes
        # Where the translation the text element being built prints is written (catalogue
        # file, line), or None: its failures are reported there (set by ``text``).
        self.site: tuple[str, int | None] | None = None

    def icon(self, name: str) -> IconDef:
        """The icon ``name``: loaded with the game or theme, else looked up (Unusable)."""
        found = self.known.icons.get(name)
        return found.use() if found is not None else self.inputs.resolver.icon(name)

    def template(self, name: str) -> FaceTemplate:
        """A template included here: beside this one first (Unusable when there is none)."""
        return _included(self.doc, name, self.known, self.inputs.resolver)

    def fail(self, path: tuple[Hashable, ...], expected: str) -> DataError:
        return DataError(self.doc.file, self.doc.line_of(path), format_path(path), expected)

    def too_many(self, path: tuple[Hashable, ...]) -> DataError:
        return self.fail(path, f"more than {MAX_FACE_PRIMITIVES:,} {p.WEIGHED} in one face")

    def spender(self, path: tuple[Hashable, ...]) -> Spender:
        """Who spends the work of the value or element at ``path``, for the build's budget."""
        return (str(self.doc.file), self.doc.line_of(path), format_path(path), "face")

    def fail_text(self, path: tuple[Hashable, ...], expected: str) -> DataError:
        """A text element's failure: at the catalogue line of the translation it printed,
        when it printed one (the template's text works in English), else at ``path``."""
        if self.site is None:
            return self.fail(path, expected)
        file, line = self.site
        return DataError(file, line, "strings", f"{expected} (this translation is printed by "
                                                f"the face template {self.doc.file.stem}, "
                                                f"{format_path(path)})")

    def value(self, path: tuple[Hashable, ...], raw: Any, scope: Scope) -> Any:
        if self.translating:
            self.told.site = (self.doc, path)  # where a t() with no translation is reported
        try:
            return evaluate(raw, scope)
        except ExpressionError as exc:
            raise self.fail(path, str(exc)) from None

    def text(self, path: tuple[Hashable, ...], raw: Any, scope: Scope) -> Any:
        """A text element's text: in a kit of another language, its translation from the
        game's catalogue (the ``Translator``), or the English, told as missing."""
        if not self.translating:
            try:
                return evaluate(raw, scope)
            except ExpressionError as exc:
                raise self.fail(path, str(exc)) from None
        told = self.told
        file, line = str(self.doc.file), self.doc.line_of(path)
        source, check, site = self.inputs.translator.text(raw, file, line, told)
        self.site = site if source is not raw else None
        told.site = (self.doc, path)
        told.used.clear()  # what t() printed in a ``vars`` value before is no text's
        try:
            value = evaluate(source, scope)
        except ExpressionError as exc:
            raise self.fail_text(path, str(exc)) from None
        finally:
            used = told.used[:]  # t() of a data value: a rules text
            told.used.clear()
        if self.site is None and len(used) == 1:
            self.site = used[0]
        if check and isinstance(value, str):
            told.check_words(file, line, value)
        return value

    def elements(self, path: tuple[Hashable, ...], raw: Any, scope: Scope,
                 out: list[p.Primitive]) -> None:
        if not isinstance(raw, list):
            raise self.fail(path, "expected a list of elements")
        for index, element in enumerate(raw):
            self.element(path + (index,), element, scope, out)

    def element(self, path: tuple[Hashable, ...], raw: Any, scope: Scope,
                out: list[p.Primitive]) -> None:
        if not isinstance(raw, dict):
            raise self.fail(path, "expected a mapping with one of: "
                                  f"{', '.join(PRIMITIVES)}, each, if, include")
        cost = CONTROL_WORK
        for key in raw:
            if key in ELEMENT_WORK:
                cost = ELEMENT_WORK[key]
                break
        try:
            charge(cost)  # what drawing the element takes, beyond its expressions
            check_backstop()
        except ExpressionError as exc:
            raise self.fail(path, str(exc)) from None
        if "each" in raw:
            seq = self.value(path + ("each",), raw["each"], scope)
            if not isinstance(seq, (list, tuple, range)):
                raise self.fail(path + ("each",), f"expected a list, got {type(seq).__name__}")
            name = raw.get("as", "it")
            index_name = raw.get("index", "loop_index")  # name it to reach it from a nested each
            for key, given in (("as", name), ("index", index_name)):
                if not isinstance(given, str) or not given.isidentifier():
                    raise self.fail(path + (key,), f"expected a name, got {said(given, 60)}")
            try:
                # every repetition, nested ones too, counts for the face (a scope made each)
                count_loops(len(seq), REPETITION_WORK)
            except ExpressionError as exc:
                raise self.fail(path + ("each",), str(exc)) from None
            for index, value in enumerate(seq):
                inner = scope.child({name: value, "loop_index": index, index_name: index})
                self.elements(path + ("do",), raw.get("do", []), inner, out)
            return
        if "include" in raw:
            self.include(path, raw, scope, out)
            return
        if "if" in raw:
            branch = "do" if self.value(path + ("if",), raw["if"], scope) else "else"
            self.elements(path + (branch,), raw.get(branch, []), scope, out)
            return
        kinds = [k for k in raw if k in PRIMITIVES]
        if len(kinds) != 1 or len(raw) != 1:
            raise self.fail(path, f"expected exactly one of: {', '.join(PRIMITIVES)}, each, if; "
                                  f"got {', '.join(map(str, raw)) or 'nothing'}")
        kind = kinds[0]
        if self.weighed[0] >= MAX_FACE_PRIMITIVES:
            raise self.too_many(path)
        fields = raw[kind]
        if not isinstance(fields, dict):
            raise self.fail(path + (kind,), "expected a mapping of fields")
        args = self.fields(path + (kind,), kind, fields, scope)
        made = self.build(path + (kind,), kind, args)
        self.weighed[0] += p.weight(made)
        if self.weighed[0] > MAX_FACE_PRIMITIVES:  # one path or text past it: named before kept
            raise self.too_many(path)
        out.append(made)
        info = args["info"] if args["info"] is not None else kind in INFO_BY_DEFAULT
        self.origins.append(p.Origin(self.doc.line_of(path), bool(info)))

    def include(self, path: tuple[Hashable, ...], raw: dict[str, Any], scope: Scope,
                out: list[p.Primitive]) -> None:
        """Draw another face template here, in a scope with the ``with`` values added."""
        unknown = set(raw) - {"include", "with"}
        if unknown:
            raise self.fail(path + (sorted(map(str, unknown))[0],),
                            "unknown field for include; expected include and with")
        name = self.value(path + ("include",), raw["include"], scope)
        if not isinstance(name, str):
            raise self.fail(path + ("include",), f"expected a template name, got {said(name, 60)}")
        if self.depth >= MAX_INCLUDE_DEPTH:
            raise self.fail(path + ("include",), f"includes nest more than {MAX_INCLUDE_DEPTH} "
                                                 "deep (does a template include itself?)")
        given = raw.get("with", {})
        if not isinstance(given, dict):
            raise self.fail(path + ("with",), "expected a mapping of name: value")
        values: dict[str, Any] = {}
        for key, value in given.items():
            if not isinstance(key, str) or not key.isidentifier():
                raise self.fail(path + ("with", key), f"expected a name, got {said(key, 60)}")
            values[key] = self.value(path + ("with", key), value, scope)
        try:
            included = self.template(name)  # beside the includer
        except Unusable as exc:
            raise self.fail(path + ("include",), str(exc)) from None
        inner = scope.child(values)
        run = _Run(included.doc, self.inputs, self.told, self.depth + 1, self.known)
        run.origins = self.origins  # the included primitives land in the same face
        run.weighed = self.weighed
        for key, value in included.doc.data.get("vars", {}).items():
            inner.set(key, run.value(("vars", key), value, inner))
        run.elements(("elements",), included.doc.data["elements"], inner, out)

    def fields(self, path: tuple[Hashable, ...], kind: str, raw: dict[str, Any],
               scope: Scope) -> dict[str, Any]:
        spec, names = PRIMITIVE_FIELDS[kind], _FIELD_NAMES[kind]
        unknown = raw.keys() - names
        if unknown:
            raise self.fail(path + (sorted(unknown)[0],),
                            f"unknown field for {kind}; expected some of: {', '.join(spec)}")
        args: dict[str, Any] = {}
        text_field = kind == "text"
        self.site = None
        for name, (typ, default) in spec.items():
            if name not in raw:
                if default is ...:
                    raise self.fail(path + (name,), f"required field of {kind} is missing")
                args[name] = default
                continue
            where = path + (name,)
            value = (self.text(where, raw[name], scope) if text_field and name == "text"
                     else self.value(where, raw[name], scope))
            args[name] = self.coerce(where, typ, value)
        return args

    def coerce(self, path: tuple[Hashable, ...], typ: Any, value: Any) -> Any:
        if isinstance(typ, tuple):
            if value not in typ:
                raise self.fail(path, f"expected one of {', '.join(typ)}, got {said(value)}")
            return value
        if typ == "num":
            if value is None:
                return None
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise self.fail(path, f"expected a number, got {said(value)}") from None
            if number != number or abs(number) > 10_000:
                raise self.fail(path, f"expected a number within +/-10000, got {said(value)}")
            return number
        if typ == "colour":
            if value in (None, "none", ""):
                return None
            try:
                return parse_colour(value)
            except NotAColour as exc:
                raise self.fail(path, f"{exc} (or none)") from None
        if typ == "font":  # a built-in key or a project's fonts/ file, read and checked once
            if value in self.known.fonts:  # the theme's: checked when it was loaded
                return value
            try:
                return self.inputs.fonts.check(value)
            except FontError as exc:
                raise self.fail(path, str(exc)) from None
        if typ == "angle":
            if value not in (0, 90, 180, 270):
                raise self.fail(path, "expected a rotation of 0, 90, 180 or 270, got "
                                      f"{said(value)}")
            return int(value)
        if typ == "dash":
            if value is None:
                return None
            if not isinstance(value, list) or not all(isinstance(v, (int, float)) for v in value):
                raise self.fail(path, f"expected a list of dash lengths in mm, got {said(value)}")
            return tuple(float(v) for v in value)
        if typ == "points":
            try:
                return tuple((float(a), float(b)) for a, b in value)
            except (TypeError, ValueError):
                raise self.fail(path, "expected a list of [x, y] points, got "
                                      f"{said(value)}") from None
        if typ == "bool":
            if value is None:
                return None
            return bool(value)
        if typ == "focus":
            if value is None:
                return None
            try:
                fx, fy = (float(v) for v in value)
            except (TypeError, ValueError):
                fx = fy = -1.0
            if not (0 <= fx <= 1 and 0 <= fy <= 1):
                raise self.fail(path, "expected the point to keep in view as [x, y], each from "
                                      f"0 (left, top) to 1 (right, bottom), got {said(value, 60)}")
            return (fx, fy)
        return str(value)

    def charge(self, path: tuple[Hashable, ...], units: int) -> None:
        """Work a primitive's making does beyond its fields' expressions (reading a path)."""
        try:
            charge(units)
        except ExpressionError as exc:
            raise self.fail(path, str(exc)) from None

    def draw_art(self, path: tuple[Hashable, ...], art: IconDef, w: float, h: float) -> None:
        """Charge what drawing an icon or SVG art over w x h mm takes (its outline's points
        and the pixel rows its edges cross: ``IconDef.work``), beyond the element's own
        units. Art that alone takes more than a face may spend is refused naming its file,
        so a heavy drawing stops in one line before any renderer rasterises it."""
        units = art.work(w, h)
        if units > MAX_FACE_WORK:
            points, _ = art.outline
            raise self.fail(path, f"{shown(art.source) or art.name}: drawing it at "
                                  f"{abs(w):.4g} x {abs(h):.4g} mm takes {units:,} units of "
                                  f"work ({points:,} outline points; its edges cross "
                                  f"{(units - POINT_WORK * points) // EDGE_ROW_WORK:,} pixel "
                                  "rows at 300 dpi); a face may "
                                  f"spend {MAX_FACE_WORK:,} (simplify it: fewer segments, as "
                                  "Inkscape's Path > Simplify makes, or draw it smaller)")
        try:
            charge(units)
        except ExpressionError as exc:  # the face's budget, spent with this drawing's share
            raise self.fail(path, f"{exc}; drawing {shown(art.source) or art.name} at "
                                  f"{abs(w):.4g} x {abs(h):.4g} mm takes {units:,} of "
                                  "them") from None

    def build(self, path: tuple[Hashable, ...], kind: str, a: dict[str, Any]) -> p.Primitive:
        """The primitive of one element's checked fields: made here for the kinds that read a
        file or lay something out; a kind whose fields are its primitive's (rect, circle,
        line) is made by its spec."""
        if kind == "path":
            self.charge(path + ("d",), 2 * len(a["d"]))  # parsed: ~0.6 us a character
            try:
                segments = parse_path(a["d"])
            except ValueError as exc:
                raise self.fail(path + ("d",), f"bad path: {exc}") from None
            moved = tuple((op, tuple(v * a["scale"] + (a["dx"] if i % 2 == 0 else a["dy"])
                                     for i, v in enumerate(args))) for op, args in segments)
            return p.Path(moved, a["fill"], a["stroke"], a["width"])
        if kind == "polygon":
            pts = a["points"]
            self.charge(path + ("points",), 2 * len(pts))  # a segment made per point
            if len(pts) < 2:
                raise self.fail(path + ("points",), "expected at least 2 points")
            segs: list[p.Segment] = [("M", pts[0])] + [("L", pt) for pt in pts[1:]]
            if a["closed"]:
                segs.append(("Z", ()))
            return p.Path(tuple(segs), a["fill"], a["stroke"], a["width"])
        if kind == "text":
            size = a["size"]
            min_size = a["min_size"] if a["min_size"] is not None else min(size, 6.0)
            box = TextBox(a["x"], a["y"], a["w"], a["h"], a["text"], a["font"], size, min_size,
                          a["fill"], a["align"], a["valign"], a["line_height"], a["rotate"])
            try:  # markup, inline icons, hyphenation; missing glyphs refused per font there
                laid_out = _laid_out(box, a["hyphenate"], self.inputs.translator.lang,
                                     a["accent"], self.inputs, self.icon)
            except (TextDoesNotFit, MarkupError) as exc:
                error = self.fail_text(path + ("text",), str(exc))
                error.printed = a["text"]  # the build names the data it came from
                raise error from None
            except ExpressionError as exc:  # out of work
                raise self.fail(path + ("text",), str(exc)) from None
            for inline in laid_out.icons:  # found when the text was laid out
                self.draw_art(path + ("text",), self.icon(inline.name), inline.w, inline.h)
            return laid_out
        if kind == "icon":
            try:
                icon = self.icon(a["name"])
            except Unusable as exc:
                raise self.fail(path + ("name",), str(exc)) from None
            self.draw_art(path + ("name",), icon, a["w"], a["h"])
            return p.Icon(a["name"], a["x"], a["y"], a["w"], a["h"], a["fill"], a["accent"],
                          a["rotate"])
        if kind != "image":
            spec = ELEMENTS[kind]
            refused = spec.refuse(a) if spec.refuse is not None else None
            if refused is not None:
                raise self.fail(path + (refused[0],), refused[1])
            return spec.primitive(a)
        try:  # an image: confined and checked (once per file version) by the resolver
            picture = self.inputs.resolver.image(a["path"])
        except Unusable as exc:
            raise self.fail(path + ("path",), str(exc)) from None
        area = (a["x"], a["y"], a["w"], a["h"])
        focus = a["focus"] or (0.5, 0.5)
        if picture.drawing is not None:  # SVG, drawn as vectors: its view box is its size
            art = picture.drawing
            drawn, clip = fit_box(area, (art.view_w, art.view_h), a["fit"], focus)
            self.draw_art(path + ("path",), art, drawn[2], drawn[3])
            return p.Vector(str(picture.file), *drawn, clip=clip)
        assert picture.pixels is not None
        drawn, clip = fit_box(area, picture.pixels, a["fit"], focus)
        return p.Image(str(picture.file), *drawn, clip=clip)
