"""Drawing: every component of a game drawn into faces, as the layout stage takes them.

The pipeline's draw stage (generator/orchestration/build.py): the theme a game is drawn in
(``game_theme``), the face cache's key every component of a build shares (``faces_key``), each
component's faces, from the cache or drawn item by item through its face template
(``render_faces``, ``_draw_faces``: generator/faces/template.py), and the parts the layout
packs (``component_part``, ``render_parts``). Drawing spends the build's budget and holds
the build's primitive counts (``MAX_COMPONENT_PRIMITIVES``, ``MAX_BUILD_PRIMITIVES``).
``DrawnKit`` hands a default drawing to a rules engine's ``verify``.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from generator import rules
from generator.core import context
from generator.core.colours import parse_colour
from generator.core.errors import DataError
from generator.core.model import Component, FaceTemplate, Game, Size
from generator.core.primitives import WEIGHED, Face, face_weight
from generator.core.sizes import PAGE
from generator.core.words import said
from generator.core.yamlfile import format_path
from generator.data.design import lookup
from generator.data.design.templates import load_template
from generator.data.design.themes import Theme, load_theme
from generator.data.translation import i18n, origin
from generator.data.typefaces import fonts, project_fonts
from generator.expressions import (
    MAX_BUILD_PRIMITIVES,
    MAX_COMPONENT_PRIMITIVES,
    ExpressionError,
    Spending,
    evaluate,
)
from generator.faces import face_cache
from generator.faces.template import dependencies, draw_face
from generator.layout.assemble import Part
from generator.layout.frame import Frame
from generator.layout.kit import Board, Piece
from generator.orchestration.naming import in_kit_language, kit_credit, kit_name, kit_title
from generator.orchestration.options import BuildOptions
from generator.rules.base import at


class DrawnKit:
    """The kit as a default build (``BuildOptions()``) draws it, for a rules engine's
    ``verify`` to read back (``rules.base.PrintedKit``): rules sit below the build, so the
    build hands them its drawing. Nothing is drawn until an engine asks, and then only the
    components it asks for (from the face cache when an earlier build drew them)."""

    def __init__(self, game: Game, opts: BuildOptions | None = None) -> None:
        self.game = game
        self.opts = opts or BuildOptions()

    @functools.cached_property
    def theme(self) -> Theme:
        return game_theme(self.game, self.opts)

    @functools.cached_property
    def shared(self) -> str | None:
        """The face cache's key part every component of this drawing shares."""
        return faces_key(self.game, self.theme, self.opts)

    def fronts(self, component: Component) -> list[Face]:
        return render_faces(self.game, component, self.theme, self.opts, self.shared)[0]


def face_size(comp: Component, opts: BuildOptions) -> Size:
    if comp.size == PAGE:
        _, _, w, h = Frame(opts.paper_size, opts.margin).area
        return Size(w, h)
    return comp.size


def item_label(comp: Component, ctx: dict[str, Any], index: int,
               where: tuple[str, int | None, str]) -> str:
    """A readable name for one item ("Queen of Hearts"), from the component's label template
    (``where``: the label's file, line and field, which its errors name and its work is
    spent as, in the build's budget). Without a template, the component's name (numbered
    when it has several items): the manifest, the PNG file names and the studio show
    "Player aids", never an id a player never sees ("aid-001")."""
    if comp.label:
        source = i18n.label_field(comp.label, where)
        try:
            with Spending((*where, "label")):
                label = str(evaluate(source, ctx))
        except ExpressionError as exc:
            site = i18n.translation_site(comp.label) if source is not comp.label else None
            if site is None:
                raise DataError(*where, str(exc)) from None
            # the English label works: the translation printed in its place is at fault
            raise DataError(*site, "strings", f"{exc} (this translation is printed as the "
                                               f"label {where[2]}, {where[0]}:{where[1]})"
                            ) from None
        if not label.strip():  # a piece the manifest, the preview and errors cannot name
            raise DataError(*where, f"expected a label of at least 1 character; item "
                                    f"{index + 1} gets an empty one")
        return label
    return comp.name if len(comp.items) == 1 else f"{comp.name} {index + 1}"


