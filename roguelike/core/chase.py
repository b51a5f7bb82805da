"""The hunters' chase maps: walking distances to the player, and each tile's ways down them.

A map is a pure function of the floor's chase costs and the player's tile, so maps are
kept by both and shared between turns (the player often stands where it stood before, or
crosses a floor more than once). A new map is first worked out only in a box around the
player wide enough for the hunters, and on the whole floor only when the box cannot prove
a hunter's step exact (see :meth:`Chase.sure`): hunters mostly close in from nearby.
Maps are flat arrays indexed ``y * width + x``; ``moves`` pairs every step with its offset there.
"""

from __future__ import annotations

import array
import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from roguelike.core.distances import fill_distances
from roguelike.core.floor import TRAVEL_COST
from roguelike.core.pathing import CARDINAL_COST, DIAGONAL_COST, NEIGHBOURS

# Hunters path through closed doors (they open them on the way); walls cost 0 (blocked).
CHASE_COST = TRAVEL_COST
# The same as a table of 256 for ``bytes.translate``: a floor's chase costs, one byte a tile.
CHASE_BYTES = bytes(int(CHASE_COST[value]) if value < len(CHASE_COST) else 0 for value in range(256))
UNREACHABLE = int(np.iinfo(np.int32).max)
CHEAPEST_STEP = min(CARDINAL_COST, DIAGONAL_COST)  # every open tile costs 1 to enter
UNCUT = UNREACHABLE  # a box edge that is the floor's own edge: no walk leaves there
# Maps kept: one per tile a player stood on while hunted, up to about every open tile of a
# floor (80 x 21 tiles: 6.7 kB a map), so a player crossing a floor back and forth reuses them.
MAPS_KEPT = 512
LAYOUTS_KEPT = 8  # chase costs kept per floor's tiles (a door opening makes new tiles, the same costs)
# A box reaches BOX_SPAN times as far as the farthest hunter, and BOX_SLACK tiles more: a walk
# there costs up to 3 a tile, and the box proves it only if leaving the box and coming back
# would cost more (at least 2 a tile: about 2.5 times the hunter's distance, without walls).
BOX_SPAN, BOX_SLACK = 2, 3
BOX_SHARE = 0.6  # a box wider than this share of the floor saves too little: the whole floor is mapped

Spot = tuple[int, int]
Moves = tuple[tuple[Spot, int], ...]
Reach = Callable[[], int]  # how far (in king's moves) the farthest hunter stands from the player


@functools.lru_cache(maxsize=8)
def moves(width: int) -> Moves:
    """Every step in :data:`NEIGHBOURS` order with its offset in a flat array ``width`` wide."""
    return tuple((step, step[1] * width + step[0]) for step in NEIGHBOURS)


@dataclass(frozen=True)
class Box:
    """The part of a floor a map was worked out over: columns ``left:right``, rows ``top:bottom``."""

    left: int
    top: int
    right: int
    bottom: int
    width: int  # the floor's
    height: int

    def way_out(self, x: int, y: int, gx: int, gy: int) -> int:
        """Fewest steps of a walk from a neighbour of ``(x, y)`` that leaves the box and comes back to ``(gx, gy)``.

        Leaving across a cut edge means reaching the row or column beyond it, then coming
        back from there; an edge that is the floor's own cannot be crossed.
        """
        return min(
            x - self.left + gx - self.left + 1 if self.left > 0 else UNCUT,
            self.right - 1 - x + self.right - gx if self.right < self.width else UNCUT,
            y - self.top + gy - self.top + 1 if self.top > 0 else UNCUT,
            self.bottom - 1 - y + self.bottom - gy if self.bottom < self.height else UNCUT,
        )


