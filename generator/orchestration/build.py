"""Orchestration: game data + theme + face templates -> faces -> pages -> PDF (or PNGs)."""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from generator import rules
from generator.core import context
from generator.core.atomic import atomic_batch, atomic_dir, atomic_file, output_lock
from generator.core.colours import parse_colour
from generator.core.errors import CompositionError, DataError, InputError
from generator.core.findings import Finding
from generator.core.model import Component, FaceTemplate, Game, Size
from generator.core.primitives import WEIGHED, Face, Primitive, face_weight
from generator.core.sizes import PAGE
from generator.core.words import said
from generator.core.yamlfile import format_path
from generator.data import i18n, load_game, origin
from generator.data.resources import load_resources
from generator.data.templates import load_template
from generator.data.themes import Theme, load_theme
from generator.expressions import (
    MAX_BUILD_PRIMITIVES,
    MAX_COMPONENT_PRIMITIVES,
    ExpressionError,
    Spending,
    evaluate,
)
from generator.faces import face_cache
from generator.faces.template import dependencies, render_face
from generator.layout.assemble import Part, Summary, assemble
from generator.layout.calibration import calibration_pages
from generator.layout.contents import contents_prims
from generator.layout.cutfile import MAX_CUT_FILES, cut_name, cut_pages, cut_svg
from generator.layout.frame import Frame
from generator.layout.furnish import mark_not_verified
from generator.layout.kit import Board, Piece
from generator.layout.manifest import manifest_path, write_manifest
from generator.layout.outline import kit_outline
from generator.layout.page import Kit, Sheet, drawn
from generator.layout.single import single_pages
from generator.orchestration.options import BuildOptions
from generator.render.pdf import write_pdf
from generator.rules.base import at

_Fn = Callable[..., Any]


def in_kit_language(fn: _Fn) -> _Fn:
    """Run ``fn(game, ..., opts, ...)`` with ``opts.lang`` as the kit language of ``game``
    (generator/data/i18n.py); inside a build of the same game and language, the build's own."""
    @functools.wraps(fn)
    def run(game: Game, *args: Any, **kwargs: Any) -> Any:
        opts = next((a for a in (*args, *kwargs.values()) if isinstance(a, BuildOptions)),
                    BuildOptions())
        with i18n.session(game, opts.lang):
            return fn(game, *args, **kwargs)
    return run


def kit_title(game: Game) -> str:
    """The game's title in the kit's language (as the footers and contents sheet print it)."""
    return i18n.data_text(game.title, lambda: at(game, "title"))


def kit_credit(game: Game) -> str:
    return i18n.data_text(game.credit, lambda: at(game, "credit"))


def kit_name(game: Game, comp: Component) -> str:
    """A component's name in the kit's language (contents sheet, footers, bookmarks)."""
    return i18n.data_text(comp.name, lambda: at(game, "components", comp.id, "name"))


def verify(game: Game) -> list[Finding]:
    """The rules module's composition findings (a game without one has none), the data
    file's declarative ``verify`` checks, then whether the rules pages carry every rule of
    the seed; each names the data it is about (at least the game's data file)."""
    from generator.rules.coverage import coverage_findings
    from generator.rules.declarative import findings as declared

    module = rules.engine(game, skip_untrusted=True)  # an untrusted project's code: not run
    findings = ((module.verify(game, DrawnKit(game)) if module else []) + declared(game)
                + coverage_findings(game))
    return [f if f.where else replace(f, where=str(game.source)) for f in findings]


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


def check_composition(game: Game, force: bool) -> list[Finding]:
    """Run the game's verify(); a failing set is not printed unless forced (a warning, e.g.
    a ``per`` check that may be missing combinations, never stops a build)."""
    findings = verify(game)
    failed = [f for f in findings if not f.ok and not f.warn]
    if failed and not force:
        lines = "\n".join(f.line() for f in failed)
        raise CompositionError(f"{game.source}: {game.id}: the set is incomplete or wrong, not "
                               f"printing (use --force to print anyway):\n{lines}")
    return findings


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
                                     lambda: _draw_faces(game, comp, theme, opts, size))
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
    if not face_cache.usable():
        return None
    options = {f.name: getattr(opts, f.name) for f in fields(opts)
               if f.name not in ("force", "out_dir", "cut_svg")}  # these draw nothing
    own = rules.project_engine(game)
    if own is not None:  # its examples are drawn: keyed on its code, and on whether it ran
        options["engine"] = rules.code_key(own)
    return face_cache.game_key(game, theme.context(), options)


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
        # as columns of their own (generator/data/i18n.py).
        "tables": i18n.localised(game.data["tables"]),
    }
    if comp.kind in ("rules", "aid"):
        base["examples"] = engine_examples(game)
    if i18n.lang() != i18n.SOURCE and "component" in dependencies(front_t, known) | (
            dependencies(back_t, known) if back_t else frozenset()):  # translated where printed
        base["component"] = {**base["component"], "name": kit_name(game, comp)}
    fronts: list[Face] = []
    backs: list[Face] | None = [] if back_t else None
    shared_back = back_t is not None and not {"item", "index"} & dependencies(back_t, known)
    back: Face | None = None
    label_at = component_field(game, comp, "label")
    primitives = 0
    for index, item in enumerate(comp.items):
        ctx = {**base, "item": i18n.localised(item.data), "index": index}
        label = item_label(comp, ctx, index, label_at)
        try:
            front = render_face(front_t, size.w, size.h, ctx, label, known)
            primitives += face_weight(front)
            if back_t is not None and (back is None or not shared_back):
                back = render_face(back_t, size.w, size.h, ctx, f"{comp.id}-back"
                                   if shared_back else label + "-back", known)
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


