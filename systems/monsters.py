"""Monster AI: noticing the player, the hunt along a shared path map, wandering, attacking.

Monsters act when the turn's clock ticks, one after another in entity-id order, each
spending the action points its kind has (Depression two). Hunters all descend one
distance map toward the player, computed once per turn (and cached by the player's
tile), so forty of them cost one Dijkstra search rather than forty.
"""

from __future__ import annotations

import array
import functools
import operator
from typing import Any

import esper
import numpy as np
import tcod.path
from numpy.typing import NDArray

from components import BlocksMovement, Monster, Player, Position
from components.monsters import NO_TARGET
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.core.ecs import Phase, system
from roguelike.core.floor import WALKABLE, Tile
from roguelike.core.pathing import CARDINAL_COST, DIAGONAL_COST, distance_map
from roguelike.core.state import GameState
from systems.combat import bestiary_of, count, strike

# Steps in a fixed order, so ties always break the same way.
NEIGHBOURS: tuple[tuple[int, int], ...] = (
    (0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1),
)
# Hunters path through closed doors (they open them on the way); walls cost 0 (blocked).
CHASE_COST = (WALKABLE | (np.arange(len(WALKABLE)) == Tile.DOOR_CLOSED)).astype(np.int32)
UNREACHABLE = int(np.iinfo(np.int32).max)
DOOR_CLOSED = int(Tile.DOOR_CLOSED)
CHASE_CACHE_SIZE = 64
ACTION_POINTS = {kind.key: kind.action_points for kind in MONSTER_KINDS.values()}
PACK = {kind.key: kind.pack for kind in MONSTER_KINDS.values()}

Spot = tuple[int, int]
Roster = list[tuple[int, Monster, Position]]
_by_id = operator.itemgetter(0)
_roster_memo: list[Any] = []  # [esper's monster list, the roster built from it]


def roster() -> Roster:
    """Every monster with its position, in id order.

    Same answer as ``matching((Monster, Position))`` (every monster has a position), at
    a fraction of the cost: esper rebuilds two-component queries slowly after any change,
    and this runs several times a turn. esper hands back the very same list object for
    ``get_component(Monster)`` until a component is added or removed anywhere, so the
    roster built from it is reused until then.
    """
    monsters = esper.get_component(Monster)
    if _roster_memo and _roster_memo[0] is monsters:
        memo: Roster = _roster_memo[1]
        return memo
    position_of = esper.component_for_entity
    found = [(entity, monster, position_of(entity, Position)) for entity, monster in monsters]
    found.sort(key=_by_id)
    _roster_memo[:] = [monsters, found]
    return found


def occupied(blockers_only: bool = True) -> set[Spot]:
    """Tiles where something stands (only things that block movement by default)."""
    if not blockers_only:
        return {(p.x, p.y) for _, p in esper.get_component(Position)}
    position_of = esper.component_for_entity
    blockers = (position_of(entity, Position) for entity, _ in esper.get_component(BlocksMovement))
    return {(p.x, p.y) for p in blockers}


def blockers(monsters: Roster, player: int) -> set[Spot]:
    """:func:`occupied`, quicker when the monsters and the player are all that block."""
    if len(esper.get_component(BlocksMovement)) != len(monsters) + 1:
        return occupied()
    spots = {(p.x, p.y) for _, _, p in monsters}
    pos = esper.component_for_entity(player, Position)
    spots.add((pos.x, pos.y))
    return spots


def monsters_in_sight(state: GameState) -> list[Spot]:
    """Positions of the monsters the player sees, in id order."""
    visible = state.visible
    return [(p.x, p.y) for _, _, p in roster() if visible[p.y, p.x]]


def chebyshev(ax: int, ay: int, bx: int, by: int) -> int:
    """Distance in king's moves."""
    return max(abs(ax - bx), abs(ay - by))


@system(Player, Position, phase=Phase.CLOCK)
def notice_player(state: GameState, entity: int, player: Player, pos: Position) -> None:
    """Monsters that see the player near enough hunt it; a pack hunter in sight calls its kin.

    A hunter forgets the player after some turns out of sight, unless its pack keeps it
    on the trail.
    """
    sight = state.visible  # symmetric: the monsters the player sees are those that see the player
    monsters = roster()
    px, py = pos.x, pos.y
    callers: list[tuple[Monster, Position]] = []
    for _, monster, mpos in monsters:
        in_sight = sight[mpos.y, mpos.x]
        if monster.target != NO_TARGET:
            monster.lost_for = 0 if in_sight else monster.lost_for + 1
        elif in_sight and max(abs(mpos.x - px), abs(mpos.y - py)) <= monster.notice:
            monster.target, monster.lost_for = entity, 0
        if in_sight and monster.target != NO_TARGET and PACK[monster.kind]:
            callers.append((monster, mpos))
    if callers:
        call_packs(state, entity, callers, monsters)
    for _, monster, _ in monsters:
        if monster.lost_for > formulas.HUNT_MEMORY:
            monster.target, monster.lost_for = NO_TARGET, 0