def component_field(game: Game, comp: Component, *path: str) -> tuple[str, int | None, str]:
    """The file, line and field of a component's entry (or a field of it) in the data file,
    from the document the loader parsed."""
    doc = (getattr(game, "docs", None) or {}).get("game")
    if doc is not None and isinstance(doc.data, dict):
        raw = doc.data.get("components")
        for position, spec in enumerate(raw if isinstance(raw, list) else []):
            if isinstance(spec, dict) and spec.get("id") == comp.id:
                key = ("components", position, *path)
                return str(doc.file), doc.line_of(key), format_path(key)
    return str(game.source), None, ".".join(("components", comp.id, *path))


def too_many_primitives(game: Game, comp: Component, expected: str) -> DataError:
    return DataError(*component_field(game, comp), expected)


def engine_examples(game: Game) -> dict[str, Any]:
    """Worked examples computed by the game's rules module from real engine states (its
    optional ``examples(game)``), for rules pages and aids to draw as ``examples``: when the
    rules change, the printed example changes with them. Computed once per loaded game and
    kit language in a build (kept in the build's context, generator/core/context.py)."""
    held = context.current().examples
    key = (id(game), i18n.lang())  # examples print text: one set per kit language
    cached = held.get(key)
    if cached is not None and cached[0] is game:
        context.note(cached[2])  # the files they were made from: read by this face too
        return cached[1]
    # None: a game without rules, or a project's own engine in a folder not trusted
    made = getattr(rules.engine(game, skip_untrusted=True), "examples", None)
    with context.recording() as read:
        try:
            found: dict[str, Any] = dict(made(game)) if made else {}
        except ValueError as exc:  # the data lacks what the example needs (--force got here)
            raise DataError(game.source, None, "rules examples", str(exc)) from None
    if len(held) > 16:
        held.clear()
    held[key] = (game, found, dict(read))
    return found


@in_kit_language
def render_faces(game: Game, comp: Component, theme: Theme, opts: BuildOptions,
                 shared: str | None = None) -> tuple[list[Face], list[Face] | None]:
    """Evaluate the component's face (and back) template once per printed copy. With
    ``shared`` (``faces_key``: the game's part of the key), faces an earlier run drew from
    the same inputs come from the face cache (generator/faces/face_cache.py)."""
    size = face_size(comp, opts)
    fronts, backs = face_cache.drawn(shared, comp, size,
                                     lambda: _draw_faces(game, comp, theme, opts, size),
                                     i18n.current(), fonts.reporting())
    budget = context.current().budget
    if budget is not None:  # drawn or from the cache alike: what the build holds
        budget.primitives += _primitives(fronts, backs)
        if budget.primitives > MAX_BUILD_PRIMITIVES:
            raise too_many_primitives(game, comp, f"more than {MAX_BUILD_PRIMITIVES:,} "
                                      f"{WEIGHED} in one "
                                      f"build's faces, {budget.primitives:,} with this "
                                      "component's")
    return fronts, backs


def _primitives(fronts: list[Face], backs: list[Face] | None) -> int:
    """The primitives of the distinct faces (a copy is the same face, drawn once)."""
    distinct = {id(face): face for face in [*fronts, *(backs or [])]}
    return sum(map(face_weight, distinct.values()))


