"""The bots' kept masks and boxed distance maps choose exactly what the plain computation chooses.

Every bot plays whole stretches of real games with its fast routes, and at every command
a twin of it working everything out afresh (``PlainRoutes``: a Dijkstra map of the whole
floor per question) is asked the same question; then the routes themselves are held to the
plain answers on random floors, goals that shrink step by step, and small floors.
"""

from __future__ import annotations

import numpy as np
import pytest

from roguelike.bots.bot import Bot
from roguelike.bots.careful import CarefulBot
from roguelike.bots.reckless import RecklessBot
from roguelike.bots.registry import BOTS
from roguelike.bots.routes import UNREACHABLE, PlainRoutes, Routes, first_step, terrain_of
from roguelike.core.floor import Floor
from roguelike.core.game import Game
from roguelike.core.pathing import downhill_step
from roguelike.core.tiles import Tile

SEEDS = (3, 8, 21)
RECKLESS_SEEDS = tuple(range(1, 16))  # the reckless bot overdoses within a few dozen turns
TURNS = 400


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_chooses_what_the_plain_computation_chooses(name: str) -> None:
    chosen, floors = 0, set()
    seeds = RECKLESS_SEEDS if name == "reckless" else SEEDS
    for seed in seeds:
        game, fast = Game.new(seed, "Twin"), BOTS[name]()
        assert isinstance(fast, Bot | CarefulBot | RecklessBot), "every bot takes a route finder"
        plain = type(fast)(PlainRoutes())  # a twin for the whole game: the careful family remembers (its lookout)
        while not game.state.game_over and game.state.turn < TURNS:
            command = fast.choose(game)
            assert command == plain.choose(game), f"{name}, seed {seed}, turn {game.state.turn}"
            game.apply(command)
            chosen += 1
            floors.add((seed, game.state.depth))
        game.close()
    assert chosen > 300, "the games went on"
    assert name == "reckless" or len(floors) > len(seeds), "and down the stairs (the reckless bot never gets there)"


def random_floor(rng: np.random.Generator, shape: tuple[int, int], open_share: float) -> Floor:
    """A floor of random walls, floor, doors and stairs."""
    kinds = [Tile.WALL, Tile.FLOOR, Tile.DOOR_CLOSED, Tile.DOOR_OPEN, Tile.STAIRS_DOWN, Tile.STAIRS_UP]
    weights = np.array([1 - open_share, open_share * 0.9, open_share * 0.04, open_share * 0.04, 0.01, 0.01])
    tiles = rng.choice(np.array(kinds, dtype=np.uint8), size=shape, p=weights / weights.sum())
    return Floor(
        depth=1,
        tiles=tiles,
        explored=np.zeros(shape, dtype=bool),
        revealed=np.zeros(shape, dtype=bool),
        down_stairs=(0, 0),
        up_stairs=None,
        arrival=(0, 0),
    )


def open_spot(rng: np.random.Generator, cost: np.ndarray) -> tuple[int, int]:
    """A random walkable tile, as ``(x, y)``."""
    ys, xs = np.nonzero(cost)
    pick = int(rng.integers(len(xs)))
    return int(xs[pick]), int(ys[pick])


@pytest.mark.parametrize("shape", [(21, 80), (6, 10), (40, 120)])
def test_the_first_step_matches_the_whole_floor_map_as_goals_shrink_and_the_player_walks(
    shape: tuple[int, int],
) -> None:
    rng = np.random.default_rng(7)
    fast, plain = Routes(), PlainRoutes()
    boxes_proved = 0
    for _ in range(30):
        floor = random_floor(rng, shape, float(rng.uniform(0.4, 0.9)))
        cost = terrain_of(floor).costs()
        goals = rng.random(shape) < rng.uniform(0.002, 0.3)
        here = open_spot(rng, cost)
        for _ in range(25):
            step = fast.step(cost, goals, here)
            assert step == plain.step(cost, goals, here)
            boxes_proved += any(box.dist.shape != shape for _, _, box in fast.maps)
            goals &= rng.random(shape) > 0.15  # tiles seen: goals only ever go
            if step is not None:
                here = (here[0] + step[0], here[1] + step[1])
    if shape == (21, 80):
        assert boxes_proved > 100, "most answers came from a box, not the whole floor"


def test_a_goal_on_a_closed_tile_and_a_start_on_one_are_answered_alike() -> None:
    rng = np.random.default_rng(11)
    fast, plain = Routes(), PlainRoutes()
    for _ in range(200):
        floor = random_floor(rng, (21, 80), 0.7)
        cost = terrain_of(floor).costs()
        goals = np.zeros((21, 80), dtype=bool)
        walls = np.argwhere(cost == 0)
        for y, x in walls[rng.integers(len(walls), size=3)]:
            goals[y, x] = True
        here = open_spot(rng, cost)
        cost[rng.integers(21), rng.integers(80)] = 0
        assert fast.step(cost, goals, here) == plain.step(cost, goals, here)


def test_step_counts_read_from_the_far_end_equal_counts_from_the_player() -> None:
    rng = np.random.default_rng(5)
    fast, plain = Routes(), PlainRoutes()
    for _ in range(20):
        floor = random_floor(rng, (21, 80), float(rng.uniform(0.4, 0.9)))
        terrain = fast.terrain(floor)
        starts = [open_spot(rng, terrain.cost) for _ in range(3)] + [(0, 0)]
        targets = [open_spot(rng, terrain.cost) for _ in range(5)] + [(int(rng.integers(80)), int(rng.integers(21)))]
        for start in starts:
            for target in targets:
                assert fast.steps(terrain, start, target) == plain.steps(terrain, start, target)


def test_a_door_opening_gives_the_floor_a_new_terrain() -> None:
    floor = random_floor(np.random.default_rng(3), (21, 80), 0.7)
    routes = Routes()
    before = routes.terrain(floor)
    assert routes.terrain(floor) is before
    floor.tiles[5, 5] = Tile.WALL if floor.tiles[5, 5] != Tile.WALL else Tile.FLOOR
    after = routes.terrain(floor)
    assert after is not before
    assert (after.cost != before.cost).any() and (after.open == (floor.tiles != Tile.WALL)).all()


def test_the_first_step_read_around_a_tile_is_tcods_hillclimb_from_inside_and_from_the_edges() -> None:
    rng = np.random.default_rng(5)
    for _ in range(40):
        dist = rng.integers(0, 9, size=(6, 8)).astype(np.int32)  # small values: many equal neighbours
        dist[rng.random(dist.shape) < 0.2] = UNREACHABLE
        for y, x in np.ndindex(dist.shape):
            here = int(dist[y, x])
            assert first_step(dist, x, y, here) == downhill_step(dist, (x, y))
