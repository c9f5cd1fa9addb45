"""Worked examples for the movement game's rules pages and player aids, computed by the engine.

``examples(game)`` plays the seed's three example turns (lines 48, 52 and 58 of
``untitled-movement-game.txt``) on a hand-built 4-player position: the set-up (board, tokens,
hands, the die results the seed gives, which cards are played on which token) is data, in
``card_data/movement-examples.yaml``; everything printed beside the diagrams (what a card means
from its seat, where each token ends, how many moves are forgone, how many cards are drawn,
who plays next) is what ``engine.apply`` did, read back from the states. Each play is
looked up among ``legal_actions``, so an example the rules forbid fails the build.

It also gives the seat-relative compass the aids and the rules page draw: for every seat, each
card's direction as a board heading (``world_step``) and which side of the board it leads to.

Board squares are named like a chessboard seen from South: columns a, b, c... from west to east,
rows 1, 2, 3... from south to north; the diagrams print the same letters and numbers.
"""
from __future__ import annotations

import math
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generator.core.errors import DataError
from generator.core.words import said
from generator.core.yamlfile import YamlDoc, format_path
from generator.data.tables.loader import load_shaped

from . import engine as mg
from .boards import ACROSS, parse_board, world_step
from .files import Examples
from .setup import rules_for, seating, seating_problem, variants

EXAMPLES_FILE = "movement-examples.yaml"
SIDE_NAMES = {"S": "South", "W": "West", "N": "North", "E": "East"}
HEADINGS = {(-1, 0): "north", (1, 0): "south", (0, -1): "west", (0, 1): "east",
            (-1, -1): "north-west", (-1, 1): "north-east", (1, -1): "south-west",
            (1, 1): "south-east"}
EDGE_OF = {(-1, 0): "N", (1, 0): "S", (0, -1): "W", (0, 1): "E"}
ORDINAL = {1: "a second", 2: "a third"}


class _Die(random.Random):
    """The die of an example: every roll shows the value the seed gives."""

    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value

    def randint(self, a: int, b: int) -> int:
        return self.value


def square(board: Any, cell: int) -> str:
    """A cell as the diagrams label it: column letter from the west, row number from the south."""
    row, col = divmod(cell, board.width)
    return f"{'abcdefghijklmnopqrstuvwxyz'[col]}{board.height - row}"


def load_setup(game: Any) -> YamlDoc:
    """The examples' set-up, from the file beside the game's data file: its shape checked on
    load (``files.Examples``), then what only the game can tell (``_check_setup``), each
    problem naming the file and line."""
    doc = load_shaped(Path(game.source).parent / EXAMPLES_FILE, Examples)
    _check_setup(game, doc)
    return doc


def _check_setup(game: Any, doc: YamlDoc) -> None:
    """The set-up's names and numbers against the game: its board is one of the game's, its
    player count one the game seats, each side seated, each token on an open square of that
    board (one a square), each card a navigation card, each roll one the die shows, each
    play's token one the side has on the board."""
    setup = doc.data
    boards = dict(variants(game.data))
    if setup["board"] not in boards:
        raise doc.error(("board",), f"expected the name of a board of the game's tables.boards "
                        f"({', '.join(boards) or 'none'}), got {said(setup['board'])}")
    data = boards[setup["board"]]
    seated, players = seating(data), setup["players"]
    if players not in seated:
        raise doc.error(("players",), f"expected a player count the game seats "
                        f"({', '.join(map(str, seated))}), got {players}")
    seats = seated[players]
    problem = seating_problem(players, seats)
    if problem:  # verify says so too: here when --force printed past it
        raise _game_error(game, ("settings", "seats", players),
                          f"{', '.join(seats) or 'none'}: {problem}")
    rules = rules_for(data, players)
    board, taken = rules.board, set[int]()
    for side, cells in setup["tokens"].items():
        if side not in seats:
            raise doc.error(("tokens", side), f"no {side} seat with {players} players "
                            f"({', '.join(seats)})")
        if len(cells) > rules.tokens:
            raise doc.error(("tokens", side), f"expected at most {rules.tokens} tokens a "
                            f"side, got {len(cells)}")
        for index, (r, c) in enumerate(cells):
            cell = r * board.width + c
            if r >= board.height or c >= board.width or not board.open[cell]:
                raise doc.error(("tokens", side, index), f"({r}, {c}) is no open square of "
                                f"board {board.name} ({board.height} rows of {board.width})")
            if cell in taken:
                raise doc.error(("tokens", side, index), f"({r}, {c}) holds another token")
            taken.add(cell)
    for t, turn in enumerate(setup["turns"]):
        at = ("turns", t)
        if turn["side"] not in seats:
            raise doc.error((*at, "side"), f"no {turn['side']} seat with {players} players "
                            f"({', '.join(seats)})")
        if turn["roll"] > rules.die_sides:
            raise doc.error((*at, "roll"), f"expected a roll of the game's die, 1 to "
                            f"{rules.die_sides}, got {turn['roll']}")
        cards: list[tuple[tuple[Any, ...], str]] = [
            ((*at, key, i), name) for key in ("hand", "deck") for i, name in enumerate(turn[key])]
        cards += [((*at, "plays", p, "card"), play["card"])
                  for p, play in enumerate(turn["plays"])]
        for path, name in cards:
            if name not in rules.names:
                raise doc.error(path, f"expected a navigation card ({', '.join(rules.names)}), "
                                f"got {said(name)}")
        on_board = len(setup["tokens"].get(turn["side"], []))
        for p, play in enumerate(turn["plays"]):
            if play["token"] >= on_board:
                raise doc.error((*at, "plays", p, "token"), f"expected the index of one of "
                                f"{turn['side']}'s {on_board} tokens on the board (from 0), got "
                                f"{play['token']}")


