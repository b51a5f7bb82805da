"""The kinds of map tile, as floors store them (one byte each) and saves check them."""

from __future__ import annotations

from enum import IntEnum


class Tile(IntEnum):
    """Kinds of map tile, stored as bytes in :attr:`Floor.tiles`."""

    WALL = 0
    FLOOR = 1
    DOOR_CLOSED = 2
    DOOR_OPEN = 3
    STAIRS_DOWN = 4
    STAIRS_UP = 5


# The same values as plain ints, for comparing with tile arrays: numpy looks an IntEnum's
# class over for array hooks on every comparison, which costs more than the comparison.
WALL, FLOOR, DOOR_CLOSED = int(Tile.WALL), int(Tile.FLOOR), int(Tile.DOOR_CLOSED)
STAIRS_DOWN, STAIRS_UP = int(Tile.STAIRS_DOWN), int(Tile.STAIRS_UP)
