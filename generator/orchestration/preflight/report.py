"""Pre-flight report of one game, beside its composition report in ``verify``.

Composition asks "is the set right?"; pre-flight asks "will it print right?". It lays the kit
out exactly as ``build`` does (nothing is written) and reports, as warnings (failures under
``--strict``): game information in the cutting tolerance, small text, low-resolution art and
colours that players with a colour-vision deficiency, or a greyscale printer, cannot tell
apart. A glyph missing from its font is a failure, since ``build`` refuses to print it as an
empty box: pre-flight draws those faces anyway (``fonts.glyphs_reported``) to name every
template line, character and piece at once. It also reports the sheets used against a lower
bound, and the project's own fonts used with their coverage of the kit's characters.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace

from generator.core.findings import DESIGN, Finding
from generator.core.model import Game
from generator.core.primitives import Face
from generator.core.sizes import PAPER_LABELS
from generator.data.translation import origin
from generator.data.typefaces import fonts
from generator.layout.assemble import Part
from generator.layout.frame import frames
from generator.orchestration.build import build_kit
from generator.orchestration.drawing import colour_groups, game_theme, piece_items, render_parts
from generator.orchestration.options import BuildOptions
from generator.orchestration.preflight import colour
from generator.orchestration.preflight.checks import Cell, Issue, face_issues, furniture_issues
from generator.orchestration.preflight.font_coverage import coverage_findings

SHOWN = 3  # examples per kind of issue; the rest are counted


def _grouped(issues: Iterable[Issue]) -> list[Finding]:
    """One finding per (check, template line, problem), naming a few pieces and a count."""
    groups: dict[tuple[str, str], list[Issue]] = defaultdict(list)
    for issue in issues:
        groups[issue.key()].append(issue)
    findings = []
    for (check, where), members in groups.items():
        pieces = list(dict.fromkeys(m.piece for m in members))
        more = f" and {len(pieces) - SHOWN} more" if len(pieces) > SHOWN else ""
        worst = min(members, key=lambda m: m.value).detail
        cells = list(dict.fromkeys(m.cell for m in members if m.cell))
        comes = (f"; the text comes from {'; '.join(cells[:SHOWN])}"
                 + (f" and {len(cells) - SHOWN} more" if len(cells) > SHOWN else "")
                 if cells else "")
        findings.append(Finding(f"pre-flight {check}", False,
                                f"{where}: {worst} on {', '.join(pieces[:SHOWN])}{more}{comes}",
                                # empty boxes: build refuses them
                                warn=check != "glyph", pieces=tuple(pieces)))
    return findings


def sheet_lower_bound(game: Game, opts: BuildOptions, rules_pages: int) -> int:
    """No packing can use fewer sheets: the contents and rules pages two to a sheet, plus the
    pieces' total trim area over the largest area a page offers."""
    page_area = max(f.area[2] * f.area[3] for f in frames(opts.paper_size, opts.margin))
    area = sum(c.size.w * c.size.h * c.total for c in game.components
               if c.kind != "rules" and c.size.w > 0)
    return math.ceil((1 + rules_pages) / 2) + math.ceil(area / page_area - 1e-9)


def sheet_finding(game: Game, opts: BuildOptions, sheets: int, bound: int) -> Finding:
    """The sheets the kit takes, beside what no packing can beat and what the data declares
    it should take on this paper (``preflight: sheets:``): over the target is a warning (a
    failure under ``--strict``); no target declared, only the figures."""
    target = game.data.get("preflight", {}).get("sheets", {}).get(opts.paper)
    paper = PAPER_LABELS.get(opts.paper, opts.paper.upper())
    figures = f"{sheets} of {paper} (lower bound {bound}"
    if target is None:
        return Finding("sheets", True, f"{figures}, no target declared for {opts.paper})")
    if sheets > target:
        return Finding("sheets", False, f"{figures}, target {target}): {sheets - target} over "
                       f"the target the data declares", warn=True)
    return Finding("sheets", True, f"{figures}, target {target})")


def colour_findings(game: Game, opts: BuildOptions) -> list[Finding]:
    """Each declared colour group, simulated (Machado et al. 2009; greyscale) and compared
    with CIEDE2000: figures always, a warning when a pair is too close and no second cue."""
    findings = []
    for group, colours in colour_groups(game, game_theme(game, opts)):
        close = colour.confusable(colours)
        closest = colour.closest_pairs(colours)
        figures = "; ".join(f"{mode} {pair.a}/{pair.b} {pair.delta_e:.1f}"
                            for mode, pair in closest.items())
        if any(len(c) == 9 for c in colours.values()):
            figures += " (translucent colours judged as printed over white)"
        name = f"colour vision: {group['name']}"
        if close and not group.get("second_cue"):
            worst = close[0]
            findings.append(Finding(f"pre-flight {name}", False,
                                    f"{worst.a} and {worst.b} are ΔE00 {worst.delta_e:.1f} "
                                    f"apart under {worst.mode} (needs "
                                    f"{colour.DEFAULT_THRESHOLD:g}) and no second cue is "
                                    f"declared; closest pairs: {figures}", warn=True))
        else:
            cue = f"; second cue: {group['second_cue']}" if group.get("second_cue") else ""
            findings.append(Finding(name, True, f"closest ΔE00 per view: {figures}{cue}"))
    return findings


def _item_of_piece(game: Game, comp_id: str, pieces: int) -> list[int]:
    """The item each piece of a part was drawn from (``piece_items``); empty for a part
    that is not one of the game's components."""
    try:
        comp = game.component(comp_id)
    except KeyError:
        return []
    return piece_items(comp, pieces)


def _cells(game: Game, comp_id: str, index: int) -> Cell:
    """Where a text of item ``index`` came from (generator/data/translation/origin.py)."""
    comp = game.component(comp_id)
    return lambda printed, why: origin.cell_of(game, comp, index, printed, why)


def preflight(game: Game, opts: BuildOptions,
              rendered: tuple[list[Part], list[Face]] | None = None) -> list[Finding]:
    """The report; ``rendered``: the parts a caller already drew under
    ``fonts.glyphs_reported`` (the studio draws once for its pictures and this report)."""
    if rendered is None:
        with fonts.glyphs_reported():  # every piece drawn, its missing glyphs reported below
            rendered = render_parts(game, opts)
    parts, rules = rendered
    issues: list[Issue] = []
    for part in parts:
        items = _item_of_piece(game, part.id, len(part.pieces))
        for number, piece in enumerate(part.pieces):
            cell = _cells(game, part.id, items[number]) if items else None
            for face in (piece.front, piece.back):
                if face is not None:
                    issues += face_issues(face, part.kind, piece.round, cell)
        if part.board is not None:
            issues += face_issues(part.board.face, part.kind, False)
    for face in rules:
        issues += face_issues(face, "rules", False)
    kit = build_kit(game, opts, rendered)
    for number, page in enumerate(kit.pages, start=1):
        issues += furniture_issues(page.furniture, f"page {number}")
    findings = _grouped(issues)
    if not findings:
        findings.append(Finding("pre-flight faces", True, "safe zone, text size, glyphs, art"))
    findings += colour_findings(game, opts)
    findings += coverage_findings([pl.face.prims for page in kit.pages for pl in page.placements]
                                  + [page.furniture for page in kit.pages])
    findings.append(sheet_finding(game, opts, len(kit.sheets),
                                  sheet_lower_bound(game, opts, len(rules))))
    # Every pre-flight target is ours (legibility, cutting tolerance, paper), not the rulebook's.
    return [replace(f, basis=DESIGN) for f in findings]
