"""The hunters' shared path maps: a tile's ways down, kept with the map, give the step a descent takes."""

from __future__ import annotations

import numpy as np

from roguelike.core.floor import Tile
from roguelike.core.hunt import UNREACHABLE, Hunt, chase_layout, chase_map
from roguelike.core.mapgen import generate_floor
from roguelike.core.rng import Rng


def test_a_hunters_step_is_the_lowest_free_neighbour_first_in_order_whoever_blocks() -> None:
    # Chase.best is found once per tile and shared between turns, while who blocks which
    # tile changes every step: the step must still be the one a plain descent takes.
    rng = Rng(11)
    for seed in (1, 2, 3):
        floor = generate_floor(seed, 1, None, 50)
        open_tiles = [(int(x), int(y)) for y, x in zip(*np.nonzero(floor.tiles == Tile.FLOOR))]
        player = open_tiles[rng.below(len(open_tiles))]
        for _ in range(4):
            blocked = {open_tiles[rng.below(len(open_tiles))]: 99 for _ in range(len(open_tiles) // 4)}
            blocked.pop(player, None)
            hunt = Hunt(floor, rng, player, blocked)
            dist = hunt.chase().dist
            for x, y in open_tiles:
                here = dist[y * hunt.width + x]
                if here != UNREACHABLE:
                    assert hunt.chase_step(x, y) == hunt.descend(dist, x, y, here)


def test_the_ways_down_are_every_nearer_neighbour_nearest_first() -> None:
    floor = generate_floor(5, 1, None, 50)
    chase = chase_map(chase_layout(floor.tiles.tobytes()), floor.width, floor.arrival)
    for y, x in zip(*np.nonzero(floor.tiles == Tile.FLOOR)):
        index = int(y) * floor.width + int(x)
        if chase.dist[index] in (0, UNREACHABLE):
            continue
        ways = chase.find_ways(index)
        lower = [step for step, offset in chase.moves if chase.dist[index + offset] < chase.dist[index]]
        distances = [chase.dist[index + dy * floor.width + dx] for dx, dy in ways]
        assert sorted(ways) == sorted(lower) and ways
        assert distances == sorted(distances)
        assert distances[0] == min(chase.dist[index + offset] for _, offset in chase.moves)
