"""Floor generation properties, checked over hundreds of seeds."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import reachable
from roguelike.core.floor import WALKABLE, Floor, Tile
from roguelike.core.mapgen import generate_floor
from roguelike.core.packing import unpack_entity
from components import Dose, Position
from roguelike.core.world import floor_seed
from roguelike.core.sight import field_of_view

SEEDS = range(300)


def passable(floor: Floor) -> np.ndarray:
    """Where one can walk once doors are opened."""
    return WALKABLE[floor.tiles] | (floor.tiles == Tile.DOOR_CLOSED)


def chain(seed: int, depth: int) -> list[Floor]:
    """Floors 1..depth of a game, each generated from the one above."""
    floors: list[Floor] = []
    for d in range(1, depth + 1):
        up = floors[-1].down_stairs if floors else None
        floors.append(generate_floor(floor_seed(seed, d), d, up))
    return floors


def doses_of(floor: Floor) -> list[tuple[int, int]]:
    """Positions of the doses packed into a fresh floor."""
    spots = []
    for packed in floor.dormant:
        parts = {type(c): c for c in unpack_entity(packed)}
        if Dose in parts:
            spots.append((parts[Position].x, parts[Position].y))
    return spots


@pytest.mark.parametrize("seed", SEEDS)
def test_every_floor_is_connected_and_stairs_line_up(seed: int) -> None:
    floors = chain(seed, 3)
    for depth, floor in enumerate(floors, start=1):
        assert (floor.tiles == Tile.STAIRS_DOWN).sum() == 1
        region = reachable(passable(floor), floor.arrival)
        assert region[floor.down_stairs[1], floor.down_stairs[0]], "down stairs unreachable"
        assert all(region[y, x] for x, y in doses_of(floor))
        if depth == 1:
            assert floor.up_stairs is None and not (floor.tiles == Tile.STAIRS_UP).any()
        else:
            assert floor.up_stairs == floors[depth - 2].down_stairs
            assert floor.tile(*floor.up_stairs) == Tile.STAIRS_UP


@pytest.mark.parametrize("seed", SEEDS)
def test_start_room_holds_one_dose_in_sight(seed: int) -> None:
    floor = generate_floor(floor_seed(seed, 1), 1, None)
    x, y = floor.arrival
    visible = field_of_view(floor, x, y)
    in_sight = [spot for spot in doses_of(floor) if visible[spot[1], spot[0]]]
    assert len(in_sight) == 1
    assert floor.tile(x, y) == Tile.FLOOR


def test_generation_is_fixed_by_the_seed() -> None:
    a, b = generate_floor(123, 2, (10, 10)), generate_floor(123, 2, (10, 10))
    assert np.array_equal(a.tiles, b.tiles) and a.dormant == b.dormant
    c = generate_floor(124, 2, (10, 10))
    assert not np.array_equal(a.tiles, c.tiles)


def test_doors_sit_in_one_tile_gaps_of_room_walls() -> None:
    for seed in range(50):
        floor = generate_floor(floor_seed(seed, 1), 1, None)
        for y, x in zip(*np.nonzero(floor.tiles == Tile.DOOR_CLOSED)):
            horizontal = floor.tile(x - 1, y) == Tile.WALL and floor.tile(x + 1, y) == Tile.WALL
            vertical = floor.tile(x, y - 1) == Tile.WALL and floor.tile(x, y + 1) == Tile.WALL
            assert horizontal or vertical
