"""A floor of the dungeon: its tiles, what the player remembers, and its sleeping things.

The player remembers two things of a floor: the tiles they have explored (drawn dim when
out of sight), and where a Perfect High showed them doses (``revealed``): a dose lying on
either is known, to the map, look, the readouts, automation and the Desperate craving alike.

Arrays are indexed ``[y, x]`` everywhere in the project, like tcod consoles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from roguelike.content import formulas, terrain
from roguelike.content.terrain import Terrain
from roguelike.core.plain import FloorKind, PlainFloor
from roguelike.core.plain import PackedEntity as PackedEntity
from roguelike.core.tiles import Tile as Tile


def _flags(figure: Callable[[Terrain], bool]) -> NDArray[np.bool_]:
    """A yes or no of every terrain row, indexed by tile value (read-only)."""
    array = np.array([figure(row) for row in terrain.by_value()], dtype=bool)
    array.flags.writeable = False
    return array


# The terrain table's lookups, indexed by tile value (``WALKABLE[floor.tiles]``): can a
# creature stand there / can light pass / can a creature get there, once a door is opened?
WALKABLE = _flags(lambda row: row.walkable)
SEE_THROUGH = _flags(lambda row: row.see_through)
PASSABLE = _flags(terrain.passable)
GROUND = _flags(lambda row: row.ground)  # plain ground, where things are placed
# What entering each kind of tile costs the path-finding (0: nothing gets in).
TRAVEL_COST = np.array([terrain.travel_cost(row) for row in terrain.by_value()], dtype=np.int32)
TRAVEL_COST.flags.writeable = False


@dataclass
class Floor:
    """One generated floor: tiles, memory of what was seen, and dormant entities."""

    depth: int
    tiles: NDArray[np.uint8]
    explored: NDArray[np.bool_]
    revealed: NDArray[np.bool_]  # where a Perfect High showed a dose (the tiles themselves stay unexplored)
    down_stairs: tuple[int, int]
    up_stairs: tuple[int, int] | None
    arrival: tuple[int, int]
    kind: FloorKind = "rooms"  # its climate (see roguelike.content.climates.CLIMATES)
    dormant: list[PackedEntity] = field(default_factory=list)
    # The snapshot encoding of this floor and its SHA-256 while the player is elsewhere (see snapshot.py).
    encoded: tuple[bytes, bytes] | None = field(default=None, compare=False, repr=False)
    # While the player is here: the floor as plain values last encoded, its encoding and digest.
    encoded_here: tuple[PlainFloor, bytes, bytes] | None = field(default=None, compare=False, repr=False)
    # Where light passes, with the tiles it was worked out from: sight is cast once or twice
    # an action but the tiles seldom change (a door opens, a floor is made).
    _light: tuple[bytes, NDArray[np.bool_]] | None = field(default=None, init=False, compare=False, repr=False)

    @property
    def width(self) -> int:
        """Width in tiles."""
        return int(self.tiles.shape[1])

    @property
    def height(self) -> int:
        """Height in tiles."""
        return int(self.tiles.shape[0])

    def walkable(self) -> NDArray[np.bool_]:
        """Where a creature can stand (closed doors excluded)."""
        result: NDArray[np.bool_] = WALKABLE[self.tiles]
        return result

    def transparent(self) -> NDArray[np.bool_]:
        """Where light passes (closed doors and walls block it): read-only, and kept until a tile changes."""
        # Comparing the tiles' bytes is a tenth of the cost of looking every tile up again.
        tiles = self.tiles.tobytes()
        if self._light is None or self._light[0] != tiles:
            light: NDArray[np.bool_] = SEE_THROUGH.take(self.tiles)
            light.flags.writeable = False
            self._light = (tiles, light)
        return self._light[1]

    def in_bounds(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` lies on the map."""
        return 0 <= x < self.width and 0 <= y < self.height

    def tile(self, x: int, y: int) -> Tile:
        """The tile at ``(x, y)``; off the map counts as wall."""
        if not self.in_bounds(x, y):
            return Tile.WALL
        return Tile(int(self.tiles[y, x]))

    def dose_known(self) -> NDArray[np.bool_]:
        """Where a dose lying there is known to the player: explored tiles, and where a Perfect High showed one."""
        known: NDArray[np.bool_] = self.explored | self.revealed
        return known

    def explored_fraction(self) -> float:
        """Share of the walkable-or-door tiles the player has seen."""
        open_tiles = PASSABLE[self.tiles]
        total = int(open_tiles.sum())
        return float((self.explored & open_tiles).sum()) / total if total else 0.0


def blank_floor(depth: int) -> Floor:
    """An all-wall floor of the standard size (the generator carves into it)."""
    shape = (formulas.MAP_HEIGHT, formulas.MAP_WIDTH)
    return Floor(
        depth=depth,
        tiles=np.zeros(shape, dtype=np.uint8),
        explored=np.zeros(shape, dtype=bool),
        revealed=np.zeros(shape, dtype=bool),
        down_stairs=(0, 0),
        up_stairs=None,
        arrival=(0, 0),
    )
