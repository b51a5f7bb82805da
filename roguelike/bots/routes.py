"""Where a bot's next step leads: the floor's masks and distance maps, worked out once and reused.

A bot asks three things of a floor, several times a turn: what its tiles allow (walls,
stairs, walking costs), the first step down a Dijkstra map toward some goals, and how
many steps a tile is from the player. :class:`PlainRoutes` answers them the plain way,
afresh each time: that is what the answers mean, and what the tests hold the bots to.
:class:`Routes` gives exactly the same answers, faster:

- the tiles' masks and costs are kept per layout of the floor (a door opening makes a new one);
- a distance map is kept by (costs, goals) and reused while both are unchanged;
- a new map is first worked out only in a box around the player, and on the whole floor
  only when the box cannot prove the step exact (see :meth:`Box.sure_step`): exploring
  uncovers tiles, and so changes the goals, on most steps, but its goals lie near;
- the steps between the player and a tile are read from a map made from that tile (a
  walk is as long either way), kept while the floor's walking costs are unchanged (a
  door opening changes none).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import tcod.path
from numpy.typing import NDArray

from roguelike.core.distances import fill_distances
from roguelike.core.floor import PASSABLE, Floor
from roguelike.core.pathing import CARDINAL_COST, DIAGONAL_COST, distance_map, downhill_step, travel_cost
from roguelike.core.tiles import STAIRS_DOWN, STAIRS_UP

Mask = NDArray[np.bool_]
Costs = NDArray[np.int32]
Spot = tuple[int, int]  # (x, y); a step is (dx, dy)
UNREACHABLE = int(np.iinfo(np.int32).max)
# The neighbours in the order tcod's hillclimb2d tries them, as (dx, dy): the first of equal lows wins.
CLIMB: tuple[Spot, ...] = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (-1, 1), (1, -1), (1, 1))
# Each step of CLIMB with its (row, column) in the 3x3 block around a tile.
CLIMB_CELLS: tuple[tuple[int, int, Spot], ...] = tuple((dy + 1, dx + 1, (dx, dy)) for dx, dy in CLIMB)
CHEAPEST_MOVE = min(CARDINAL_COST, DIAGONAL_COST)  # walking costs are whole numbers, 1 or more where open
MAPS_KEPT = 8  # distance maps remembered (one per kind of goal is enough)
FLOORS_KEPT = 4  # layouts remembered
COUNTS_KEPT = 64  # step-count maps remembered (one per dose and stairs in view)
BOX_SLACK = 4  # a box reaches this many tiles further than the last step's distance asked for
BOX_SHARE = 0.6  # a box wider than this share of the floor is not worth it: the whole floor is mapped
FIRST_REACH = 8
BOX_TRIES = 2  # a box too small is tried again twice as large, before the whole floor
UNCUT = UNREACHABLE  # an edge of the box that is the floor's own edge: no walk leaves there


@dataclass(frozen=True, eq=False)
class Terrain:
    """What a floor's tiles allow: open tiles, stairs and walking costs (read-only arrays)."""

    open: Mask
    open_count: int
    stairs_down: Mask
    stairs: Mask  # up or down
    cost: Costs  # pathing.travel_cost of the floor
    cost_key: bytes  # the costs' bytes: the same when only a door opened

    def costs(self) -> Costs:
        """A copy of the walking costs, to close tiles in."""
        return self.cost.copy()

    def explored_fraction(self, explored: Mask) -> float:
        """Share of the open tiles explored (as :meth:`Floor.explored_fraction` works it out)."""
        return float(np.count_nonzero(explored & self.open)) / self.open_count if self.open_count else 0.0


@dataclass(frozen=True)
class Seen:
    """What the explored tiles make of a terrain: where exploring goes, the stairs found, the share seen."""

    unexplored: Mask
    stairs_down: Mask
    fraction: float
    any_unexplored: bool
    any_stairs_down: bool

    def any(self, goals: Mask) -> bool:
        """Whether ``goals`` holds a tile (known without a look when it is one of these masks)."""
        if goals is self.unexplored:
            return self.any_unexplored
        if goals is self.stairs_down:
            return self.any_stairs_down
        return bool(goals.any())


def seen_of(terrain: Terrain, explored: Mask) -> Seen:
    """The open tiles not yet explored, the stairs down explored, and the share of open tiles explored."""
    unexplored, stairs_down = ~explored & terrain.open, terrain.stairs_down & explored
    fraction = terrain.explored_fraction(explored)
    seen = Seen(unexplored, stairs_down, fraction, bool(unexplored.any()), bool(stairs_down.any()))
    seen.unexplored.flags.writeable = seen.stairs_down.flags.writeable = False
    return seen


