"""``pnp list``: one line per project and per built-in game, remembered by the content of
what it read.

Listing means loading every game (YAML, pydantic validation, expanded generators): most of a
second of imports and work for five lines of text. The lines are kept in the on-disk cache
(generator/core/cache.py) with the content version (generator/core/context.py) of every file
and folder listing the loads looked at, found or absent; a later ``pnp list`` hashes those
files again and prints the kept lines only when every version still matches, without
importing the data layer. The entry's key is the card_data folder, its listing and the code
that computes the lines (this module and everything it imports), so an edit to any game file,
to a file it includes, to the folder or to the loader is a miss.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core import cache, context, paths

if TYPE_CHECKING:
    from generator.core.model import Game

KIND = "game-list"
MAX_FILES = 2_000  # recorded versions an entry may hold (a listing reading more is not kept)


def lines(card_data: Path | None = None) -> list[str]:
    """``id: title, players: component (count), ...`` for every game of ``card_data`` (the
    built-in games by default)."""
    games = card_data or paths.CARD_DATA
    return _kept([str(games)], lambda: _listed(games))


def project_line(folder: Path) -> str:
    """``DIR/ (id): title, players: component (count), ...`` for the project at ``folder``
    (as named: the line shows what to type), kept as the built-in games' lines are."""
    def listed() -> tuple[list[str], dict[str, str | None]]:
        from generator.data import load_game

        with context.building(), context.recording() as read:
            found = [_line(load_game(str(folder)), f"{folder}/ (", ")")]
        return found, dict(read)

    return _kept(["project", str(folder), str(folder.resolve())], listed)[0]


def _kept(key_parts: list[str],
          compute: Callable[[], tuple[list[str], dict[str, str | None]]]) -> list[str]:
    """The lines ``compute`` makes, kept in the on-disk cache with every version it read."""
    folder = cache.cache_dir() if cache.enabled() else None
    if folder is None:
        return compute()[0]
    try:
        key = cache.entry_key(KIND, key_parts, __name__)
    except cache.Uncacheable:
        return compute()[0]
    hit, value = cache.lookup(folder, KIND, key, _still_true)
    if hit:
        return list(value["lines"])
    listed, read = compute()
    if len(read) <= MAX_FILES:
        cache.store(folder, KIND, key, {"lines": listed, "read": read})
    return listed


def _line(game: Game, before: str = "", after: str = "") -> str:
    parts = ", ".join(f"{c.name} ({c.total})" for c in game.components)
    return (f"{before}{game.id}{after}: {game.title}, {game.players[0]}-{game.players[1]} "
            f"players: {parts}")


def _listed(games: Path) -> tuple[list[str], dict[str, str | None]]:
    """The lines, loaded now, and every version the loads asked for."""
    from generator.data import check_games, load_game

    with context.building(), context.recording() as read:
        context.listing_version(games)  # a game added or removed is a miss
        found = [_line(load_game(game_id, games))
                 for game_id in check_games([], card_data=games)]
    return found, dict(read)


def _still_true(value: Any) -> bool:
    """A kept listing whose every recorded file (or folder listing) has the same content."""
    if not (isinstance(value, dict) and isinstance(value.get("lines"), list)
            and isinstance(value.get("read"), dict) and len(value["read"]) <= MAX_FILES):
        return False
    with context.building():
        return all(context.version_of(path) == version
                   for path, version in value["read"].items())
