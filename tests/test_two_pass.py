"""The two-pass recipe (a duplex kit on a single-sided printer), walked on modelled paper paths.

The steps are the kit's own: the messages under ``contents.two_pass.`` that the contents page
prints, in their order (``generator.layout.contents.two_pass_steps``). Each step is done as
its text says, by a reader who knows nothing of the printer but what the scrap-sheet test
showed and what the sheets' footers say, on the four paths of issue 36 (a face-down U-path
laser, a rear-feed inkjet, a front-cassette inkjet in normal order and one whose driver prints
the last page first) and on every combination of their properties. Every front must get its
own back, right way up for the kit's flip edge: behind page 2k-1 page 2k, its top at the same
edge for a long-edge kit, at the opposite edge for a short-edge one (whose backs are laid out
upside down), as a duplex printer would print them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from generator.data.translation import i18n
from generator.layout.contents import TWO_PASS, two_pass_steps
from tests.paperpath import EVERY, FOUR, Path, Placed, Printer, Sheet, blank_tray, other, put_back

SHEETS = 11  # Moving Target's A4 kit: contents and rules, cards, the grid's tiles, aids


@dataclass
class Reader:
    """Someone following the printed steps at one printer, on a kit of ``sheets`` sheets."""

    printer: Printer
    sheets: int
    flip: str
    scrap: Sheet = field(default_factory=lambda: Sheet(arrow=("a", "n")))
    printed_seen: bool | None = None  # step 1: the arrow is on the printed side
    arrow_at_top: bool | None = None  # step 1: the arrow is at page 1's top
    stack: list[tuple[Sheet, str]] = field(default_factory=list)
    tray: list[Placed] = field(default_factory=list)
    done: list[str] = field(default_factory=list)

    # -- the steps, by name (a step's key less the prefix and its flip edge) ------------------
    def scrap_test(self) -> None:
        """The arrow on the face seen in the tray, pointing at the edge going in; page 1."""
        face, edge = self.scrap.arrow or ("a", "n")
        self.printer.run([Placed(self.scrap, face, edge)], [1], "normal")
        self.printer.take()
        page_face, _, top = self.scrap.front()
        self.printed_seen = page_face == face
        self.arrow_at_top = top == edge

    def pass_1(self) -> None:
        """Odd pages, one-sided, page order Normal (neither Reverse nor Automatic)."""
        self.tray = blank_tray(self.sheets)
        self.printer.run(self.tray, list(range(1, 2 * self.sheets, 2)), "normal")
        self.stack = self.printer.take()

    def _seen(self, sheet: Sheet) -> str:
        """Blank side where page 1 printed on the scrap: the side seen, or the other."""
        front, _, _ = sheet.front()
        return other(front) if self.printed_seen else front

    def _first(self, sheet: Sheet) -> str:
        """The front's top goes in first if the arrow was at page 1's top (long), else last;
        a short-edge kit the other way round."""
        _, _, top = sheet.front()
        top_first = self.arrow_at_top if self.flip == "long" else not self.arrow_at_top
        return top if top_first else other(top)

    def reload(self) -> None:
        """The printed stack back in the tray as a whole; then the check with the scrap, put
        in the same way, page 2 printed on it: behind page 1, right way up."""
        assert self.printed_seen is not None, "the scrap test comes first"
        self.tray = put_back(self.stack, self._seen, self._first)
        scrap = put_back([(self.scrap, self.scrap.front()[0])], self._seen, self._first)
        self.printer.run(scrap, [2], "normal")
        self.printer.take()
        assert backed(self.scrap, 1, self.flip), self.scrap

    def pass_2(self) -> None:
        """The footer of the sheet fed first: sheet 1, page order Normal (Reverse order and
        Automatic off); the last sheet, Reverse order. Then the even pages, one-sided."""
        _, page, _ = self.tray[0].sheet.front()
        fed_first = (page + 1) // 2
        assert fed_first in (1, self.sheets), f"sheet {fed_first} fed first: no step says"
        order = "normal" if fed_first == 1 else "reverse"
        self.printer.run(self.tray, list(range(2, 2 * self.sheets + 1, 2)), order)
        self.stack = self.printer.take()



# What each step has the reader do, by the step's name.
ACTIONS: dict[str, Callable[[Reader], None]] = {
    "scrap": Reader.scrap_test, "pass_1": Reader.pass_1, "reload": Reader.reload,
    "pass_2": Reader.pass_2}


def backed(sheet: Sheet, k: int, flip: str) -> bool:
    """Sheet ``k`` as a duplex printer would print it: page 2k-1 on one face, page 2k on the
    other, its top at the same edge (long) or the opposite one (short)."""
    faces = {page: (face, top) for face, (page, top) in sheet.printed.items()}
    if set(faces) != {2 * k - 1, 2 * k}:
        return False
    (front_face, front_top), (back_face, back_top) = faces[2 * k - 1], faces[2 * k]
    return back_face != front_face and (back_top == front_top) == (flip == "long")


def step_name(key: str) -> str:
    name = key.removeprefix(TWO_PASS)
    return name.rsplit(".", 1)[0] if name.endswith((".long", ".short")) else name


def walk(path: Path, flip: str, sheets: int = SHEETS) -> list[Sheet]:
    """Every step the kit prints for ``flip``, in order, done at a printer on ``path``; the
    sheets as they come out in the end."""
    reader = Reader(Printer(path), sheets, flip)
    for key in two_pass_steps(flip):
        name = step_name(key)
        assert name in ACTIONS, f"{key}: a step this walk does not know"
        ACTIONS[name](reader)
        reader.done.append(name)
    assert reader.done == ["scrap", "pass_1", "reload", "pass_2"]
    return [sheet for sheet, _ in reader.stack]


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("path", FOUR, ids=lambda path: path.name)
def test_every_front_gets_its_own_back_right_way_up(path, flip):
    sheets = walk(path, flip)
    assert len(sheets) == SHEETS
    by_front = {sheet.front()[1]: sheet for sheet in sheets}
    for k in range(1, SHEETS + 1):
        assert backed(by_front[2 * k - 1], k, flip), (k, by_front[2 * k - 1].printed)


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("path", EVERY, ids=lambda path: path.name)
def test_the_recipe_holds_on_every_paper_path(path, flip):
    """Whatever face the printer prints, whichever edge its pages' tops land on, however its
    output lands and whatever its driver's Automatic order: one sheet and several."""
    for count in (1, 2, SHEETS):
        sheets = walk(path, flip, count)
        assert all(any(backed(s, k, flip) for s in sheets) for k in range(1, count + 1))