def _check_game(game: Any) -> None:
    """What the examples and the seat compass read of the game beyond what the loader types:
    a token row for every seated side, and each navigation card a step somewhere. Verify
    fails without them too; here when --force printed past it."""
    tables = game.data["tables"]
    sides = {str(row["side"]) for row in tables["tokens"]}
    for players, seats in seating(game.data).items():
        missing = [side for side in seats if side not in sides]
        if missing:
            raise _game_error(game, ("tables", "tokens"), f"no row for side "
                              f"{', '.join(missing)}, seated with {players} players")
    for index, row in enumerate(tables["navigation"]):
        if (int(row["dx"]), int(row["dy"])) == (0, 0):
            raise _game_error(game, ("tables", "navigation", index),
                              "dx 0 and dy 0: a card must point somewhere")


def _game_error(game: Any, path: tuple[Any, ...], expected: str) -> DataError:
    """A problem of the game's own data file, at the line the loader read ``path`` from."""
    docs = getattr(game, "docs", None) or {}
    doc = docs.get("game")
    if path[:1] == ("tables",) and len(path) > 1:  # in whichever file holds the table
        doc = (docs.get("tables") or {}).get(path[1], doc)
    if doc is None:
        return DataError(game.source, None, format_path(path), expected)
    return doc.error(path, expected)


def _token_list(state: mg.State, tokens: Mapping[str, Any]) -> list[dict[str, Any]]:
    rules, out = state.rules, []
    for seat, side in enumerate(rules.seats):
        for index, cell in enumerate(state.tokens[seat]):
            if cell >= 0:
                r, c = divmod(cell, rules.board.width)
                out.append({"side": side, "seat": seat, "token": index, "r": r, "c": c,
                            **tokens[side]})
    return out


def seats_info(game: Any, players: int = 4) -> list[dict[str, Any]]:
    """Per seat (clockwise from South): name, colour, symbol, the sides across, to the left and
    to the right, the next player, and every card direction as a board heading."""
    data = game.data
    seats = seating(data).get(players, ())
    tokens = {row["side"]: row for row in data["tables"]["tokens"]}
    out = []
    for seat, side in enumerate(seats):
        dirs = []
        for row in data["tables"]["navigation"]:
            dr, dc = world_step(side, int(row["dx"]), int(row["dy"]))
            dirs.append({"direction": row["direction"], "word": row["word"], "dx": row["dx"],
                         "dy": row["dy"], "dr": dr, "dc": dc, "heading": HEADINGS[dr, dc],
                         "abbr": "".join(p[0] for p in HEADINGS[dr, dc].split("-")).upper()})
        left, right = (EDGE_OF[world_step(side, dx, 0)] for dx in (-1, 1))
        out.append({"side": side, "name": SIDE_NAMES[side], "colour": tokens[side]["colour"],
                    "symbol": tokens[side]["symbol"], "across": SIDE_NAMES[ACROSS[side]],
                    "left": SIDE_NAMES[left], "right": SIDE_NAMES[right],
                    "next": SIDE_NAMES[seats[(seat + 1) % len(seats)]], "directions": dirs})
    return out


