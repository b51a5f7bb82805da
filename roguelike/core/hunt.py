"""What the monsters share while they act in one turn: who stands where, and the path maps.

Hunters all descend one distance map toward the player (:mod:`roguelike.core.chase`, kept
by the player's tile), so forty of them cost one Dijkstra search rather than forty; each
tile's ways down that map are found once and kept with it, so a hunter reads its step.
Path maps are flat arrays indexed ``y * width + x`` (quicker to build and read than nested
lists); ``moves`` pairs every step with its offset in such an array.
"""

from __future__ import annotations

import array
from collections.abc import Callable

import numpy as np

from roguelike.content import formulas
from roguelike.core.chase import (
    CHASE_COST,
    UNREACHABLE,
    Chase,
    Reach,
    Spot,
    chase_layout,
    chase_map,
    moves,
    whole_floor,
)
from roguelike.core.floor import WALKABLE, Floor
from roguelike.core.pathing import NEIGHBOURS, distance_map
from roguelike.core.rng import Purpose, Rng, WorldClock

# Tile value -> 1 where a creature can stand, for ``bytes.translate`` (a table of 256).
STANDING = bytes(int(WALKABLE[value]) if value < len(WALKABLE) else 0 for value in range(256))
# From this many idle monsters on, their wandering streams' seeds are worked out together in
# numpy (about 19 us, then 0.2 us a monster); fewer are quicker one by one (about 1.5 us each).
BULK_FROM = 12
# The tiles Hunt.walkable last translated and what it made of them: comparing 1,680 bytes
# costs a tenth of translating them again, and most turns the floor is as it was.
_standing: tuple[bytes, bytes] = (b"", b"")


class Hunt:
    """The monsters' turn: the player's tile, who blocks which tile, the path maps."""

    def __init__(
        self,
        floor: Floor,
        stream: WorldClock,
        player_at: Spot,
        blocked: dict[Spot, int],
        wander: tuple[int, int] = formulas.WANDER_CHANCE,
        reach: Reach | None = None,
        idle: Callable[[], list[Spot]] | None = None,
    ) -> None:
        self.floor = floor
        self.wander = wander  # how often an idle monster ambles (it follows the State of Mind)
        self.stream = stream  # where the wanderers draw: (seed, floor, turn), each at its own tile
        self.reach = reach  # how far the hunters stand, to size a new chase map (None: the whole floor)
        self.idle = idle  # where the monsters that are not hunting stand, asked when the first one wanders
        self.player_at = player_at
        self.blocked = blocked
        self.tiles = floor.tiles
        self.width = int(self.tiles.shape[1])
        self.moves = moves(self.width)
        self._walkable: bytes | None = None
        self._chase: Chase | None = None
        self._flanks: array.array[int] | None = None
        self._wander_seeds: dict[Spot, int] | None = None

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
            self._chase = chase_map(chase_layout(self.tiles.tobytes()), self.width, self.player_at, self.reach)
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
            if not chase.sure(x, y):  # a map of a box, too small for this hunter
                chase = self._chase = whole_floor(chase)
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
        """Now and then, a random step onto a free open tile (drawn from the stream of this tile and turn)."""
        seed = (self._wander_seeds if self._wander_seeds is not None else self.wander_seeds()).get((x, y))
        rng = Rng(seed) if seed is not None else self.stream.at(Purpose.WANDER, x, y)
        if not rng.chance(*self.wander):
            return None
        walkable, blocked, index = self._walkable or self.walkable(), self.blocked, y * self.width + x
        options = [
            step
            for step, offset in self.moves
            if walkable[index + offset] and (x + step[0], y + step[1]) not in blocked
        ]
        return rng.choice(options) if options else None

    def wander_seeds(self) -> dict[Spot, int]:
        """The seeds of the wandering streams this turn at the idle monsters' tiles, worked out at once.

        A seed is a function of the turn and the tile alone, so one worked out for a tile
        serves whoever wanders from there; a tile left out (a monster that moved since, a
        hunter that cannot reach the player, too few idle monsters) gets its own, the same.
        """
        spots = self.idle() if self.idle is not None else []
        found = self._wander_seeds = (
            dict(zip(spots, self.stream.seeds_at(Purpose.WANDER, spots))) if len(spots) >= BULK_FROM else {}
        )
        return found

    def walkable(self) -> bytes:
        """Where a creature can stand, flat, as the tiles are when the first monster wanders.

        Kept for the rest of the turn, so a door a monster opens later in the turn stays
        closed to wanderers until the next one (the rule the replays were recorded with).
        """
        global _standing
        tiles, kept = self.tiles.tobytes(), _standing  # one read of the pair: another thread's game may replace it
        if kept[0] != tiles:  # most turns the tiles are the last turn's: no translation
            kept = _standing = tiles, tiles.translate(STANDING)
        self._walkable = kept[1]
        return self._walkable
