"""Helpers over the esper world: what stands where, and moving between floors.

Only the player's floor is live in esper; the entities of other floors sleep packed in
their :class:`~roguelike.core.floor.Floor` and wake when the player returns, exactly as left.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import esper
import numpy as np
from numpy.typing import NDArray

from components import BlocksMovement, Dose, Find, Monster, Player, Position, Record, Shortcut, StateOfMind, Vision
from roguelike.content import formulas
from roguelike.core import ecsworld
from roguelike.core.floor import Floor
from roguelike.core.mapgen import generate_floor
from roguelike.core.packing import pack_entity, unpack_entity
from roguelike.core.rng import derive_seed
from roguelike.core.state import GameState
from roguelike.core.walls import turn_to_band

FLOOR_SALT = 0xF1005

Spot = tuple[int, int]
Roster = list[tuple[int, Monster, Position]]
_by_id = operator.itemgetter(0)
_roster_memo: list[Any] = []  # [esper's monster list, the roster built from it]
_doses_memo: list[Any] = []  # [esper's dose list, whether visions were hidden, the doses built from it]


def entities_at(x: int, y: int) -> list[int]:
    """Live entities standing on a tile, in id order."""
    here = [e for e, pos in esper.get_component(Position) if pos.x == x and pos.y == y]
    if len(here) > 1:  # rarely more than one: a monster on a dose
        here.sort()
    return here


def doses_on_floor() -> list[tuple[int, Position, Dose]]:
    """Every dose of the live floor the player can take, with its position, in id order.

    Visions count only while the player is High: otherwise they are not there.
    """
    found = esper.get_components(Position, Dose)
    hidden = bool(esper.get_component(Vision)) and not sees_visions()
    # esper hands back the very same list until a component is added or removed anywhere
    # (see roster): the bots and the steering ask several times a command.
    if _doses_memo and _doses_memo[0] is found and _doses_memo[1] == hidden:
        memo: list[tuple[int, Position, Dose]] = _doses_memo[2]
        return memo
    taken = [(e, parts) for e, parts in found if not esper.has_component(e, Vision)] if hidden else found
    doses = sorted(((e, pos, dose) for e, (pos, dose) in taken), key=_by_id)
    _doses_memo[:] = [found, hidden, doses]
    return doses


def finds_on_floor() -> list[tuple[int, Position, Find]]:
    """Every find of the live floor with its position, in id order, while the player is High;
    none otherwise (a find is a vision: not there for anyone who is not High)."""
    found = esper.get_component(Find)
    if not found or not sees_visions():
        return []
    position_of = esper.component_for_entity
    return sorted(((e, position_of(e, Position), find) for e, find in found), key=_by_id)


def roster() -> Roster:
    """Every monster with its position, in id order.

    Same answer as ``sorted(esper.get_components(Monster, Position))`` (every monster has a position), at
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
    blocking = (position_of(entity, Position) for entity, _ in esper.get_component(BlocksMovement))
    return {(p.x, p.y) for p in blocking}


def standing() -> dict[Spot, int]:
    """Who blocks each tile where something blocks movement."""
    position_of = esper.component_for_entity
    found = {}
    for entity, _ in sorted(esper.get_component(BlocksMovement), key=_by_id):
        pos = position_of(entity, Position)
        found[(pos.x, pos.y)] = entity
    return found


def blockers(monsters: Roster, player: int, at: Spot) -> dict[Spot, int]:
    """:func:`standing`, quicker when the monsters and the player (standing ``at``) are all that block."""
    if len(esper.get_component(BlocksMovement)) != len(monsters) + 1:
        return standing()
    spots = {(p.x, p.y): entity for entity, _, p in monsters}
    spots[at] = player
    return spots


def sight_test(visible: NDArray[np.bool_]) -> Callable[[int, int], bool]:
    """Whether the player sees ``(row, column)``, as a plain bool: a monster loop asks it forty
    times a turn, and ``ndarray.item`` answers quicker than indexing (which makes a numpy bool)."""
    test: Callable[[int, int], bool] = visible.item
    return test


def monsters_in_sight(visible: NDArray[np.bool_]) -> list[Spot]:
    """Positions of the monsters the player sees (``visible``: the view's sight), in id order."""
    return [(p.x, p.y) for _, _, p in roster() if visible[p.y, p.x]]


def shortcut_at(x: int, y: int) -> bool:
    """Whether a way down only the High can see is here, and the player sees it."""
    here = [e for e in entities_at(x, y) if esper.has_component(e, Shortcut)]
    return bool(here) and sees_visions()


def sees_visions() -> bool:
    """Whether the player is High enough for visions to be there."""
    # One-component queries: esper rebuilds two-component ones slowly after any change.
    players = esper.get_component(Player)
    return bool(players) and formulas.is_high(esper.component_for_entity(players[0][0], StateOfMind).value)


def floor_seed(seed: int, depth: int) -> int:
    """The seed a floor is generated from: fixed by the game seed and the depth."""
    return derive_seed(seed, FLOOR_SALT, depth)


def ensure_floor(state: GameState, depth: int) -> Floor:
    """The floor at ``depth``, generated the first time anyone goes there."""
    if depth not in state.floors:
        above = state.floors.get(depth - 1)
        up = above.down_stairs if above is not None else None
        state.floors[depth] = generate_floor(floor_seed(state.seed, depth), depth, up, player_state_of_mind(state))
    return state.floors[depth]


def player_state_of_mind(state: GameState) -> int:
    """The player's State of Mind (the starting one while the player is being created)."""
    if not esper.entity_exists(state.player):
        return formulas.STATE_OF_MIND_START
    return esper.component_for_entity(state.player, StateOfMind).value


def put_floor_to_sleep(state: GameState) -> None:
    """Pack every live entity but the player into the current floor."""
    floor = state.floor
    for entity in sorted(esper.get_entities()):
        if entity == state.player:
            continue
        floor.dormant.append(pack_entity(esper.components_for_entity(entity)))
        esper.delete_entity(entity, immediate=True)


def wake_floor(state: GameState) -> None:
    """Bring the current floor's dormant entities to life."""
    floor = state.floor
    floor.encoded = None  # the player is here now: the floor will change
    world = ecsworld.current()
    for packed in floor.dormant:
        world.create(*unpack_entity(packed))
    floor.dormant.clear()


def travel(state: GameState, depth: int) -> None:
    """Move the player to another floor, arriving on the matching staircase."""
    going_down = depth > state.depth
    put_floor_to_sleep(state)
    floor = ensure_floor(state, depth)
    state.depth = depth
    wake_floor(state)
    x, y = floor.arrival if going_down else floor.down_stairs
    position = esper.component_for_entity(state.player, Position)
    position.x, position.y = x, y
    turn_to_band(floor, formulas.mood_band(player_state_of_mind(state)), lambda: occupied(False))  # as the band is now
    record = esper.component_for_entity(state.player, Record)
    record.deepest_floor = max(record.deepest_floor, depth)


def player_components() -> tuple[int, Player]:
    """The player entity and its identity (there is exactly one)."""
    return esper.get_component(Player)[0]
