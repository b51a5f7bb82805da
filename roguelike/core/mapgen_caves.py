"""Cave floors grown by a cellular automaton, then cut down to one connected cave.

Rock is scattered at random and smoothed a few times (a tile becomes rock among enough
rock, and rock stays rock among a little less),
and everything not joined to the largest cave is filled in. The arrival point gets a
small clearing and a tunnel to the cave, so the stairs from the floor above always land
in it. Caves have no doors: there are no walls thin enough to hang one in.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from roguelike.content import formulas
from roguelike.content.climates import Caves
from roguelike.core.floor import Floor, Tile
from roguelike.core.mapgen_rooms import carve_l, clear_around
from roguelike.core.pathing import distance_map
from roguelike.core.rng import Rng

Spot = tuple[int, int]
UNREACHED = np.iinfo(np.int32).max


def carve_caves(rng: Rng, floor: Floor, anchor: Spot | None, layout: Caves) -> list[list[Spot]]:
    """A cave; returns its tiles cut into areas, the one around the arrival first."""
    for _ in range(layout.tries):
        floor.tiles[:] = Tile.WALL
        floor.tiles[1:-1, 1:-1] = np.where(_grown_rock(rng, floor, layout), Tile.WALL, Tile.FLOOR)
        cave = largest_region(floor.tiles == Tile.FLOOR)
        if int(cave.sum()) >= layout.min_open:
            break
    floor.tiles[~cave] = Tile.WALL
    arrival = anchor if anchor is not None else _random_open(rng, cave)
    clear_around(floor, arrival)
    _wind(rng, floor, arrival, _nearest(cave, arrival), layout)
    return cave_areas(floor, arrival, layout.area)


def _wind(rng: Rng, floor: Floor, start: Spot, end: Spot, layout: Caves) -> None:
    """A winding tunnel from ``start`` toward ``end`` (straight if it wanders too long)."""
    x, y = start
    for _ in range(layout.tunnel_steps):
        if (x, y) == end:
            return
        dx, dy = end[0] - x, end[1] - y
        if rng.chance(*layout.tunnel_stray):
            step = rng.choice(((1, 0), (-1, 0), (0, 1), (0, -1)))
        elif abs(dx) >= abs(dy):
            step = ((dx > 0) - (dx < 0), 0)
        else:
            step = (0, (dy > 0) - (dy < 0))
        x = formulas.clamp(x + step[0], 1, floor.width - 2)
        y = formulas.clamp(y + step[1], 1, floor.height - 2)
        floor.tiles[y, x] = Tile.FLOOR
    carve_l(rng, floor, (x, y), end)


def _grown_rock(rng: Rng, floor: Floor, layout: Caves) -> NDArray[np.bool_]:
    """Random rock smoothed by the automaton, for the tiles inside the map border."""
    height, width = floor.height - 2, floor.width - 2
    # One byte of the game's RNG a tile, eight tiles a draw: the chance to a 256th.
    noise = np.frombuffer(rng.many64((height * width + 7) // 8).astype("<u8").tobytes(), dtype=np.uint8)
    threshold = layout.fill[0] * 256 // layout.fill[1]
    rock = (noise[: height * width] < threshold).reshape(height, width)
    for _ in range(layout.steps):
        near = rock_neighbours(rock)
        rock = (near >= layout.rock_from) | (rock & (near >= layout.rock_stays))
    return rock


def rock_neighbours(rock: NDArray[np.bool_]) -> NDArray[np.uint8]:
    """How many of each tile's eight neighbours are rock (beyond the edge counts as rock)."""
    height, width = rock.shape
    padded = np.ones((height + 2, width + 2), dtype=np.uint8)
    padded[1:-1, 1:-1] = rock
    # The 3x3 square summed a row of three at a time, then three such rows, less the middle.
    rows = padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]
    total: NDArray[np.uint8] = rows[:-2] + rows[1:-1] + rows[2:] - padded[1:-1, 1:-1]
    return total


def largest_region(open_ground: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The largest set of open tiles joined by king's moves."""
    cost = open_ground.astype(np.int32)
    left = open_ground.copy()
    best, best_size = np.zeros(open_ground.shape, dtype=bool), 0
    # Once the tiles left number no more than the largest so far, no region among them can
    # be larger (and an equal one never replaces it), so they are not walked.
    while np.count_nonzero(left) > best_size:
        ys, xs = np.nonzero(left)
        region = distance_map(cost, [(int(xs[0]), int(ys[0]))]) != UNREACHED
        left &= ~region
        size = int(np.count_nonzero(region))
        if size > best_size:
            best, best_size = region, size
    return best


def _random_open(rng: Rng, cave: NDArray[np.bool_]) -> Spot:
    """A random tile of the cave."""
    ys, xs = np.nonzero(cave)
    index = rng.below(len(xs))
    return int(xs[index]), int(ys[index])


def _nearest(cave: NDArray[np.bool_], at: Spot) -> Spot:
    """The cave tile nearest to a point (the first of equals, row by row)."""
    ys, xs = np.nonzero(cave)
    index = int(np.argmin((xs - at[0]) ** 2 + (ys - at[1]) ** 2))
    return int(xs[index]), int(ys[index])


def cave_areas(floor: Floor, arrival: Spot, size: int) -> list[list[Spot]]:
    """Open tiles in square areas ``size`` tiles across; the first holds every tile near the arrival point."""
    ys, xs = np.nonzero(floor.tiles == Tile.FLOOR)  # row by row, as every area lists its tiles
    near = np.maximum(abs(xs - arrival[0]), abs(ys - arrival[1])) <= size // 2
    far = np.flatnonzero(~near)
    # The other tiles by square, squares ordered by column then row, each still row by row.
    far = far[np.lexsort((far, ys[far] // size, xs[far] // size))]
    cell = (xs[far] // size) * floor.height + ys[far] // size
    cells = np.split(far, np.flatnonzero(np.diff(cell)) + 1) if len(far) else []
    return [_spots(xs, ys, np.flatnonzero(near))] + [_spots(xs, ys, tiles) for tiles in cells]


def _spots(xs: NDArray[np.intp], ys: NDArray[np.intp], which: NDArray[np.intp]) -> list[Spot]:
    """The tiles ``which`` of the coordinates ``xs`` and ``ys``, as ``(x, y)`` pairs."""
    return list(zip(xs[which].tolist(), ys[which].tolist()))
