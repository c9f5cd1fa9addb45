"""Assemble a whole kit: pack every component onto sheets, order the sheets, give every front
its back page (or a blank one), and open the kit with the contents sheet, whose back carries the
first page of the rules summary.

The contents sheet is written last, from the finished sheets, so what it says (pages, sides,
punch sizes, tile order) is computed from the kit itself.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.core import primitives as p
from generator.core.primitives import Face
from generator.data.translation.i18n import message

from .frame import Frame
from .furnish import front_furniture, make_page, page_furniture
from .furniture import SEPARATOR
from .gutterfold import gutterfold_pages
from .kit import Board, Packer, Piece, SheetDraft, centre_sheet
from .outline import kit_outline
from .page import Kit, Page, Placement, Sheet
from .sheet import SheetSpec
from .tiling import TilePlan


@dataclass(frozen=True)
class Part:
    """One component of the kit, as the layout sees it."""

    id: str
    name: str
    kind: str
    pieces: tuple[Piece, ...] = ()
    board: Board | None = None
    assembly: str = ""
    dice: int = 0  # a die component's sheet of nets makes this many dice


@dataclass(frozen=True)
class Section:
    """What the contents sheet says of one component: where it is and how to make it."""

    part: Part
    sheets: tuple[int, ...]
    pages: tuple[int, ...]
    duplex: bool
    plan: TilePlan | None = None

    @property
    def count(self) -> int:
        return 1 if self.part.board is not None else len(self.part.pieces)

    @property
    def diameter(self) -> float | None:
        pieces = self.part.pieces
        return pieces[0].front.w if pieces and pieces[0].round else None


@dataclass(frozen=True)
class Summary:
    """Everything the contents page needs to know about the finished kit."""

    title: str
    credit: str
    paper_name: str
    flip: str
    sheets: int
    pages: int
    sections: tuple[Section, ...]
    rules_pages: tuple[int, ...]
    blank_pages: tuple[int, ...]
    landscape_pages: tuple[int, ...] = ()


ContentsWriter = Callable[[Summary, Frame], list[p.Primitive]]


def _streams(parts: Sequence[Part]) -> list[list[Piece]]:
    """Pieces of the same size, shape and sidedness share sheets across components; bigger
    pieces are packed first (they are the hardest to fit)."""
    groups: dict[tuple[float, float, bool, bool], list[Piece]] = {}
    for part in parts:
        for piece in part.pieces:
            key = (round(piece.front.w, 3), round(piece.front.h, 3), piece.round,
                   piece.back is not None)
            groups.setdefault(key, []).append(piece)
    order = list(groups)
    return [groups[k] for k in sorted(order, key=lambda k: (-k[0] * k[1], order.index(k)))]


def _footer(title: str, credit: str, k: int, n: int, side: str, what: str) -> str:
    """"game · sheet k of n, side · what is on it · credit", in the kit's language."""
    sheet = message("footer.sheet", sheet=k, sheets=n, side=message(f"footer.{side}"))
    return SEPARATOR.join((title, sheet, what, credit))


def _names(placements: Sequence[Placement], parts: Sequence[Part]) -> str:
    ids = {pl.component for pl in placements}
    return ", ".join(part.name for part in parts if part.id in ids)


def _rules_placement(face: Face, frame: Frame) -> Placement:
    x, y, w, h = frame.area
    return Placement(face, x, y, (x, y, w, h))


