"""The studio's build (``pnp serve``, generator/frontends/studio/): one game drawn once for
the browser, with what the pictures alone do not say.

A build here is ``pnp watch``'s draft build (a set failing its checks is drawn NOT VERIFIED,
never refused), split in two so the browser sees an edit as early as possible:

1. ``drawn``: the game loaded, its composition checked, every face drawn (missing glyphs drawn
   as pre-flight draws them, to be reported rather than refused), the kit laid out, and for
   each piece what a designer clicking on it wants: its component, label, copies, the data
   row it came from and the template lines that drew it. ``on_drawn`` gets it at once.
2. The report (composition, pre-flight from the same drawing, deal questions, texts left
   untranslated) and the PDF with its manifest, written as ``pnp build`` writes them.

Nothing here serves or renders pictures: the front end asks the render layer for those.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.core import context
from generator.core.errors import location
from generator.core.findings import Finding
from generator.core.model import Component, Game
from generator.core.primitives import Face
from generator.core.resources import Resources
from generator.data import load_game
from generator.data.design.resources import load_resources
from generator.data.translation import i18n, origin
from generator.data.typefaces import fonts
from generator.layout.assemble import Part
from generator.layout.page import Kit, drawn
from generator.orchestration.build import build_kit, marked, single_kit
from generator.orchestration.composition import check_composition
from generator.orchestration.drawing import component_field, piece_items, render_parts
from generator.orchestration.options import BuildOptions
from generator.orchestration.output import write_built
from generator.orchestration.preflight.report import preflight
from generator.orchestration.simulate import unplayable
from generator.rules import deal


@dataclass(frozen=True)
class PieceInfo:
    """One piece of the kit as a click on it explains it (keyed by component and label, as
    the kit's placements and manifest name it)."""

    component: str
    component_name: str
    label: str
    face_label: str  # the drawn face's own label: what pre-flight findings name
    copies: int  # printed copies of its item
    total: int  # pieces of its component
    data: str  # where its item was written: "game.yaml:12: tables.cards[3]" or
    # "cards.xlsx: sheet Roles, row 4" (a spreadsheet's row has no line)
    row: str  # the file and line alone ("game.yaml:12"), as a finding's ``where`` says it
    front: Face
    back: Face | None


@dataclass(frozen=True)
class FaceGroup:
    """One distinct face of a component (front with its back) and how many pieces show it."""

    front: Face
    back: Face | None
    label: str  # the first piece's label (its key among the pieces)
    copies: int


@dataclass(frozen=True)
class ComponentFaces:
    id: str
    name: str
    kind: str
    total: int
    faces: tuple[FaceGroup, ...]


@dataclass
class Drawn:
    """A game drawn and laid out: what the studio shows before its report is ready."""

    game_id: str
    title: str
    kit: Kit
    resources: Resources
    pieces: dict[tuple[str, str], PieceInfo]
    components: list[ComponentFaces]
    failing: list[Finding]  # the composition checks that fail (NOT VERIFIED on the pages)
    unplayable: str | None = None  # why no simulation can be played (None: it can)
    findings: list[Finding] = field(default_factory=list)  # the whole report, once made
    pdf: Path | None = None  # once written


def template_lines(face: Face) -> tuple[int, ...]:
    """The lines of its template that drew something on ``face``."""
    return tuple(sorted({o.line for o in face.origins if o.line}))


def _data_row(game: Game, comp: Component, item: int | None) -> tuple[str, str]:
    """Where an item was written (its row, or the component's entry when it has none): the
    whole location, and its file and line alone."""
    if item is not None and item < len(comp.sources):
        file, line, field_ = origin.item_value(game, comp.sources[item], ())
    else:
        file, line, field_ = component_field(game, comp)
    return location(file, line, field_), location(file, line)


def _pieces(game: Game, parts: list[Part], rules: list[Face]
            ) -> tuple[dict[tuple[str, str], PieceInfo], list[ComponentFaces]]:
    """What a click on each piece says, and each component's distinct faces; the rules
    pages (no pieces of the manifest: pages of their own) are faces of their component."""
    pieces: dict[tuple[str, str], PieceInfo] = {}
    components = []
    pages = iter(rules)  # render_parts draws them component after component
    for comp in (c for c in game.components if c.kind == "rules"):
        drawn_pages = [face for face, _ in zip(pages, range(comp.total), strict=False)]
        for number, face in enumerate(drawn_pages):
            label = face.label or f"{comp.id}-{number + 1}"
            pieces[(comp.id, label)] = PieceInfo(comp.id, comp.name, label, face.label, 1,
                                                 len(drawn_pages),
                                                 *_data_row(game, comp, number), face, None)
        components.append(ComponentFaces(comp.id, comp.name, comp.kind, len(drawn_pages), tuple(
            FaceGroup(face, None, face.label or f"{comp.id}-{n + 1}", 1)
            for n, face in enumerate(drawn_pages))))
    for part in parts:
        comp = game.component(part.id)
        if part.board is not None:
            face = part.board.face
            pieces[(part.id, "")] = PieceInfo(part.id, part.name, part.name, face.label, 1, 1,
                                              *_data_row(game, comp, None), face, None)
            components.append(ComponentFaces(part.id, part.name, part.kind, 1,
                                             (FaceGroup(face, None, "", 1),)))
            continue
        items = piece_items(comp, len(part.pieces))
        groups: dict[tuple[int, int], FaceGroup] = {}
        for number, piece in enumerate(part.pieces):
            item = items[number] if items else None
            copies = comp.items[item].count if item is not None else 1
            pieces[(part.id, piece.label)] = PieceInfo(
                part.id, part.name, piece.label, piece.front.label, copies, len(part.pieces),
                *_data_row(game, comp, item), piece.front, piece.back)
            key = (id(piece.front), id(piece.back))
            seen = groups.get(key)
            groups[key] = (FaceGroup(piece.front, piece.back, piece.label, 1) if seen is None
                           else FaceGroup(seen.front, seen.back, seen.label, seen.copies + 1))
        components.append(ComponentFaces(part.id, part.name, part.kind, len(part.pieces),
                                         tuple(groups.values())))
    return pieces, components


def studio_build(data_file: str, opts: BuildOptions,
                 on_drawn: Callable[[Drawn], None] | None = None) -> Drawn:
    """Draw, hand the drawing to ``on_drawn``, then report and write the PDF (see above)."""
    with i18n.collect() as missing, context.building():
        game = load_game(data_file)
        with i18n.session(game, opts.lang):
            findings = check_composition(game, force=True)
            failing = [f for f in findings if not f.ok]
            with fonts.glyphs_reported():  # drawn and reported, as pre-flight draws them
                rendered = render_parts(game, opts)
            kit = (single_kit(game, opts) if opts.layout == "single"
                   else build_kit(game, opts, rendered))
            kit = marked(kit, failing, opts)
            pieces, components = _pieces(game, *rendered)
            result = Drawn(game.id, game.title, kit, load_resources(drawn(kit.pages)), pieces,
                           components, failing, unplayable(game, opts.lang))
            if on_drawn is not None:
                on_drawn(result)
            findings += preflight(game, opts, rendered) + deal.findings(game)
            result.pdf = write_built(game, kit, opts)
        findings += i18n.findings(missing, opts.lang)
    result.findings = findings
    return result
