"""Untitled Movement Game: what the engine reads from the data, computed once per board and
player count (``Rules``), and the greedy policy's per-seat view of the board (``Plan``).
The engine (``engine``) plays by these; the readings of the seed are listed there.
"""
from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.core.words import said

from ..base import per_data
from .boards import (
    ACROSS,
    Board,
    forbidden,
    left_to_right,
    parse_board,
    ray,
    world_step,
)

FAR = 10_000               # a distance standing for "unreachable"
DEFAULTS: dict[str, Any] = {"hand_size": 3, "die_sides": 3, "tokens_per_player": 4,
                            "introduce_on": 3, "seats": {2: ["S", "N"], 4: ["S", "W", "N", "E"]}}


@dataclass(frozen=True)
class Rules:
    """Everything read from the data for one board and player count, computed once."""

    board: Board
    seats: tuple[str, ...]
    names: tuple[str, ...]                 # direction names, navigation table order
    backward: tuple[int, ...]              # each direction's dy (larger: less useful)
    deck: tuple[int, ...]                  # direction of each card, before shuffling
    hand_size: int
    die_sides: int
    tokens: int
    introduce_on: int
    rays: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]  # [seat][dir][cell] -> path
    homes: tuple[tuple[int, ...], ...]     # each seat's own starting spaces
    goals: tuple[tuple[int, ...], ...]     # the starting spaces of the player across
    is_goal: tuple[tuple[bool, ...], ...]
    # per seat, occupied -> who stands on each of its goals (an itemgetter: the hot path)
    standing: tuple[Any, ...] = field(default=(), compare=False)
    maps: dict[tuple[int, tuple[bool, ...]], Plan] = field(
        default_factory=dict, compare=False)  # the greedy policy's plans, filled on demand
    # (seat, who stands on each of its goals) -> plan: the same plan as ``maps`` by taken
    # goals, found without working out which goals are taken (the greedy policy's hot path)
    seen: dict[tuple[int, Any], Plan] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Plan:
    """The greedy policy's view of the board for one seat and set of taken goals: ``dist``
    (see ``goal_map``) and, per direction and cell, the card moves that gain distance as
    ``(gain, steps, end)``, best first (most gain, then fewest steps). Computed once, so
    choosing a move reads a few short lists instead of walking every path."""

    dist: tuple[int, ...]
    gains: list[list[tuple[tuple[int, int, int], ...] | None]]  # [dir][cell], filled on demand
    seat: int


PLAYED_TABLES = ("boards", "navigation")  # the tables the engine plays by


def played_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a game's data the engine plays by (its settings, boards and navigation
    deck): all ``_build_rules`` is given, so a result computed from play and keyed by this
    (verify's playouts, generator/rules/movement_game/playouts.py) is not played again when
    a rules text, a coverage line or a component's look is edited."""
    tables = data.get("tables", {})
    return {"settings": data.get("settings", {}),
            "tables": {name: tables[name] for name in PLAYED_TABLES if name in tables}}


def seating(data: Mapping[str, Any]) -> dict[int, tuple[str, ...]]:
    """The sides seated per player count: the ``seats`` setting, else the defaults."""
    seats = {**DEFAULTS, **data.get("settings", {})}["seats"]
    return {int(k): tuple(str(s) for s in v) for k, v in seats.items()}


def seating_problem(players: int, sides: tuple[str, ...]) -> str | None:
    """Why ``sides`` cannot seat ``players`` (that many different sides, each with the side
    across, where its tokens head), or None: the engine seats no one otherwise."""
    if (len(sides) == players and len(set(sides)) == len(sides)
            and all(ACROSS[side] in sides for side in sides)):
        return None
    return f"expected {players} different sides, each with the side across"


def _build_rules(data: Mapping[str, Any], players: int) -> Rules:
    data = played_data(data)
    cfg = {**DEFAULTS, **data.get("settings", {})}
    tables = data.get("tables", {})
    boards = tables.get("boards") or []
    seats_by_count = seating(data)
    if players not in seats_by_count:
        raise ValueError(f"the movement game is for {sorted(seats_by_count)} players")
    if not boards:
        raise ValueError("the movement game needs its data: tables.boards is missing")
    wanted = cfg.get("board") or boards[0]["name"]
    chosen = [b for b in boards if b["name"] == wanted]
    if not chosen:
        raise ValueError(f"no board named {said(wanted)}")
    board, seats, nav = parse_board(chosen[0]), seats_by_count[players], tables["navigation"]
    die = int(cfg["die_sides"])
    rays, homes, goals, is_goal = [], [], [], []
    for side in seats:
        blocked = forbidden(board, side, seats)
        rays.append(tuple(
            tuple(ray(board, cell, *world_step(side, int(row["dx"]), int(row["dy"])), die,
                       blocked) for cell in range(len(board.open)))
            for row in nav))
        homes.append(left_to_right(board, side, board.starts[side]))
        goal = left_to_right(board, ACROSS[side], board.starts[ACROSS[side]])
        goals.append(goal)
        is_goal.append(tuple(c in goal for c in range(len(board.open))))
    deck = tuple(i for i, row in enumerate(nav) for _ in range(int(row.get("count", 1))))
    return Rules(board, seats, tuple(r["direction"] for r in nav),
                 tuple(int(r["dy"]) for r in nav), deck, int(cfg["hand_size"]), die,
                 int(cfg["tokens_per_player"]), int(cfg["introduce_on"]), tuple(rays),
                 tuple(homes), tuple(goals), tuple(is_goal),
                 tuple(operator.itemgetter(*g) if g else _nobody for g in goals))


def _nobody(occupied: list[int]) -> tuple[int, ...]:
    """Who stands on the goals of a seat that has none."""
    return ()


rules_for = per_data(_build_rules)  # (data, players) -> Rules, built once per data object


def variants(data: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """One data set per board (``settings.board`` set to its name), for the simulator."""
    settings = dict(data.get("settings", {}))
    return [(b["name"], {**data, "settings": {**settings, "board": b["name"]}})
            for b in data.get("tables", {}).get("boards") or []]
