"""Movement with bumps: walls stop, doors open, doses and stairs are taken, monsters fought."""

from __future__ import annotations

import esper

from components import BlocksMovement, Dose, MoveIntent, Position, UseDose
from roguelike.core.ecs import system
from roguelike.core.floor import WALKABLE, Tile
from roguelike.core.state import GameState
from roguelike.core.world import entities_at
from systems.combat import strike

STAIRS_STEP = {Tile.STAIRS_DOWN: 1, Tile.STAIRS_UP: -1}


@system(Position, MoveIntent)
def move_to_destination(state: GameState, entity: int, pos: Position, intent: MoveIntent) -> None:
    """Step by the intent, or bump whatever is in the way."""
    is_player = entity == state.player
    if intent.dx == 0 and intent.dy == 0:
        state.acted = state.acted or is_player
        return
    x, y = pos.x + intent.dx, pos.y + intent.dy
    floor = state.floor
    tile = floor.tile(x, y)
    if tile == Tile.DOOR_CLOSED:
        floor.tiles[y, x] = Tile.DOOR_OPEN
        _acted(state, is_player, "You open the door.")
        return
    if not WALKABLE[tile]:
        return
    if _bump_entities(state, entity, x, y, is_player):
        return
    pos.x, pos.y = x, y
    if is_player:
        state.acted = True
        if tile in STAIRS_STEP:
            state.travel_to = state.depth + STAIRS_STEP[tile]


def _bump_entities(state: GameState, entity: int, x: int, y: int, is_player: bool) -> bool:
    """Handle whatever stands on the target tile; True if it stops the step."""
    others = entities_at(x, y)
    # A fight comes first: a monster standing on a dose is hit, the dose left alone.
    if any(strike(state, entity, other) for other in others):
        state.acted = state.acted or is_player
        return True
    for other in others:
        if is_player and esper.has_component(other, Dose):
            esper.add_component(entity, UseDose(other))
            state.acted = True
            return True
        if esper.has_component(other, BlocksMovement):
            return True
    return False


def _acted(state: GameState, is_player: bool, text: str) -> None:
    """Mark the player's action as done and tell them what happened."""
    if is_player:
        state.acted = True
        state.say(text)

