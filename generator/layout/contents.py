"""The contents sheet that opens every kit: how to print it (a print-dialog recipe, double- and
single-sided), what is on which pages, and how to cut and assemble each component.

Every sentence is computed from the finished kit (``assemble.Summary``): page lists, sides,
punch sizes from each round piece's diameter, tile order from the board's tile plan. Nothing
here is a developer command: the calibration sheet is a file that comes with the kit. The
sentences are furniture messages (templates/messages/<lang>.yaml) in the kit's language.
"""
from __future__ import annotations

from collections.abc import Sequence

from generator.core import primitives as p
from generator.core.model import StartCell
from generator.core.sizes import PAPER_LABELS
from generator.data.translation.i18n import message, message_keys, number
from generator.data.typefaces.fonts import book

from ..faces.text import PT, TextBox, layout, wrap
from .assemble import Section, Summary
from .frame import Frame
from .furniture import BOLD_FONT, TEXT_FONT
from .tiling import TilePlan, start_crossings

INCH_PUNCHES = {"3/4": 19.05, "7/8": 22.2, "1": 25.4, "1 1/8": 28.6, "1 1/4": 31.75,
                "1 1/2": 38.1, "2": 50.8}
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
    fits = [message("contents.inch", size=name) for name, mm in INCH_PUNCHES.items()
            if diameter - PUNCH_INSIDE <= mm <= diameter + PUNCH_OUTSIDE]
    if fits:
        return message("contents.punch_or_inch", mm=number(diameter), inch=" / ".join(fits))
    return message("contents.punch", mm=number(diameter))


def board_advice(section: Section) -> str:
    plan = section.plan
    if plan is None:
        return ""
    rows = " / ".join(" ".join(str(t.row * plan.cols + t.col + 1) for t in plan.tiles
                               if t.row == r) for r in range(plan.rows))
    lines = []
    if plan.count == 1:
        lines.append(message("contents.board_one"))
    else:
        lines.append(message("contents.board_tiles", count=plan.count, cols=plan.cols,
                             rows=plan.rows, order=rows))
        steps = [message("contents.glue_step", tile=t.name, other=t.right_name)
                 for t in plan.tiles if t.glue_right]
        steps += [message("contents.glue_step", tile=t.name, other=t.below_name)
                  for t in plan.tiles if t.glue_below]
        joiner = message("contents.glue_steps_joiner")
        lines.append(message("contents.glue_order", steps=joiner.join(steps)))
        start = section.part.board.start if section.part.board else None
        if start is not None:
            lines.append(start_advice(plan, start))
    if section.part.assembly:
        lines.append(section.part.assembly)
    return " ".join(lines)


def start_advice(plan: TilePlan, start: StartCell) -> str:
    """Which seams cross the board's start space, between which tiles, how far in: the
    player lays the first card there, so the contents sheet says so."""
    crossings = start_crossings(plan, start.x, start.y, start.w, start.h)
    if not crossings:
        return message("contents.start_none", cell=start.name)
    joiner = message("contents.glue_steps_joiner")
    seams = joiner.join(
        message("contents.start_seam_x" if c.vertical else "contents.start_seam_y",
                pairs=message("contents.start_pairs_joiner").join(
                    message("contents.start_pair", a=a.name, b=b.name) for a, b in c.pairs),
                mm=number(round(c.offset, 1)))
        for c in crossings)
    if len(crossings) == 1:
        return message("contents.start_one", cell=start.name, seam=seams)
    return message("contents.start_many", cell=start.name, count=len(crossings), seams=seams)


def assembly(section: Section, touching: bool, simplex: bool = False) -> str:
    part = section.part
    if part.board is not None:
        return board_advice(section)
    if simplex and any(pc.back is not None for pc in part.pieces):
        if section.diameter is not None:  # circles on a gutterfold page: fold, glue, punch
            return " ".join(filter(None, (message("contents.fold_and_glue_round"),
                                          punch_advice(section.diameter), part.assembly)))
        return message("contents.fold_and_glue")
    if section.diameter is not None:
        return punch_advice(section.diameter) + (" " + part.assembly if part.assembly else "")
    if part.assembly:
        return part.assembly
    return message("contents.cut_touching" if touching else "contents.cut_marks")


def where(section: Section, duplex: bool) -> str:
    sheets = ranges(section.sheets)
    pages = ranges(section.pages)
    sheet_word = message("word.sheet" if len(section.sheets) == 1 else "word.sheets")
    page_word = message("word.page" if len(section.pages) == 1 else "word.pages")
    if not duplex:
        return message("contents.where_simplex", page_word=page_word, pages=pages)
    sides = message("contents.sides_duplex" if section.duplex else "contents.sides_simplex")
    return message("contents.where", sheet_word=sheet_word, sheets=sheets, page_word=page_word,
                   pages=pages, sides=sides)


