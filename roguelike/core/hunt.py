"""What the monsters share while they act in one turn: who stands where, and the path maps.

Hunters all descend one distance map toward the player, computed once per turn (and
cached by the player's tile), so forty of them cost one Dijkstra search rather than
forty; each tile's best way down that map is found once and kept with it, so a hunter
whose way is free reads its step. Path maps are flat arrays indexed ``y * width + x`` (quicker to
build and read than nested lists); ``moves`` pairs every step with its offset in such an array.
"""

from __future__ import annotations

import array
import functools

import numpy as np
import tcod.path

from roguelike.content import formulas
from roguelike.core.floor import WALKABLE, Floor, Tile
from roguelike.core.pathing import CARDINAL_COST, DIAGONAL_COST, NEIGHBOURS, distance_map
from roguelike.core.rng import Rng

# Hunters path through closed doors (they open them on the way); walls cost 0 (blocked).
CHASE_COST = (WALKABLE | (np.arange(len(WALKABLE)) == Tile.DOOR_CLOSED)).astype(np.int32)
# The same as a table of 256 for ``bytes.translate``: a floor's chase costs, one byte a tile.
CHASE_BYTES = bytes(int(CHASE_COST[value]) if value < len(CHASE_COST) else 0 for value in range(256))
UNREACHABLE = int(np.iinfo(np.int32).max)
# Maps kept: one per tile a player stood on while hunted, up to about every open tile of a
# floor (80 x 21 tiles: 6.7 kB a map), so a player crossing a floor back and forth reuses them.
CHASE_CACHE_SIZE = 512
LAYOUTS_KEPT = 8  # chase costs kept per floor's tiles (a door opening makes new tiles, the same costs)
# Tile value -> 1 where a creature can stand, for ``bytes.translate`` (a table of 256).
STANDING = bytes(int(WALKABLE[value]) if value < len(WALKABLE) else 0 for value in range(256))

Spot = tuple[int, int]
Moves = tuple[tuple[Spot, int], ...]


class Hunt:
    """The monsters' turn: the player's tile, who blocks which tile, the path maps."""

    def __init__(
        self, floor: Floor, rng: Rng, player_at: Spot, blocked: dict[Spot, int],
        wander: tuple[int, int] = formulas.WANDER_CHANCE,
    ) -> None:
        self.floor = floor
        self.wander = wander  # how often an idle monster ambles (it follows the State of Mind)
        self.rng = rng
        self.player_at = player_at
        self.blocked = blocked
        self.tiles = floor.tiles
        self.width = int(self.tiles.shape[1])
        self.moves = moves(self.width)
        self.step: Spot | None = None  # what the monster acting now chose to do
        self._walkable: bytes | None = None
        self._chase: Chase | None = None
        self._flanks: array.array[int] | None = None

    def occupants(self, x: int, y: int) -> tuple[int, ...]:
        """Who blocks a tile (monsters ignore doses, so only blockers count)."""
        found = self.blocked.get((x, y))
        return () if found is None else (found,)

    def moved(self, entity: int, old: Spot, new: Spot) -> None:
        """Note an actor's step."""
        del self.blocked[old]
        self.blocked[new] = entity

    def gone(self, spot: Spot) -> None:
        """Note an actor that vanished."""
        self.blocked.pop(spot, None)

    def chase(self) -> Chase:
        """Walking distance to the player from every tile (looked up once, when needed)."""
        if self._chase is None:
            self._chase = chase_map(chase_layout(self.tiles.tobytes()), self.width, self.player_at)
        return self._chase

    def chase_step(self, x: int, y: int) -> Spot | None:
        """Down the chase map from ``(x, y)``: the step :meth:`descend` takes (a wander if the player is out of reach).

        The map knows each tile's ways down, best first; the step is the first of them
        nobody stands on.
        """
        chase = self._chase or self.chase()
        index = y * self.width + x
        ways = chase.ways.get(index)
        if ways is None:
            if chase.dist[index] == UNREACHABLE:
                return self.wander_step(x, y)  # the player cannot be reached: roam
            ways = chase.find_ways(index)
        blocked, player_at = self.blocked, self.player_at
        for step in ways:
            spot = (x + step[0], y + step[1])
            if spot not in blocked or spot == player_at:
                return step
        return None

    def flank_step(self, x: int, y: int) -> Spot | None:
        """Down the flanking map, toward a free tile beside the player."""
        return self.descend(self._flanks or self.flanks(), x, y, UNREACHABLE)

    def descend(self, dist: array.array[int], x: int, y: int, here: int) -> Spot | None:
        """The free step to the lowest tile of a path map below ``here`` (None: hold still)."""
        blocked, player_at = self.blocked, self.player_at
        index = y * self.width + x
        best, best_distance = None, here
        for step, offset in self.moves:
            d = dist[index + offset]
            if d < best_distance:
                spot = (x + step[0], y + step[1])
                if spot == player_at or spot not in blocked:
                    best, best_distance = step, d
        return best

    def flanks(self) -> array.array[int]:
        """Walking distance to the free tiles beside the player, going round every monster.

        A pack hunter near the player follows this instead of the chase map, so the pack
        spreads around the player rather than queueing behind the first of them. Only the
        player's surroundings are searched (computed once a turn, if at all).
        """
        reach = formulas.FLANK_RANGE + 1
        px, py = self.player_at
        left, top = max(0, px - reach), max(0, py - reach)
        cost = CHASE_COST[self.tiles[top : py + reach + 1, left : px + reach + 1]]
        for bx, by in self.blocked:
            if 0 <= by - top < cost.shape[0] and 0 <= bx - left < cost.shape[1]:
                cost[by - top, bx - left] = 0
        free = [(px + dx - left, py + dy - top) for dx, dy in NEIGHBOURS if cost[py + dy - top, px + dx - left]]
        full = np.full(self.tiles.shape, UNREACHABLE, dtype=np.int32)
        full[top : top + cost.shape[0], left : left + cost.shape[1]] = distance_map(cost, free)
        self._flanks = array.array("i", full.tobytes())
        return self._flanks

    def wander_step(self, x: int, y: int) -> Spot | None:
        """Now and then, a random step onto a free open tile."""
        rng = self.rng
        if not rng.chance(*self.wander):
            return None
        walkable, blocked, index = self._walkable or self.walkable(), self.blocked, y * self.width + x
        options = [
            step for step, offset in self.moves
            if walkable[index + offset] and (x + step[0], y + step[1]) not in blocked
        ]
        return rng.choice(options) if options else None

    def walkable(self) -> bytes:
        """Where a creature can stand, flat, as the tiles are when the first monster wanders.

        Kept for the rest of the turn, so a door a monster opens later in the turn stays
        closed to wanderers until the next one (the rule the replays were recorded with).
        """
        self._walkable = self.tiles.tobytes().translate(STANDING)
        return self._walkable


