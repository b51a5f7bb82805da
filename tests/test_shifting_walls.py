"""Walls closing in: creeping walls shut in Withdrawal, veils open while High, and every floor
of every climate stays whole in every band (the issue's property test)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from bestiary_helpers import add_monster, arena, set_player
from components import Dose, Position
from helpers import add_dose, player_xy
from roguelike.assist.readout import surroundings
from roguelike.content.climates import CLIMATES
from roguelike.content.doses import NORMAL_DOSE
from roguelike.content.formulas import Band, mood_band
from roguelike.content.terrain import TERRAIN, Tile
from roguelike.core import mapgen
from roguelike.core.commands import Move, Wait
from roguelike.core.floor import PASSABLE, Floor
from roguelike.core.game import Game
from roguelike.core.mapgen import generate_floor
from roguelike.core.packing import unpack_entity
from roguelike.core.pathing import distance_map
from roguelike.core.walls import SHIFTING, open_ground, turn_to_band
from roguelike.core.world import floor_seed, travel

UNREACHED = np.iinfo(np.int32).max
DEPTHS = range(1, 13)
SEEDS = 80
# The State of Mind a floor is first reached in decides only its monsters and the band its walls start in.
FIRST_REACHED = (20, 55, 80)
SHIFTING_KINDS = [tile for tile, row in TERRAIN.items() if row.turns_into is not None]

# A room cut by a wall; a veil in the wall (a long way round by the corridor below), creeping
# walls along the top. The player stands in the left half.
WALLED = [
    "#############",
    "#.:::.#.....#",
    "#.....}.....#",
    "#..@..#.....#",
    "###.#####.###",
    "###.......###",
    "#############",
]


def placed(floor: Floor) -> list[tuple[int, int]]:
    """Where everything placed on the floor stands (doses, finds, monsters, visions)."""
    spots = []
    for packed in floor.dormant:
        pos = next(part for part in unpack_entity(packed) if isinstance(part, Position))
        spots.append((pos.x, pos.y))
    return spots


def doses_of(floor: Floor) -> list[tuple[int, int]]:
    """Where the floor's doses lie."""
    spots = []
    for packed in floor.dormant:
        parts = unpack_entity(packed)
        if any(isinstance(part, Dose) for part in parts):
            spots += [(part.x, part.y) for part in parts if isinstance(part, Position)]
    return spots


def in_band(floor: Floor, band: Band) -> Floor:
    """A copy of the floor turned to ``band`` with nothing standing anywhere."""
    turned = dataclasses.replace(floor, tiles=floor.tiles.copy(), dormant=[])
    turn_to_band(turned, band, set)
    return turned


def check_every_band(floor: Floor) -> None:
    """Connected in every band, the arrival, the stairs and every dose reachable, no dose gating any of it."""
    doses = doses_of(floor)
    for band in Band:
        ground = open_ground(floor, band)
        assert (ground == PASSABLE[in_band(floor, band).tiles]).all()
        reach = distance_map(ground.astype(np.int32), [floor.arrival]) != UNREACHED
        assert (reach == ground).all(), f"{band.name}: open ground cut off"
        assert reach[floor.down_stairs[1], floor.down_stairs[0]], f"{band.name}: the stairs down cut off"
        assert all(reach[y, x] for x, y in doses), f"{band.name}: a dose cut off"
        blocked = ground.copy()
        for x, y in doses:
            blocked[y, x] = False
        past_doses = distance_map(blocked.astype(np.int32), [floor.arrival]) != UNREACHED
        assert (past_doses == blocked).all(), f"{band.name}: the doses gate part of the floor"


def check_a_step_off_every_wall(floor: Floor) -> None:
    """Beside every shifting tile lies open ground of Withdrawal: whoever holds one open as it
    would shut can step off it, in the most closed band."""
    ground = np.pad(open_ground(floor, Band.WITHDRAWAL) & ~SHIFTING[floor.tiles], 1)
    ys, xs = SHIFTING[floor.tiles].nonzero()
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        assert ground[y : y + 3, x : x + 3].any(), f"nowhere to step off {(x, y)}"


