"""The new climates over many seeds: their terrain laid as the rows say, every floor whole, the noise fixed by the seed."""

from __future__ import annotations

import dataclasses
import hashlib

import numpy as np
import pytest

from components import Position
from floor_samples import UNREACHED
from roguelike.content import climates
from roguelike.content.climates import CLIMATES, DESERT, ISLANDS, TUNDRA, WATERY, Climate
from roguelike.core.floor import GROUND, PASSABLE, Floor, Tile
from roguelike.core.mapgen import generate_floor
from roguelike.core.mapgen_terrain import heights
from roguelike.core.packing import unpack_entity
from roguelike.core.pathing import distance_map, travel_cost
from roguelike.core.rng import Rng
from roguelike.core.spawning import choose_kind
from roguelike.core.world import floor_seed

NEW = (DESERT, WATERY, ISLANDS, TUNDRA)
SEEDS = range(60)


def floors_of(monkeypatch: pytest.MonkeyPatch, climate: Climate, depth: int = 4) -> list[Floor]:
    """Floor ``depth`` of many games, the climates table holding this climate alone."""
    monkeypatch.setattr(climates, "CLIMATES", {climate.key: dataclasses.replace(climate, from_floor=1)})
    return [generate_floor(floor_seed(seed, depth), depth, (40, 10)) for seed in SEEDS]


@pytest.mark.parametrize("climate", NEW, ids=lambda climate: climate.key)
def test_every_floor_of_a_new_climate_is_whole_with_its_stairs_on_ground(
    monkeypatch: pytest.MonkeyPatch, climate: Climate
) -> None:
    terrains = set()
    for floor in floors_of(monkeypatch, climate):
        assert floor.kind == climate.key
        reach = distance_map(travel_cost(floor), [floor.arrival]) != UNREACHED
        assert (reach == PASSABLE[floor.tiles]).all()
        assert floor.tile(*floor.down_stairs) == Tile.STAIRS_DOWN and floor.tile(40, 10) == Tile.STAIRS_UP
        terrains |= {Tile(int(value)) for value in np.unique(floor.tiles)}
    laid = {tile for _, tile in climate.heightmap.bands} if climate.heightmap else set()
    assert laid | {feature.tile for feature in climate.features} <= terrains


@pytest.mark.parametrize("climate", (WATERY, ISLANDS, TUNDRA), ids=lambda climate: climate.key)
def test_the_barrier_never_cuts_ground_off_the_crossing_joins_it(
    monkeypatch: pytest.MonkeyPatch, climate: Climate
) -> None:
    """Every tile of ground is reached without entering the barrier (no swimming, no sliding needed)."""
    assert climate.crossing is not None
    barrier, joined = climate.crossing.barrier, 0
    for floor in floors_of(monkeypatch, climate):
        cost = travel_cost(floor)
        cost[floor.tiles == barrier] = 0
        reach = distance_map(cost, [floor.arrival]) != UNREACHED
        assert (reach | ~(PASSABLE[floor.tiles] & (floor.tiles != barrier))).all()
        joined += int((floor.tiles == climate.crossing.joins).sum())
    assert joined > 0


def test_islands_stand_in_deep_water_joined_by_bridges(monkeypatch: pytest.MonkeyPatch) -> None:
    for floor in floors_of(monkeypatch, ISLANDS):
        water = int((floor.tiles == Tile.DEEP_WATER).sum())
        assert water >= int(PASSABLE[floor.tiles].sum()) // 4
    assert any((floor.tiles == Tile.BRIDGE).any() for floor in floors_of(monkeypatch, ISLANDS))


def test_the_desert_is_mostly_open_sand_and_doses_and_monsters_stand_on_ground(monkeypatch: pytest.MonkeyPatch) -> None:
    for floor in floors_of(monkeypatch, DESERT):
        open_tiles = int(PASSABLE[floor.tiles].sum())
        assert (floor.tiles == Tile.SAND).sum() * 2 > open_tiles
        for packed in floor.dormant:
            pos = next(part for part in unpack_entity(packed) if isinstance(part, Position))
            assert GROUND[floor.tiles[pos.y, pos.x]], floor.kind


def test_features_grow_with_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    drift = TUNDRA.features[0]
    assert drift.count(1) < drift.count(5) < drift.count(9)
    shallow = sum(int((floor.tiles == Tile.SNOW).sum()) for floor in floors_of(monkeypatch, TUNDRA, depth=2))
    deep = sum(int((floor.tiles == Tile.SNOW).sum()) for floor in floors_of(monkeypatch, TUNDRA, depth=9))
    assert deep > shallow


@pytest.mark.parametrize("climate", NEW, ids=lambda climate: climate.key)
def test_the_same_seed_makes_the_same_floor(monkeypatch: pytest.MonkeyPatch, climate: Climate) -> None:
    first, again = floors_of(monkeypatch, climate)[:5], floors_of(monkeypatch, climate)[:5]
    assert all((a.tiles == b.tiles).all() and a.dormant == b.dormant for a, b in zip(first, again, strict=True))
    assert len({a.tiles.tobytes() for a in first}) == len(first)


def test_the_noise_is_whole_numbers_from_the_games_rng_alone() -> None:
    """The heights of a seed are fixed on every machine: integer maths over the RNG's bytes, checked by digest."""
    assert DESERT.heightmap is not None and WATERY.heightmap is not None
    desert = heights(Rng(2024), (21, 80), DESERT.heightmap)
    watery = heights(Rng(2024), (21, 80), WATERY.heightmap)
    assert desert.dtype == np.int64 and 0 <= desert.min() and desert.max() < 256
    assert (heights(Rng(2024), (21, 80), DESERT.heightmap) == desert).all()
    digest = hashlib.sha256(desert.astype("<i8").tobytes() + watery.astype("<i8").tobytes()).hexdigest()
    assert digest[:16] == NOISE_DIGEST


def test_a_climate_weighs_the_monsters_it_names_and_keeps_the_others() -> None:
    assert all(climate.monster_weight("no such kind", 7) == 7 for climate in CLIMATES.values())
    assert DESERT.monster_weight("anxiety", 10) > 10 > DESERT.monster_weight("depression", 10)
    kinds = {choose_kind(Rng(seed), 9, "desert").key for seed in range(300)}
    assert "anxiety" in kinds and "hunger" in kinds


def test_every_climate_has_an_arrival_line() -> None:
    assert all(climate.arrival.endswith(".") for climate in CLIMATES.values())
    assert len({climate.arrival for climate in CLIMATES.values()}) == len(CLIMATES)


NOISE_DIGEST = "8feff05ec62059d4"