def play_turn(game: Any, doc: YamlDoc, t: int) -> dict[str, Any]:
    """Turn ``t`` of the set-up (``doc``, checked by ``load_setup``) played by the engine: the
    states before and after and every move; a play the rules forbid names its line."""
    setup, turn = doc.data, doc.data["turns"][t]
    players = int(setup["players"])
    data = dict(variants(game.data))[setup["board"]]
    seats = seating(data)[players]
    seat = seats.index(turn["side"])
    placed = [[tuple(p) for p in setup["tokens"].get(side, [])] for side in seats]
    hands = [list(turn["hand"]) if s == seat else [] for s in range(players)]
    state = mg.position(players, placed, hands, data, player=seat, deck=list(turn["deck"]))
    board, rules = state.rules.board, state.rules
    tokens = {row["side"]: {"colour": row["colour"], "symbol": row["symbol"]}
              for row in data["tables"]["tokens"]}
    before = _token_list(state, tokens)
    state.rng = _Die(int(turn["roll"]))
    mg.apply(state, mg.ROLL)
    roll = state.roll
    moves = []
    for p, play in enumerate(turn["plays"]):
        d, token, steps = rules.names.index(play["card"]), int(play["token"]), int(play["steps"])
        action = d << 8 | token << 4 | steps
        if action not in mg.legal_actions(state):
            raise doc.error(("turns", t, "plays", p), f"{turn['side']} may not play this "
                            f"({play['card']}, token {token}, {steps} steps): the rules "
                            "forbid it from the position before it")
        start = state.tokens[seat][token]
        path = rules.rays[seat][d][start][:steps]
        left_before = state.moves_left
        mg.apply(state, action)
        end = state.tokens[seat][token]
        nav = data["tables"]["navigation"][d]
        dr, dc = world_step(turn["side"], int(nav["dx"]), int(nav["dy"]))
        moves.append({"card": rules.names[d], "word": nav["word"],
                      "token": token, "steps": steps, "heading": HEADINGS[dr, dc],
                      "from": square(board, start), "to": square(board, end),
                      "path": [divmod(c, board.width) for c in (start, *path)],
                      "ux": round(dc / math.hypot(dr, dc), 4),
                      "uy": round(dr / math.hypot(dr, dc), 4),
                      "angle": round(math.degrees(math.atan2(dr, dc)), 2),
                      "moves_left": left_before - steps})
    forgone = state.moves_left if state.player == seat else 0
    if turn.get("stop"):
        mg.apply(state, mg.STOP)
    if state.player == seat:
        raise doc.error(("turns", t), f"{turn['side']}'s turn does not end after its "
                        "plays: play every move of the roll, or stop")
    hand_after = state.hands[seat]
    drawn = len(hand_after) - (len(turn["hand"]) - len(moves))
    return {"side": turn["side"], "name": SIDE_NAMES[turn["side"]], "who": turn["who"],
            "seed_line": turn.get("seed_line"), **tokens[turn["side"]], "roll": roll,
            "moves": moves, "forgone": forgone, "drawn": drawn, "hand": len(hand_after),
            "next": SIDE_NAMES[seats[state.player]], "before": before,
            "after": _token_list(state, tokens)}


def caption(turn: Mapping[str, Any]) -> list[str]:
    """The sentences printed beside a turn's diagram, each made from the engine's facts."""
    name, colour = turn["name"], turn["colour"]
    lines = [f"{name} ({turn['who']}) rolls {turn['roll']}."]
    last = None
    for index, move in enumerate(turn["moves"]):
        card = move["word"]
        again = index and turn["moves"][index - 1]["card"] == move["card"]
        article = f"{ORDINAL.get(index, 'another')} {card} card" if again else f"a {card} card"
        meaning = "" if again else f" ({card.lower()} for {name} is {move['heading']})"
        which = ("the same" if last == move["token"] else
                 "another" if last is not None else "a")
        spaces = "space" if move["steps"] == 1 else "spaces"
        lines.append(f"Plays {article}{meaning}: {which} {colour} token moves "
                     f"{move['steps']} {spaces}, {move['from']} to {move['to']}.")
        last = move["token"]
    if turn["forgone"]:
        lines.append("Forgoes the last move." if turn["forgone"] == 1 else
                     f"Forgoes the last {turn['forgone']} moves.")
    cards = "card" if turn["drawn"] == 1 else "cards"
    lines.append(f"Draws {turn['drawn']} {cards} (hand back to {turn['hand']}); "
                 f"{turn['next']} plays next.")
    return lines


def examples(game: Any) -> dict[str, Any]:
    """The three example turns, the board they are played on, and the seat compass."""
    doc = load_setup(game)
    _check_game(game)
    board = parse_board(next(b for b in game.data["tables"]["boards"]
                                if b["name"] == doc.data["board"]))
    turns = [play_turn(game, doc, t) for t in range(len(doc.data["turns"]))]
    for turn in turns:
        turn["caption"] = caption(turn)
    two = {seat["side"]: seat["next"] for seat in seats_info(game, 2)}
    seats = seats_info(game)
    for seat in seats:
        seat["next_2"] = two.get(seat["side"], "")
    return {"board": {"name": board.name, "rows": list(board.rows), "width": board.width,
                      "height": board.height,
                      "cols": list("abcdefghijklmnopqrstuvwxyz"[:board.width]),
                      "row_numbers": [board.height - r for r in range(board.height)]},
            "turns": turns, "seats": seats}
