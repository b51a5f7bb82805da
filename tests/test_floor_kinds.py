"""Kinds of floor: every kind, over thousands of seeds, is connected and keeps the stairs rules."""

from __future__ import annotations

import typing
from collections import Counter

import numpy as np
import pytest

from floor_samples import CHUNK, GAMES, UNREACHED, sampled_climates, sampled_games
from roguelike.content.climates import CLIMATES, climates_at
from roguelike.core.floor import PASSABLE, Floor, Tile
from roguelike.core.mapgen import generate_floor
from roguelike.core.pathing import distance_map, travel_cost
from roguelike.core.plain import FloorKind
from roguelike.core.world import floor_seed


def check_floor(floor: Floor, above: Floor | None) -> None:
    """Connected (doors open; deep water is no ground), one way down, the way up under the way down from above."""
    reach = distance_map(travel_cost(floor), [floor.arrival]) != UNREACHED
    assert (reach == PASSABLE[floor.tiles]).all(), "an open tile cannot be reached"
    assert (floor.tiles == Tile.STAIRS_DOWN).sum() == 1
    assert floor.tile(*floor.down_stairs) == Tile.STAIRS_DOWN
    assert (floor.tiles[[0, -1], :] == Tile.WALL).all() and (floor.tiles[:, [0, -1]] == Tile.WALL).all()
    if above is None:
        assert floor.up_stairs is None and not (floor.tiles == Tile.STAIRS_UP).any()
    else:
        assert floor.up_stairs == above.down_stairs == floor.arrival
        assert floor.tile(*floor.up_stairs) == Tile.STAIRS_UP


@pytest.mark.together("floor samples")
@pytest.mark.parametrize("first", range(0, GAMES, CHUNK), ids=lambda first: f"games{first}to{first + CHUNK - 1}")
def test_thousands_of_games_have_connected_floors_of_every_kind(first: int) -> None:
    kinds: Counter[str] = Counter()
    for floors in sampled_games(first, "kinds"):
        for index, floor in enumerate(floors):
            check_floor(floor, floors[index - 1] if index else None)
            kinds[floor.kind] += 1
    assert set(kinds) == sampled_climates(), kinds
    assert min(kinds.values()) >= CHUNK // 10, kinds  # the rarest: a weight of 1 in 11, on two floors of four


def test_a_save_may_name_exactly_the_kinds_of_floor_the_game_generates() -> None:
    assert set(typing.get_args(FloorKind)) == set(CLIMATES)


def test_floor_one_is_rooms_and_deeper_floors_vary_with_the_seed() -> None:
    assert {generate_floor(floor_seed(seed, 1), 1, None).kind for seed in range(50)} == {"rooms"}
    deeper = {generate_floor(floor_seed(seed, 5), 5, (40, 10)).kind for seed in range(50)}
    assert deeper == {climate.key for climate in climates_at(5)}


def test_caves_have_no_doors_and_rooms_and_halls_have_them_in_their_walls() -> None:
    doors: Counter[str] = Counter()
    for seed in range(200):
        floor = generate_floor(floor_seed(seed, 4), 4, (40, 10))
        for y, x in zip(*np.nonzero(floor.tiles == Tile.DOOR_CLOSED), strict=True):
            doors[floor.kind] += 1
            across = floor.tile(x - 1, y) == floor.tile(x + 1, y) == Tile.WALL
            down = floor.tile(x, y - 1) == floor.tile(x, y + 1) == Tile.WALL
            assert across or down, (seed, x, y)
    assert doors["caves"] == 0 and doors["rooms"] > 0 and doors["halls"] > 0


def test_halls_are_open_and_caves_are_irregular() -> None:
    """Halls hold large open rooms with rock inside them; caves fill much of the map."""
    seen: dict[str, Floor] = {}
    for seed in range(100):
        floor = generate_floor(floor_seed(seed, 4), 4, (40, 10))
        seen.setdefault(floor.kind, floor)
    cave = seen["caves"]
    assert (cave.tiles != Tile.WALL).sum() >= 400
    hall = seen["halls"]
    inner_rock = (
        (hall.tiles[1:-1, 1:-1] == Tile.WALL)
        & (hall.tiles[:-2, 1:-1] != Tile.WALL)
        & (hall.tiles[2:, 1:-1] != Tile.WALL)
    )
    assert inner_rock.any(), "a hall has pillars or islands with open ground on both sides"