def assemble(spec: SheetSpec, game_id: str, paper_name: str, title: str, credit: str,
             parts: Sequence[Part], rules: Sequence[Face], contents: ContentsWriter) -> Kit:
    duplex = spec.flip in ("long", "short")
    packer = Packer(spec)
    plans: dict[str, TilePlan] = {}
    for part in parts:
        if part.board is not None:
            plans[part.id] = packer.add_board(part.board)
    folded: list[list[Piece]] = []
    for stream in _streams(parts):
        if duplex or stream[0].back is None:
            packer.add_stream(stream)
        else:  # single-sided by design: pieces with backs fold and glue instead
            folded.append(stream)
    order = {part.id: index for index, part in enumerate(parts)}
    drafts = [centre_sheet(d, spec) for d in packer.sheets]
    drafts.sort(key=lambda d: min((order[pl.component] for pl in d.front), default=1 << 20))

    upright = Frame(spec.paper, spec.margin)
    rules_pl = [_rules_placement(face, upright) for face in rules]
    # Sheet 1: contents, rules page 1 on its back. Then the rest of the rules, two to a sheet.
    heads: list[tuple[Placement | None, Placement | None]] = [
        (None, rules_pl[0] if rules_pl and duplex else None)]
    rest = rules_pl[1:] if duplex else rules_pl
    step = 2 if duplex else 1
    for i in range(0, len(rest), step):
        heads.append((rest[i], rest[i + 1] if duplex and i + 1 < len(rest) else None))
    # The gutterfold pages end the kit, numbered on from the sheets before them.
    gutter: list[Page] = gutterfold_pages(folded, spec.paper, spec.margin, title,
                                          len(heads) + len(drafts))
    n = len(heads) + len(drafts) + len(gutter)

    sheets: list[Sheet] = []
    for k, (front_pl, back_pl) in enumerate(heads, start=1):
        front = (_page_of(upright, [front_pl], "rules", "front",
                          _footer(title, credit, k, n, "front", message("footer.rules")))
                 if front_pl else make_page(upright, [], [], "front", "contents",
                                            message("bookmark.contents")))
        back = None
        if duplex:
            back = (_page_of(upright, [back_pl], "rules", "back",
                             _footer(title, credit, k, n, "back", message("footer.rules")))
                    if back_pl else _blank(upright, title, credit, k, n))
        sheets.append(Sheet(front, back))
    for k, draft in enumerate(drafts, start=len(heads) + 1):
        sheets.append(_draft_sheet(draft, parts, title, credit, k, n, duplex, spec))
    sheets += [Sheet(page, None) for page in gutter]
    kit = Kit(game_id, paper_name, spec.paper, spec.flip if duplex else "none", tuple(sheets))
    summary = summarise(kit, title, credit, parts, plans)
    first = sheets[0]
    contents_page = make_page(upright, [], [*contents(summary, upright), *page_furniture(
        upright, _footer(title, credit, 1, n, "front", message("footer.contents")))], "front",
        "contents", message("bookmark.contents"))
    sheets[0] = Sheet(contents_page, first.back)
    return Kit(game_id, paper_name, spec.paper, kit.flip, tuple(sheets),
               kit_outline(sheets, {part.id: part.name for part in parts}))


def _page_of(frame: Frame, placements: list[Placement | None], content: str, side: str,
             text: str) -> Page:
    placed = [pl for pl in placements if pl is not None]
    return make_page(frame, placed, page_furniture(frame, text), side, content)


def _blank(frame: Frame, title: str, credit: str, k: int, n: int) -> Page:
    text = _footer(title, credit, k, n, "back", message("footer.blank"))
    return make_page(frame, [], page_furniture(frame, text), "back", "blank")


def _draft_sheet(draft: SheetDraft, parts: Sequence[Part], title: str, credit: str, k: int,
                 n: int, duplex: bool, spec: SheetSpec) -> Sheet:
    names = _names(draft.front, parts)
    what = names
    if draft.content == "tile":  # the tile by name, then whatever shares its sheet
        tile_pl = draft.front[0]
        others = _names(draft.front[1:], parts)
        what = ", ".join(filter(None, (tile_pl.label, others)))
    front = make_page(draft.frame, draft.front, front_furniture(
        draft, _footer(title, credit, k, n, "front", what), spec.paper.w, spec.paper.h),
        "front", draft.content)
    if not duplex:
        return Sheet(front, None)
    if not draft.back:
        return Sheet(front, _blank(draft.frame, title, credit, k, n))
    back_names = _names(draft.back, parts)
    text = _footer(title, credit, k, n, "back", message(f"footer.backs_{spec.flip}",
                                                        names=back_names))
    back = make_page(draft.frame, draft.back, page_furniture(draft.frame, text), "back",
                     "pieces")
    return Sheet(front, back)


def summarise(kit: Kit, title: str, credit: str, parts: Sequence[Part],
              plans: dict[str, TilePlan]) -> Summary:
    """Where each component landed, read back from the finished sheets."""
    sections = []
    page_no = 0
    where: dict[str, tuple[set[int], set[int], bool]] = {}
    rules_pages: list[int] = []
    blanks: list[int] = []
    landscape: list[int] = []
    for s, sheet in enumerate(kit.sheets, start=1):
        for page in sheet.pages:
            page_no += 1
            if page.content == "rules":
                rules_pages.append(page_no)
            if page.content == "blank":
                blanks.append(page_no)
            if page.size.w > page.size.h:
                landscape.append(page_no)
            for pl in page.pieces:
                sheets_, pages_, backed = where.setdefault(pl.component, (set(), set(), False))
                sheets_.add(s)
                pages_.add(page_no)
                if pl.side == "back":
                    where[pl.component] = (sheets_, pages_, True)
    for part in parts:
        sheets_, pages_, backed = where.get(part.id, (set(), set(), False))
        if part.board is None and not part.pieces:
            continue
        sections.append(Section(part, tuple(sorted(sheets_)), tuple(sorted(pages_)), backed,
                                plans.get(part.id)))
    return Summary(title, credit, kit.paper_name, kit.flip, len(kit.sheets), len(kit.pages),
                   tuple(sections), tuple(rules_pages), tuple(blanks), tuple(landscape))
