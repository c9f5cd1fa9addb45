"""The rules engines' on-disk cache (generator/core/cache.py): a warm build replays nothing and
prints the same findings; any change to the data, the parameters or the code recomputes; a
corrupt, hostile or unwritable cache is only ever a miss."""
from __future__ import annotations

import copy
import datetime
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core import cache
from generator.data import load_game
from generator.orchestration.drawing import DrawnKit
from generator.rules import decktet_moving_day, movement_game, moving_target
from generator.rules.decktet_moving_day import engine as decktet_engine
from generator.rules.movement_game import playouts as movement_playouts
from generator.rules.moving_target import engine as target_engine

GAME = load_game("movement-game")
# The simulation findings as the code before the cache and the faster greedy policy printed
# them (same data, same seeds): neither may change a word. (Saltire's figure is its board's
# since its centre column was closed: 61.5 % before, a seat-advantage warning.)
PINNED = [
    "  [ok  ] [design] board Lattice: simulation, 2 players: seat 1 (first player) wins 53.5 % "
    "(46.6-60.3 %) (95 % Wilson), 0 stalls in 200 greedy games (300-turn limit)",
    "  [ok  ] [design] board Saltire: simulation, 2 players: seat 1 (first player) wins "
    "51.0 % (44.1-57.8 %) (95 % Wilson), 0 stalls in 200 greedy games (300-turn limit)",
    "  [ok  ] [design] board Pinwheel: simulation, 2 players: seat 1 (first player) wins 49.5 % "
    "(42.6-56.4 %) (95 % Wilson), 0 stalls in 200 greedy games (300-turn limit)",
    "  [ok  ] [design] board Rockslide: simulation, 2 players: seat 1 (first player) wins 48.0 % "
    "(41.2-54.9 %) (95 % Wilson), 0 stalls in 200 greedy games (300-turn limit)",
]


@pytest.fixture
def folder(fresh_cache) -> Path:
    """A fresh, enabled cache folder for one test."""
    return fresh_cache


@pytest.fixture
def playouts(monkeypatch) -> list[str]:
    """Few games per board (fast), and a record of each board actually played out."""
    played: list[str] = []
    real = movement_playouts._playouts
    monkeypatch.setattr(movement_playouts, "VERIFY_GAMES", 6)

    def counted(data):
        played.append(data["settings"]["board"])
        return real(data)

    monkeypatch.setattr(movement_playouts, "_playouts", counted)
    return played


def entries(folder: Path, kind: str = "*") -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.json"))


def no_playouts(*args, **kwargs):
    raise AssertionError("a warm verify played games")


@pytest.mark.slow
def test_warm_verify_replays_nothing_and_prints_the_same_findings(folder, monkeypatch):
    cold = movement_game.verify(GAME, DrawnKit(GAME))
    assert [f.line() for f in cold if "simulation" in f.check] == PINNED
    assert len(entries(folder, "movement-verify")) == 1
    monkeypatch.setattr(movement_playouts, "play_one", no_playouts)
    assert movement_game.verify(GAME, DrawnKit(GAME)) == cold


def test_a_changed_board_cell_plays_again(folder, playouts):
    data = copy.deepcopy(GAME.data)
    first = movement_playouts._summaries(data, ["Lattice"])
    assert playouts == ["Lattice"] and movement_playouts._summaries(data, ["Lattice"]) == first
    assert playouts == ["Lattice"]  # the second call was a hit
    rows = data["tables"]["boards"][0]["rows"]
    rows[1] = rows[-2] = "....#...."  # symmetric: the board stays sound
    movement_playouts._summaries(data, ["Lattice"])
    assert playouts == ["Lattice", "Lattice"]
    assert len(entries(folder, "movement-verify")) == 2


def test_an_edit_the_engine_does_not_play_by_replays_nothing(folder, playouts):
    """Only settings, boards and the navigation deck are played by (setup.played_data, all
    the engine's rules are built from): a coverage line or a table it does not read edited
    keeps the playouts; a navigation card's count plays again."""
    data = copy.deepcopy(GAME.data)
    movement_playouts._summaries(data, ["Lattice"])
    data["rules_coverage"] = {}
    data["tables"]["tokens"] = [{"note": "a table the engine never reads"}]
    movement_playouts._summaries(data, ["Lattice"])
    assert playouts == ["Lattice"]
    data["tables"]["navigation"][0]["count"] = data["tables"]["navigation"][0].get("count", 1) + 1
    movement_playouts._summaries(data, ["Lattice"])
    assert playouts == ["Lattice", "Lattice"]


