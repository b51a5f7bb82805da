"""Sight computed around the player equals sight computed over the whole floor."""

from __future__ import annotations

import numpy as np
import pytest
import tcod.constants
import tcod.map

from roguelike import formulas
from roguelike.floor import TRANSPARENT, Floor, Tile
from roguelike.mapgen import generate_floor
from roguelike.sight import field_of_view
from roguelike.world import floor_seed


def whole_floor_view(floor: Floor, x: int, y: int) -> np.ndarray:
    """The reference: shadowcasting over the entire map."""
    return tcod.map.compute_fov(
        TRANSPARENT[floor.tiles], (y, x), radius=formulas.FOV_RADIUS,
        light_walls=True, algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
    )


@pytest.mark.parametrize("seed", range(12))
def test_windowed_view_matches_the_whole_floor_view(seed: int) -> None:
    floor = generate_floor(floor_seed(seed, 2), 2, (10, 10), 30)
    if seed % 2:
        floor.tiles[floor.tiles == Tile.DOOR_CLOSED] = Tile.DOOR_OPEN
    ys, xs = np.nonzero(floor.tiles != Tile.WALL)
    for x, y in zip(xs.tolist(), ys.tolist()):
        assert np.array_equal(field_of_view(floor, x, y), whole_floor_view(floor, x, y)), (x, y)


def test_corners_of_the_map_are_handled() -> None:
    floor = generate_floor(floor_seed(3, 2), 2, (10, 10), 30)
    floor.tiles[:] = Tile.FLOOR
    for x, y in ((0, 0), (floor.width - 1, 0), (0, floor.height - 1), (floor.width - 1, floor.height - 1)):
        assert np.array_equal(field_of_view(floor, x, y), whole_floor_view(floor, x, y))
