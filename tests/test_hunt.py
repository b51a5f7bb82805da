"""The hunters' shared path maps: each tile's ranked ways down give the step the map gives."""

from __future__ import annotations

import numpy as np

from roguelike.core.floor import Tile
from roguelike.core.hunt import UNREACHABLE, Hunt, chase_map
from roguelike.core.mapgen import generate_floor
from roguelike.core.rng import Rng


def test_the_first_free_way_down_is_the_lowest_free_neighbour_first_in_order() -> None:
    # Chase.ways ranks a tile's ways once and is shared between turns; whoever blocks
    # which tile, its first free way must be the step a plain descent of the map takes.
    rng = Rng(11)
    for seed in (1, 2, 3):
        floor = generate_floor(seed, 1, None, 50)
        open_tiles = [(int(x), int(y)) for y, x in zip(*np.nonzero(floor.tiles == Tile.FLOOR))]
        player = open_tiles[rng.below(len(open_tiles))]
        for _ in range(4):
            blocked = {open_tiles[rng.below(len(open_tiles))]: 99 for _ in range(len(open_tiles) // 4)}
            blocked.pop(player, None)
            hunt = Hunt(floor, rng, player, blocked)
            chase = chase_map(floor.tiles.tobytes(), hunt.width, player)
            for x, y in open_tiles:
                index = y * hunt.width + x
                here = chase.dist[index]
                ways = chase.ways(index)
                assert (ways is None) == (here == UNREACHABLE)
                if ways is not None:
                    assert hunt.first_free(ways, x, y) == hunt.descend(chase.dist, x, y, here)


def test_ways_down_lead_only_nearer_nearest_first() -> None:
    floor = generate_floor(5, 1, None, 50)
    player = floor.arrival
    chase = chase_map(floor.tiles.tobytes(), floor.width, player)
    x, y = player[0] + 2, player[1]
    while chase.dist[y * floor.width + x] == UNREACHABLE:
        x += 1
    index = y * floor.width + x
    distances = [chase.dist[index + dy * floor.width + dx] for dx, dy in chase.ways(index) or ()]
    assert distances and distances == sorted(distances)
    assert all(d < chase.dist[index] for d in distances)