def calibration_name(game_id: str, opts: BuildOptions) -> str:
    """The kit's duplex calibration sheet: it depends on the paper and the flip (and the
    language it is written in), not on the ink or the layout."""
    return f"{game_id}-calibration{variant_suffix(opts, ink=False)}.pdf"


def variant_suffix(opts: BuildOptions, ink: bool = True) -> str:
    """What a kit's file name adds for each choice that differs from the defaults (A4, flip on
    the long edge, full ink, English), in that order, before the extension:
    ``moving-target.letter.short.saver.fr.pdf``. So kits for two playtesters (A4 for one,
    Letter for the other) sit side by side instead of one replacing the other. The flip only
    names a duplex kit: gutterfold and single-piece layouts are printed one-sided."""
    default = BuildOptions()
    parts = [opts.paper if opts.paper != default.paper else "",
             opts.flip if opts.flip != default.flip and opts.layout == "sheets" else "",
             "saver" if ink and opts.ink_saver else "",
             opts.lang if opts.lang != i18n.SOURCE else ""]
    return "".join(f".{part}" for part in parts if part)


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


@in_kit_language
def build_kit(game: Game, opts: BuildOptions,
              rendered: tuple[list[Part], list[Face]] | None = None) -> Kit:
    """Every component packed onto sheets, opened by a contents sheet computed from them."""
    parts, rules = rendered or render_parts(game, opts)
    spec = opts.sheet_spec()
    if opts.layout == "gutterfold":
        spec = replace(spec, flip="none")
    touching = opts.gap == 0 and opts.bleed == 0

    def contents(summary: Summary, frame: Frame) -> list[Primitive]:
        return contents_prims(summary, frame, calibration_name(game.id, opts), touching)

    return assemble(spec, game.id, opts.paper, kit_title(game), kit_credit(game), parts, rules,
                    contents)


@in_kit_language
def single_kit(game: Game, opts: BuildOptions) -> Kit:
    """One piece per page for print shops: every front, then its back, each on its own page."""
    theme = game_theme(game, opts)
    shared = faces_key(game, theme, opts)
    sheets: list[Sheet] = []
    names: dict[str, str] = {}
    for comp in game.components:
        if comp.kind in ("rules", "board") or comp.size == PAGE:
            continue
        fronts, backs = render_faces(game, comp, theme, opts, shared)
        names[comp.id] = kit_name(game, comp)
        for page in single_pages(fronts, backs, opts.bleed or 3.175, comp.id):
            sheets.append(Sheet(page, None))
    return Kit(game.id, opts.paper, opts.paper_size, "none", tuple(sheets),
               kit_outline(sheets, names))


def output_pdf(game_id: str, opts: BuildOptions) -> Path:
    """The kit is output/<id>/<id>.pdf; other layouts get a suffix so they never replace it,
    and other papers, flips, ink and languages theirs before the extension (``variant_suffix``:
    ``<id>.letter.pdf``, ``<id>-gutterfold.fr.pdf``)."""
    suffix = "" if opts.layout == "sheets" else f"-{opts.layout}"
    return opts.out_dir / game_id / f"{game_id}{suffix}{variant_suffix(opts)}.pdf"


def build_pdf(game_id: str, opts: BuildOptions) -> tuple[Path, int]:
    """Build one game's complete kit (PDF, manifest, calibration sheet); returns the PDF path
    and its page count. Its state (the project, the language session, the files read) is a
    context of its own (generator/core/context.py): builds in other threads never see it."""
    target, pages, _ = _build(game_id, opts, draft=False)
    return target, pages


def build_draft(game_id: str, opts: BuildOptions) -> tuple[Path, int, list[Finding]]:
    """``build_pdf`` for ``pnp watch``: a set that fails its checks (halfway through adding a
    suit) is built all the same, NOT VERIFIED on every page, and the failing checks are
    returned for the watcher to print. A plain build still refuses such a set."""
    return _build(game_id, opts, draft=True)


def _build(game_id: str, opts: BuildOptions, draft: bool) -> tuple[Path, int, list[Finding]]:
    with context.building():
        game = load_game(game_id)
        with i18n.session(game, opts.lang):  # one record of what has no translation
            return _build_pdf(game, opts, draft)


