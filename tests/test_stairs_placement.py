"""Stairs worth weighing: the way down is not always across the floor, and never at the door."""

from __future__ import annotations

import numpy as np

from roguelike.content import formulas
from roguelike.core.floor import Tile
from roguelike.core.mapgen import generate_floor
from roguelike.core.pathing import distance_map, travel_cost
from roguelike.core.world import floor_seed

SEEDS = range(200)
UNREACHED = np.iinfo(np.int32).max


def walks(seed: int, depth: int) -> tuple[int, int]:
    """Steps on foot from the arrival to the stairs down, and to the farthest open tile."""
    up = (20, 10) if depth > 1 else None
    floor = generate_floor(floor_seed(seed, depth), depth, up)
    assert floor.tile(*floor.down_stairs) == Tile.STAIRS_DOWN
    distance = distance_map(travel_cost(floor), [floor.arrival])
    reached = distance[distance != UNREACHED]
    return int(distance[floor.down_stairs[1], floor.down_stairs[0]]), int(reached.max())


def test_the_stairs_are_far_enough_to_need_looking_for() -> None:
    for depth in (1, 2, 5):
        for seed in SEEDS:
            to_stairs, farthest = walks(seed, depth)
            assert to_stairs >= min(formulas.STAIRS_MIN_WALK, farthest)


def test_the_stairs_are_sometimes_near_and_sometimes_across_the_floor() -> None:
    shares = [to_stairs / farthest for to_stairs, farthest in (walks(seed, 3) for seed in SEEDS)]
    near = sum(share < 0.6 for share in shares)
    across = sum(share > 0.85 for share in shares)
    assert near > len(SEEDS) // 5  # leaving early is a real option in a good share of floors
    assert across > len(SEEDS) // 10  # and sometimes the way down is still the far side
