"""Orchestration: game data + theme + face templates -> faces -> pages -> PDF (or PNGs)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paths, rules
from .data import load_game
from .data.yamlfile import load_yaml
from .errors import CompositionError, DataError
from .faces.expressions import ExpressionError, evaluate
from .faces.primitives import Face
from .faces.template import dependencies, load_template, render_face
from .layout.contents import Section, contents_page
from .layout.gutterfold import gutterfold_pages
from .layout.page import Page
from .layout.pages import Footer, board_pages, card_sheets, full_pages, printable_window
from .layout.sheet import SheetSpec
from .layout.single import single_pages
from .layout.sizes import PAGE, PAPER_SIZES
from .model import Component, Game, Size
from .render.pdf import write_pdf
from .rules.base import Finding
from .themes import Theme, load_theme


@dataclass(frozen=True)
class BuildOptions:
    paper: str = "a4"
    theme: str | None = None  # built-in theme name or a path to a user theme file
    ink_saver: bool = False
    margin: float = 5.0
    gap: float = 0.0
    bleed: float = 0.0
    flip: str = "long"
    back_dx: float = 0.0  # duplex calibration: shift back pages right (mm)
    back_dy: float = 0.0  # ... and down (mm)
    force: bool = False
    layout: str = "sheets"  # sheets | gutterfold | single (one piece per page, print shops)
    out_dir: Path = field(default=paths.OUTPUT)

    @property
    def paper_size(self) -> Size:
        return PAPER_SIZES[self.paper]

    def sheet_spec(self) -> SheetSpec:
        return SheetSpec(self.paper_size, self.margin, self.gap, self.bleed, self.flip,
                         self.back_dx, self.back_dy)


def verify(game: Game) -> list[Finding]:
    return list(rules.load(game.rules).verify(game))


def check_composition(game: Game, force: bool) -> list[Finding]:
    """Run the game's verify(); a failing set is not printed unless forced."""
    findings = verify(game)
    failed = [f for f in findings if not f.ok]
    if failed and not force:
        lines = "\n".join(f.line() for f in failed)
        raise CompositionError(f"{game.id}: the set is incomplete or wrong, not printing "
                               f"(use --force to print anyway):\n{lines}")
    return findings


def face_size(comp: Component, opts: BuildOptions) -> Size:
    if comp.size == PAGE:
        return printable_window(opts.paper_size, opts.margin)
    return comp.size


def item_label(comp: Component, ctx: dict[str, Any], index: int, source: Path) -> str:
    """A readable name for one item ("Queen of Hearts"), from the component's label template."""
    if comp.label:
        try:
            return str(evaluate(comp.label, ctx))
        except ExpressionError as exc:
            raise label_error(comp, source, str(exc)) from None
    return f"{comp.id}-{index + 1:03d}"


def label_error(comp: Component, source: Path, expected: str) -> DataError:
    """A bad label template, pointing at its line in the data file (found by component id)."""
    doc = load_yaml(source)
    raw = doc.data.get("components") if isinstance(doc.data, dict) else None
    for position, spec in enumerate(raw if isinstance(raw, list) else []):
        if isinstance(spec, dict) and spec.get("id") == comp.id:
            return doc.error(("components", position, "label"), expected)
    return DataError(source, None, f"components[{comp.id}].label", expected)


def render_faces(game: Game, comp: Component, theme: Theme, opts: BuildOptions
                 ) -> tuple[list[Face], list[Face] | None]:
    """Evaluate the component's face (and back) template once per printed copy."""
    size = face_size(comp, opts)
    front_t = load_template(comp.face)
    back_t = load_template(comp.back) if comp.back else None
    base: dict[str, Any] = {
        **theme.context(),
        "game": {"id": game.id, "title": game.title, "credit": game.credit},
        "component": {"id": comp.id, "name": comp.name, "params": comp.params,
                      "total": comp.total, "kind": comp.kind},
        "params": comp.params,
        "settings": game.data["settings"],
        "tables": game.data["tables"],
    }
    fronts: list[Face] = []
    backs: list[Face] | None = [] if back_t else None
    shared_back = back_t is not None and not {"item", "index"} & dependencies(back_t)
    back: Face | None = None
    for index, item in enumerate(comp.items):
        ctx = {**base, "item": item.data, "index": index}
        label = item_label(comp, ctx, index, game.source)
        front = render_face(front_t, size.w, size.h, ctx, label)
        if back_t is not None and (back is None or not shared_back):
            back = render_face(back_t, size.w, size.h, ctx, f"{comp.id}-back" if shared_back
                               else label + "-back")
        for _ in range(item.count):
            fronts.append(front)
            if backs is not None and back is not None:
                backs.append(back)
    return fronts, backs


def component_pages(game: Game, comp: Component, theme: Theme, opts: BuildOptions) -> list[Page]:
    fronts, backs = render_faces(game, comp, theme, opts)
    footer = Footer(game.title, comp.name, game.credit)
    if comp.kind == "board":
        return [page for face in fronts
                for page in board_pages(face, opts.paper_size, opts.margin, footer)]
    if comp.size == PAGE:
        return full_pages(fronts, opts.paper_size, opts.margin, footer)
    if opts.layout == "single":
        return single_pages(fronts, backs, opts.bleed or 3.175, comp.name)
    if opts.layout == "gutterfold" and backs:
        return gutterfold_pages(fronts, backs, opts.paper_size, opts.margin,
                                f"{game.title} · {comp.name}")
    return card_sheets(fronts, backs, opts.sheet_spec(), footer, round_cut=comp.shape == "round")


def game_theme(game: Game, opts: BuildOptions) -> Theme:
    return load_theme(opts.theme or game.theme, game.theme, opts.ink_saver)


def kit_pages(game: Game, opts: BuildOptions) -> list[Page]:
    """Every component's pages, opened by a contents sheet computed from them."""
    theme = game_theme(game, opts)
    sections: list[Section] = []
    pages: list[Page] = []
    for comp in game.components:
        comp_pages = component_pages(game, comp, theme, opts)
        first = len(pages) + 2  # page 1 is the contents sheet
        sections.append(Section(comp.name, comp.kind, comp.total, first,
                                first + len(comp_pages) - 1,
                                any(page.side == "back" for page in comp_pages),
                                str(comp.params.get("assembly", ""))))
        pages += comp_pages
    contents = contents_page(game.title, game.credit, opts.paper, opts.paper_size, opts.margin,
                             sections, opts.flip, len(pages) + 1)
    return [contents, *pages]


def output_pdf(game_id: str, opts: BuildOptions) -> Path:
    """The kit is output/<id>/<id>.pdf; other layouts get a suffix so they never replace it."""
    suffix = "" if opts.layout == "sheets" else f"-{opts.layout}"
    return opts.out_dir / game_id / f"{game_id}{suffix}.pdf"


def build_pdf(game_id: str, opts: BuildOptions) -> tuple[Path, int]:
    """Build one game's complete kit; returns the PDF path and its page count."""
    game = load_game(game_id)
    check_composition(game, opts.force)
    pages = kit_pages(game, opts)
    target = output_pdf(game.id, opts)
    write_pdf(pages, target, title=f"{game.title}: print-and-play kit", subject=game.credit,
              duplex=opts.flip)
    return target, len(pages)


def build_all(game_ids: Sequence[str], opts: BuildOptions) -> list[tuple[Path, int]]:
    return [build_pdf(game_id, opts) for game_id in game_ids]
