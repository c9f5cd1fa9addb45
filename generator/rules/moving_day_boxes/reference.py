"""Moving Day (Fløe): the printed kit checked against its reference list, piece by piece.

The kit is generated from ``card_data/moving-day-boxes-tables.yaml``; the reference lives in
``card_data/moving-day-boxes-reference.yaml``, a separate file that says where each fact comes
from (the rulebook's component list, or our reconstruction of what the publisher does not
print). Comparing the two means a wrong weight, a wrong point value, a lost or extra tile, a
misplaced fragile or clumsy mark or a vehicle with the wrong capacity fails verify with the
piece named ("green circle weight 4: printed 5"), instead of comparing the kit with itself.

What is compared is what the face templates print: each copy of the ``tiles``, ``friends``,
``snacks`` and vehicle components (their item data: weight, icons, fragile, friends,
strength, clumsy, value), or the tables when a component is missing.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from generator.core.findings import DESIGN, RULEBOOK, Finding

from .scoring import at, piece_id, printed_pieces

Row = Mapping[str, Any]


def _tile_name(shape: str, colour: str, weight: int | None = None) -> str:
    return f"{colour} {shape}" + (f" weight {weight}" if weight is not None else "")


def check_tiles(printed: list[Row], reference: list[Row], points: Mapping[int, int]
                ) -> tuple[list[str], list[str]]:
    """Differences between the printed tiles and the reference, tile by tile: (tiles missing,
    extra or with the wrong fragile mark) and (tiles with the wrong point value)."""
    by_pair: dict[tuple[str, str], list[Row]] = {}
    for tile in printed:
        by_pair.setdefault((piece_id(tile["shape"]), piece_id(tile["colour"])), []).append(tile)
    wrong, pointless = [], []
    seen = set()
    for ref in reference:
        pair = (ref["shape"], ref["colour"])
        seen.add(pair)
        tiles = by_pair.get(pair, [])
        want = Counter((int(w), int(w) == int(ref["fragile"])) for w in ref["weights"])
        # A pair with two tiles of the fragile weight has one fragile, one not.
        fragile_weight = int(ref["fragile"])
        if want[(fragile_weight, True)] > 1:
            want[(fragile_weight, True)] -= 1
            want[(fragile_weight, False)] += 1
        got = Counter((int(t["weight"]), bool(t.get("fragile"))) for t in tiles)
        for (weight, fragile), n in sorted((want - got).items()):
            mark = " fragile" if fragile else ""
            wrong.append(f"{_tile_name(*pair, weight)}{mark} missing" + (f" x{n}" if n > 1
                                                                          else ""))
        for (weight, fragile), n in sorted((got - want).items()):
            mark = " fragile" if fragile else ""
            wrong.append(f"{_tile_name(*pair, weight)}{mark} printed but not in the reference"
                         + (f" x{n}" if n > 1 else ""))
        for tile in tiles:
            weight, icons = int(tile["weight"]), int(tile["icons"])
            if points.get(weight) != icons:
                pointless.append(f"{_tile_name(*pair, weight)}: {icons} points printed, "
                                 f"reference {points.get(weight)}")
    for pair in sorted(set(by_pair) - seen):
        wrong.append(f"{_tile_name(*pair)}: {len(by_pair[pair])} tiles printed, none in the "
                     "reference")
    return wrong, pointless


def check_friends(printed: list[Row], reference: list[Row]) -> list[str]:
    """Friend cards by (friends, strength, clumsy): each kind printed as often as listed."""
    def name(kind: tuple[int, int, bool]) -> str:
        friends, strength, clumsy = kind
        return (f"{friends}-friend card of strength {strength}"
                + (" (clumsy)" if clumsy else ""))

    got = Counter((int(c["friends"]), int(c["strength"]), bool(c["clumsy"])) for c in printed)
    want = Counter({(int(r["friends"]), int(r["strength"]), bool(r["clumsy"])): int(r["count"])
                    for r in reference})
    return [f"{name(kind)}: printed {got[kind]}, reference {want[kind]}"
            for kind in sorted(set(got) | set(want)) if got[kind] != want[kind]]


def check(game: Any) -> list[Finding]:
    """Each printed piece against the reference file; the basis says where the fact is from."""
    tables = game.data["tables"]
    if "reference_tiles" not in tables:
        return [Finding("reference list of the pieces", False,
                        "include moving-day-boxes-reference.yaml: verify needs it",
                        where=at(game), basis=DESIGN)]
    tiles, tiles_from = printed_pieces(game, "tiles", "box_tiles")
    cards, cards_from = printed_pieces(game, "friends", "friend_cards")
    snacks, _ = printed_pieces(game, "snacks", "snacks")
    points = {int(r["weight"]): int(r["points"]) for r in tables["reference_points"]}
    wrong, pointless = check_tiles(tiles, tables["reference_tiles"], points)
    tiles_at = at(game, "tables", "box_tiles")
    findings = [
        Finding(f"box tiles match the reference list ({tiles_from})", not wrong,
                "; ".join(wrong) or f"{len(tiles)} tiles: weights and fragile marks per shape "
                "and colour", where=tiles_at, basis=DESIGN),
        Finding("points on each tile match its weight (reference)", not pointless,
                "; ".join(pointless) or " ".join(f"w{w}:{p}" for w, p in sorted(points.items())),
                where=tiles_at, basis=DESIGN),
    ]
    bad_cards = check_friends(cards, tables["reference_friends"])
    findings.append(Finding(f"friend cards match the reference list ({cards_from})",
                            not bad_cards, "; ".join(bad_cards) or f"{len(cards)} cards",
                            where=at(game, "tables", "friend_cards"), basis=DESIGN))

    comps = {c.id: c for c in getattr(game, "components", ())}
    boards = [c for c in comps.values() if c.params.get("vehicle")]
    printed_vehicles = Counter(c.params["vehicle"] for c in boards for _ in range(c.total))
    kinds = {v["id"]: v for v in tables["vehicles"]}
    actual = {"snacks-1": sum(int(s["value"]) == 1 for s in snacks),
              "snacks-5": sum(int(s["value"]) == 5 for s in snacks),
              "vehicles": sum(printed_vehicles.values()) if boards
              else len(tables["vehicle_sets"]) * len(kinds),
              "friends": len(cards), "tiles": len(tiles)}
    for ref in tables["reference_counts"]:
        got = actual.get(ref["piece"])
        findings.append(Finding(f"{ref['name']}: {ref['number']}",
                                got == int(ref["number"]), f"printed {got}; from {ref['source']}",
                                where=at(game, "tables", "reference_counts"),
                                basis=RULEBOOK if ref["basis"] == "rulebook" else DESIGN))
    sets = len(tables["vehicle_sets"])
    for ref in tables["reference_vehicles"]:
        kind = kinds.get(ref["id"], {})
        shape = (kind.get("cols"), kind.get("rows"), kind.get("capacity"))
        want = (ref["cols"], ref["rows"], ref["capacity"])
        copies = printed_vehicles.get(ref["id"], 0) if boards else sets
        ok = shape == want and copies == sets
        findings.append(Finding(
            f"{ref['id']}: {ref['cols'] * ref['rows']} slots ({ref['cols']} x {ref['rows']}), "
            f"{ref['capacity']} friends", ok,
            f"printed {shape[0]} x {shape[1]}, {shape[2]} friends, {copies} copies for {sets} "
            f"sets; from {ref['source']}",
            where=at(game, "tables", "vehicles"),
            basis=RULEBOOK if ref["basis"] == "rulebook" else DESIGN))
    return findings
