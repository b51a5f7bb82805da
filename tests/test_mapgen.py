"""Floor generation properties, checked over hundreds of seeds."""

from __future__ import annotations

import numpy as np
import pytest

from components import Dose, Position
from roguelike.content import formulas
from roguelike.core.floor import Floor, Tile
from roguelike.core.mapgen import generate_floor
from roguelike.core.packing import unpack_entity
from roguelike.core.sight import field_of_view
from roguelike.core.world import floor_seed

SEEDS = range(300)


def doses_of(floor: Floor) -> list[tuple[int, int]]:
    """Positions of the doses packed into a fresh floor."""
    spots: list[tuple[int, int]] = []
    for packed in floor.dormant:
        parts = unpack_entity(packed)
        if any(isinstance(part, Dose) for part in parts):
            spots.extend((part.x, part.y) for part in parts if isinstance(part, Position))
    return spots


@pytest.mark.parametrize("seed", SEEDS)
def test_start_room_holds_one_dose_in_sight(seed: int) -> None:
    floor = generate_floor(floor_seed(seed, 1), 1, None)
    x, y = floor.arrival
    visible = field_of_view(floor, x, y)
    in_sight = [spot for spot in doses_of(floor) if visible[spot[1], spot[0]]]
    assert len(in_sight) == 1
    start = formulas.sight_radius(formulas.STATE_OF_MIND_START, formulas.ATTRIBUTE_START)
    assert field_of_view(floor, x, y, start)[in_sight[0][1], in_sight[0][0]], "seen at the start's narrow sight"
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