def _build_pdf(game: Game, opts: BuildOptions, draft: bool = False
               ) -> tuple[Path, int, list[Finding]]:
    findings = check_composition(game, opts.force or draft)
    failing = [f for f in findings if not f.ok] if draft else []
    kit = single_kit(game, opts) if opts.layout == "single" else build_kit(game, opts)
    kit = marked(kit, failing, opts)
    return write_built(game, kit, opts), len(kit.pages), failing


def marked(kit: Kit, failing: list[Finding], opts: BuildOptions) -> Kit:
    """A draft's kit with NOT VERIFIED on every page while checks fail (--force prints as
    asked, unmarked)."""
    return mark_not_verified(kit, len(failing)) if failing and not opts.force else kit


def write_built(game: Game, kit: Kit, opts: BuildOptions) -> Path:
    """Write a built kit where ``output_pdf`` says: the PDF, its manifest and calibration
    sheet (and cut files when asked); returns the PDF's path."""
    target = output_pdf(game.id, opts)
    # One build of a folder at a time; the PDF, manifest and calibration sheet are all written
    # to temporary files first and only then renamed into place, so a failure (or Ctrl-C)
    # leaves the previous set whole.
    cuts = cut_files(game, kit) if opts.cut_svg else None  # refused before anything is written
    # The cut files are staged first: a cut folder the project made a link is refused
    # (UnsafeOutput) before the PDF, manifest or calibration sheet is written.
    with (output_lock(target.parent), staged_folder(cut_folder(target), cuts),
          atomic_batch()):
        write_kit(kit, target, title=i18n.message("kit.title", title=kit_title(game)),
                  subject=kit_credit(game))
        if opts.layout == "sheets":
            write_calibration(target.with_name(calibration_name(game.id, opts)), opts)
    return target


def cut_folder(pdf: Path) -> Path:
    """Where ``build --cut-svg`` puts a kit's cut files: ``<kit>-cut/`` beside its PDF."""
    return pdf.with_name(pdf.name.removesuffix(".pdf") + "-cut")


def cut_files(game: Game, kit: Kit) -> dict[str, bytes]:
    """One SVG of cut lines per sheet side holding pieces (generator/layout/cutfile.py), by
    file name; a kit past ``MAX_CUT_FILES`` sides is refused."""
    pages = cut_pages(kit)
    if len(pages) > MAX_CUT_FILES:
        raise InputError(f"--cut-svg: {game.id}'s kit has {len(pages)} sheet sides of pieces; "
                         f"a set of cut files holds at most {MAX_CUT_FILES}")
    corners = {comp.id: comp.corner for comp in game.components}
    nets = {comp.id for comp in game.components if comp.kind == "die"}
    return {cut_name(sheet, page.side): cut_svg(page, sheet, corners, nets)
            for sheet, page in pages}


@contextmanager
def staged_folder(folder: Path, files: dict[str, bytes] | None) -> Iterator[None]:
    """A set of files written into a fresh folder before the block and swapped in whole after
    it, so no file of an older, longer set survives (generator/core/atomic.py) and a refusal
    of ``folder`` (a link) comes before the block writes anything. The block failing, the
    set is not swapped in. Called under the kit folder's lock; ``files`` None: nothing to
    write. The folder is swapped in on its own, after the block's batch of files."""
    if files is None:
        yield
        return
    with atomic_dir(folder) as staging:
        for name, data in files.items():
            with atomic_file(staging / name) as out:
                out.write(data)
        yield


def write_kit(kit: Kit, target: Path, title: str, subject: str) -> None:
    """The PDF and, beside it, its manifest (replaced together, under the folder's lock); the
    PDF asks for duplex only when it is safe. The icons, SVG art and fonts its pages draw
    with are loaded here, once, and given to the renderer (generator/core/resources.py)."""
    pages = kit.pages
    resources = load_resources(drawn(pages))
    with output_lock(target.parent), atomic_batch():
        write_pdf(pages, target, title=title, subject=subject, outline=kit.outline,
                  duplex=kit.flip if kit.duplex_safe else "none", lang=i18n.lang(),
                  resources=resources)
        write_manifest(kit, manifest_path(target))


def write_calibration(target: Path, opts: BuildOptions) -> None:
    with i18n.session(None, opts.lang):
        pages = calibration_pages(opts.paper_size, opts.flip)
        sheet = Sheet(replace(pages[0], side="front", content="calibration"),
                      replace(pages[1], side="back", content="calibration"))
        kit = Kit("calibration", opts.paper, opts.paper_size, opts.flip, (sheet,),
                  kit_outline((sheet,), {}))
        write_kit(kit, target, i18n.message("calibration.pdf_title"),
                  i18n.message("kit.subject"))


def build_all(game_ids: Sequence[str], opts: BuildOptions) -> list[tuple[Path, int]]:
    return [build_pdf(game_id, opts) for game_id in game_ids]
