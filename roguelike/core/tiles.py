"""The kinds of map tile, as floors store them (one byte each) and saves check them.

The kinds and what each one is live in the terrain table (:mod:`roguelike.content.terrain`);
this module names their values for the code that compares tiles with an exact kind.
"""

from __future__ import annotations

from roguelike.content.terrain import TERRAIN
from roguelike.content.terrain import Tile as Tile

# The same values as plain ints, for comparing with tile arrays: numpy looks an IntEnum's
# class over for array hooks on every comparison, which costs more than the comparison.
WALL, FLOOR, DOOR_CLOSED = int(Tile.WALL), int(Tile.FLOOR), int(Tile.DOOR_CLOSED)
STAIRS_DOWN, STAIRS_UP = int(Tile.STAIRS_DOWN), int(Tile.STAIRS_UP)
# Plain ground (sand and snow as well as floor): where stairs, doses, finds and monsters are placed.
GROUND_TILES = frozenset(int(row.tile) for row in TERRAIN.values() if row.ground)