def test_changed_parameters_play_again(folder, playouts, monkeypatch):
    movement_playouts._summaries(GAME.data, ["Saltire"])
    monkeypatch.setattr(movement_playouts, "VERIFY_SEED", movement_playouts.VERIFY_SEED + 1)
    movement_playouts._summaries(GAME.data, ["Saltire"])
    monkeypatch.setattr(movement_playouts, "VERIFY_TURNS", movement_playouts.VERIFY_TURNS + 1)
    movement_playouts._summaries(GAME.data, ["Saltire"])
    assert playouts == ["Saltire"] * 3


def test_changed_code_plays_again(folder, playouts, monkeypatch):
    movement_playouts._summaries(GAME.data, ["Pinwheel"])
    monkeypatch.setattr(cache, "code_digest", lambda module=None: "0" * 64)  # an edit
    movement_playouts._summaries(GAME.data, ["Pinwheel"])
    assert playouts == ["Pinwheel"] * 2


PLAYOUTS = "generator.rules.movement_game.playouts"


def edited(monkeypatch, module: str) -> str:
    """The playouts' code digest with one module's source changed (as if edited)."""
    sources = dict(cache.read_sources())
    sources[module] += b"\n# edited\n"
    with monkeypatch.context() as m:
        m.setattr(cache, "package_sources", lambda: sources)
        m.setattr(cache, "package_graph", lambda: cache.import_graph(sources))
        return cache.read_code_digest(PLAYOUTS)


def test_the_code_key_is_the_source_of_the_modules_the_computation_imports(monkeypatch):
    """The playouts import the movement engine and the play loop (directly), the rules base
    (through them) and this module; an edit to any is another key. A module they never
    import (the watch loop, the simulator's reports) keeps the key."""
    before = cache.read_code_digest(PLAYOUTS)
    assert cache.code_digest(PLAYOUTS) == before
    graph = cache.package_graph()
    used = cache.imported(PLAYOUTS, graph)
    assert {PLAYOUTS, "generator.rules.movement_game.engine", "generator.rules.base",
            "generator.rules.play", "generator.rules", "generator"} <= used
    assert not {"generator.frontends.watch", "generator.frontends.cli",
                "generator.orchestration.simulate"} & used
    for module in ("generator.rules.movement_game.engine", "generator.rules.base",
                   "generator.rules.play", "generator.core.cache", PLAYOUTS):
        assert edited(monkeypatch, module) != before, module
    for module in ("generator.frontends.watch", "generator.orchestration.simulate"):
        assert edited(monkeypatch, module) == before, module


def test_imports_are_read_wherever_they_are_written():
    """A module of generator/rules/: absolute, relative, parenthesised over lines, deferred
    into a function; the word in a string is not an import statement."""
    source = b"""\
import os, generator.core.paths as p
from .. import cache, memo
from . import (base,
    declarative)
def later():
    from ..faces.template import load_template  # a deferred import
    text = "important: not an import"
"""
    names = set(cache.import_names(source, ["generator", "rules"]))
    assert {"os", "generator.core.paths", "generator", "generator.cache", "generator.memo",
            "generator.rules", "generator.rules.base", "generator.rules.declarative",
            "generator.faces.template"} <= names
    assert not any("important" in n for n in names)


def test_a_computation_outside_the_package_is_keyed_on_this_module_alone():
    assert cache.imported("tests.test_cache", cache.package_graph()) == set()
    assert cache.entry_key("k", [1]) == cache.entry_key("k", [1], code="tests.test_cache")


def compute_counter() -> tuple[list[int], object]:
    calls: list[int] = []

    def compute():
        calls.append(1)
        return {"wins": [1.5, 2.0], "text": "é", "none": None, "ok": True, "n": [3]}

    return calls, compute


