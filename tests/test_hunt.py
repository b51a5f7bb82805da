"""The hunters' shared path maps: a tile's ways down, kept with the map, give the step a descent takes."""

from __future__ import annotations

import numpy as np

from roguelike.core.chase import UNREACHABLE, Box, chase_layout, mapped, whole_map
from roguelike.core.floor import Tile
from roguelike.core.hunt import BULK_FROM, Hunt
from roguelike.core.mapgen import generate_floor
from roguelike.core.rng import Purpose, Rng, WorldClock


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
            hunt = Hunt(floor, WorldClock(seed, 1, 0), player, blocked)
            dist = hunt.chase().dist
            for x, y in open_tiles:
                here = dist[y * hunt.width + x]
                if here != UNREACHABLE:
                    assert hunt.chase_step(x, y) == hunt.descend(dist, x, y, here)


def test_the_ways_down_are_every_nearer_neighbour_nearest_first() -> None:
    floor = generate_floor(5, 1, None, 50)
    chase = whole_map(chase_layout(floor.tiles.tobytes()), floor.width, floor.arrival)
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


def test_a_box_is_sure_of_a_tile_only_where_its_ways_down_are_the_whole_floors() -> None:
    # Chase.sure is what lets a map of a box stand for the whole floor's: wherever it says
    # so, the ways down must be the same, for boxes of every size around the player.
    rng, sure_tiles = Rng(5), 0
    for seed in (1, 2, 3, 4):
        floor = generate_floor(seed, 1, None, 50)
        cost = chase_layout(floor.tiles.tobytes())
        open_tiles = [(int(x), int(y)) for y, x in zip(*np.nonzero(floor.tiles == Tile.FLOOR))]
        for _ in range(3):
            goal = open_tiles[rng.below(len(open_tiles))]
            whole = whole_map(cost, floor.width, goal)
            for span in (2, 4, 7, 11):
                box = Box(
                    max(0, goal[0] - span),
                    max(0, goal[1] - span),
                    min(floor.width, goal[0] + span + 1),
                    min(floor.height, goal[1] + span + 1),
                    floor.width,
                    floor.height,
                )
                boxed = mapped(cost, floor.width, goal, box)
                for x, y in open_tiles:
                    if boxed.sure(x, y):
                        index = y * floor.width + x
                        assert boxed.dist[index] == whole.dist[index]
                        assert boxed.find_ways(index) == whole.find_ways(index)
                        sure_tiles += 1
    assert sure_tiles > 1000


def test_the_worlds_draws_hang_on_place_and_turn_not_on_the_draws_before() -> None:
    clock = WorldClock(7, 3, 120)
    first = [clock.at(Purpose.WANDER, 4, 5).next64() for _ in range(2)]
    clock.at(Purpose.GROW).next64()  # another purpose drawing in between changes nothing
    assert first[0] == first[1] == WorldClock(7, 3, 120).at(Purpose.WANDER, 4, 5).next64()
    others = {
        WorldClock(7, 3, 121).at(Purpose.WANDER, 4, 5).next64(),
        WorldClock(7, 4, 120).at(Purpose.WANDER, 4, 5).next64(),
        WorldClock(8, 3, 120).at(Purpose.WANDER, 4, 5).next64(),
        clock.at(Purpose.WANDER, 5, 4).next64(),
        clock.at(Purpose.FLEE, 4, 5).next64(),
    }
    assert first[0] not in others and len(others) == 5


def test_an_idle_monster_ambles_the_same_whatever_the_others_did_first() -> None:
    floor = generate_floor(3, 1, None, 50)
    open_tiles = [(int(x), int(y)) for y, x in zip(*np.nonzero(floor.tiles == Tile.FLOOR))][:40]
    hunt = Hunt(floor, WorldClock(3, 1, 9), floor.arrival, {}, wander=(1, 1))
    forward = [hunt.wander_step(x, y) for x, y in open_tiles]
    backward = [hunt.wander_step(x, y) for x, y in reversed(open_tiles)]
    assert forward == backward[::-1] and any(step is not None for step in forward)


def test_idle_monsters_wander_alike_with_their_streams_worked_out_together() -> None:
    floor = generate_floor(4, 2, None, 50)
    open_tiles = [(int(x), int(y)) for y, x in zip(*np.nonzero(floor.tiles == Tile.FLOOR))]
    for idle in (open_tiles[:BULK_FROM], open_tiles[: BULK_FROM - 1], open_tiles[::3]):
        together = Hunt(floor, WorldClock(4, 2, 31), floor.arrival, {}, wander=(1, 1), idle=idle.copy)
        one_by_one = Hunt(floor, WorldClock(4, 2, 31), floor.arrival, {}, wander=(1, 1))
        # every open tile: those given as idle and those not (a monster that moved, a lost hunter)
        assert [together.wander_step(x, y) for x, y in open_tiles] == [
            one_by_one.wander_step(x, y) for x, y in open_tiles
        ]
    assert len(together.wander_seeds()) == len(open_tiles[::3]) > BULK_FROM
