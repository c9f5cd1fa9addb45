"""Content checks for the movement game's ``verify``: what the kit prints, against reference data.

The reference is ``card_data/movement-reference.yaml``, kept apart from the data file that
drives the printing and naming its source: the seed's box contents (cards per direction, tokens
per colour, board kinds, 4 starting spaces a side) and its standard-deck stand-in are
``rulebook``; the token symbols and the four board layouts (the seed's boards are unpublished)
are this kit's ``design``, frozen there. Each finding carries that basis.

What is compared is what gets printed: the copies of each card and token the components expand
to (the faces draw each copy from its item), and for the boards the board faces themselves as
a default build draws them (the build hands them in as ``printed``: rules never call the
build), read back cell by cell (a dark square is a closed space, a ring in a player's colour a
starting space). So a wrong count, a changed arrow or a moved closed space, whether
it comes from the data or from a template, fails naming the card, the colour or the square.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generator.core.findings import RULEBOOK, Finding
from generator.core.model import Game
from generator.core.primitives import Circle, Face, Rect
from generator.core.yamlfile import YamlDoc
from generator.data.tables.loader import load_shaped

from ..base import PrintedKit, at, expect_equal
from .boards import SIDES
from .files import Reference

REFERENCE_FILE = "movement-reference.yaml"
Cell = tuple[int, int]


def load_reference(game: Any) -> YamlDoc:
    """The reference beside the game's data file, checked against its shape (``files``)."""
    return load_shaped(Path(game.source).parent / REFERENCE_FILE, Reference)


def _ref_where(doc: YamlDoc, *path: Any) -> str:
    return f"{doc.file}:{doc.line_of(tuple(path))}"


def _copies(game: Any, component: str, table: str, key: str) -> Counter[str]:
    """Printed copies per ``key``: from the component when the game has one, else the table."""
    if any(c.id == component for c in game.components):
        return Counter(str(item[key]) for item in game.component(component).expanded())
    rows = game.data["tables"].get(table, [])
    return Counter({str(r[key]): int(r.get("count", 1)) for r in rows})


def _row_index(game: Any, table: str, key: str, value: str) -> int:
    rows = game.data["tables"].get(table, [])
    return next((i for i, r in enumerate(rows) if str(r.get(key)) == value), 0)


def _equal(check: str, actual: object, expected: object, source: str, basis: str,
           where: str = "") -> Finding:
    """``expect_equal`` with the reference's source at the end of the detail."""
    found = expect_equal(check, actual, expected, where=where, basis=basis)
    return Finding(found.check, found.ok, f"{found.detail} ({source})", where=where,
                   basis=basis)


def _count_findings(game: Any, what: str, found: Counter[str], want: Mapping[str, int],
                    table: str, key: str, basis: str, source: str) -> list[Finding]:
    out = []
    for name in sorted(set(want) | set(found), key=lambda n: (n not in want, n)):
        out.append(_equal(f"{name} {what}", found.get(name, 0), want.get(name, 0), source,
                          basis, at(game, "tables", table, _row_index(game, table, key, name),
                                    "count")))
    out.append(_equal(f"{what}, total", sum(found.values()), sum(want.values()), source,
                      basis))
    return out


def card_findings(game: Any, ref: YamlDoc) -> list[Finding]:
    """Copies per direction, and each direction's arrow, against the seed's deck."""
    nav = ref.data["navigation"]
    source = nav["source"].split(" (")[0]
    out = _count_findings(game, "navigation cards", _copies(game, "cards", "navigation",
                                                              "direction"),
                          nav["cards"], "navigation", "direction", nav["basis"], source)
    has_cards = any(c.id == "cards" for c in game.components)
    items = (list(game.component("cards").expanded()) if has_cards
             else game.data["tables"]["navigation"])
    seen: dict[str, tuple[int, int]] = {}
    for item in items:
        seen.setdefault(str(item["direction"]), (int(item["dx"]), int(item["dy"])))
    for name, (dx, dy) in seen.items():
        want = tuple(nav["arrows"].get(name, ()))
        index = _row_index(game, "navigation", "direction", name)
        out.append(expect_equal(f"{name} card arrow (dx, dy)", (dx, dy), want,
                                basis=RULEBOOK, where=at(game, "tables", "navigation", index)))
    return out


def token_findings(game: Any, ref: YamlDoc) -> list[Finding]:
    tokens, symbols = ref.data["tokens"], ref.data["token_symbols"]
    source = tokens["source"].split(" (")[0]
    out = _count_findings(game, "tokens", _copies(game, "tokens", "tokens", "colour"),
                          tokens["counts"], "tokens", "colour", tokens["basis"], source)
    rows = game.data["tables"]["tokens"]
    found = {str(r["colour"]): str(r["symbol"]) for r in rows}
    for colour, symbol in symbols["symbols"].items():
        out.append(expect_equal(f"{colour} token symbol", found.get(colour), symbol,
                                basis=symbols["basis"],
                                where=at(game, "tables", "tokens",
                                         _row_index(game, "tokens", "colour", colour), "symbol")))
    return out


