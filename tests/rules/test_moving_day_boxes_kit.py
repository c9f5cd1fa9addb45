"""Moving Day (Fløe) kit content: the rulebook's worked example scored by the engine with the
kit's own tiles, verify against the reference list (a broken piece is named), one wording of
the clumsy rule everywhere, and the player aids and score pad."""
from __future__ import annotations

import dataclasses
import inspect

import pytest

from generator.core.findings import DESIGN, RULEBOOK
from generator.core.model import Item
from generator.data import load_game
from generator.data.design.themes import load_theme
from generator.orchestration.composition import verify
from generator.orchestration.drawing import engine_examples, render_faces
from generator.orchestration.options import BuildOptions
from generator.rules import moving_day_boxes as boxes
from generator.rules.moving_day_boxes import engine
from generator.rules.moving_day_boxes import scoring as sc
from generator.rules.moving_day_boxes import worked as ex


@pytest.fixture(scope="module")
def game():
    return load_game("moving-day-boxes")


def test_the_worked_example_scores_31_with_the_rulebooks_breakdown(game):
    worked = boxes.examples(game)["worked"]
    per = {v["id"]: (v["icons"], v["shapes"], v["colours"]) for v in worked["vehicles"]}
    # Seed lines 181-186: weights 3+5+8, shape 0+2+2, colour 0+3+0, snacks 8, 31 in all.
    assert per == {"scooter": (3, 0, 0), "car": (5, 2, 3), "truck": (8, 2, 0)}
    assert (worked["icons"], worked["shapes"], worked["colours"], worked["snacks"]) == \
        (16, 4, 3, 8)
    assert worked["total"] == 31
    # Seed lines 172-177: the scooter's boxes crushed, two fragile boxes broken in the truck
    # by its two clumsy friends (one 2-friend card), the car's heaviest box too heavy.
    damage = {v["id"]: v["damaged"] for v in worked["vehicles"]}
    assert damage["scooter"] == {"crushed": 3, "clumsy": 0, "weak": 0}
    assert damage["truck"] == {"crushed": 0, "clumsy": 2, "weak": 0}
    assert damage["car"] == {"crushed": 0, "clumsy": 0, "weak": 1}
    car = next(v for v in worked["vehicles"] if v["id"] == "car")
    assert car["strength"] == 5 and max(b["weight"] for b in car["boxes"]) == 6
    truck = next(v for v in worked["vehicles"] if v["id"] == "truck")
    assert truck["clumsy"] == 2 and len(truck["friends"]) == 2
    # The rulebook's example never shows a box weighing exactly its vehicle's strength (seed
    # lines 147-148 and 172-177), so ours must not hang on the tie reading either: outside the
    # car, every vehicle's friends are strictly stronger than its heaviest box.
    for v in worked["vehicles"]:
        if v["id"] != "car":
            assert v["strength"] > max(b["weight"] for b in v["boxes"]), v["id"]
    # The two boxes the clumsy friends break are the truck's fragile ones.
    assert sorted(b["fragile"] for b in truck["boxes"] if b["damage"] == "clumsy") == \
        [True, True]


def test_each_player_aid_is_labelled_by_seat(game):
    theme = load_theme("boxes")
    fronts, _ = render_faces(game, game.component("aids"), theme, BuildOptions())
    assert [f.label for f in fronts] == [f"player aid {n}" for n in range(1, 5)]


def test_the_example_uses_printed_tiles_and_is_what_the_build_passes(game):
    printed = [(t["shape"], t["colour"], t["weight"], t["fragile"])
               for t in game.component("tiles").expanded()]
    for box in game.data["tables"]["example_boxes"]:
        key = (box["shape"], box["colour"], box["weight"], box["fragile"])
        assert key in printed
        printed.remove(key)                      # each printed tile used at most once
    assert engine_examples(game)["worked"]["total"] == 31


def test_the_example_follows_the_engine_and_fails_verify_on_a_tile_the_kit_lacks(game):
    tables = game.data["tables"]
    boxes = [dict(b) for b in tables["example_boxes"]]
    boxes[0]["weight"] = 7                       # red hexagon 7 exists but is fragile
    moved = dataclasses.replace(game, data={**game.data,
                                            "tables": {**tables, "example_boxes": boxes}})
    [finding] = ex.check(moved)
    assert not finding.ok and "red" in finding.detail and "weight 7" in finding.detail
    # A box the kit prints but placed so the score changes: the check names the category.
    swapped = [dict(b) for b in tables["example_boxes"]]
    top = next(b for b in swapped if b["vehicle"] == "scooter" and b["row"] == 4)
    low = next(b for b in swapped if b["vehicle"] == "scooter" and b["row"] == 1)
    top["row"], low["row"] = 1, 4
    moved = dataclasses.replace(game, data={**game.data,
                                            "tables": {**tables, "example_boxes": swapped}})
    [finding] = ex.check(moved)
    assert not finding.ok and finding.basis == RULEBOOK and "Weights in the scooter" in \
        finding.detail


