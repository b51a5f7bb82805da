"""Steps and bumps, the same for the player and for monsters.

:func:`step_or_bump` is the one rule of a step: walls stop it, closed doors open, a
monster and the player strike each other, the player takes a dose it bumps and the
stairs it steps on; otherwise the actor moves. Where it lands has its say, for everyone
alike, from the terrain table: on ice (``slides``) it slides on the same way until it
leaves the ice or something stops it, and into water (``wade``) its step ends its turn and
costs it turns more (the player's action runs the world's clock that many more times; a
monster holds still as long). The player's step comes from its
``MoveIntent`` (:mod:`systems.movement`); a monster's from the step its decision piped
in (:mod:`systems.monsters`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum

import esper
import numpy as np
from numpy.typing import NDArray

from components import BlocksMovement, Dose, Monster, Position, UseDose, Vision
from roguelike.content.terrain import by_value
from roguelike.core.combat import strike
from roguelike.core.floor import WALKABLE, Tile
from roguelike.core.state import Now
from roguelike.core.world import sees_visions

STAIRS_STEP = {int(Tile.STAIRS_DOWN): 1, int(Tile.STAIRS_UP): -1}
DOOR_CLOSED = int(Tile.DOOR_CLOSED)
WALL = int(Tile.WALL)
# The walkable table as plain bools: every monster's every step reads it.
CAN_STAND = tuple(bool(walkable) for walkable in WALKABLE)
SLIDES = tuple(row.slides for row in by_value())
WADE = tuple(row.wade for row in by_value())
Occupants = Callable[[int, int], Sequence[int]]
Tiles = NDArray[np.uint8]


class Outcome(Enum):
    """What became of a step."""

    STOPPED = "stopped"  # a wall or something that blocks: nothing happened
    OPENED = "opened"  # a closed door was opened instead of stepping
    BUMPED = "bumped"  # a strike, or the player took a dose
    MOVED = "moved"


# Plain names for the outcomes: reading an Enum member off its class is slow in a hot loop.
STOPPED, OPENED, BUMPED, MOVED = Outcome.STOPPED, Outcome.OPENED, Outcome.BUMPED, Outcome.MOVED


def step_or_bump(now: Now, entity: int, pos: Position, dx: int, dy: int, occupants: Occupants) -> Outcome:
    """Step by ``(dx, dy)``, or open, strike or take whatever is in the way.

    ``occupants(x, y)`` names who stands on a tile, in id order (the live floor for the
    player; the monsters' turn keeps its own quicker index).
    """
    x, y = pos.x + dx, pos.y + dy
    tiles = now.state.floor.tiles
    height, width = tiles.shape
    tile = tiles.item(y, x) if 0 <= x < width and 0 <= y < height else WALL
    if tile == DOOR_CLOSED:
        tiles[y, x] = Tile.DOOR_OPEN
        return OPENED
    if not CAN_STAND[tile]:
        return STOPPED
    is_player = entity == now.state.player
    others = occupants(x, y)
    if others:
        outcome = bump(now, entity, others, is_player)
        if outcome is not None:
            return outcome
    pos.x, pos.y = x, y
    if SLIDES[tile]:
        tile = slide(pos, dx, dy, tiles, occupants)
    if WADE[tile]:
        wade(now, entity, is_player, WADE[tile])
    if is_player and tile in STAIRS_STEP:
        now.action.travel_to = now.state.depth + STAIRS_STEP[tile]
    return MOVED


def slide(pos: Position, dx: int, dy: int, tiles: Tiles, occupants: Occupants) -> int:
    """On the same way, tile by tile, until off the ice or stopped by what cannot be stood on or
    stands in the way; the tile it ends on."""
    tile = tiles.item(pos.y, pos.x)
    while SLIDES[tile]:
        x, y = pos.x + dx, pos.y + dy  # the map's border wall keeps a slide on the map
        ahead = tiles.item(y, x)
        if not CAN_STAND[ahead] or any(in_the_way(other) for other in occupants(x, y)):
            break
        pos.x, pos.y, tile = x, y, ahead
    return tile


def in_the_way(other: int) -> bool:
    """Whether something on a tile stops a slide (a vision the player cannot see is not there)."""
    return not (esper.has_component(other, Vision) and not sees_visions())


def wade(now: Now, entity: int, is_player: bool, turns: int) -> None:
    """A step into water ends the stepper's turn and costs ``turns`` more: the world moves on meanwhile."""
    if is_player:
        now.action.wading = turns
    else:
        monster = esper.component_for_entity(entity, Monster)
        monster.acts_from = max(monster.acts_from, now.state.turn + 1 + turns)


def bump(now: Now, entity: int, others: Sequence[int], is_player: bool) -> Outcome | None:
    """Whatever stands on the tile stepped to: None if nothing stops the step."""
    # A fight comes first: a monster standing on a dose is hit, the dose left alone.
    if any(strike(now, entity, other) for other in others):
        return BUMPED
    for other in others:
        if esper.has_component(other, Vision) and not sees_visions():
            continue  # a vision is not there for a player who is not High
        if is_player and esper.has_component(other, Dose):
            esper.add_component(entity, UseDose(other))
            return BUMPED
        if esper.has_component(other, BlocksMovement):
            return STOPPED
    return None