def call_packs(state: GameState, player: int, callers: list[tuple[Monster, Position]], monsters: Roster) -> None:
    """Kin within earshot of a pack hunter that sees the player join the hunt (or keep to it)."""
    radius = formulas.PACK_CALL_RADIUS
    joined: dict[str, int] = {}
    for _, monster, mpos in monsters:
        if not PACK[monster.kind]:
            continue
        if any(kin.kind == monster.kind and chebyshev(mpos.x, mpos.y, at.x, at.y) <= radius for kin, at in callers):
            if monster.target == NO_TARGET:
                joined[monster.kind] = joined.get(monster.kind, 0) + 1
            monster.target, monster.lost_for = player, 0
    for kind in joined:
        state.say(f"A {MONSTER_KINDS[kind].name} howls. The pack answers.")


@system(Player, Position, phase=Phase.CLOCK)
def act_monsters(state: GameState, entity: int, player: Player, pos: Position) -> None:
    """Every monster, in id order, spends its action points: hunt, attack or wander."""
    monsters = roster()
    if not monsters:
        return
    turn = MonstersTurn(state, (pos.x, pos.y), blockers(monsters, entity))
    for monster_id, monster, mpos in monsters:
        for _ in range(ACTION_POINTS[monster.kind]):
            if state.cause_of_death is not None or not turn.act(monster_id, monster, mpos):
                break


class MonstersTurn:
    """What the monsters share while they act in one turn: who stands where, the path maps.

    Path maps are flat arrays indexed ``y * width + x`` (quicker to build and read than
    nested lists); ``moves`` pairs every step with its offset in such an array.
    """

    def __init__(self, state: GameState, player_at: Spot, blocked: set[Spot]) -> None:
        self.state = state
        self.player_at = player_at
        self.blocked = blocked
        self.tiles = state.floor.tiles
        self.width = int(self.tiles.shape[1])
        self.moves = tuple((step, step[1] * self.width + step[0]) for step in NEIGHBOURS)
        self._walkable: NDArray[np.bool_] | None = None
        self._chase: array.array[int] | None = None
        self._flanks: array.array[int] | None = None

    def chase(self) -> array.array[int]:
        """Walking distance to the player from every tile (looked up once, when needed)."""
        if self._chase is None:
            self._chase = chase_distances(self.tiles.tobytes(), self.width, self.player_at)
        return self._chase

    def act(self, monster_id: int, monster: Monster, pos: Position) -> bool:
        """One action of one monster; False once it is gone (it vanished as it hit)."""
        x, y = pos.x, pos.y
        px, py = self.player_at
        near = max(abs(x - px), abs(y - py))
        if monster.target == NO_TARGET:
            step = self.wander_step(x, y)
        elif near == 1:
            return self.hit(monster_id, pos)
        elif near <= formulas.FLANK_RANGE and PACK[monster.kind]:
            step = self.descend(self._flanks or self.flanks(), x, y, UNREACHABLE)
        elif (here := (dist := self._chase or self.chase())[y * self.width + x]) != UNREACHABLE:
            step = self.descend(dist, x, y, here)
        else:
            step = self.wander_step(x, y)
        if step is not None:
            self.take_step(pos, x + step[0], y + step[1])
        return True

    def hit(self, monster_id: int, pos: Position) -> bool:
        """Strike the player; False if the monster vanished doing it."""
        strike(self.state, monster_id, self.state.player)
        if esper.entity_exists(monster_id):
            return True
        self.blocked.discard((pos.x, pos.y))
        return False

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
        rng = self.state.rng
        if not rng.chance(*formulas.WANDER_CHANCE):
            return None
        if self._walkable is None:
            self._walkable = self.state.floor.walkable()
        walkable, blocked = self._walkable, self.blocked
        options = [
            (dx, dy) for dx, dy in NEIGHBOURS if walkable[y + dy, x + dx] and (x + dx, y + dy) not in blocked
        ]
        return rng.choice(options) if options else None

    def take_step(self, pos: Position, x: int, y: int) -> None:
        """Step onto a free tile, or open the closed door there."""
        if self.tiles.item(y, x) == DOOR_CLOSED:
            self.tiles[y, x] = Tile.DOOR_OPEN
            self.state.doors_opened = True
            return
        self.blocked.discard((pos.x, pos.y))
        pos.x, pos.y = x, y
        self.blocked.add((x, y))


@functools.lru_cache(maxsize=CHASE_CACHE_SIZE)
def chase_distances(tiles: bytes, width: int, goal: Spot) -> array.array[int]:
    """Walking distances to ``goal`` over a floor's tiles given as bytes, as a flat array.

    A pure function of its arguments, so it is cached: the player often stands where it
    stood a turn before (fighting, waiting), and a floor's tiles rarely change. The array
    is shared between callers: never modify it.
    """
    cost = CHASE_COST[np.frombuffer(tiles, dtype=np.uint8).reshape(-1, width)]
    dist = np.full(cost.shape, UNREACHABLE, dtype=np.int32)
    dist[goal[1], goal[0]] = 0
    tcod.path.dijkstra2d(dist, cost, CARDINAL_COST, DIAGONAL_COST, out=dist)
    return array.array("i", dist.tobytes())


@system(Player)
def record_sightings(state: GameState, entity: int, player: Player) -> None:
    """Count each monster the first time the player sees it (the bestiary's "met")."""
    visible = state.visible
    for _, monster, pos in roster():
        if not monster.met and visible[pos.y, pos.x]:
            monster.met = True
            count(bestiary_of(entity).met, monster.kind)
