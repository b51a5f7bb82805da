"""Taking the stairs the player stepped onto."""

from __future__ import annotations

from components import Player, Position
from roguelike.core import cues
from roguelike.core.ecs import system
from roguelike.core.state import GameState
from roguelike.core.world import travel


@system(Player, Position)
def take_stairs(state: GameState, entity: int, player: Player, pos: Position) -> None:
    """Move to the floor above or below when the player stepped on stairs."""
    if state.travel_to is None:
        return
    depth, state.travel_to = state.travel_to, None
    going = "descend" if depth > state.depth else "climb back up"
    travel(state, depth)
    state.chart.floors.append((state.turn + 1, depth))
    state.say(f"You {going} to floor {depth}.")
    state.cue(cues.FLOOR, (pos.x, pos.y), amount=depth)
