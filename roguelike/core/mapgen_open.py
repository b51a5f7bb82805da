"""Open floors: one expanse inside the map's border, for the climate's terrain to shape.

Desert and islands are carved this way: the generator opens everything but a rim of rock,
and the climate's heightmap (``roguelike.core.mapgen_terrain``) lays sand and dunes, or
deep water with islands in it, over the expanse.
"""

from __future__ import annotations

import numpy as np

from roguelike.content.climates import Open
from roguelike.core.floor import Floor, Tile
from roguelike.core.mapgen_caves import cave_areas
from roguelike.core.rng import Rng

Spot = tuple[int, int]


def carve_open(rng: Rng, floor: Floor, anchor: Spot | None, layout: Open) -> list[list[Spot]]:
    """An open expanse; returns its tiles cut into areas, the one around the arrival first."""
    rim = 1 + layout.margin
    floor.tiles[rim:-rim, rim:-rim] = Tile.FLOOR
    if anchor is not None:
        floor.tiles[anchor[1], anchor[0]] = Tile.FLOOR  # the stairs from above land in the rim too
    arrival = anchor if anchor is not None else _random_open(rng, floor)
    return cave_areas(floor, arrival, layout.area)


def _random_open(rng: Rng, floor: Floor) -> Spot:
    """A random open tile."""
    ys, xs = np.nonzero(floor.tiles == Tile.FLOOR)
    index = rng.below(len(xs))
    return int(xs[index]), int(ys[index])
