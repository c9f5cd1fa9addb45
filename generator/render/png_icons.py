"""Rasterised icons, remembered: an icon drawn at one size, turn and pair of colours is
filled once and pasted wherever it is drawn again.

Why: a deck draws its suit's icon two or three times on every card, and an icon of many
segments takes most of a face's drawing time (its outline flattened, transformed, filled row
by row). Only such icons: one of fewer than ``TILE_FROM_POINTS`` outline points (every
built-in icon) fills faster than its tile is pasted, so it is drawn each time. The work
meter charges every use (generator/core/vector.py ``IconDef.work``), so no input is refused
or allowed by what is remembered here; this only spares the repeats.

A tile is keyed by everything its pixels depend on: the icon's content (``IconDef.digest``,
never its name: two projects' ``leaf`` differ), the box it is fitted in, its turn, its main and
accent colours, the canvas scale and supersampling, and where the icon's centre falls inside
a canvas pixel (the fraction), so a tile pasted at a whole-pixel offset covers the same pixels
that drawing it there covers. Tiles are kept up to ``MAX_TILE_BYTES`` in all (the least
recently used go first), a tile larger than ``MAX_ONE_TILE_BYTES`` is never kept, and the
table is registered with generator/core/memo.py, so ``pnp watch`` forgets it before each
rebuild.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from PIL import Image

from generator.core import memo

# An icon of fewer outline points is drawn each time: Pillow fills it faster than a tile is
# pasted (a moving-day PNG set: 25 % more CPU with every icon tiled, measured in a paired run).
TILE_FROM_POINTS = 2_000
MAX_TILE_BYTES = 64 << 20  # every tile kept, together (RGBA: 4 bytes a pixel)
MAX_ONE_TILE_BYTES = 16 << 20  # a larger tile is drawn each time, not kept


class TileCache:
    """A least-recently-used table of RGBA tiles bounded by their bytes."""

    def __init__(self, max_bytes: int = MAX_TILE_BYTES,
                 max_one: int = MAX_ONE_TILE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.max_one = max_one
        self._data: OrderedDict[Hashable, tuple[Image.Image, tuple[int, int]]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> tuple[Image.Image, tuple[int, int]] | None:
        """The tile and its offset from the icon's centre pixel, or None."""
        with self._lock:
            found = self._data.get(key)
            if found is None:
                self.misses += 1
                return None
            self.hits += 1
            self._data.move_to_end(key)
            return found

    def put(self, key: Hashable, tile: Image.Image, offset: tuple[int, int]) -> None:
        """Keep a tile (never read-modified by a caller: pasted only), if it is small
        enough, dropping the least recently used until the table fits again."""
        size = tile.width * tile.height * 4
        if size > self.max_one:
            return
        with self._lock:
            if key in self._data:
                return
            self._data[key] = (tile, offset)
            self._bytes += size
            while self._bytes > self.max_bytes and self._data:
                _, (old, _) = self._data.popitem(last=False)
                self._bytes -= old.width * old.height * 4

    @property
    def bytes(self) -> int:
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._bytes = 0
            self.hits = self.misses = 0


TILES = TileCache()  # a memo table (registered below), not build state: keys say everything
memo.register(TILES.clear, f"{__name__}.TILES")
