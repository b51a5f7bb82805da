"""The climates table: map generation draws a floor's climate from it, by depth and weight,
and carves the layout its row gives."""

from __future__ import annotations

import dataclasses
import typing

import numpy as np
import pytest

from roguelike.content import climates
from roguelike.content.climates import CAVES, CLIMATES, HALLS, ROOMS, Climate, Layout, Rooms, RoomSizes, climates_at
from roguelike.core.floor import Tile
from roguelike.core.mapgen import GENERATORS, generate_floor, saved_kind
from roguelike.core.world import floor_seed


def only(monkeypatch: pytest.MonkeyPatch, *rows: Climate) -> None:
    """The climates table holding these rows alone."""
    monkeypatch.setattr(climates, "CLIMATES", {row.key: row for row in rows})


def test_every_layout_has_its_generator() -> None:
    assert set(GENERATORS) == set(typing.get_args(Layout))
    assert {type(climate.layout) for climate in CLIMATES.values()} <= set(GENERATORS)


def test_a_climate_turns_up_only_within_its_depths() -> None:
    middle = Climate("middle", ROOMS.layout, weight=1, arrival="Middle.", from_floor=2, to_floor=3)
    assert [middle.allowed(depth) for depth in range(1, 6)] == [False, True, True, False, False]
    assert [climate.key for climate in climates_at(1)] == ["rooms"]
    assert [climate.key for climate in climates_at(9)] == list(CLIMATES)


def test_the_only_climate_with_a_weight_at_a_depth_is_every_floor_there(monkeypatch: pytest.MonkeyPatch) -> None:
    only(monkeypatch, dataclasses.replace(HALLS, from_floor=1), CAVES)
    assert {generate_floor(floor_seed(seed, 1), 1, None).kind for seed in range(10)} == {"halls"}
    only(monkeypatch, ROOMS, dataclasses.replace(CAVES, weight=0), HALLS)
    assert {generate_floor(floor_seed(seed, 4), 4, (40, 10)).kind for seed in range(20)} == {"rooms", "halls"}


def test_the_generator_carves_with_the_parameters_of_the_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """One room at most: the floor is a single rectangle, with no corridor and no door."""
    one_room = Rooms(RoomSizes(attempts=0, most=1, width=(6, 9), height=(4, 6)))
    only(monkeypatch, dataclasses.replace(ROOMS, layout=one_room))
    for seed in range(10):
        floor = generate_floor(floor_seed(seed, 1), 1, None)
        ys, xs = np.nonzero(floor.tiles != Tile.WALL)
        width, height = int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)
        assert len(xs) == width * height and 6 <= width <= 9 and 4 <= height <= 6, seed
        assert not (floor.tiles == Tile.DOOR_CLOSED).any()


def test_a_climate_no_save_could_name_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'glacier'.*FloorKind"):
        saved_kind(Climate("glacier", CAVES.layout, weight=1, arrival="Glacier."))