@functools.lru_cache(maxsize=8)
def moves(width: int) -> Moves:
    """Every step in :data:`NEIGHBOURS` order with its offset in a flat array ``width`` wide."""
    return tuple((step, step[1] * width + step[0]) for step in NEIGHBOURS)


class Chase:
    """The walking distances to the player, and from each tile its ways down them, best first.

    Both are pure functions of the floor's costs and the player's tile (see
    :func:`chase_map`), so they are shared between turns and never go stale.
    """

    def __init__(self, dist: array.array[int], width: int) -> None:
        self.dist = dist
        self.moves = moves(width)
        self.ways: dict[int, tuple[Spot, ...]] = {}  # by flat index, filled in as hunters stand there

    def find_ways(self, index: int) -> tuple[Spot, ...]:
        """The steps from flat ``index`` to each neighbour nearer the player, nearest first (ties: first in order).

        Whoever stands there is not considered: :meth:`Hunt.chase_step` takes the first
        free one, which is the step :meth:`Hunt.descend` finds. Worked out once per tile and map.
        """
        dist = self.dist
        here = dist[index]
        lower = sorted(
            (dist[index + offset], order, step)
            for order, (step, offset) in enumerate(self.moves) if dist[index + offset] < here
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


@functools.lru_cache(maxsize=CHASE_CACHE_SIZE)
def chase_map(cost: bytes, width: int, goal: Spot) -> Chase:
    """Walking distances to ``goal`` over a floor's chase costs (:func:`chase_layout`), as a flat array.

    A pure function of its arguments, so it is cached: the player often stands where it
    stood a turn before (fighting, waiting), or crosses a floor more than once, and a
    floor's costs rarely change. The map is shared between callers: never modify it.
    """
    cost_map = np.frombuffer(cost, dtype=np.uint8).reshape(-1, width)
    dist = np.full(cost_map.shape, UNREACHABLE, dtype=np.int32)
    dist[goal[1], goal[0]] = 0
    tcod.path.dijkstra2d(dist, cost_map, CARDINAL_COST, DIAGONAL_COST, out=dist)
    return Chase(array.array("i", dist.tobytes()), width)
