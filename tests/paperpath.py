"""Paper paths, modelled: what a single-sided printer does to the sheets it is given, so that a
printed two-pass recipe can be walked step by step and its result checked (tests/test_two_pass.py).

A sheet is portrait and goes in short edge first; its two faces are "a" and "b", its two short
edges "n" and "s". Where it lies in the tray is the face you see there (up in a cassette, towards
you in a rear feeder) and the edge that goes in first. A printer feeds the sheet you see first
(the top of a cassette, the front of a rear feeder), prints one face of it (the face you see, or
the one against the tray) with the page's top at the edge that went in first or at the other,
and lays it on its output stack printed side up or down. Its driver's Automatic page order may
print the last page first (CUPS and macOS do on printers whose output lands face up). Nothing
here knows the recipe: the walker in the test reads the steps the kit prints and acts on them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import product

FACES = ("a", "b")
EDGES = ("n", "s")


def other(value: str) -> str:
    """The other face of a sheet, or its other short edge."""
    pair = FACES if value in FACES else EDGES
    return pair[1 - pair.index(value)]


@dataclass(eq=False)
class Sheet:
    """One sheet of paper: what is printed on each face (page number, the edge its top is at),
    and on a scrap sheet the arrow drawn on it (the face it is on, the edge it points at)."""

    printed: dict[str, tuple[int, str]] = field(default_factory=dict)
    arrow: tuple[str, str] | None = None

    def page_on(self, face: str) -> int | None:
        found = self.printed.get(face)
        return found[0] if found else None

    def front(self) -> tuple[str, int, str]:
        """The face printed first (the only one printed after pass 1): face, page, top edge."""
        faces = [f for f in FACES if f in self.printed]
        face = min(faces, key=lambda f: self.printed[f][0])
        page, top = self.printed[face]
        return face, page, top


@dataclass(frozen=True)
class Placed:
    """A sheet in the input tray: the face you see, and the edge that goes in first."""

    sheet: Sheet
    seen: str
    first: str


@dataclass(frozen=True)
class Path:
    name: str
    prints_seen: bool  # prints the face you see in the tray (a rear feeder), not the one below
    top_first: bool  # the page's top lands on the edge that went in first
    out_face_down: bool  # the sheet lands printed side down (a U-path laser)
    reverses: bool  # the driver's Automatic page order prints the last page first


# The four paths of issue 36: a laser's U-path turns the sheet over on its way to a face-down
# output tray; an inkjet's rear feeder prints the face towards you and lays it face up; a
# front cassette is loaded print side down and its sheets come out face up, in normal order or
# (a driver whose Automatic order suits a face-up tray) last page first.
FOUR = (
    Path("face-down U-path laser", prints_seen=False, top_first=True, out_face_down=True,
         reverses=False),
    Path("rear-feed inkjet", prints_seen=True, top_first=True, out_face_down=False,
         reverses=False),
    Path("front-cassette inkjet, normal order", prints_seen=False, top_first=True,
         out_face_down=False, reverses=False),
    Path("front-cassette inkjet, driver reverses", prints_seen=False, top_first=True,
         out_face_down=False, reverses=True),
)

# Every combination of the four properties (a printer that prints the page's top at the edge
# that goes in last, a face-up tray whose driver does not reverse...): what no recipe may
# assume either way.
EVERY = tuple(Path(f"prints {'seen' if s else 'lower'} face, top {'first' if t else 'last'}, "
                   f"out face {'down' if d else 'up'}, {'reversing' if r else 'normal'} driver",
                   s, t, d, r)
              for s, t, d, r in product((True, False), repeat=4))


class Printer:
    """A printer on one paper path: an output stack (top first: each sheet and the face it
    shows up) that every job adds to."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.output: list[tuple[Sheet, str]] = []

    def run(self, tray: list[Placed], pages: list[int], order: str) -> None:
        """Print ``pages`` one-sided on the sheets of ``tray`` (fed first first), in page
        order "normal", "reverse" or "automatic" (the driver's own), each sheet onto the output
        stack; the sheets fed are taken from the tray."""
        assert order in ("normal", "reverse", "automatic"), order
        backwards = order == "reverse" or (order == "automatic" and self.path.reverses)
        job = pages[::-1] if backwards else list(pages)
        assert len(job) <= len(tray), "the tray ran out of paper"
        for page, placed in zip(job, tray, strict=False):
            face = placed.seen if self.path.prints_seen else other(placed.seen)
            top = placed.first if self.path.top_first else other(placed.first)
            assert face not in placed.sheet.printed, "printed over a printed face"
            placed.sheet.printed[face] = (page, top)
            up = other(face) if self.path.out_face_down else face
            self.output.insert(0, (placed.sheet, up))
        del tray[:len(job)]

    def take(self) -> list[tuple[Sheet, str]]:
        """The output stack, taken out whole (top first)."""
        stack, self.output = self.output, []
        return stack


def blank_tray(count: int) -> list[Placed]:
    """A fresh ream in the tray: every sheet the same way round."""
    return [Placed(Sheet(), "a", "n") for _ in range(count)]


def put_back(stack: list[tuple[Sheet, str]], seen_of: Callable[[Sheet], str],
             first_of: Callable[[Sheet], str]) -> list[Placed]:
    """The output stack put back in the tray as a whole: ``seen_of(sheet)`` is the face the
    reader wants to see in the tray, ``first_of(sheet)`` the edge to go in first. Without
    turning the stack over, its top sheet is fed first; turned over (the face that was up is
    no longer the one seen), its order is reversed. One stack, one movement: every sheet must
    be turned alike."""
    turned = {seen_of(sheet) != up for sheet, up in stack}
    assert len(turned) == 1, "the sheets would have to be turned one by one"
    placed = [Placed(sheet, seen_of(sheet), first_of(sheet)) for sheet, _ in stack]
    return placed[::-1] if turned.pop() else placed
