"""The pipeline: one game's kit, from its data file to its PDF, read top to bottom.

    load       generator/data/tables/loader.py        the game, checked, with what its faces draw
    with verify     composition.py                  the engine's and the data file's checks
    draw       drawing.py                      every component's faces (the face cache first)
    lay out    generator/layout/assemble.py    sheets, backs, marks, footers, contents sheet
    resources  output.py (data/design/resources.py)   the icons, art and fonts the pages draw with
    render     output.py (render/pdf.py)       the PDF, each distinct face drawn once
    write      output.py                       PDF, manifest, calibration sheet, cut files

What a kit and its files are called is naming.py. Everything a build holds that is not an
argument is its context (generator/core/context.py), entered here for each build. What is
made from a kit besides the kit (TTS, the preview, the studio) is in exporters/, which reads
this pipeline; the pipeline never imports it.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from generator.core import context
from generator.core.findings import Finding
from generator.core.model import Game
from generator.core.primitives import Face, Primitive
from generator.core.sizes import PAGE
from generator.data import load_game
from generator.data.translation import i18n
from generator.layout.assemble import Part, Summary, assemble
from generator.layout.contents import contents_prims
from generator.layout.frame import Frame
from generator.layout.furnish import mark_not_verified
from generator.layout.outline import kit_outline
from generator.layout.page import Kit, Sheet
from generator.layout.single import single_pages
from generator.orchestration.composition import check_composition
from generator.orchestration.drawing import faces_key, game_theme, render_faces, render_parts
from generator.orchestration.naming import (
    calibration_name,
    in_kit_language,
    kit_credit,
    kit_name,
    kit_title,
)
from generator.orchestration.options import BuildOptions
from generator.orchestration.output import write_built


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
        game = load_game(game_id)  # load
        with i18n.session(game, opts.lang):  # one record of what has no translation
            findings = check_composition(game, opts.force or draft)  # verify
            failing = [f for f in findings if not f.ok] if draft else []
            # draw, lay out
            kit = single_kit(game, opts) if opts.layout == "single" else build_kit(game, opts)
            kit = marked(kit, failing, opts)
            # resources, render, write
            return write_built(game, kit, opts), len(kit.pages), failing


@in_kit_language
def build_kit(game: Game, opts: BuildOptions,
              rendered: tuple[list[Part], list[Face]] | None = None) -> Kit:
    """Every component drawn (or ``rendered``, drawn already) and packed onto sheets, opened
    by a contents sheet computed from them."""
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


def marked(kit: Kit, failing: list[Finding], opts: BuildOptions) -> Kit:
    """A draft's kit with NOT VERIFIED on every page while checks fail (--force prints as
    asked, unmarked)."""
    return mark_not_verified(kit, len(failing)) if failing and not opts.force else kit
