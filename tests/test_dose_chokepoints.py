"""No dose gates a floor: over a thousand floors of every kind, the doses (all of them at once,
each one as automation treats it, like a wall) never cut off any open tile from the arrival."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from components import Dose, Position
from floor_samples import CHUNK, DEPTH, GAMES, UNREACHED, sampled_climates, sampled_games
from roguelike.core.chokepoints import Gates, chokepoints
from roguelike.core.floor import Floor
from roguelike.core.packing import unpack_entity
from roguelike.core.pathing import distance_map, travel_cost
from roguelike.core.rng import Rng


def dose_spots(floor: Floor) -> list[tuple[int, int]]:
    """Where the floor's doses lie."""
    spots = []
    for packed in floor.dormant:
        parts = unpack_entity(packed)
        if any(isinstance(part, Dose) for part in parts):
            pos = next(part for part in parts if isinstance(part, Position))
            spots.append((pos.x, pos.y))
    return spots


def sealed_tiles(floor: Floor) -> int:
    """Open tiles the arrival cannot reach once every dose blocks its tile."""
    cost = travel_cost(floor)
    doses = dose_spots(floor)
    for x, y in doses:
        cost[y, x] = 0
    reach = distance_map(cost, [floor.arrival]) != UNREACHED
    open_ground = cost > 0
    return int((open_ground & ~reach).sum())


@pytest.mark.together("floor samples")
@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_no_dose_gates_any_part_of_a_thousand_floors_of_every_kind(first: int) -> None:
    kinds: Counter[str] = Counter()
    doses = 0
    for seed, floors in enumerate(sampled_games(first, "doses"), start=first):
        for floor in floors:
            kinds[floor.kind] += 1
            doses += len(dose_spots(floor))
            assert sealed_tiles(floor) == 0, (seed, floor.depth, floor.kind)
    assert set(kinds) == sampled_climates() and doses > CHUNK * DEPTH * 5


def test_a_corridor_tile_and_a_doorway_are_chokepoints_and_a_room_tile_is_not() -> None:
    rows = ["#########", "#...#...#", "#.......#", "#...#...#", "###.#####", "###.#####"]
    open_ground = np.array([[c == "." for c in row] for row in rows])
    cuts = chokepoints(open_ground)
    assert cuts[2, 4] and cuts[4, 3]  # the gap between the rooms, the corridor leaving one
    assert not cuts[1, 1] and not cuts[2, 2] and not cuts[5, 3]  # a room, and a dead end


def test_gates_kept_as_tiles_close_are_the_chokepoints_found_afresh() -> None:
    """Map generation keeps the chokepoints of every band's ground as doses are placed, looking only
    around each one: after every tile closed they are those of the masks as they now stand."""
    rng = Rng(48)
    masks = [np.array([[rng.chance(3, 4) for _ in range(30)] for _ in range(12)]) for _ in range(3)]
    masks[1][:, :] = masks[0]  # two bands alike but for a few tiles, as shifting walls leave them
    masks[1][5, 3:9] = False
    gates = Gates(masks)
    for _ in range(150):
        spot = (rng.below(30), rng.below(12))  # the edges too: their neighbours lie off the floor
        gates.block(spot)
        for mask in masks:
            mask[spot[1], spot[0]] = False
        ys, xs = np.logical_or.reduce([chokepoints(mask) for mask in masks]).nonzero()
        assert gates.spots == set(zip(xs.tolist(), ys.tolist(), strict=True)), spot