def faces_key(game: Game, theme: Theme, opts: BuildOptions) -> str | None:
    """The key part every component of this build shares, or None: nothing cached."""
    if not face_cache.usable(fonts.reporting()):
        return None
    options = {f.name: getattr(opts, f.name) for f in fields(opts)
               if f.name not in ("force", "out_dir", "cut_svg")}  # these draw nothing
    own = rules.project_engine(game)
    # The code drawing runs: this module and what it imports, and the built-in engine loaded
    # by name whose worked examples the rules pages draw (generator/core/cache.py).
    code = [__name__]
    if own is not None:  # its examples are drawn: keyed on its code, and on whether it ran
        options["engine"] = rules.code_key(own)
    elif game.rules:
        code.append(rules.module_name(game.rules))
    read = [sorted(i18n.current().read.items()), project_fonts.fingerprint()]  # by content
    return face_cache.game_key(game, theme.context(), options, tuple(code), read)


def game_template(game: Game, name: str) -> FaceTemplate:
    """A component's face template, as the game was loaded with it (its files noted as read
    by the face being drawn); looked up for a game made without one."""
    found = game.known.templates.get((name, None))
    return found.use() if found is not None else load_template(name)


def _draw_faces(game: Game, comp: Component, theme: Theme, opts: BuildOptions, size: Size
                ) -> tuple[list[Face], list[Face] | None]:
    front_t = game_template(game, comp.face)
    back_t = game_template(game, comp.back) if comp.back else None
    known = game.known + theme.known  # what loading resolved: the faces read it first
    inputs = lookup.face_inputs()  # the build's fonts, translator and resolver, handed in
    session = i18n.current()  # told once per face what the face's drawing told (``record``)
    base: dict[str, Any] = {
        **theme.context(),
        "game": {"id": game.id, "title": kit_title(game), "credit": kit_credit(game)},
        "component": {"id": comp.id, "name": comp.name, "params": comp.params,
                      "total": comp.total, "kind": comp.kind,
                      "size": {"w": size.w, "h": size.h}, "grid": comp.grid},
        "lang": opts.lang,
        "params": comp.params,
        "settings": game.data["settings"],
        # Translated columns (power@fr) in place in a kit of their language, never printed
        # as columns of their own (generator/data/translation/i18n.py).
        "tables": i18n.localised(game.data["tables"]),
    }
    if comp.kind in ("rules", "aid"):
        base["examples"] = engine_examples(game)
    if i18n.lang() != i18n.SOURCE and "component" in dependencies(
            front_t, known, inputs.resolver) | (dependencies(back_t, known, inputs.resolver)
                                                if back_t else frozenset()):  # translated
        base["component"] = {**base["component"], "name": kit_name(game, comp)}
    fronts: list[Face] = []
    backs: list[Face] | None = [] if back_t else None
    shared_back = back_t is not None and not {"item", "index"} & dependencies(
        back_t, known, inputs.resolver)
    back: Face | None = None
    label_at = component_field(game, comp, "label")
    primitives = 0
    for index, item in enumerate(comp.items):
        ctx = {**base, "item": i18n.localised(item.data), "index": index}
        label = item_label(comp, ctx, index, label_at)
        try:
            drawn_front = draw_face(front_t, size.w, size.h, ctx, inputs, label, known)
            session.record(drawn_front.told)
            front = drawn_front.face
            primitives += face_weight(front)
            if back_t is not None and (back is None or not shared_back):
                drawn_back = draw_face(back_t, size.w, size.h, ctx, inputs, f"{comp.id}-back"
                                       if shared_back else label + "-back", known)
                session.record(drawn_back.told)
                back = drawn_back.face
                primitives += face_weight(back)
        except DataError as exc:  # a text of the item's: name its cell beside the template
            raise origin.at_the_cell(exc, game, comp, index) from None
        if primitives > MAX_COMPONENT_PRIMITIVES:
            raise too_many_primitives(game, comp, f"more than {MAX_COMPONENT_PRIMITIVES:,} "
                                      f"{WEIGHED} in one "
                                      f"component's faces: {primitives:,} up to item "
                                      f"{index + 1} ({said(label)})")
        for _ in range(item.count):
            fronts.append(front)
            if backs is not None and back is not None:
                backs.append(back)
    return fronts, backs