def test_cached_stores_plain_json_and_hits(folder):
    calls, compute = compute_counter()
    first = cache.cached("test-kind", {"a": 1}, compute)
    second = cache.cached("test-kind", {"a": 1}, compute)
    assert first == second and type(second["wins"][0]) is float and len(calls) == 1
    stored = json.loads(entries(folder, "test-kind")[0].read_text(encoding="utf-8"))
    assert stored["value"] == first and stored["format"] == cache.FORMAT


HOSTILE = [
    b"",
    b"{",
    b"\xff\xfe not utf-8",
    b"null",
    b"[]",
    b'{"format": 1, "kind": "test-kind", "value": {}}',  # no key
    b'{"format": 1, "kind": "test-kind", "key": "KEY", "value": NaN}',
    b'{"format": 1, "kind": "test-kind", "key": "KEY", "value": 1e999}',
    b'{"format": 99, "kind": "test-kind", "key": "KEY", "value": {}}',
    b'{"format": 1, "kind": "other", "key": "KEY", "value": {}}',
    b'{"format": 1, "kind": "test-kind", "key": "KEY", "value": "not a dict"}',
    b'{"format": 1, "kind": "test-kind", "key": "KEY", "value": ' + b"[" * 100_000 + b"]" * 100_000
    + b"}",
    b'{"format": 1, "kind": "test-kind", "key": "KEY", "value": ' + b"9" * 10_000 + b"}",
]


@pytest.mark.parametrize("content", HOSTILE, ids=range(len(HOSTILE)))
def test_a_corrupt_or_hostile_entry_is_recomputed(folder, content):
    calls, compute = compute_counter()
    good = cache.cached("test-kind", ["k"], compute, valid=lambda v: type(v) is dict)
    entry = entries(folder, "test-kind")[0]
    key = entry.name[len("test-kind-"):-len(".json")]
    entry.write_bytes(content.replace(b"KEY", key.encode()))
    assert cache.cached("test-kind", ["k"], compute, valid=lambda v: type(v) is dict) == good
    assert len(calls) == 2
    assert cache.cached("test-kind", ["k"], compute) == good and len(calls) == 2  # rewritten


