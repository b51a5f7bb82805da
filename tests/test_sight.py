"""Sight computed around the player equals sight computed over the whole floor."""

from __future__ import annotations

import numpy as np
import pytest
import tcod.constants
import tcod.map
from tcod.cffi import ffi

from roguelike.content import formulas
from roguelike.core.floor import SEE_THROUGH, Floor, Tile
from roguelike.core.mapgen import generate_floor
from roguelike.core.sight import CELL, field_of_view
from roguelike.core.world import floor_seed


def whole_floor_view(floor: Floor, x: int, y: int) -> np.ndarray:
    """The reference: shadowcasting over the entire map."""
    return tcod.map.compute_fov(
        SEE_THROUGH[floor.tiles],
        (y, x),
        radius=formulas.FOV_RADIUS,
        light_walls=True,
        algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
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


def test_sight_matches_the_state_after_a_monster_opens_a_door() -> None:
    """What the player sees is derived on loading, so it must match the state every action."""
    import esper
    import msgpack

    from components import Attributes, BlocksMovement, Position, Renderable, Sight
    from components.monsters import Monster
    from helpers import drawn_game
    from roguelike.core.commands import Wait
    from roguelike.core.snapshot import checksum, encode, from_plain, to_plain

    game = drawn_game(["#######", "#@..+.#", "#######"])
    esper.component_for_entity(game.state.player, Attributes).nerve = 2  # panics at a monster in sight
    esper.create_entity(
        Monster("hunger", 8, False, game.state.player, 0),
        Position(5, 1),
        Renderable("h", (200, 120, 60), 1),
        BlocksMovement(),
    )
    game.apply(Wait())
    assert game.state.floor.tile(4, 1) == Tile.DOOR_OPEN  # the hunger opened the door
    pos = game.player_component(Position)
    radius = game.player_component(Sight).radius
    assert np.array_equal(game.view.visible, field_of_view(game.state.floor, pos.x, pos.y, radius))
    loaded = from_plain(msgpack.unpackb(encode(to_plain(game))))
    assert loaded.control_reason() == game.control_reason()
    game.apply(Wait())
    loaded.apply(Wait())
    assert checksum(loaded) == checksum(game)


@pytest.mark.parametrize("seed", range(4))
def test_sight_cut_from_the_wider_ring_equals_sight_cast_at_its_radius(seed: int) -> None:
    from roguelike.core.sight import sight_and_ring

    floor = generate_floor(floor_seed(seed, 3), 3, (10, 10), 30)
    ys, xs = np.nonzero(floor.tiles != Tile.WALL)
    for x, y in list(zip(xs.tolist(), ys.tolist()))[::3]:
        for radius in (formulas.SIGHT_DESPERATE, formulas.FOV_RADIUS, formulas.SIGHT_HIGH[1]):
            seen, ring = sight_and_ring(floor, x, y, radius)
            assert np.array_equal(seen, field_of_view(floor, x, y, radius)), (x, y, radius)
            assert np.array_equal(ring, field_of_view(floor, x, y, radius + formulas.EXPLORED_RING))


def test_a_door_opened_between_two_casts_is_seen_through() -> None:
    """The floor keeps its transparency between casts; a tile changed in place must still show."""
    floor = generate_floor(floor_seed(5, 2), 2, (10, 10), 30)
    floor.tiles[:] = Tile.WALL
    floor.tiles[5, 2:12] = Tile.FLOOR
    floor.tiles[5, 6] = Tile.DOOR_CLOSED
    assert not field_of_view(floor, 3, 5)[5, 8], "a closed door blocks sight"
    floor.tiles[5, 6] = Tile.DOOR_OPEN
    assert field_of_view(floor, 3, 5)[5, 8], "the door opened since the last cast lets sight through"
    floor.tiles[5, 6] = Tile.DOOR_CLOSED
    assert not field_of_view(floor, 3, 5)[5, 8], "and closed again, blocks it again"


def test_the_kept_transparency_cannot_be_changed_by_its_readers() -> None:
    floor = generate_floor(floor_seed(5, 2), 2, (10, 10), 30)
    with pytest.raises(ValueError):
        floor.transparent()[0, 0] = True


def test_a_cast_is_the_callers_own_whatever_is_cast_after_it() -> None:
    """Casts share libtcod's cells per window size: what one returns must not change with the next."""
    from roguelike.core.sight import sight_and_ring

    floor = generate_floor(floor_seed(7, 3), 3, (10, 10), 30)
    ys, xs = np.nonzero(floor.tiles != Tile.WALL)
    spots = list(zip(xs.tolist(), ys.tolist()))
    first, middle = spots[0], spots[len(spots) // 2]
    kept = field_of_view(floor, *first), sight_and_ring(floor, *middle, formulas.FOV_RADIUS)
    for x, y in spots[1 : len(spots) // 2]:  # every window size near the first, none of the kept casts
        field_of_view(floor, x, y)
        sight_and_ring(floor, x, y, formulas.FOV_RADIUS)
    assert np.array_equal(kept[0], whole_floor_view(floor, *first))
    assert np.array_equal(kept[1][0], field_of_view(floor, *middle))
    assert np.array_equal(kept[1][1], field_of_view(floor, *middle, formulas.FOV_RADIUS + formulas.EXPLORED_RING))


def test_the_hand_built_libtcod_map_matches_tcods_struct_layout() -> None:
    # core/sight.py hands libtcod numpy cells of its own dtype and builds the map struct by
    # position: a tcod release that reorders either fails here, before any sight is wrong.
    cell = "struct TCOD_MapCell"
    names, fields = CELL.names, CELL.fields
    assert names is not None and fields is not None  # a structured dtype
    assert ffi.sizeof(cell) == CELL.itemsize
    assert [(name, ffi.offsetof(cell, name)) for name in names] == [(name, fields[name][1]) for name in names]
    assert [name for name, _ in ffi.typeof("struct TCOD_Map").fields] == ["width", "height", "nbcells", "cells"]
