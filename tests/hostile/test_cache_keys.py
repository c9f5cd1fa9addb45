"""Cache keys hashed as a stream, a joined row digested once, a key past a bound not cached
(issue 35, deliver 3).

The face cache's key held every item's data as one JSON text, and every item holds a copy of
each row it joins (generator/data/tables/loader.py): a 4.2 MB CSV joined by 30 columns peaked at
1.6 GB with the cache on, 80 MB with it off. Now a key is fed into its hash as it is walked
(generator/core/cache.py's ``KeyStream``), the copies of one row are digested once per key,
and a key past ``MAX_KEY_VALUES`` values means computing without the cache.
"""
from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import pytest

from generator.core import cache
from generator.frontends.cli import main

from .limits import pnp_limited


def joined_items(cards: int, rows: int, joins: int) -> tuple[list[dict], list[dict]]:
    """Items as the loader makes them: each join column holds a copy of the row it names."""
    table = [{"id": f"r{i}", "text": f"{i}" + "x" * 500} for i in range(rows)]
    pick = random.Random(7)
    items = [{"name": f"c{n}", **{f"j{k}": dict(table[pick.randrange(rows)])
                                  for k in range(joins)}} for n in range(cards)]
    return table, items


def test_copies_of_a_joined_row_are_digested_once_per_key() -> None:
    table, items = joined_items(cards=200, rows=10, joins=30)
    stream = cache.KeyStream()
    digest = stream.digest(items)
    assert len(stream.rows) == len(items) + len(table)  # each item, and each row once
    # The same values key the same, however they are shared or copied...
    assert digest.hex() == cache.fingerprint(copy.deepcopy(items))
    # ...and a change anywhere in one copy of a row keys otherwise.
    changed = copy.deepcopy(items)
    changed[-1]["j29"]["text"] += "!"
    assert cache.fingerprint(changed) != digest.hex()


def test_keys_still_tell_apart_nested_and_flat_values() -> None:
    values = [{"a": {"b": 1}}, {"a": [("b", 1)]}, {"a": {"b": "1"}}, [{"b": 1}], ({"b": 1},),
              "s1:a", ["a"], {"a": None}, {"a": False}, {"a": 0}, 10**5000, -(10**5000),
              "\ud800", ""]
    assert len({cache.fingerprint(v) for v in values}) == len(values)


@pytest.mark.slow  # over tests/lanes.py's budget
def test_a_key_past_the_bound_is_computed_not_cached(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE", "1")
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(cache.Uncacheable, match="more than"):
        cache.fingerprint([0] * cache.MAX_KEY_VALUES)
    runs: list[int] = []

    def compute() -> int:
        runs.append(1)
        return 42

    big = {"rows": [[1, 2, 3, 4]] * (cache.MAX_KEY_VALUES // 4)}  # one list, shared: 2M values
    assert cache.cached("bounded", big, compute) == 42
    assert cache.cached("bounded", big, compute) == 42
    assert runs == [1, 1]  # computed each time
    assert not list((tmp_path / "cache").glob("bounded-*.json"))  # nothing stored
    assert cache.cached("bounded", {"rows": [[1, 2]]}, compute) == 42
    assert list((tmp_path / "cache").glob("bounded-*.json"))  # a small key is cached


def joined_project(folder: Path, cards: int = 1000, rows: int = 420, joins: int = 30) -> Path:
    """The starter, its cards in a CSV joining ``joins`` columns to a 4.2 MB table of rows."""
    assert main(["init", str(folder)]) == 0
    with (folder / "rows.csv").open("w", encoding="utf-8") as file:
        file.write("id,text\n")
        for i in range(rows):
            file.write(f"r{i},{'x' * 9990}\n")
    pick = random.Random(1)
    with (folder / "cards.csv").open("w", encoding="utf-8") as file:
        file.write("name,suit,value," + ",".join(f"j{k}" for k in range(joins)) + "\n")
        for i in range(cards):
            file.write(f"c{i},sun,1," + ",".join(f"r{pick.randrange(rows)}"
                                                 for _ in range(joins)) + "\n")
    data = folder / "game.yaml"
    text = data.read_text(encoding="utf-8")
    text = re.sub(r"  cards:\n(    - .*\n)+", "  cards: {file: cards.csv}\n"
                  "  rows: {file: rows.csv}\n", text)
    columns = ", ".join(f"j{k}: {{table: rows}}" for k in range(joins))
    text = text.replace('value: "int 1..9"}', f'value: "int 1..9", {columns}}}\n'
                        "  rows: {id: str, text: str}")
    data.write_text(text[:text.index("verify:")], encoding="utf-8")
    return folder


@pytest.mark.slow  # over tests/lanes.py's budget
def test_a_large_joined_table_builds_cached_within_500_mb(tmp_path: Path) -> None:
    folder = joined_project(tmp_path / "joined")
    env = {"PNP_CACHE": "1", "PNP_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # cold (keys made, faces stored), then warm (keys made, faces read)
        result = pnp_limited(["build", folder, "--out", tmp_path / "out"], env=env)
        assert result.returncode == 0, result.stderr[-2000:]
    assert list((tmp_path / "cache").glob("faces-*.json"))  # the faces were cached
