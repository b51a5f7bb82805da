"""Taking the stairs the player stepped onto (and, going down, the arrival line of the floor's climate)."""

from __future__ import annotations

from components import Player, Position
from roguelike.content.climates import CLIMATES
from roguelike.core import cues
from roguelike.core.ecs import system
from roguelike.core.state import Now
from roguelike.core.world import travel


@system(Player, Position)
def take_stairs(now: Now, entity: int, player: Player, pos: Position) -> None:
    """Move to the floor above or below when the player stepped on stairs."""
    if now.action.travel_to is None:
        return
    depth, now.action.travel_to = now.action.travel_to, None
    going = "descend" if depth > now.state.depth else "climb back up"
    travel(now.state, depth)
    now.state.chart.floors.append((now.state.turn + 1, depth))
    now.state.say(f"You {going} to floor {depth}.")
    if going == "descend":
        now.state.say(CLIMATES[now.state.floor.kind].arrival)
    now.action.cue(cues.FLOOR, (pos.x, pos.y), amount=depth)