def deck_findings(game: Any, ref: YamlDoc) -> list[Finding]:
    deck = ref.data["standard_deck"]
    source = deck["source"].split(" (")[0]
    found = Counter({str(r["direction"]): int(r["count"])
                     for r in game.data["tables"]["standard_deck_conversion"]})
    return _count_findings(game, "standard-deck stand-ins", found, deck["cards"],
                           "standard_deck_conversion", "direction", deck["basis"], source)


def read_board(face: Face, palette: Mapping[str, str], colour_side: Mapping[str, str]
               ) -> tuple[set[Cell], dict[str, set[Cell]]]:
    """Closed squares and starting rings (by side) as a rendered board face draws them."""
    squares = [p for p in face.prims if isinstance(p, Rect) and abs(p.w - p.h) < 1e-6
               and p.w < face.w * 0.5]
    if not squares:
        return set(), {}
    cell = Counter(round(p.w, 3) for p in squares).most_common(1)[0][0]
    squares = [p for p in squares if abs(p.w - cell) < 1e-3]
    x0, y0 = min(p.x for p in squares), min(p.y for p in squares)

    def at_cell(x: float, y: float) -> Cell:
        return int((y - y0) // cell), int((x - x0) // cell)

    closed = {at_cell(p.x + cell / 2, p.y + cell / 2) for p in squares
              if p.fill == palette["board_closed"]}
    starts: dict[str, set[Cell]] = {side: set() for side in SIDES}
    for p in face.prims:
        if isinstance(p, Circle) and p.fill is None and p.stroke is not None \
                and p.stroke in colour_side and p.r > cell * 0.3:
            starts[colour_side[p.stroke]].add(at_cell(p.cx, p.cy))
    return closed, starts


def _layout(rows: list[str]) -> tuple[set[Cell], dict[str, set[Cell]]]:
    closed = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
    starts = {side: {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                     if ch == side} for side in SIDES}
    return closed, starts


def _name(cell: Cell) -> str:
    return f"(row {cell[0]}, col {cell[1]})"


def board_findings(game: Game, ref: YamlDoc, printed: PrintedKit) -> list[Finding]:
    """Each printed board, read from its face as ``printed`` draws it, against the reference
    layout; the board kinds and starting spaces per side against the seed."""
    kinds, boards = ref.data["board_kinds"], ref.data["boards"]
    theme = printed.theme
    palette, sides = theme.palette, theme.labels["sides"]
    colour_side = {palette[f"player_{v['colour']}"]: side for side, v in sides.items()}
    tables = game.data["tables"]["boards"]
    out = [_equal("board kinds", dict(Counter(str(b.get("symmetry", "none")) for b in tables)),
                  kinds["symmetries"], "seed lines 79-82", kinds["basis"],
                  at(game, "tables", "boards"))]
    drawn: dict[str, tuple[set[Cell], dict[str, set[Cell]]]] = {}
    for comp in game.components:
        if comp.kind == "board" and comp.face == "movement-board":
            name = str(comp.items[0].data.get("name"))
            drawn[name] = read_board(printed.fronts(comp)[0], palette, colour_side)
    for name, spec in boards["layouts"].items():
        index = next((i for i, b in enumerate(tables) if b["name"] == name), None)
        where = at(game, "tables", "boards", index) if index is not None else str(game.source)
        if name not in drawn:
            out.append(Finding(f"board {name}: printed", False, "no board component prints it",
                               basis=boards["basis"], where=where))
            continue
        closed, starts = drawn[name]
        want_closed, want_starts = _layout(list(spec["rows"]))
        problems = [f"closed square missing at {_name(c)}" for c in sorted(want_closed - closed)]
        problems += [f"closed square not in the design at {_name(c)}"
                     for c in sorted(closed - want_closed)]
        for side in SIDES:
            problems += [f"{side} starting ring missing at {_name(c)}"
                         for c in sorted(want_starts[side] - starts.get(side, set()))]
            problems += [f"{side} starting ring not in the design at {_name(c)}"
                         for c in sorted(starts.get(side, set()) - want_starts[side])]
        out.append(Finding(f"board {name}: printed closed squares and starting rings match "
                           f"the reference", not problems,
                           "; ".join(problems[:4]) + (f"; and {len(problems) - 4} more"
                                                      if len(problems) > 4 else "")
                           or f"{len(closed)} closed, {sum(map(len, starts.values()))} rings",
                           basis=boards["basis"], where=where))
        per_side = {side: len(starts.get(side, ())) for side in SIDES}
        out.append(_equal(f"board {name}: printed starting spaces per side", per_side,
                          dict.fromkeys(SIDES, kinds["starts_per_side"]), "seed line 15",
                          kinds["basis"], where))
    return out


def content_findings(game: Game, printed: PrintedKit, ref: YamlDoc) -> list[Finding]:
    """Every content check against ``movement-reference.yaml`` (``ref``)."""
    out = (card_findings(game, ref) + token_findings(game, ref) + deck_findings(game, ref)
           + board_findings(game, ref, printed))
    return [f if f.where else Finding(f.check, f.ok, f.detail, f.warn,
                                      _ref_where(ref, "source"), f.basis) for f in out]
