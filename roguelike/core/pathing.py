"""Shortest paths over a floor with tcod's Dijkstra, for the AI takeover, the bot and the player's
auto-explore and travel."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import tcod.path
from numpy.typing import NDArray

from roguelike.core.distances import fill_distances
from roguelike.core.floor import TRAVEL_COST, Floor

CARDINAL_COST = 2
DIAGONAL_COST = 3
# Steps in a fixed order, so ties always break the same way.
NEIGHBOURS: tuple[tuple[int, int], ...] = (
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
)


def chebyshev(ax: int, ay: int, bx: int, by: int) -> int:
    """Distance in king's moves."""
    return max(abs(ax - bx), abs(ay - by))


def travel_cost(floor: Floor) -> NDArray[np.int32]:
    """Cost of entering each tile: its terrain's move cost where one can walk or open a door, 0 for walls."""
    cost: NDArray[np.int32] = TRAVEL_COST[floor.tiles]
    return cost


def steer_clear(cost: NDArray[np.int32], avoid: NDArray[np.bool_], here: tuple[int, int]) -> NDArray[np.int32]:
    """``cost`` with the ``avoid`` tiles closed, but never the tile underfoot (or no path leaves it)."""
    cost[avoid] = 0
    cost[here[1], here[0]] = 1
    return cost


def frontier(floor: Floor) -> NDArray[np.bool_]:
    """Seen tiles one can walk onto (or open) that touch a tile never seen: where exploring goes."""
    unseen = np.pad(~floor.explored, 1, constant_values=False)
    height, width = floor.explored.shape
    touches = np.zeros_like(floor.explored)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            touches |= unseen[1 + dy : 1 + dy + height, 1 + dx : 1 + dx + width]
    result: NDArray[np.bool_] = floor.explored & (travel_cost(floor) > 0) & touches
    return result


Goals = Iterable[tuple[int, int]] | NDArray[np.bool_]


def goal_mask(shape: tuple[int, ...], goals: Goals) -> NDArray[np.bool_]:
    """Goals as a boolean ``[y, x]`` mask (given as a mask already, or as ``(x, y)`` points)."""
    if isinstance(goals, np.ndarray):
        return goals
    mask = np.zeros(shape, dtype=bool)
    for x, y in goals:
        mask[y, x] = True
    return mask


def distance_map(cost: NDArray[np.int32], goals: Goals) -> NDArray[np.int32]:
    """Walking distance from every tile to the nearest goal."""
    dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
    dist[goal_mask(cost.shape, goals)] = 0
    fill_distances(dist, cost, CARDINAL_COST, DIAGONAL_COST)
    return dist


def step_toward(cost: NDArray[np.int32], start: tuple[int, int], goals: Goals) -> tuple[int, int] | None:
    """The first step ``(dx, dy)`` from ``start`` toward the nearest goal, if reachable."""
    mask = goal_mask(cost.shape, goals)
    if not mask.any():
        return None
    return downhill_step(distance_map(cost, mask), start)


def downhill_step(dist: NDArray[np.int32], start: tuple[int, int]) -> tuple[int, int] | None:
    """The first step down a distance map from ``start`` (None if unreachable or there)."""
    sx, sy = start
    if dist[sy, sx] == np.iinfo(np.int32).max or dist[sy, sx] == 0:
        return None
    path = tcod.path.hillclimb2d(dist, (sy, sx), True, True)
    if len(path) < 2:
        return None
    ny, nx = int(path[1][0]), int(path[1][1])
    return nx - sx, ny - sy
