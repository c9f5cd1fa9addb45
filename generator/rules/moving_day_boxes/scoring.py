"""Moving Day (Fløe): the pieces, the end-of-game damage and points, and the kit checks.

The bottom of the package: the turn engine (``engine``, which documents every reading), the
reference list and the worked example build on it. Everything here works on one vehicle or
one printed set at a time:

- ``score_vehicle`` applies the three damage steps in the rulebook's order (crushed, clumsy,
  strength) and counts the points of one vehicle. Vehicles score independently (adjacency never
  crosses vehicles), so the owner's best choice for clumsy friends is made vehicle by vehicle,
  which is also the best choice for the whole score.
- ``kit_findings`` checks the printed set (or the tables, for a component not yet defined)
  against the published counts and against the balance our reconstruction promises;
  ``printed_pieces`` reads that set, for the reference and the worked example too.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, pairwise
from typing import Any

from generator.core import memo
from generator.core.findings import DESIGN, RULEBOOK, Finding
from generator.core.words import said

from ..base import at as data_at
from ..base import expect_equal

EMPTY = -1
INTACT, CRUSHED, CLUMSY, WEAK = "", "crushed", "clumsy", "weak"
TILES, CARDS, SNACKS = 75, 36, {1: 26, 5: 8}
# The clumsy rule in the words the rules page, the aid and the friend cards print (tests check
# each carries it): the rulebook's "chaque ami possédant l'icône Verre cassé abîme un carton
# fragile au choix de son véhicule" read literally, friend by friend.
CLUMSY_RULE = "Each clumsy friend breaks one fragile box of its vehicle"
PLAYERS = (2, 4)


@dataclass(frozen=True)
class Tile:
    """A box tile: shape and colour (indices into their tables), weight, icons, fragile."""

    shape: int
    colour: int
    weight: int
    icons: int
    fragile: bool


@dataclass(frozen=True)
class Friends:
    """A friend card: how many friends (capacity used), their strength, clumsy or not."""

    friends: int
    strength: int
    clumsy: bool


@dataclass(frozen=True)
class Vehicle:
    """A vehicle type; its slots are numbered ``row * cols + col``, row 0 at the bottom."""

    name: str
    cols: int
    rows: int
    capacity: int

    @property
    def slots(self) -> int:
        return self.cols * self.rows


@dataclass(frozen=True)
class VehicleScore:
    """One vehicle at the end: points by kind and the damage suffered by each slot."""

    icons: int
    shapes: int
    colours: int
    damage: tuple[str, ...]   # per slot: INTACT, CRUSHED, CLUMSY or WEAK ("" for empty too)

    @property
    def points(self) -> int:
        return self.icons + self.shapes + self.colours

    def count(self, cause: str) -> int:
        return self.damage.count(cause)


@dataclass(frozen=True)
class Breakdown:
    """One player's final score in parts, as the rulebook's example reports it."""

    vehicles: tuple[VehicleScore, ...]
    snacks: int

    @property
    def icons(self) -> int:
        return sum(v.icons for v in self.vehicles)

    @property
    def shapes(self) -> int:
        return sum(v.shapes for v in self.vehicles)

    @property
    def colours(self) -> int:
        return sum(v.colours for v in self.vehicles)

    @property
    def total(self) -> int:
        return self.icons + self.shapes + self.colours + self.snacks

    def damaged(self, cause: str) -> int:
        return sum(v.count(cause) for v in self.vehicles)


@memo.memo(maxsize=16)
def neighbours(vehicle: Vehicle) -> tuple[tuple[int, ...], ...]:
    """Orthogonal neighbours of each slot inside one vehicle."""
    result = []
    for slot in range(vehicle.slots):
        row, col = divmod(slot, vehicle.cols)
        near = [(row + dr) * vehicle.cols + col + dc
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= row + dr < vehicle.rows and 0 <= col + dc < vehicle.cols]
        result.append(tuple(near))
    return tuple(result)


def crushed(vehicle: Vehicle, slots: Sequence[int], tiles: Sequence[Tile]) -> list[str]:
    """Step 1: a box is crushed by any heavier box anywhere above it in its column."""
    damage = [INTACT] * vehicle.slots
    for slot, tile in enumerate(slots):
        if tile == EMPTY:
            continue
        row, col = divmod(slot, vehicle.cols)
        weight = tiles[tile].weight
        for above in range(row + 1, vehicle.rows):
            other = slots[above * vehicle.cols + col]
            if other != EMPTY and tiles[other].weight > weight:
                damage[slot] = CRUSHED
                break
    return damage


def points(vehicle: Vehicle, slots: Sequence[int], tiles: Sequence[Tile],
           damage: Sequence[str]) -> tuple[int, int, int]:
    """Icons of undamaged boxes, then 1 point per undamaged box with an undamaged orthogonal
    neighbour of the same shape, and the same for colour (face-down boxes show neither)."""
    icons = shapes = colours = 0
    near = neighbours(vehicle)
    for slot, tile in enumerate(slots):
        if tile == EMPTY or damage[slot]:
            continue
        box = tiles[tile]
        icons += box.icons
        others = [tiles[slots[n]] for n in near[slot] if slots[n] != EMPTY and not damage[n]]
        shapes += any(o.shape == box.shape for o in others)
        colours += any(o.colour == box.colour for o in others)
    return icons, shapes, colours


def clumsy_friends(cards: Iterable[Friends]) -> int:
    """How many fragile boxes a vehicle's friends break (step 2): every friend on a card with
    the clumsy icon is clumsy (``CLUMSY_RULE``), so a 2-friend clumsy card breaks two."""
    return sum(c.friends for c in cards if c.clumsy)


def score_vehicle(vehicle: Vehicle, slots: Sequence[int], tiles: Sequence[Tile],
                  cards: Iterable[Friends]) -> VehicleScore:
    """The three damage steps in order, with the owner's best choice for clumsy friends.

    Each clumsy friend breaks one fragile box that is still face up after step 1; the owner
    tries every choice (at most C(6, k) of them) and keeps the one scoring most after step 3.
    Equal scores keep the first choice in slot order, so scoring is deterministic.
    """
    cards = list(cards)
    strength = sum(c.strength for c in cards)
    clumsy = clumsy_friends(cards)
    first = crushed(vehicle, slots, tiles)
    fragile = [s for s, t in enumerate(slots) if t != EMPTY and not first[s] and tiles[t].fragile]
    best: VehicleScore | None = None
    for chosen in combinations(fragile, min(clumsy, len(fragile))):
        damage = first[:]
        for slot in chosen:
            damage[slot] = CLUMSY
        for slot, tile in enumerate(slots):
            if tile != EMPTY and not damage[slot] and tiles[tile].weight > strength:
                damage[slot] = WEAK
        result = VehicleScore(*points(vehicle, slots, tiles, damage), tuple(damage))
        if best is None or result.points > best.points:
            best = result
    assert best is not None
    return best


# --- the printed set -------------------------------------------------------------------------

def piece_id(value: Any) -> Any:
    """A table cell may be an id or, in a product-generated item, the whole row."""
    return value.get("id") if isinstance(value, Mapping) else value


def at(game: Any, *path: Any) -> str:
    """``base.at`` for a loaded game; "" for a bare stand-in (tests pass data alone)."""
    return data_at(game, *path) if hasattr(game, "source") else ""


def printed_pieces(game: Any, component: str, table: str
                   ) -> tuple[list[Mapping[str, Any]], str]:
    """Each printed copy of a component, or the table expanded by ``count`` if it is missing."""
    ids = {c.id for c in getattr(game, "components", ())}
    if component in ids:
        return list(game.component(component).expanded()), f"component {said(component)}"
    rows = game.data["tables"].get(table, [])
    return [r for r in rows for _ in range(int(r.get("count", 1)))], f"table {said(table)}"


def _histogram(values: Iterable[Any]) -> str:
    counts = Counter(values)
    return " ".join(f"{k}:{counts[k]}" for k in sorted(counts))


def _balanced(groups: Mapping[Any, Counter[Any]]) -> bool:
    """Every group has (nearly) the same mix: counts differ by at most 1 for each value."""
    keys = set().union(*groups.values()) if groups else set()
    return all(max(g[k] for g in groups.values()) - min(g[k] for g in groups.values()) <= 1
               for k in keys)


def _even(counts: Counter[Any], keys: list[str]) -> bool:
    """Every key present, and no two counts more than 1 apart."""
    values = [counts[k] for k in keys]
    return bool(values) and min(values) > 0 and max(values) - min(values) <= 1


def verify_tiles(tiles: list[Mapping[str, Any]], where: str, shapes: list[str],
                 colours: list[str]) -> list[Finding]:
    pairs = Counter((piece_id(t["shape"]), piece_id(t["colour"])) for t in tiles)
    wanted = {(s, c) for s in shapes for c in colours}
    weights = [int(t["weight"]) for t in tiles]
    icons = [int(t["icons"]) for t in tiles]
    fragile = [t for t in tiles if t.get("fragile")]
    by_weight: dict[int, set[int]] = {}
    for w, i in zip(weights, icons, strict=True):
        by_weight.setdefault(w, set()).add(i)
    order = sorted(by_weight)
    rising = all(max(by_weight[a]) <= min(by_weight[b]) for a, b in pairwise(order))
    mix_shape = {s: Counter(int(t["weight"]) for t in tiles if piece_id(t["shape"]) == s)
                 for s in shapes}
    mix_colour = {c: Counter(int(t["weight"]) for t in tiles if piece_id(t["colour"]) == c)
                  for c in colours}
    frag_shape = Counter(piece_id(t["shape"]) for t in fragile)
    frag_colour = Counter(piece_id(t["colour"]) for t in fragile)
    return [
        expect_equal(f"box tiles ({where})", len(tiles), TILES),
        expect_equal("shapes x colours", f"{len(shapes)} x {len(colours)}", "5 x 5"),
        Finding("each shape x colour pair equally present",
                set(pairs) == wanted and len(set(pairs.values())) == 1,
                f"{len(pairs)} pairs, copies {sorted(set(pairs.values()))}"),
        Finding("weights within 1-7", all(1 <= w <= 7 for w in weights), _histogram(weights)),
        Finding("icons within 1-3", all(1 <= i <= 3 for i in icons), _histogram(icons)),
        Finding("icons rise with weight", rising,
                " ".join(f"{w}:{'/'.join(map(str, sorted(by_weight[w])))}" for w in order)),
        expect_equal("fragile tiles (a third)", len(fragile), TILES // 3),
        Finding("fragile tiles spread over shapes and colours",
                _even(frag_shape, shapes) and _even(frag_colour, colours),
                f"by shape {_histogram(frag_shape.elements())}; "
                f"by colour {_histogram(frag_colour.elements())}"),
        Finding("every shape has the same weight mix", _balanced(mix_shape),
                "; ".join(f"{s} {_histogram(m.elements())}" for s, m in mix_shape.items())),
        Finding("every colour has the same weight mix", _balanced(mix_colour),
                "; ".join(f"{c} {_histogram(m.elements())}" for c, m in mix_colour.items())),
    ]


def kit_findings(game: Any) -> list[Finding]:
    """The printed set against the published counts, our balance, and 4-player supply (the
    package's ``verify`` adds the reference list and the worked example)."""
    settings, tables = game.data["settings"], game.data["tables"]
    shapes = [s["id"] for s in tables["box_shapes"]]
    colours = [c["id"] for c in tables["box_colours"]]
    tiles, tiles_from = printed_pieces(game, "tiles", "box_tiles")
    findings = verify_tiles(tiles, tiles_from, shapes, colours)

    cards, cards_from = printed_pieces(game, "friends", "friend_cards")
    sized = Counter((int(c["friends"]), int(c["strength"]), bool(c["clumsy"])) for c in cards)
    findings += [
        expect_equal(f"friend cards ({cards_from})", len(cards), CARDS),
        Finding("friends 1-3, strength 1-4", all(1 <= f <= 3 and 1 <= s <= 4
                                                for f, s, _ in sized), f"{len(sized)} kinds"),
        Finding("clumsy cards about a quarter", abs(sum(c for *_, c in sized.elements())
                                                    - CARDS / 4) <= 2,
                f"{sum(c for *_, c in sized.elements())} of {len(cards)}"),
    ]

    rounds, extra, per_group = (int(settings["rounds"]), int(settings["extra_groups"]),
                                int(settings["boxes_per_group"]))
    top = max(getattr(game, "players", PLAYERS))
    turns = rounds * top
    need_tiles = (top + extra) * per_group + (turns - 1) * per_group
    need_cards = (top + extra) + (turns - 1)
    findings += [
        Finding(f"tiles suffice for {top} players", need_tiles <= len(tiles),
                f"{top + extra} groups x {per_group} + {turns - 1} refills x {per_group} = "
                f"{need_tiles} of {len(tiles)} (no refill after the last turn)"),
        Finding(f"friend cards suffice for {top} players", need_cards <= len(cards),
                f"{top + extra} on display + {turns - 1} refills = {need_cards} of {len(cards)}"),
    ]

    kinds = tables["vehicles"]
    slots = sum(int(v["cols"]) * int(v["rows"]) for v in kinds)
    findings.append(expect_equal("slots per vehicle set = boxes per player", slots,
                                 per_group * rounds))
    comps = {c.id: c for c in getattr(game, "components", ())}
    boards = [c for c in comps.values() if c.id.startswith("vehicle") or c.face == "vehicle"]
    printed = sum(c.total for c in boards) if boards else \
        len(tables["vehicle_sets"]) * len(kinds)
    findings.append(Finding(f"vehicles for {top} players", printed >= top * len(kinds),
                            f"{printed} vehicles ({'printed' if boards else 'tables'}), "
                            f"{len(kinds)} per set"))
    tile_mm, slot_mm = float(settings["tile_mm"]), float(settings["slot_mm"])
    if "tiles" in comps:
        tile_mm = max(comps["tiles"].size.w, comps["tiles"].size.h)
    sizes = sorted({float(b.params.get("slot_mm", slot_mm)) for b in boards} or {slot_mm})
    findings.append(Finding("vehicle slot fits the printed tile",
                            all(tile_mm <= s <= tile_mm + 4 for s in sizes),
                            f"slot {'/'.join(f'{s:g}' for s in sizes)} mm for a {tile_mm:g} mm "
                            "tile (0-4 mm play)"))
    by_id = {v["id"]: v for v in kinds}
    fitting = [(b.id, by_id[b.params["vehicle"]], b.size, float(b.params.get("slot_mm", slot_mm)))
               for b in boards if b.params.get("vehicle") in by_id]
    if fitting:
        findings.append(Finding(
            "vehicle boards hold their slot grid",
            all(size.w >= int(v["cols"]) * s and size.h >= int(v["rows"]) * s
                for _, v, size, s in fitting),
            ", ".join(f"{name} {size.w:g}x{size.h:g} mm >= {int(v['cols']) * s:g}x"
                      f"{int(v['rows']) * s:g}" for name, v, size, s in fitting)))
    snacks, snacks_from = printed_pieces(game, "snacks", "snacks")
    findings.append(expect_equal(f"snacks by value ({snacks_from})",
                                 dict(sorted(Counter(int(s["value"]) for s in snacks).items())),
                                 SNACKS))
    findings += _row_counts(game)
    findings += _summaries(tiles, cards)
    return [replace(f, basis=f.basis or (RULEBOOK if f.check.startswith(_FROM_RULEBOOK)
                                          else DESIGN)) for f in findings]


# Checks that restate the rulebook (its component list, the ranges printed on the pieces, 8
# rounds of 2 boxes); the others check our reconstruction's balance or the kit's fit.
_FROM_RULEBOOK = ("shapes x colours", "weights within", "icons within", "friend cards (",
                  "friends 1-3", "slots per vehicle set", "vehicles for", "snacks by value",
                  "tiles suffice", "friend cards suffice")


def _row_counts(game: Any) -> list[Finding]:
    """Table rows say how many copies to print (``count``); the printed set must honour it."""
    rows = [(c.id, item) for c in getattr(game, "components", ()) for item in c.items
            if "count" in item.data]
    if not rows:
        return []
    wrong = Counter(cid for cid, item in rows if int(item.data["count"]) != item.count)
    detail = ", ".join(f"{cid}: {n} rows printed with the wrong number of copies"
                       for cid, n in sorted(wrong.items()))
    return [Finding("printed copies follow each table row's count", not wrong,
                    detail or f"{len(rows)} rows")]


def _summaries(tiles: list[Mapping[str, Any]], cards: list[Mapping[str, Any]]) -> list[Finding]:
    """The distributions as compact tables, for the designer reading the report."""
    weights = Counter(int(t["weight"]) for t in tiles)
    fragile = Counter(int(t["weight"]) for t in tiles if t.get("fragile"))
    icons = {w: Counter(int(t["icons"]) for t in tiles if int(t["weight"]) == w) for w in weights}
    table = " | ".join(f"w{w}: {weights[w]} tiles, icons {_histogram(icons[w].elements())}, "
                       f"{fragile[w]} fragile" for w in sorted(weights))
    kinds = Counter((int(c["friends"]), int(c["strength"]), bool(c["clumsy"])) for c in cards)
    rows = []
    for size in sorted({f for f, _, _ in kinds}):
        parts = [f"s{s}:{kinds[(size, s, False)] + kinds[(size, s, True)]}"
                 + (f"({kinds[(size, s, True)]}c)" if kinds[(size, s, True)] else "")
                 for s in range(1, 5) if kinds[(size, s, False)] + kinds[(size, s, True)]]
        rows.append(f"{size} friend{'s' if size > 1 else ''}: " + " ".join(parts))
    strength = sum(int(c["strength"]) for c in cards)
    return [
        Finding("summary: tiles by weight", True, table),
        Finding("summary: icons on all tiles", True,
                f"{sum(int(t['icons']) for t in tiles)} icons, "
                f"{sum(1 for t in tiles if t.get('fragile'))} fragile tiles"),
        Finding("summary: friend cards by size and strength (c = clumsy)", True,
                " | ".join(rows) + f" | total strength {strength}, "
                f"friends {sum(int(c['friends']) for c in cards)}"),
    ]
