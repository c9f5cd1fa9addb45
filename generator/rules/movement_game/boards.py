"""Movement game boards: parsing the text grids of ``tables.boards``, the geometry of a move,
and the checks ``verify`` runs on each board (shape, symmetry, starting spaces, reachability).

A board is a list of equal-length strings, row 0 at the north edge: ``.`` open, ``#`` closed,
``N``/``S``/``E``/``W`` a starting space of that side's player (4 per side, on its edge, not in
a corner). Kept apart from the rules engine so a board template can draw from the same parse.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.core.findings import RULEBOOK, Finding
from generator.core.words import said

SIDES = "SWNE"             # clockwise from the south edge
ACROSS = {"S": "N", "N": "S", "W": "E", "E": "W"}
STEPS8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def world_step(side: str, dx: int, dy: int) -> tuple[int, int]:
    """A card's (dx, dy) as held from ``side`` -> (row step, column step) on the board."""
    return {"S": (dy, dx), "N": (-dy, -dx), "W": (dx, -dy), "E": (-dx, dy)}[side]


@dataclass(frozen=True)
class Board:
    """A parsed board: which cells are open and each side's starting spaces."""

    name: str
    symmetry: str
    rows: tuple[str, ...]
    width: int
    open: tuple[bool, ...]
    starts: Mapping[str, tuple[int, ...]]

    @property
    def height(self) -> int:
        return len(self.rows)


def parse_board(item: Mapping[str, Any]) -> Board:
    rows = tuple(str(r) for r in item.get("rows", ()))
    width = max((len(r) for r in rows), default=0)
    flat = "".join(row.ljust(width, "#") for row in rows)
    starts = {side: tuple(i for i, ch in enumerate(flat) if ch == side) for side in SIDES}
    return Board(str(item.get("name", "?")), str(item.get("symmetry", "none")), rows, width,
                 tuple(ch != "#" for ch in flat), starts)


# The seven non-identity symmetries of a square, each as (name, cell map, side letters swapped).
# ``rows[r][c]`` of the transformed board reads the original at ``at(rows, r, c)``; a side's
# starting letter follows its edge (a left-right mirror swaps E and W, a quarter turn clockwise
# takes the north edge to the east...). A 90-degree turn or a diagonal mirror only fits a square.
SYMMETRIES: dict[str, tuple[Any, str, str]] = {
    "rotation 90": (lambda g, h, w, r, c: g[h - 1 - c][r], "NESW", "ESWN"),
    "rotation 180": (lambda g, h, w, r, c: g[h - 1 - r][w - 1 - c], "NSEW", "SNWE"),
    "rotation 270": (lambda g, h, w, r, c: g[c][w - 1 - r], "NESW", "WNES"),
    "mirror left-right": (lambda g, h, w, r, c: g[r][w - 1 - c], "EW", "WE"),
    "mirror top-bottom": (lambda g, h, w, r, c: g[h - 1 - r][c], "NS", "SN"),
    "mirror main diagonal": (lambda g, h, w, r, c: g[c][r], "NWSE", "WNES"),
    "mirror anti-diagonal": (lambda g, h, w, r, c: g[h - 1 - c][w - 1 - r], "NESW", "ENWS"),
}
# What the data's ``symmetry`` names: horizontal = the north half mirrors the south half.
DECLARED = {"horizontal": "mirror top-bottom", "rotational": "rotation 180"}


def transformed(rows: tuple[str, ...], how: str) -> tuple[str, ...]:
    """The board under one of ``SYMMETRIES``, its starting letters relabelled to match."""
    at, old, new = SYMMETRIES[how]
    h, w = len(rows), len(rows[0]) if rows else 0
    quarter = how in ("rotation 90", "rotation 270") or how.endswith("diagonal")
    out_h, out_w = (w, h) if quarter else (h, w)
    swap = str.maketrans(old, new)
    return tuple("".join(at(rows, h, w, r, c) for c in range(out_w)).translate(swap)
                 for r in range(out_h))


def symmetries(rows: tuple[str, ...]) -> list[str]:
    """Which of the seven non-identity symmetries of the square leave the board unchanged."""
    return [how for how in SYMMETRIES if transformed(rows, how) == tuple(rows)]


def mirrored(rows: tuple[str, ...], how: str) -> tuple[str, ...]:
    """The board's ``horizontal`` (north-south mirror) or ``rotational`` (180-degree turn)
    image, starting letters swapped to match, for comparing with the board itself."""
    return transformed(rows, DECLARED[how])


def forbidden(board: Board, side: str, sides: tuple[str, ...]) -> frozenset[int]:
    """Starting spaces of the seated players to the left and right of ``side``."""
    return frozenset(c for s in sides if s not in (side, ACROSS[side]) for c in board.starts[s])


def reach(board: Board, start: int, blocked: frozenset[int]) -> set[int]:
    """Cells a token can reach from ``start`` by single steps in 8 directions."""
    seen, todo = {start}, [start]
    while todo:
        cell = todo.pop()
        for dr, dc in STEPS8:
            fresh = set(ray(board, cell, dr, dc, 1, blocked)) - seen
            seen |= fresh
            todo += fresh
    return seen