class _Flow:
    """Paragraphs stacked down the page."""

    def __init__(self, x: float, y: float, w: float) -> None:
        self.x, self.y, self.w = x, y, w
        self.prims: list[p.Primitive] = []

    def text(self, text: str, font: str = TEXT_FONT, size: float = 9.5, colour: str = "#1b1b1b",
             indent: float = 0.0, after: float = 1.2) -> None:
        width = self.w - indent
        lines = wrap(text, font, size, width, book()) or [text]
        height = len(lines) * size * PT * 1.22 + 0.2
        self.prims.append(layout(TextBox(self.x + indent, self.y, width, height, text, font, size,
                                         size, colour, "left", "top", 1.22), book()))
        self.y += height + after

    def rule(self, colour: str = "#c9c9c9") -> None:
        self.prims.append(p.Line(self.x, self.y, self.x + self.w, self.y, colour, 0.3))
        self.y += 1.8


STEP = "\t"  # a recipe line that is a step of the one before it: printed indented


def recipe(summary: Summary, calibration: str) -> list[str]:
    """The print-dialog recipe: what to choose, and the single-sided alternative in steps
    (each starting with ``STEP``)."""
    n, sheets = summary.pages, summary.sheets
    paper = PAPER_LABELS.get(summary.paper_name, summary.paper_name.upper())
    if summary.flip == "none":
        turned = (message("contents.landscape", pages=ranges(summary.landscape_pages))
                  if summary.landscape_pages else message("contents.portrait"))
        return [message("contents.recipe_simplex", pages=n, sheets=sheets, paper=paper) + " "
                + turned]
    odd, even = odd_even(n)
    steps = [message(key, odd=odd, even=even, last=sheets)
             for key in two_pass_steps(summary.flip)]
    return [
        message("contents.recipe_duplex", pages=n, sheets=sheets, paper=paper),
        message(f"contents.printer_{summary.flip}"),
        message("contents.single_sided"),
        *(STEP + step for step in steps),
        message("contents.calibration", file=calibration),
    ]


TWO_PASS = "contents.two_pass."  # the two-pass recipe's steps: messages under this prefix


def two_pass_steps(flip: str) -> list[str]:
    """The message keys of the two-pass recipe (a single-sided printer) for a kit whose backs
    are laid out for ``flip``, in the order the messages list them: a step with variants per
    flip edge (``<step>.long``, ``<step>.short``) prints the kit's own. The messages are the
    recipe's one statement: tests/test_two_pass.py walks these steps on four paper paths."""
    edges = (".long", ".short")
    return [key for key in message_keys(TWO_PASS)
            if not key.endswith(edges) or key.endswith(f".{flip}")]


def _capital(name: str) -> str:
    """A component's name heads its line: French names are written lower-case (« cartes Amis »)
    so that footers can say « versos des cartes Amis »; English names already start upper-case."""
    return name[:1].upper() + name[1:]


def rules_line(rules_pages: Sequence[int], duplex: bool) -> str:
    """Where the rules are, true for any number of pages: in a duplex kit page 2 is the back of
    this sheet but page 3 is already the front of sheet 2, so "the back of this page" may only
    describe a single page (the English kit used to say it of pages 2-3)."""
    pages = ranges(rules_pages)
    many = len(rules_pages) > 1
    if not (duplex and rules_pages[0] == 2):
        return message("contents.rules_many" if many else "contents.rules", pages=pages)
    if not many:
        return message("contents.rules_on_back", pages=pages)
    last = max(rules_pages)
    if last == 3:
        return message("contents.rules_on_back_and_front", pages=pages)
    side = message("footer.front" if last % 2 else "footer.back")
    return message("contents.rules_from_back", pages=pages, side=side, sheet=(last + 1) // 2)


def contents_prims(summary: Summary, frame: Frame, calibration: str,
                   touching: bool) -> list[p.Primitive]:
    x, y, w, _ = frame.area
    flow = _Flow(x + 3, y + 2, w - 6)
    flow.text(message("kit.title", title=summary.title), BOLD_FONT, 18, "#1f3a5f", after=1.5)
    flow.text(summary.credit, TEXT_FONT, 8, "#555555", after=2.5)
    flow.rule()
    flow.text(message("contents.how_to_print"), BOLD_FONT, 12, "#1f3a5f")
    for line in recipe(summary, calibration):
        if line.startswith(STEP):
            flow.text(line.removeprefix(STEP), size=8.5, indent=7, after=0.4)
        else:
            flow.text(line, indent=3)
    flow.text(message("contents.ruler"), indent=3, after=2.5)
    flow.rule()
    flow.text(message("contents.in_the_kit"), BOLD_FONT, 12, "#1f3a5f")
    duplex = summary.flip != "none"
    if summary.rules_pages:
        flow.text(rules_line(summary.rules_pages, duplex), BOLD_FONT, 9.5, indent=3, after=1.5)
    for section in summary.sections:
        count, dice = section.count, section.part.dice
        # A sheet of dice nets is one piece of paper but several dice: say what it makes.
        key = ("contents.section_die" if dice == 1 else "contents.section_dice" if dice else
               "contents.section_one" if count == 1 else "contents.section_many")
        flow.text(message(key, name=_capital(section.part.name), count=dice or count,
                          where=where(section, duplex)),
                  BOLD_FONT, 9.5, indent=3, after=0.4)
        flow.text(assembly(section, touching, not duplex), TEXT_FONT, 8.5, "#333333", indent=8,
                  after=1.6)
    return flow.prims