def test_oversized_fifo_symlink_and_folder_entries_are_misses(folder):
    calls, compute = compute_counter()
    good = cache.cached("test-kind", ["k"], compute)
    entry = entries(folder, "test-kind")[0]
    genuine = entry.read_bytes()
    entry.write_bytes(genuine[:-1] + b" " * cache.MAX_ENTRY + b"}")  # valid, but too large
    assert cache.cached("test-kind", ["k"], compute) == good and len(calls) == 2
    elsewhere = folder.parent / "elsewhere.json"
    elsewhere.write_bytes(genuine)
    entry.unlink()
    entry.symlink_to(elsewhere)
    assert cache.cached("test-kind", ["k"], compute) == good and len(calls) == 3
    entry.unlink()
    os.mkfifo(entry)  # would block a plain open() forever
    assert cache.cached("test-kind", ["k"], compute) == good and len(calls) == 4
    entry.unlink()
    entry.mkdir()
    assert cache.cached("test-kind", ["k"], compute) == good and len(calls) == 5


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(content=st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
def test_any_bytes_in_an_entry_are_a_miss(folder, content):
    calls, compute = compute_counter()
    good = compute()
    key = cache.entry_key("fuzz", ["k"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"fuzz-{key}.json").write_bytes(content)
    assert cache.cached("fuzz", ["k"], compute) == good and len(calls) == 2


def test_a_hit_with_a_tampered_summary_shape_plays_again(folder, playouts):
    movement_playouts._summaries(GAME.data, ["Rockslide"])
    entry = entries(folder, "movement-verify")[0]
    stored = json.loads(entry.read_text(encoding="utf-8"))
    stored["value"]["Rockslide"]["wins"] = [6, 0]  # ints: would print differently
    entry.write_text(json.dumps(stored), encoding="utf-8")
    summary = movement_playouts._summaries(GAME.data, ["Rockslide"])
    assert playouts == ["Rockslide"] * 2 and all(type(w) is float
                                                 for w in summary["Rockslide"]["wins"])


def test_an_unwritable_folder_still_computes(tmp_path, monkeypatch, playouts):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PNP_CACHE_DIR", str(blocker / "cache"))
    calls, compute = compute_counter()
    assert cache.cached("test-kind", 1, compute) == cache.cached("test-kind", 1, compute)
    assert len(calls) == 2
    findings = movement_game.verify(GAME, DrawnKit(GAME))
    assert sum("simulation" in f.check for f in findings) == 4 and len(playouts) == 4


def test_pnp_cache_0_turns_it_off(folder, monkeypatch, playouts):
    monkeypatch.setenv("PNP_CACHE", "0")
    calls, compute = compute_counter()
    cache.cached("test-kind", 1, compute)
    cache.cached("test-kind", 1, compute)
    movement_playouts._summaries(GAME.data, ["Lattice"])
    movement_playouts._summaries(GAME.data, ["Lattice"])
    assert len(calls) == 2 and playouts == ["Lattice"] * 2 and not folder.exists()


def test_where_the_cache_lives(monkeypatch, tmp_path):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("PNP_CACHE_DIR")
    assert cache.cache_dir() == tmp_path / "xdg" / "pnp"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # ignored, as the XDG spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "pnp"


def test_keys_tell_apart_what_python_tells_apart():
    values = [1, 1.0, True, "1", [1], (1,), {1: "a"}, {"1": "a"}, None, {"a": 1, "b": 2},
              {"b": 2, "a": 1}, [[1], 2], [1, [2]], datetime.date(2024, 1, 2), "2024-01-02",
              datetime.datetime(2024, 1, 2)]
    assert len({cache.fingerprint(v) for v in values}) == len(values)
    assert cache.fingerprint({"x": [1, 2.5]}) == cache.fingerprint({"x": [1, 2.5]})
    with pytest.raises(cache.Uncacheable):
        cache.fingerprint({"when": object()})


def test_unkeyable_or_non_plain_results_are_computed_not_stored(folder):
    calls: list[int] = []

    def compute():
        calls.append(1)
        return {"pair": (1, 2)}  # a tuple would come back as a list: not stored

    assert cache.cached("test-kind", 1, compute) == {"pair": (1, 2)}
    assert cache.cached("test-kind", 1, compute) == {"pair": (1, 2)} and len(calls) == 2
    assert cache.cached("test-kind", {"x": {1, 2}}, lambda: 5) == 5  # a set: no key
    assert not entries(folder)
    with pytest.raises(ValueError):
        cache.cached("../escape", 1, lambda: 1)


def test_entries_and_the_folder_are_size_bounded(folder, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRY", 200)
    assert cache.cached("test-kind", "big", lambda: "x" * 500) == "x" * 500
    assert not entries(folder)
    monkeypatch.setattr(cache, "MAX_ENTRY", 1 << 20)
    for n in range(6):
        cache.cached("test-kind", n, lambda n=n: "y" * 1000 + str(n))
    files = entries(folder)
    for age, file in enumerate(sorted(files, key=lambda f: json.loads(f.read_text())["value"])):
        os.utime(file, (1_000_000 + age, 1_000_000 + age))  # entry n is n-th oldest
    (folder / "unrelated.txt").write_text("kept")
    cache.evict(folder, limit=3 * 1200)
    kept = sorted(json.loads(f.read_text())["value"][-1] for f in entries(folder))
    assert kept == ["3", "4", "5"] and (folder / "unrelated.txt").exists()


def test_worked_examples_come_back_identical(folder, monkeypatch):
    target = load_game("moving-target")
    day = load_game("moving-day")
    made = moving_target.examples(target), decktet_moving_day.examples(day)
    assert len(entries(folder, "moving-target-example")) == 1
    assert len(entries(folder, "decktet-example")) == 1
    monkeypatch.setattr(target_engine, "new_game", no_playouts)
    monkeypatch.setattr(decktet_engine, "new_game", no_playouts)
    assert (moving_target.examples(target), decktet_moving_day.examples(day)) == made
    assert made[0]["moving_target"]["lines"]


def test_reading_only_what_a_module_reaches_gives_the_whole_graphs_answer():
    """The code key walks only the modules a computation reaches (``reached``); for every
    module of the package that is what the whole import graph says (``imported``)."""
    sources = cache.package_sources()
    graph = cache.package_graph()
    assert len(sources) > 100
    for module in sources:
        assert cache.reached(module, sources) == cache.imported(module, graph), module
