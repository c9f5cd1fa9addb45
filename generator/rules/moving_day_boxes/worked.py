"""Moving Day (Fløe): the rulebook's scoring example, scored by the real engine at build time.

The rulebook's example (seed lines 168-186) gives its numbers (weights 3+5+8, shapes 0+2+2,
colours 0+3+0, snacks 8: 31 points) but shows its tiles only in a picture. The data file
``card_data/moving-day-boxes-example.yaml`` lays it out with the kit's OWN pieces: each box is
matched to a printed tile (shape, colour, weight, fragile; each printed tile used once) and
each friend card to a printed card. ``examples`` puts them in a real ``State`` with
``engine.empty_seat`` and scores it with ``score_breakdown``, the code that scores
simulated games, so the rules page (``templates/faces/boxes-example.yaml``) draws the engine's
own damage and points: if the tiles, the cards or the scoring change, the page changes too.
``check`` is the verify finding that the result still matches the rulebook's numbers.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from generator.core.findings import RULEBOOK, Finding

from . import engine as md
from .scoring import Friends, Tile, at, clumsy_friends, piece_id, printed_pieces

CATEGORIES = ("icons", "shapes", "colours")


class ExampleError(ValueError):
    """The example asks for a tile or card the kit does not print (or more copies of it)."""


def _take(pool: list[tuple[int, Mapping[str, Any]]], want: Mapping[str, Any],
          fields: Sequence[str], what: str) -> int:
    """Remove from ``pool`` the first printed piece matching ``want`` on ``fields``."""
    for n, (index, row) in enumerate(pool):
        if all(piece_id(row[f]) == want[f] for f in fields):
            del pool[n]
            return index
    described = ", ".join(f"{f} {want[f]}" for f in fields)
    raise ExampleError(f"the worked example needs a {what} ({described}) the kit does not "
                       "print, or more copies of it than it prints")


def example_state(game: Any) -> tuple[Any, int]:
    """The example as a one-seat end position built from the printed pieces, and its snacks."""
    tables = game.data["tables"]
    shapes = [s["id"] for s in tables["box_shapes"]]
    colours = [c["id"] for c in tables["box_colours"]]
    printed_tiles, _ = printed_pieces(game, "tiles", "box_tiles")
    printed_cards, _ = printed_pieces(game, "friends", "friend_cards")
    rules = md.rules_for(game.data)
    rules = dataclasses.replace(
        rules,
        tiles=tuple(Tile(shapes.index(piece_id(t["shape"])), colours.index(piece_id(t["colour"])),
                         int(t["weight"]), int(t["icons"]), bool(t["fragile"]))
                    for t in printed_tiles),
        cards=tuple(Friends(int(c["friends"]), int(c["strength"]), bool(c["clumsy"]))
                    for c in printed_cards))
    names = [v["id"] for v in tables["vehicles"]]
    seat = md.empty_seat(rules)
    tiles_left = list(enumerate(printed_tiles))
    for box in tables["example_boxes"]:
        v = names.index(box["vehicle"])
        vehicle = rules.vehicles[v]
        if not (1 <= int(box["row"]) <= vehicle.rows and 1 <= int(box["col"]) <= vehicle.cols):
            raise ExampleError(f"the worked example puts a box in row {box['row']}, column "
                               f"{box['col']} of the {vehicle.name}, which has "
                               f"{vehicle.rows} x {vehicle.cols} slots")
        slot = (int(box["row"]) - 1) * vehicle.cols + int(box["col"]) - 1
        seat.slots[v][slot] = _take(tiles_left, box, ("shape", "colour", "weight", "fragile"),
                                    "box tile")
    cards_left = list(enumerate(printed_cards))
    for card in tables["example_friends"]:
        seat.friends[names.index(card["vehicle"])].append(
            _take(cards_left, card, ("friends", "strength", "clumsy"), "friend card"))
    snacks = next(int(r["total"]) for r in tables["example_rulebook"]
                  if r["category"] == "snacks")
    seat.snacks = snacks
    state = md.State(rules, random.Random(0), 1, [], [], [], [seat])
    return state, snacks


def worked_example(game: Any) -> dict[str, Any]:
    """The example scored by the engine: per vehicle its boxes (with the damage each took) and
    friends, the points by category, and the totals."""
    state, _ = example_state(game)
    parts = md.score_breakdown(state, 0)
    seat, rules = state.seats[0], state.rules
    tables = game.data["tables"]
    vehicles = []
    for v, (vehicle, scored) in enumerate(zip(rules.vehicles, parts.vehicles, strict=True)):
        boxes = []
        for slot, tile in enumerate(seat.slots[v]):
            if tile < 0:
                continue
            info = rules.tiles[tile]
            row, col = divmod(slot, vehicle.cols)
            boxes.append({"row": row, "col": col, "shape": info.shape, "colour": info.colour,
                          "weight": info.weight, "icons": info.icons, "fragile": info.fragile,
                          "damage": scored.damage[slot]})
        cards = [rules.cards[c] for c in seat.friends[v]]
        vehicles.append({
            "id": tables["vehicles"][v]["id"], "name": vehicle.name, "cols": vehicle.cols,
            "rows": vehicle.rows, "boxes": boxes,
            "friends": [{"friends": c.friends, "strength": c.strength, "clumsy": c.clumsy}
                        for c in cards],
            "strength": sum(c.strength for c in cards), "clumsy": clumsy_friends(cards),
            "icons": scored.icons, "shapes": scored.shapes, "colours": scored.colours,
            "points": scored.points,
            "damaged": {cause: scored.count(cause) for cause in ("crushed", "clumsy", "weak")},
        })
    return {"vehicles": vehicles, "icons": parts.icons, "shapes": parts.shapes,
            "colours": parts.colours, "snacks": parts.snacks, "total": parts.total,
            "damaged": {cause: parts.damaged(cause) for cause in ("crushed", "clumsy", "weak")}}


def examples(game: Any) -> dict[str, Any]:
    """What the rules pages and aids draw (generator/orchestration/drawing.py passes it as
    ``examples``)."""
    return {"worked": worked_example(game)}


def check(game: Any) -> list[Finding]:
    """The engine's score of the example against the rulebook's numbers, per vehicle."""
    tables = game.data["tables"]
    if "example_boxes" not in tables:
        return []
    where = at(game, "tables", "example_rulebook")
    try:
        scored = worked_example(game)
    except ExampleError as exc:
        return [Finding("worked example laid out with the kit's own pieces", False, str(exc),
                        where=at(game, "tables", "example_boxes"), basis=RULEBOOK)]
    wrong = []
    for row in tables["example_rulebook"]:
        cat = row["category"]
        got = scored["total"] if cat == "points" else scored[cat]
        if got != int(row["total"]):
            wrong.append(f"{row['name']} {got}, rulebook {row['total']}")
        if cat in CATEGORIES:
            for v in scored["vehicles"]:
                if row.get(v["id"]) is not None and v[cat] != int(row[v["id"]]):
                    wrong.append(f"{row['name']} in the {v['id']} {v[cat]}, "
                                 f"rulebook {row[v['id']]}")
    detail = "; ".join(wrong) if wrong else (
        f"weights {scored['icons']}, shape {scored['shapes']}, colour {scored['colours']}, "
        f"snacks {scored['snacks']}: {scored['total']} points")
    return [Finding("worked example scores as the rulebook's", not wrong, detail, where=where,
                    basis=RULEBOOK)]