def broken(game, component: str, change) -> object:
    """The game with one printed copy of ``component`` changed (as a bad table edit would)."""
    comp = game.component(component)
    items = [Item(dict(i.data), i.count) for i in comp.items]
    change(items)
    comps = tuple(dataclasses.replace(c, items=tuple(items)) if c.id == component else c
                  for c in game.components)
    return dataclasses.replace(game, components=comps)


def failures(game) -> dict[str, object]:
    return {f.check: f for f in boxes.verify(game) if not f.ok}


def test_verify_checks_every_piece_against_the_reference(game):
    assert not failures(game)
    findings = boxes.verify(game)
    assert all(f.basis in (RULEBOOK, DESIGN) for f in findings)
    assert any(f.basis == RULEBOOK and f.check.startswith("friend cards: 36") for f in findings)


def test_a_wrong_weight_a_wrong_point_value_and_a_missing_tile_fail_naming_the_tile(game):
    def index(items, shape, colour, weight):
        return next(n for n, i in enumerate(items) if (i.data["shape"], i.data["colour"],
                                                       i.data["weight"]) == (shape, colour,
                                                                             weight))

    def heavier(items):
        items[index(items, "circle", "green", 4)].data["weight"] = 5
    bad = failures(broken(game, "tiles", heavier))
    [tiles] = [f for c, f in bad.items() if c.startswith("box tiles match the reference")]
    assert "green circle weight 4 missing" in tiles.detail
    assert "green circle weight 5 printed but not in the reference" in tiles.detail
    assert tiles.where.endswith(tuple(f"moving-day-boxes-tables.yaml:{n}" for n in range(999)))

    def pointy(items):
        items[index(items, "star", "blue", 4)].data["icons"] = 3
    bad = failures(broken(game, "tiles", pointy))
    [points] = [f for c, f in bad.items() if c.startswith("points on each tile")]
    assert "blue star weight 4: 3 points printed, reference 2" in points.detail

    def lost(items):
        del items[index(items, "hexagon", "red", 7)]
    bad = failures(broken(game, "tiles", lost))
    [tiles] = [f for c, f in bad.items() if c.startswith("box tiles match the reference")]
    assert "red hexagon weight 7 fragile missing" in tiles.detail
    assert "box tiles: 75" in bad and bad["box tiles: 75"].basis == DESIGN


def test_a_clumsy_mark_on_the_wrong_card_and_a_wrong_capacity_fail_naming_the_piece(game):
    def clumsy(items):                           # the row of 4 identical cards
        plain = next(i for i in items if i.data["friends"] == 3 and not i.data["clumsy"])
        plain.data["clumsy"] = True
    bad = failures(broken(game, "friends", clumsy))
    [cards] = [f for c, f in bad.items() if c.startswith("friend cards match the reference")]
    assert "3-friend card of strength 3: printed 0, reference 4" in cards.detail
    assert "3-friend card of strength 3 (clumsy): printed 4, reference 0" in cards.detail

    tables = game.data["tables"]
    vehicles = [dict(v, capacity=5) if v["id"] == "car" else v for v in tables["vehicles"]]
    wrong = dataclasses.replace(game, data={**game.data,
                                            "tables": {**tables, "vehicles": vehicles}})
    bad = failures(wrong)
    assert bad["car: 6 slots (2 x 3), 6 friends"].basis == RULEBOOK


def test_the_clumsy_rule_reads_the_same_in_the_engine_rules_page_cards_and_aid(game):
    rule = sc.CLUMSY_RULE
    assert rule in " ".join(inspect.getdoc(engine).split())
    pages = " ".join(s.get("text", "") for page in game.component("rules").items
                     for s in page.data["sections"])
    assert " ".join(pages.split()).count(rule) == 2       # damage step 2 and our readings
    theme = load_theme("boxes")
    assert theme.context()["labels"]["clumsy_rule"] == rule

    def words(component):
        fronts, _ = render_faces(game, game.component(component), theme, BuildOptions())
        return [" ".join(" ".join(line[2] for line in p.lines) for p in face.prims
                         if hasattr(p, "lines")) for face in fronts]
    cards = [c for c in words("friends") if "Clumsy" in c]
    assert len(cards) == 9 and all(rule in " ".join(c.split()) for c in cards)
    assert any("this card breaks 2" in " ".join(c.split()) for c in cards)
    aids = words("aids")
    assert len(aids) == max(game.players) and all(rule in " ".join(a.split()) for a in aids)


def test_the_score_pad_has_a_row_per_vehicle_and_a_column_per_category(game):
    theme = load_theme("boxes")
    fronts, _ = render_faces(game, game.component("score-pad"), theme, BuildOptions())
    text = " ".join(" ".join(line[2] for line in p.lines) for p in fronts[0].prims
                    if hasattr(p, "lines"))
    for word in ("Scooter", "Car", "Truck", "Snacks", "Total", "Weights", "Shape", "Colour"):
        assert word in text
    assert text.count("Player:") == max(game.players)
    assert all(f.ok for f in verify(game) if "pre-flight" in f.check)