def test_the_old_recipe_left_automatic_order_on():
    """What issue 36 found, on the model: the old recipe said to choose Reverse order when the
    sheet fed first is not sheet 1, and nothing when it is; a front-cassette printer whose
    driver's Automatic order prints the last page first then put the last back behind sheet 1
    (the rules behind a board tile), and so on down the stack."""
    path = FOUR[3]
    printer = Printer(path)
    tray = blank_tray(SHEETS)
    printer.run(tray, list(range(1, 2 * SHEETS, 2)), "automatic")
    stack = printer.take()
    # The blank sides to be printed, the same edge leading: on this path, printed side up.
    tray = [Placed(sheet, up, "n") for sheet, up in stack]
    assert tray[0].sheet.front()[1] == 1  # sheet 1 fed first: the old recipe chose nothing
    printer.run(tray, list(range(2, 2 * SHEETS + 1, 2)), "automatic")
    sheet_1 = next(sheet for sheet, _ in printer.take() if sheet.front()[1] == 1)
    assert sheet_1.page_on(other(sheet_1.front()[0])) == 2 * SHEETS  # not page 2


# -- the words: what each step has the reader do, said in the text the kit prints -------------
WORDS = {
    "scrap": ("scrap sheet", "arrow", "the side you see in the tray", "going in first",
              "print page 1", "printed side", "page 1's top"),
    "pass_1": ("Pass 1: pages {odd}", "One-sided", "Actual size", "page order Normal",
               "Reverse order and Automatic off"),
    "reload": ("blank sides where page 1 printed", "the side you saw, or the other",
               "if the arrow was at page 1's top", "page 2 prints upright behind page 1"),
    "pass_2": ("Pass 2: pages {even}", "One-sided", "Actual size", "sheet 1 fed first",
               "page order Normal", "Reverse order and Automatic off", "sheet {last} fed first",
               "Reverse order", "blank-looking backs"),
}
EDGE_WORDS = {"long": ("the fronts' tops in first if the arrow was at page 1's top, else last",
                       "turned over the long edge"),
              "short": ("the fronts' tops in last if the arrow was at page 1's top, else first",
                        "turned over the short edge")}


@pytest.mark.parametrize("flip", ["long", "short"])
def test_each_step_says_what_the_walk_does(flip):
    """The walk above reads the steps' keys; their English says the same: what to choose and
    what to leave off (Reverse order and the Automatic order that may reverse), and the
    reload step a test on the scrap sheet, not one turn of the stack."""
    english = i18n.message_keys(TWO_PASS)
    for key in two_pass_steps(flip):
        assert key in english
        text = i18n.current().messages[key]
        name = step_name(key)
        for words in WORDS[name] + (EDGE_WORDS[flip] if name == "reload" else ()):
            assert words in text, (key, words)
        assert "end over end" not in text  # no single physical turn


def test_page_one_prints_the_steps_in_order(kits, pypdf_text):
    """The kit prints these very steps, numbered in order, for its own flip edge."""
    for flip in ("long", "short"):
        kit = kits("moving-target", flip=flip)
        text = " ".join(pypdf_text(kit.pdf, 1).split())
        sheets, pages = kit.manifest["sheets"], len(kit.manifest["pages"])
        odd = ", ".join(map(str, range(1, pages + 1, 2)))
        even = ", ".join(map(str, range(2, pages + 1, 2)))
        at = text.index(" ".join(i18n.message("contents.single_sided").split()))
        for key in two_pass_steps(flip):
            step = " ".join(i18n.message(key, odd=odd, even=even, last=sheets).split())
            found = text.find(step, at)
            assert found > at, (flip, step)
            at = found
        other_edge = {"long": "short", "short": "long"}[flip]
        assert f"turned over the {other_edge} edge" not in text


def test_the_fullest_contents_page_still_holds_the_recipe(kits, page_chars):
    """The steps take room: on the fullest contents page (the movement game's eight sections,
    in French, on Letter) every line still ends above the page's footer."""
    kit = kits("movement-game", paper="letter", lang="fr")
    chars = page_chars(kit.pdf, 1)
    body = [c for c in chars if c["size"] >= 8 and c["text"].strip()]
    footer = [c for c in chars if c["size"] < 7.5 and c["top"] > 0.8 * 792]
    assert footer and body
    assert max(c["bottom"] for c in body) < min(c["top"] for c in footer) - 2 * 72 / 25.4