def check_nothing_on_the_walls(floor: Floor) -> None:
    """No stairs, arrival, dose, find or monster on a shifting tile."""
    shifting = SHIFTING[floor.tiles]
    for x, y in [floor.arrival, floor.down_stairs, *placed(floor)]:
        assert not shifting[y, x], (x, y, Tile(int(floor.tiles[y, x])).name)


@pytest.mark.parametrize("key", list(CLIMATES))
def test_every_floor_of_every_climate_is_whole_in_every_band(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each climate of the table made on every floor it may be, whatever its weight there."""
    climate = CLIMATES[key]
    monkeypatch.setattr(mapgen, "climate_for", lambda rng, depth: climate)
    depths = [depth for depth in DEPTHS if climate.allowed(depth)]
    assert depths, f"{key} turns up on none of floors 1 to 12"
    for seed in range(SEEDS):
        first_reached = FIRST_REACHED[seed % len(FIRST_REACHED)]
        up = None
        for depth in depths:
            floor = generate_floor(floor_seed(seed, depth), depth, up, first_reached)
            up = floor.down_stairs
            try:
                assert floor.kind == key
                check_every_band(floor)
                check_nothing_on_the_walls(floor)
                check_a_step_off_every_wall(floor)
                assert in_band(floor, mood_band(first_reached)).tiles.tobytes() == floor.tiles.tobytes()
            except AssertionError as failed:
                raise AssertionError(f"seed {seed}, floor {depth} ({key}): {failed}") from failed


def test_the_walls_grow_with_depth_and_every_kind_turns_up() -> None:
    walls: Counter[Tile] = Counter()

    def shifting(depth: int) -> int:
        count = 0
        for seed in range(30):
            tiles = generate_floor(floor_seed(seed, depth), depth, None).tiles
            walls.update(Tile(int(value)) for value in tiles[SHIFTING[tiles]].tolist())
            count += int(SHIFTING[tiles].sum())
        return count

    assert shifting(1) < shifting(6) < shifting(12)
    assert {TERRAIN[tile].turns_into for tile in walls} | set(walls) == set(SHIFTING_KINDS)


def test_each_shifting_terrain_is_an_open_and_a_shut_kind_naming_each_other() -> None:
    assert SHIFTING_KINDS
    for tile in SHIFTING_KINDS:
        row = TERRAIN[tile]
        other = TERRAIN[row.turns_into] if row.turns_into is not None else row
        assert other.turns_into is tile and other.shut_in == row.shut_in and row.shut_in
        assert row.walkable != other.walkable and row.turned and row.turned != other.turned
        assert row.walkable == row.see_through
    bands = {band: {tile for tile in SHIFTING_KINDS if band in TERRAIN[tile].shut_in} for band in Band}
    assert bands[Band.WITHDRAWAL] >= bands[Band.SOBER] >= bands[Band.HIGH]  # Withdrawal the most closed


def test_the_bands_are_the_panels() -> None:
    assert [mood_band(som) for som in (1, 49, 50, 60, 61, 100)] == [Band.WITHDRAWAL] * 2 + [Band.SOBER] * 2 + [
        Band.HIGH
    ] * 2


def tiles_at(game: Game, *spots: tuple[int, int]) -> list[Tile]:
    """The kinds of the tiles at ``spots`` on the player's floor."""
    return [game.state.floor.tile(x, y) for x, y in spots]


CREEPING = [(2, 1), (3, 1), (4, 1)]
VEIL = (6, 2)


def test_the_walls_follow_the_band_and_say_so_once_a_flip() -> None:
    game = arena(WALLED)
    set_player(game, state_of_mind=30)
    game.apply(Wait())
    assert tiles_at(game, *CREEPING, VEIL) == [Tile.CREEPING_SHUT] * 3 + [Tile.VEIL_SHUT]
    assert game.state.messages[-1].text == TERRAIN[Tile.CREEPING_SHUT].turned
    said = len(game.state.messages)
    game.apply(Wait())
    assert len(game.state.messages) == said  # once a flip, not every turn
    set_player(game, state_of_mind=90)
    game.apply(Wait())
    assert tiles_at(game, *CREEPING, VEIL) == [Tile.CREEPING_OPEN] * 3 + [Tile.VEIL_OPEN]
    told = [m.text for m in game.state.messages[said:]]
    assert told == [TERRAIN[Tile.CREEPING_OPEN].turned, TERRAIN[Tile.VEIL_OPEN].turned]
    set_player(game, state_of_mind=56)
    game.apply(Wait())
    assert tiles_at(game, *CREEPING, VEIL) == [Tile.CREEPING_OPEN] * 3 + [Tile.VEIL_SHUT]


def test_the_high_walk_through_an_open_veil_and_sight_follows_the_walls() -> None:
    game = arena(WALLED)
    set_player(game, state_of_mind=90)
    game.apply(Wait())
    assert game.view.visible[2, 9]  # seen through the open veil
    for step in (Move(1, -1), Move(1, 0), Move(1, 0), Move(1, 0)):
        game.apply(step)
    assert player_xy(game) == (7, 2)  # through the veil, not round by the corridor
    set_player(game, state_of_mind=40)
    game.apply(Wait())
    assert tiles_at(game, VEIL) == [Tile.VEIL_SHUT]
    assert not game.view.visible[2, 1]


def test_nothing_is_walled_in_a_tile_held_open_shuts_once_free() -> None:
    game = arena(WALLED)
    set_player(game, state_of_mind=90)
    game.apply(Wait())
    game.activate()
    add_dose(3, 1, Dose(NORMAL_DOSE.key, 30, 1, 1, 1))
    add_monster(game, "depression", 9, 2)
    game.state.floor.tiles[3, 3] = Tile.CREEPING_OPEN  # under the player
    game.state.floor.tiles[2:4, 9] = Tile.CREEPING_OPEN  # under the monster, and where it may step
    set_player(game, state_of_mind=30)
    for step in (Wait(), Wait(), Move(0, -1)):
        game.apply(step)
        floor = game.state.floor
        assert all(floor.walkable()[pos.y, pos.x] for _, (pos,) in game.world.query(Position)), "walled in"
    assert (
        tiles_at(game, (3, 1), (2, 1), (4, 1)) == [Tile.CREEPING_OPEN] + [Tile.CREEPING_SHUT] * 2
    )  # the dose holds it
    assert tiles_at(game, (3, 3)) == [Tile.CREEPING_SHUT]  # the player stepped off: free, it shuts


def test_a_floor_is_turned_to_the_band_the_player_arrives_in() -> None:
    game = Game.new(7, "Tester")
    floor = game.state.floor
    assert in_band(floor, Band.WITHDRAWAL).tiles.tobytes() == floor.tiles.tobytes()  # made at 20, Withdrawal
    set_player(game, state_of_mind=90)
    game.activate()
    travel(game.state, 2)
    travel(game.state, 1)
    assert in_band(floor, Band.HIGH).tiles.tobytes() == floor.tiles.tobytes()


def test_the_walls_are_the_same_from_the_same_state() -> None:
    def played(seed: int) -> list[bytes]:
        game = Game.new(seed, "Tester")
        shots = []
        for som in (20, 55, 90, 30, 70):
            set_player(game, state_of_mind=som)
            game.apply(Wait())
            shots.append(game.state.floor.tiles.tobytes())
        return shots

    assert played(3) == played(3)
    made = [generate_floor(floor_seed(11, 5), 5, (40, 10), 55).tiles.tobytes() for _ in range(2)]
    assert made[0] == made[1]


def test_the_screen_reader_tells_the_walls_that_shift_in_the_tables_words() -> None:
    game = arena(WALLED)
    set_player(game, state_of_mind=90)
    game.apply(Wait())
    told = surroundings(game)
    veil = TERRAIN[Tile.VEIL_OPEN].words.rstrip(".")
    assert f"{veil} (3 east and 1 north)" in told and TERRAIN[Tile.CREEPING_OPEN].words.rstrip(".") in told
    set_player(game, state_of_mind=30)
    game.apply(Wait())
    assert TERRAIN[Tile.VEIL_SHUT].words.rstrip(".") in surroundings(game)
