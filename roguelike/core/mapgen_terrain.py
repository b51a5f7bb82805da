"""Terrain laid over a carved floor: a noise heightmap's bands, features, and crossings.

A climate with a :class:`~roguelike.content.climates.Heightmap` turns the ground its
generator carved into terrains by height (value noise drawn from the floor's own ``Rng``
and worked out in integers, so a seed makes the same floor on every machine); its
:class:`~roguelike.content.climates.Feature` rows scatter blobs, more the deeper; the
arrival stays plain floor; and its :class:`~roguelike.content.climates.Crossing` joins
every piece of ground a barrier (deep water, ice) cut off from the arrival by the
shortest way across, so every floor can be walked whole.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from roguelike.content.climates import Climate, Crossing, Feature, Heightmap
from roguelike.core.floor import PASSABLE, Floor, Tile
from roguelike.core.mapgen_rooms import clear_around
from roguelike.core.pathing import distance_map
from roguelike.core.rng import Rng

Spot = tuple[int, int]
UNREACHED = np.iinfo(np.int32).max
TOP = 256  # heights run below this
# The eight steps, cardinal first: a crossing walked back takes a straight step over a diagonal among equals.
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))


def lay_terrain(rng: Rng, floor: Floor, climate: Climate) -> None:
    """The climate's heightmap, features and crossing over the carved floor (nothing for a climate without them)."""
    if climate.heightmap is None and not climate.features:
        return
    if climate.heightmap is not None:
        paint(floor, heights(rng, floor.tiles.shape, climate.heightmap), climate.heightmap)
    for feature in climate.features:
        for _ in range(feature.count(floor.depth)):
            scatter(rng, floor, feature)
    clear_around(floor, floor.arrival)
    if climate.crossing is not None:
        join(floor, climate.crossing)


def heights(rng: Rng, shape: tuple[int, ...], heightmap: Heightmap) -> NDArray[np.int64]:
    """Value noise, 0..255 a tile: random heights on a lattice, smoothly blended, octave over octave."""
    total, weights = np.zeros(shape, dtype=np.int64), 0
    for octave in range(heightmap.octaves):
        weight = 1 << (heightmap.octaves - 1 - octave)  # the coarsest octave weighs most
        total += octave_heights(rng, shape, max(1, heightmap.cell >> octave)) * weight
        weights += weight
    result: NDArray[np.int64] = total // weights
    return result


def octave_heights(rng: Rng, shape: tuple[int, ...], cell: int) -> NDArray[np.int64]:
    """One octave: a lattice ``cell`` tiles apart, each corner a byte of the game's RNG, blended by smoothstep."""
    height, width = shape
    rows, columns = height // cell + 2, width // cell + 2
    lattice = (rng.many64(rows * columns) >> np.uint64(56)).astype(np.int64).reshape(rows, columns)
    scale = cell**3  # smoothstep t*t*(3c - 2t) of an offset t in 0..c, in whole numbers
    ys, xs = np.arange(height), np.arange(width)
    sy, sx = _smooth(ys % cell, cell)[:, None], _smooth(xs % cell, cell)[None, :]
    top_row, bottom_row = lattice[ys // cell], lattice[ys // cell + 1]
    left, right = xs // cell, xs // cell + 1
    top = top_row[:, left] * (scale - sx) + top_row[:, right] * sx
    bottom = bottom_row[:, left] * (scale - sx) + bottom_row[:, right] * sx
    blended = top * (scale - sy) + bottom * sy
    return np.floor_divide(blended, scale * scale).astype(np.int64)


def _smooth(offset: NDArray[np.int64], cell: int) -> NDArray[np.int64]:
    """Smoothstep of offsets within a cell, scaled to ``cell ** 3``."""
    result: NDArray[np.int64] = offset * offset * (3 * cell - 2 * offset)
    return result


def paint(floor: Floor, height: NDArray[np.int64], heightmap: Heightmap) -> None:
    """Each plain floor tile becomes the terrain of the first band its height is below."""
    ground = floor.tiles == Tile.FLOOR
    terrain = np.full(floor.tiles.shape, Tile.FLOOR, dtype=np.uint8)
    for threshold, tile in reversed(heightmap.bands):
        terrain[height < threshold] = tile
    floor.tiles[ground] = terrain[ground]


def scatter(rng: Rng, floor: Floor, feature: Feature) -> None:
    """One blob of the feature's terrain around a random open tile (inside the border, over open tiles only)."""
    ys, xs = np.nonzero(PASSABLE[floor.tiles])
    if not len(xs):
        return
    index = rng.below(len(xs))
    cx, cy, r = int(xs[index]), int(ys[index]), feature.radius
    top, left = max(1, cy - r), max(1, cx - r)
    bottom, right = min(floor.height - 1, cy + r + 1), min(floor.width - 1, cx + r + 1)
    yy, xx = np.mgrid[top:bottom, left:right]
    inside = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r + r  # a round blob, not a square
    block = floor.tiles[top:bottom, left:right]
    block[inside & PASSABLE[block]] = feature.tile


def join(floor: Floor, crossing: Crossing) -> None:
    """Until every piece of ground is joined to the arrival without the barrier, cross to the nearest one."""
    while True:
        tiles = floor.tiles
        ground = PASSABLE[tiles] & (tiles != crossing.barrier)
        reached = distance_map(ground.astype(np.int32), [floor.arrival]) != UNREACHED
        cut_off = ground & ~reached
        if not cut_off.any():
            return
        across = distance_map((ground | (tiles == crossing.barrier)).astype(np.int32), reached)
        ys, xs = np.nonzero(cut_off & (across != UNREACHED))
        if not len(xs):
            return  # walled off, not cut off by the barrier: filled in with the unreachable
        nearest = int(np.argmin(across[ys, xs]))  # the first of equals, row by row
        cross(floor, across, (int(xs[nearest]), int(ys[nearest])), crossing)


def cross(floor: Floor, across: NDArray[np.int32], start: Spot, crossing: Crossing) -> None:
    """Walk down the distances from ``start`` to the joined ground, the barrier on the way becoming the crossing."""
    x, y = start
    while across[y, x] > 0:
        x, y = min(
            ((x + dx, y + dy) for dx, dy in STEPS if floor.in_bounds(x + dx, y + dy)),
            key=lambda spot: int(across[spot[1], spot[0]]),
        )
        if floor.tiles[y, x] == crossing.barrier:
            floor.tiles[y, x] = crossing.joins
