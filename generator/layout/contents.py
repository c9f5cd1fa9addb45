"""The contents sheet that opens every kit: how to print it (a print-dialog recipe, double- and
single-sided), what is on which pages, and how to cut and assemble each component.

Every sentence is computed from the finished kit (``assemble.Summary``): page lists, sides,
punch sizes from each round piece's diameter, tile order from the board's tile plan. Nothing
here is a developer command: the calibration sheet is a file that comes with the kit.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..faces import primitives as p
from ..faces.text import PT, TextBox, layout, wrap
from .assemble import Section, Summary
from .frame import Frame
from .furniture import BOLD_FONT, TEXT_FONT

INCH_PUNCHES = {"3/4 in": 19.05, "7/8 in": 22.2, "1 in": 25.4, "1 1/8 in": 28.6,
                "1 1/4 in": 31.75, "1 1/2 in": 38.1, "2 in": 50.8}
PUNCH_INSIDE = 1.0  # a punch may cut this far inside the trim (game information is 3 mm in)
PUNCH_OUTSIDE = 2.5  # ... or this far outside it (the art bleeds 3 mm past the circle)


def ranges(numbers: Sequence[int]) -> str:
    """1, 3-5, 9 style."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def odd_even(pages: int) -> tuple[str, str]:
    odd = list(range(1, pages + 1, 2))
    even = list(range(2, pages + 1, 2))
    return (", ".join(map(str, odd)), ", ".join(map(str, even)))


def punch_advice(diameter: float) -> str:
    fits = [name for name, mm in INCH_PUNCHES.items()
            if diameter - PUNCH_INSIDE <= mm <= diameter + PUNCH_OUTSIDE]
    inch = f" or a {' / '.join(fits)} punch" if fits else ""
    return (f"Cut on the circle, or use a {diameter:g} mm circle punch{inch}: the art runs 3 mm "
            "past the circle, so a punch a little off still shows no white.")


def board_advice(section: Section) -> str:
    plan = section.plan
    if plan is None:
        return ""
    rows = " / ".join(" ".join(str(t.row * plan.cols + t.col + 1) for t in plan.tiles
                               if t.row == r) for r in range(plan.rows))
    lines = []
    if plan.count == 1:
        lines.append("One piece: cut it out on its marks.")
    else:
        lines.append(f"{plan.count} tiles, {plan.cols} across and {plan.rows} down, numbered "
                     f"as you read ({rows}); each names itself in its footer. Cut each tile out "
                     "on its marks, keeping its grey glue strip.")
        steps = [f"{t.name} under {t.right_name}" for t in plan.tiles if t.glue_right]
        steps += [f"{t.name} under {t.below_name}" for t in plan.tiles if t.glue_below]
        lines.append("Glue, in this order: " + "; ".join(steps) + ". Each neighbour's edge "
                     "goes on the strip's inner edge, its corners on the black ticks.")
    if section.part.assembly:
        lines.append(section.part.assembly)
    return " ".join(lines)


FOLD_AND_GLUE = ("Fold and glue: cut out each block of cards round its outer marks, fold it on "
                 "the dashed line so the backs lie behind the fronts, glue the halves together "
                 "flat, let it dry, then cut the cards apart on the marks.")


def assembly(section: Section, touching: bool, simplex: bool = False) -> str:
    part = section.part
    if part.board is not None:
        return board_advice(section)
    if simplex and any(pc.back is not None for pc in part.pieces):
        return FOLD_AND_GLUE
    if section.diameter is not None:
        return punch_advice(section.diameter) + (" " + part.assembly if part.assembly else "")
    if part.assembly:
        return part.assembly
    if touching:
        return ("Cut along the grey hairlines on the fronts: touching pieces share one cut. "
                "Marks outside each block continue the cuts into the margin where there is "
                "room.")
    return "Cut on the marks at the edges of each block."


def where(section: Section, duplex: bool) -> str:
    sheets = ranges(section.sheets)
    pages = ranges(section.pages)
    sheet_word = "sheet" if len(section.sheets) == 1 else "sheets"
    page_word = "page" if len(section.pages) == 1 else "pages"
    if not duplex:
        return f"{page_word} {pages}"
    sides = "fronts and backs" if section.duplex else "single-sided: blank backs"
    return f"{sheet_word} {sheets} ({page_word} {pages}; {sides})"