def left_to_right(board: Board, side: str, cells: tuple[int, ...]) -> tuple[int, ...]:
    """``cells`` ordered from the left to the right of the player at ``side``, so action lists
    (and the greedy policy's ties) look the same from every seat."""
    dr, dc = world_step(side, 1, 0)
    return tuple(sorted(cells, key=lambda c: dr * (c // board.width) + dc * (c % board.width)))


def ray(board: Board, cell: int, dr: int, dc: int, steps: int,
         blocked: frozenset[int]) -> tuple[int, ...]:
    """The cells a straight move from ``cell`` passes, up to ``steps``, until something stops
    it (the edge, a closed space, a forbidden starting space). Tokens do not stop it."""
    path: list[int] = []
    row, col = divmod(cell, board.width)
    while board.open[cell] and len(path) < steps:
        row, col = row + dr, col + dc
        nxt = row * board.width + col
        if not (0 <= row < board.height and 0 <= col < board.width) or not board.open[nxt] \
                or nxt in blocked:
            break
        path.append(nxt)
    return tuple(path)


def squeezes(board: Board) -> int:
    """Diagonal steps between two closed spaces with both ends open."""
    out, w, op = 0, board.width, board.open
    for r in range(board.height - 1):
        for c in range(w - 1):
            a, b, x, y = r * w + c, r * w + c + 1, (r + 1) * w + c, (r + 1) * w + c + 1
            out += (op[a] and op[y] and not op[b] and not op[x]) + \
                (op[b] and op[x] and not op[a] and not op[y])
    return out


def board_findings(board: Board, sides: tuple[str, ...] = tuple(SIDES)) -> list[Finding]:
    """Shape, symmetry, starting spaces and reachability of one board, under the 4-player
    rules (the strictest: each side's tokens avoid the starting spaces of the sides beside it)."""
    label = f"board {board.name}"
    bad = sorted({ch for r in board.rows for ch in r} - set(".#" + SIDES))
    shape_ok = bool(board.rows) and len({len(r) for r in board.rows}) == 1 and not bad
    out = [Finding(f"{label}: rectangular grid of . # N S E W", shape_ok,
                   f"{board.width} wide, {board.height} tall" if shape_ok else
                   f"row lengths {[len(r) for r in board.rows]}, other characters {bad}")]
    if not shape_ok:
        return out
    sym = board.symmetry
    holds = symmetries(board.rows)   # all seven, so a left-right mirror is caught too
    if sym in DECLARED:
        out.append(Finding(f"{label}: {sym} symmetry", DECLARED[sym] in holds,
                           ("holds" if DECLARED[sym] in holds else "does not hold")
                           + (f" (also: {', '.join(h for h in holds if h != DECLARED[sym])})"
                              if len(holds) > 1 else ""), basis=RULEBOOK))
    else:
        out.append(Finding(f"{label}: asymmetrical", sym == "none" and not holds,
                           f"declared {said(sym)}; " + (f"but it has: {', '.join(holds)}" if holds
                                                    else "none of the 7 symmetries of the "
                                                    "square holds"), basis=RULEBOOK))
    h, w = board.height, board.width
    edge = {"N": lambda r, c: r == 0 < c < w - 1, "S": lambda r, c: r == h - 1 and 0 < c < w - 1,
            "W": lambda r, c: c == 0 < r < h - 1, "E": lambda r, c: c == w - 1 and 0 < r < h - 1}
    at = {s: [divmod(c, w) for c in board.starts[s]] for s in SIDES}
    starts_ok = all(len(p) == 4 and all(edge[s](r, c) for r, c in p) for s, p in at.items())
    out.append(Finding(f"{label}: 4 starting spaces per side, on its edge, not in corners",
                       starts_ok, "; ".join(f"{s} at {at[s]}" for s in SIDES)))
    if not starts_ok:
        return out
    reached: set[int] = set()
    misses = []
    for side in sides:
        blocked = forbidden(board, side, sides)
        areas: list[set[int]] = []  # a single step goes both ways: starts share their area
        for start in board.starts[side]:
            seen = next((area for area in areas if start in area), None)
            if seen is None:
                seen = reach(board, start, blocked)
                areas.append(seen)
            reached |= seen
            misses += [(divmod(start, w), divmod(g, w))
                       for g in board.starts[ACROSS[side]] if g not in seen]
    out.append(Finding(f"{label}: every start reaches every start across", not misses,
                       f"(row, col) pairs cut off: {misses}" if misses else "16 pairs per side"))
    lost = [divmod(c, w) for c in range(h * w) if board.open[c] and c not in reached]
    out.append(Finding(f"{label}: every open space reachable", not lost,
                       f"cut off: {lost}" if lost else f"{sum(board.open)} open spaces"))
    out.append(Finding(f"{label}: diagonal squeezes", True, str(squeezes(board))))
    return out