def piece_items(comp: Component, pieces: int) -> list[int]:
    """The item each piece of a component was drawn from (its copies one after the other, as
    ``_draw_faces`` draws them); empty when the pieces are not the component's items."""
    found = [index for index, item in enumerate(comp.items) for _ in range(item.count)]
    return found if len(found) == pieces else []


def copy_labels(labels: list[str]) -> list[str]:
    """Each piece's own name in the manifest: a label that several pieces share (the copies of
    one item, ``count: 3``) gets "(k of n)", so a player aid or a tile can be told apart."""
    totals: dict[str, int] = {}
    for label in labels:
        totals[label] = totals.get(label, 0) + 1
    seen: dict[str, int] = {}
    named = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        named.append(label if totals[label] == 1 else f"{label} ({seen[label]} of {totals[label]})")
    return named


def component_part(game: Game, comp: Component, theme: Theme, opts: BuildOptions,
                   shared: str | None = None) -> Part:
    """A component's rendered pieces (or its board), as the layout stage takes them."""
    fronts, backs = render_faces(game, comp, theme, opts, shared)
    name = kit_name(game, comp)
    assembly = i18n.data_text(comp.assembly, lambda: at(game, "components", comp.id,
                                                        "assembly"))
    if comp.kind == "board":
        return Part(comp.id, name, comp.kind, board=Board(fronts[0], comp.id, name, *comp.seams,
                                                       comp.seam_gap, comp.start),
                    assembly=assembly)
    labels = copy_labels([front.label for front in fronts])
    pieces = tuple(Piece(front, backs[i] if backs else None, comp.id, labels[i],
                         comp.shape == "round") for i, front in enumerate(fronts))
    dice = sum(len(nets) * item.count for item in comp.items
               if isinstance(nets := item.get("dice"), list | tuple)) if comp.kind == "die" else 0
    return Part(comp.id, name, comp.kind, pieces, assembly=assembly, dice=dice)


def game_theme(game: Game, opts: BuildOptions) -> Theme:
    return load_theme(opts.theme or game.theme, game.theme, opts.ink_saver)


ColourGroup = tuple[Mapping[str, Any], dict[str, str]]  # a group, its colours resolved


def colour_groups(game: Game, theme: Theme) -> list[ColourGroup]:
    """The data's ``preflight.colour_groups`` (colours pre-flight checks for colour-blind
    and greyscale readers), each colour evaluated in ``theme``. Resolved at every build too,
    so a colour naming no colour of the palette (``{{ palette.suit_clubz }}``) is refused at
    its line, not accepted until a ``verify``."""
    context = theme.context()
    doc = (game.docs or {}).get("game")
    preflight = game.data.get("preflight") or {}
    found: list[ColourGroup] = []
    for index, group in enumerate(preflight.get("colour_groups") or []):
        colours: dict[str, str] = {}
        for name, value in group["colours"].items():
            try:
                colours[name] = parse_colour(str(evaluate(value, context)))
            except (ExpressionError, ValueError) as exc:
                path = ("preflight", "colour_groups", index, "colours", name)
                why = f"expected a colour: #rgb, #rrggbb(aa) or a CSS name ({exc})"
                raise (doc.error(path, why) if doc is not None else
                       DataError(game.source, None, format_path(path), why)) from None
        found.append((group, colours))
    return found


@in_kit_language
def render_parts(game: Game, opts: BuildOptions) -> tuple[list[Part], list[Face]]:
    """Every component rendered: the parts to lay out, and the rules summary's pages."""
    theme = game_theme(game, opts)
    colour_groups(game, theme)  # resolved at every build: a wrong colour is no kit
    shared = faces_key(game, theme, opts)
    parts: list[Part] = []
    rules: list[Face] = []
    for comp in game.components:
        if comp.kind == "rules":
            rules += render_faces(game, comp, theme, opts, shared)[0]
            continue
        parts.append(component_part(game, comp, theme, opts, shared))
    return parts, rules