class _Flow:
    """Paragraphs stacked down the page."""

    def __init__(self, x: float, y: float, w: float) -> None:
        self.x, self.y, self.w = x, y, w
        self.prims: list[p.Primitive] = []

    def text(self, text: str, font: str = TEXT_FONT, size: float = 9.5, colour: str = "#1b1b1b",
             indent: float = 0.0, after: float = 1.2) -> None:
        width = self.w - indent
        lines = wrap(text, font, size, width) or [text]
        height = len(lines) * size * PT * 1.22 + 0.2
        self.prims.append(layout(TextBox(self.x + indent, self.y, width, height, text, font, size,
                                         size, colour, "left", "top", 1.22)))
        self.y += height + after

    def rule(self, colour: str = "#c9c9c9") -> None:
        self.prims.append(p.Line(self.x, self.y, self.x + self.w, self.y, colour, 0.3))
        self.y += 1.8


def recipe(summary: Summary, calibration: str) -> list[str]:
    """The print-dialog recipe: what to choose, and the single-sided alternative."""
    n, sheets, paper = summary.pages, summary.sheets, summary.paper_name.upper()
    if summary.flip == "none":
        turned = (f" Pages {ranges(summary.landscape_pages)} are landscape: let the printer "
                  "turn them (Auto-rotate), never shrink them." if summary.landscape_pages
                  else " Portrait.")
        return [f"{n} pages, {sheets} sheets of {paper}, printed single-sided: choose All pages, "
                f"One-sided, Actual size / Scale 100 % (never 'Fit to page').{turned}"]
    odd, even = odd_even(n)
    return [
        f"{n} pages = {sheets} sheets of {paper}, printed on both sides. Page 2k-1 is the "
        f"front of sheet k and page 2k its back.",
        f"Double-sided printer: choose All pages, Two-sided / Duplex, Flip on {summary.flip} "
        f"edge, Actual size / Scale 100 % (never 'Fit to page'), Portrait.",
        f"Single-sided printer: pass 1, print pages {odd}. Put the printed stack back in the "
        "tray so the blank sides get printed, the same edge leading (try one sheet first). "
        f"Pass 2, print pages {even}; if your printer stacks sheet 1 at the bottom, choose "
        "'Reverse order' for pass 2. Blank-looking backs still carry a footer: print them "
        "too, they keep the stack in order.",
        f"Backs off-centre? Print {calibration} (it comes with this kit) double-sided and "
        "follow it.",
    ]


def contents_prims(summary: Summary, frame: Frame, calibration: str,
                   touching: bool) -> list[p.Primitive]:
    x, y, w, _ = frame.area
    flow = _Flow(x + 3, y + 2, w - 6)
    flow.text(f"{summary.title}: print-and-play kit", BOLD_FONT, 18, "#1f3a5f", after=1.5)
    flow.text(summary.credit, TEXT_FONT, 8, "#555555", after=2.5)
    flow.rule()
    flow.text("How to print", BOLD_FONT, 12, "#1f3a5f")
    for line in recipe(summary, calibration):
        flow.text(line, indent=3)
    flow.text("Every page has a 50 mm check ruler along its edge: measure it before cutting. "
              "Card stock of 200-300 g/m² makes sturdy pieces.", indent=3, after=2.5)
    flow.rule()
    flow.text("What is in the kit", BOLD_FONT, 12, "#1f3a5f")
    duplex = summary.flip != "none"
    if summary.rules_pages:
        back = " (the back of this page)" if summary.rules_pages[0] == 2 and duplex else ""
        flow.text(f"Rules: page {ranges(summary.rules_pages)}{back}", BOLD_FONT, 9.5,
                  indent=3, after=1.5)
    for section in summary.sections:
        count = section.count
        flow.text(f"{section.part.name}: {count} piece{'s' if count != 1 else ''}, "
                  f"{where(section, duplex)}", BOLD_FONT, 9.5, indent=3, after=0.4)
        flow.text(assembly(section, touching, not duplex), TEXT_FONT, 8.5, "#333333", indent=8,
                  after=1.6)
    return flow.prims