class Chase:
    """The walking distances to the player, and from each tile its ways down them, best first."""

    def __init__(self, dist: array.array[int], cost: bytes, width: int, goal: Spot, box: Box | None = None) -> None:
        self.dist = dist
        self.cost, self.width, self.goal = cost, width, goal  # what it maps
        self.box = box  # None: the whole floor
        self.moves = moves(width)
        self.ways: dict[int, tuple[Spot, ...]] = {}  # by flat index, filled in as hunters stand there

    def sure(self, x: int, y: int) -> bool:
        """Whether the map gives ``(x, y)`` the ways down a map of the whole floor gives it.

        A walk from a neighbour to the player that leaves the box costs at least
        CHEAPEST_STEP a step, so at least CHEAPEST_STEP times :meth:`Box.way_out`. If the
        tile's distance in the box is no more than that, it is the true distance; every
        neighbour the box puts lower is exact too, and every other one is truly no lower
        than the tile: the box and the whole floor give the same ways down.
        """
        box = self.box
        return box is None or self.dist[y * self.width + x] <= CHEAPEST_STEP * box.way_out(x, y, *self.goal)

    def find_ways(self, index: int) -> tuple[Spot, ...]:
        """The steps from flat ``index`` to each neighbour nearer the player, nearest first (ties: first in order).

        Whoever stands there is not considered: :meth:`Hunt.chase_step` takes the first
        free one, which is the step :meth:`Hunt.descend` finds. Worked out once per tile and map.
        """
        dist = self.dist
        here = dist[index]
        lower = sorted(
            (dist[index + offset], order, step)
            for order, (step, offset) in enumerate(self.moves)
            if dist[index + offset] < here
        )
        found = self.ways[index] = tuple(step for _, _, step in lower)
        return found


@functools.lru_cache(maxsize=LAYOUTS_KEPT)
def chase_layout(tiles: bytes) -> bytes:
    """A floor's chase costs (see :data:`CHASE_COST`) from its tiles given as bytes, one byte a tile.

    Cached, so equal tiles give the same bytes object, whose hash is worked out once; and a
    door opening, which changes the tiles but not what a hunter may walk, keeps the maps.
    """
    return tiles.translate(CHASE_BYTES)


MapKey = tuple[bytes, int, Spot]
_kept: dict[MapKey, Chase] = {}  # oldest first


def chase_map(cost: bytes, width: int, goal: Spot, reach: Reach | None = None) -> Chase:
    """The map kept for these costs and player's tile, else a new one over a box wide enough for ``reach``.

    ``cost`` comes from :func:`chase_layout`. The map is shared between callers: never modify it.
    """
    key = (cost, width, goal)
    found = _kept.get(key)
    if found is None:
        found = boxed_map(cost, width, goal, reach()) if reach is not None else whole_map(cost, width, goal)
        keep(key, found)
    return found


def whole_floor(chase: Chase) -> Chase:
    """The map of the whole floor in place of ``chase`` (a box that could not prove a step), kept instead."""
    whole = whole_map(chase.cost, chase.width, chase.goal)
    whole.ways.update(chase.ways)  # the box proved those
    keep((chase.cost, chase.width, chase.goal), whole)
    return whole


def keep(key: MapKey, chase: Chase) -> None:
    """Remember a map (the oldest is forgotten past :data:`MAPS_KEPT`)."""
    if key not in _kept and len(_kept) >= MAPS_KEPT:
        del _kept[next(iter(_kept))]
    _kept[key] = chase


def forget_maps() -> None:
    """Forget every kept map (for tests that count the maps made)."""
    _kept.clear()


def boxed_map(cost: bytes, width: int, goal: Spot, reach: int) -> Chase:
    """A map over a box around ``goal`` ``reach`` hunters' distances wide, or the whole floor when that is nearly all of it."""
    span = BOX_SPAN * reach + BOX_SLACK
    if 2 * span + 1 >= BOX_SHARE * width:
        return whole_map(cost, width, goal)
    height = len(cost) // width
    gx, gy = goal
    box = Box(
        max(0, gx - span), max(0, gy - span), min(width, gx + span + 1), min(height, gy + span + 1), width, height
    )
    return mapped(cost, width, goal, box)


def whole_map(cost: bytes, width: int, goal: Spot) -> Chase:
    """Walking distances to ``goal`` over the whole floor."""
    return mapped(cost, width, goal, None)


def mapped(cost: bytes, width: int, goal: Spot, box: Box | None) -> Chase:
    """Walking distances to ``goal`` within ``box`` (None: the whole floor); unreachable elsewhere."""
    costs = np.frombuffer(cost, dtype=np.uint8).reshape(-1, width)
    dist = np.full(costs.shape, UNREACHABLE, dtype=np.int32)
    dist[goal[1], goal[0]] = 0
    if box is None:
        fill_distances(dist, costs, CARDINAL_COST, DIAGONAL_COST)
    else:
        area = slice(box.top, box.bottom), slice(box.left, box.right)
        inside = dist[area]  # a view: the search fills the box's part of ``dist``
        fill_distances(inside, costs[area], CARDINAL_COST, DIAGONAL_COST)
    return Chase(array.array("i", dist.tobytes()), cost, width, goal, box)