def terrain_of(floor: Floor) -> Terrain:
    """The floor's terrain as its tiles stand now."""
    tiles = floor.tiles
    open_tiles, down = PASSABLE[tiles], tiles == STAIRS_DOWN
    cost = travel_cost(floor)
    terrain = Terrain(open_tiles, int(open_tiles.sum()), down, down | (tiles == STAIRS_UP), cost, cost.tobytes())
    for array in (terrain.open, terrain.stairs_down, terrain.stairs, terrain.cost):
        array.flags.writeable = False
    return terrain


def steps_from(cost: Costs, start: Spot) -> Costs:
    """How many steps (diagonals count one) it takes to walk from ``start`` to every tile."""
    steps: Costs = tcod.path.maxarray(cost.shape, dtype=np.int32)
    steps[start[1], start[0]] = 0
    fill_distances(steps, cost, 1, 1)
    return steps


class RouteFinder(Protocol):
    """What the bots ask of a floor (both kinds below answer alike)."""

    def terrain(self, floor: Floor) -> Terrain:
        """The floor's terrain."""
        ...

    def seen(self, terrain: Terrain, explored: Mask) -> Seen:
        """What the explored tiles make of the terrain."""
        ...

    def step(self, cost: Costs, goals: Mask, start: Spot) -> Spot | None:
        """The first step from ``start`` down the distance map to ``goals`` (None: there, or no way)."""
        ...

    def steps(self, terrain: Terrain, start: Spot, target: Spot) -> int:
        """Steps from ``start`` to ``target`` over the terrain's costs (UNREACHABLE if no way)."""
        ...


class PlainRoutes:
    """Every answer worked out afresh, the plain way: what :class:`Routes` must equal."""

    def terrain(self, floor: Floor) -> Terrain:
        """The floor's terrain."""
        return terrain_of(floor)

    def seen(self, terrain: Terrain, explored: Mask) -> Seen:
        """What the explored tiles make of the terrain."""
        return seen_of(terrain, explored)

    def step(self, cost: Costs, goals: Mask, start: Spot) -> Spot | None:
        """Down a distance map of the whole floor."""
        return downhill_step(distance_map(cost, goals), start)

    def steps(self, terrain: Terrain, start: Spot, target: Spot) -> int:
        """Read from a map of steps from ``start``."""
        return int(steps_from(terrain.cost, start)[target[1], target[0]])


@dataclass(frozen=True)
class Box:
    """A distance map worked out over a box of the floor (perhaps all of it), at ``left, top``."""

    dist: Costs
    left: int
    top: int
    floor_shape: tuple[int, int]

    def sure_step(self, start: Spot) -> tuple[bool, Spot | None]:
        """Whether the box proves the first step from ``start`` exact, and that step.

        A walk that leaves the box costs at least CHEAPEST_MOVE a step, so from a tile m
        steps inside its cut edges it costs at least CHEAPEST_MOVE * m. If the start's
        distance in the box is no more than that bound for its neighbours, it is the true
        distance; every neighbour the box puts lower is exact too, and every other one is
        truly no lower than the start, so cannot be the step: the box and the floor's map
        choose the same step.
        """
        x, y = start[0] - self.left, start[1] - self.top
        height, width = self.dist.shape
        if not (0 <= x < width and 0 <= y < height):
            return False, None
        here = int(self.dist[y, x])
        if here > CHEAPEST_MOVE * self.inside(x, y):
            return False, None
        return True, first_step(self.dist, x, y, here)

    def inside(self, x: int, y: int) -> int:
        """Steps from the neighbours of box tile ``(x, y)`` to the nearest tile beyond a cut edge."""
        height, width = self.dist.shape
        return min(
            x if self.left > 0 else UNCUT,
            width - x - 1 if self.left + width < self.floor_shape[1] else UNCUT,
            y if self.top > 0 else UNCUT,
            height - y - 1 if self.top + height < self.floor_shape[0] else UNCUT,
        )


def first_step(dist: Costs, x: int, y: int, here: int) -> Spot | None:
    """The first step of tcod's hillclimb2d from ``(x, y)``: the lowest neighbour below, first of equals."""
    if here == 0 or here == UNREACHABLE:
        return None
    height, width = dist.shape
    if 0 < x < width - 1 and 0 < y < height - 1:  # all eight neighbours exist: the common case
        around = dist[y - 1 : y + 2, x - 1 : x + 2].tolist()
        best, step = here, None
        for row, column, climb in CLIMB_CELLS:
            if around[row][column] < best:
                best, step = around[row][column], climb
        return step
    left, top = max(0, x - 1), max(0, y - 1)
    around = dist[top : y + 2, left : x + 2].tolist()
    best, step = here, None
    for dx, dy in CLIMB:
        row, column = y + dy - top, x + dx - left
        if 0 <= row < len(around) and 0 <= column < len(around[row]) and around[row][column] < best:
            best, step = around[row][column], (dx, dy)
    return step


