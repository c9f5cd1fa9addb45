"""``pnp list`` remembered by content (generator/orchestration/listing.py): a kept listing is
printed only while every file the loads read is unchanged, byte for byte."""
from __future__ import annotations

import os
import shutil

import pytest

from generator.core import cache, memo, paths
from generator.orchestration import listing


@pytest.fixture
def games(tmp_path, fresh_cache):
    folder = tmp_path / "card_data"
    shutil.copytree(paths.CARD_DATA, folder)
    return folder


def kept_entries(folder) -> list:
    return sorted(folder.glob(f"{listing.KIND}-*.json"))


def test_a_kept_listing_equals_a_fresh_one(games, fresh_cache, monkeypatch):
    first = listing.lines(games)
    assert any(line.startswith("moving-target: Moving Target, 2-3 players: Playing cards (52)")
               for line in first)
    assert len(kept_entries(fresh_cache)) == 1
    memo.forget_all()
    monkeypatch.setattr(listing, "_listed", lambda folder: pytest.fail("loaded again"))
    assert listing.lines(games) == first


@pytest.mark.slow
def test_an_edit_with_the_same_size_and_time_is_seen(games, fresh_cache):
    listing.lines(games)
    file = games / "moving-target.yaml"
    before = os.stat(file)
    text = file.read_text(encoding="utf-8")
    edited = text.replace("title: Moving Target", "title: Moving Targex", 1)
    assert edited != text and len(edited) == len(text)
    file.write_text(edited, encoding="utf-8")
    os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns))
    memo.forget_all()
    assert any(line.startswith("moving-target: Moving Targex") for line in listing.lines(games))


@pytest.mark.slow
def test_a_game_added_is_listed(games, fresh_cache):
    listing.lines(games)
    text = (games / "moving-target.yaml").read_text(encoding="utf-8")
    assert "id: moving-target\n" in text
    (games / "moving-target-copy.yaml").write_text(
        text.replace("id: moving-target\n", "id: moving-target-copy\n", 1), encoding="utf-8")
    memo.forget_all()
    assert any(line.startswith("moving-target-copy:") for line in listing.lines(games))


def test_no_cache_loads_every_time(games, monkeypatch):
    monkeypatch.setenv("PNP_CACHE", "0")
    assert not cache.enabled()
    assert listing.lines(games) == listing.lines(games)


@pytest.mark.slow
def test_an_edit_to_an_included_file_is_a_miss(games, fresh_cache, monkeypatch):
    listing.lines(games)
    shared = games / "decktet.yaml"  # the deck moving-day and monster-day include
    shared.write_text(shared.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    memo.forget_all()
    loads = []
    real = listing._listed
    monkeypatch.setattr(listing, "_listed", lambda folder: loads.append(folder) or real(folder))
    listing.lines(games)
    assert loads == [games]