def boxed_map(cost: Costs, goals: Mask, start: Spot, reach: int) -> Box:
    """The distance map to the goals within ``reach`` tiles of ``start``, walking only there."""
    height, width = cost.shape
    left, top = max(0, start[0] - reach), max(0, start[1] - reach)
    area = slice(top, min(height, start[1] + reach + 1)), slice(left, min(width, start[0] + reach + 1))
    return Box(distance_map(cost[area], goals[area]), left, top, (height, width))


def whole_map(cost: Costs, goals: Mask) -> Box:
    """The distance map to the goals over the whole floor."""
    return Box(distance_map(cost, goals), 0, 0, (cost.shape[0], cost.shape[1]))


class Routes:
    """The same answers as :class:`PlainRoutes`, from what was worked out before where it still holds."""

    def __init__(self) -> None:
        # Looked up by comparing bytes, newest first: a few entries, and comparing is
        # cheaper than hashing kilobytes of costs and goals on every question.
        self.terrains: list[tuple[tuple[int, ...], bytes, Terrain]] = []
        self.seen_last: tuple[Terrain, bytes, Seen] | None = None
        self.maps: list[tuple[bytes, bytes, Box]] = []
        self.counts: dict[tuple[bytes, Spot], Costs] = {}
        self.reach = FIRST_REACH  # how far the last step's goals lay, in tiles

    def terrain(self, floor: Floor) -> Terrain:
        """The floor's terrain, kept while its tiles are unchanged."""
        shape, tiles = floor.tiles.shape, floor.tiles.tobytes()
        for known_shape, known_tiles, terrain in self.terrains:
            if known_tiles == tiles and known_shape == shape:
                return terrain
        if len(self.terrains) >= FLOORS_KEPT:
            self.terrains.clear()
        terrain = terrain_of(floor)
        self.terrains.insert(0, (shape, tiles, terrain))
        return terrain

    def seen(self, terrain: Terrain, explored: Mask) -> Seen:
        """What the explored tiles make of the terrain, kept while neither changes."""
        key = explored.tobytes()
        if self.seen_last is not None and self.seen_last[0] is terrain and self.seen_last[1] == key:
            return self.seen_last[2]
        found = seen_of(terrain, explored)
        self.seen_last = (terrain, key, found)
        return found

    def step(self, cost: Costs, goals: Mask, start: Spot) -> Spot | None:
        """From the map kept for these costs and goals, else from a box around ``start``, else the floor."""
        key = (cost.tobytes(), goals.tobytes())
        old = self.kept(key)
        for box in [old] if old is not None else self.boxes(cost, goals, start):
            sure, step = box.sure_step(start)
            if sure:
                self.keep(key, box, old, start)
                return step
        box = whole_map(cost, goals)
        self.keep(key, box, old, start)
        return box.sure_step(start)[1]

    def boxes(self, cost: Costs, goals: Mask, start: Spot) -> Iterator[Box]:
        """Maps over growing boxes around ``start``, while a box is worth it."""
        reach = self.reach
        for _ in range(BOX_TRIES):
            if 2 * reach + 1 >= BOX_SHARE * cost.shape[1]:
                return
            yield boxed_map(cost, goals, start, reach)
            reach *= 2

    def kept(self, key: tuple[bytes, bytes]) -> Box | None:
        """The map kept for these costs and goals, if any."""
        for cost, goals, box in self.maps:
            if goals == key[1] and cost == key[0]:
                return box
        return None

    def keep(self, key: tuple[bytes, bytes], box: Box, old: Box | None, start: Spot) -> None:
        """Remember a map in place of ``old`` (newest first), and how far its goals lie, to size the next box."""
        rest = [entry for entry in self.maps if entry[2] is not old]
        self.maps = [(key[0], key[1], box)] + rest[: MAPS_KEPT - 1]
        here = int(box.dist[start[1] - box.top, start[0] - box.left])
        if here != UNREACHABLE:
            self.reach = here // CHEAPEST_MOVE + BOX_SLACK

    def steps(self, terrain: Terrain, start: Spot, target: Spot) -> int:
        """Read at ``start`` from a map of steps from ``target``: each walk, reversed, is the other's."""
        if start == target:
            return 0
        cost = terrain.cost
        if not cost[start[1], start[0]]:  # nothing walks onto the start, so only its own map is right
            return int(steps_from(cost, start)[target[1], target[0]])
        if not cost[target[1], target[0]]:
            return UNREACHABLE
        found = self.counts.get((terrain.cost_key, target))
        if found is None:
            if len(self.counts) >= COUNTS_KEPT:
                self.counts.clear()
            found = self.counts[(terrain.cost_key, target)] = steps_from(cost, target)
        return int(found[start[1], start[0]])
