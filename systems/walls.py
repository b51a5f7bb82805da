"""Walls closing in: the player's floor follows the band of the State of Mind.

In Withdrawal the creeping walls close and the map narrows; while High the veils open ways
through the walls (``roguelike.core.walls`` turns the tiles, from the terrain table's rows).
Runs after every change the action made to the State of Mind (a dose in the act phase,
the drain and the monsters' hits on the clock) and before sight is cast again, so what the
player sees matches the walls as the action leaves them. A tile something stands on stays
open until it is free: nothing is ever walled in.
"""

from __future__ import annotations

import functools

from components import Player, StateOfMind
from roguelike.content import formulas
from roguelike.core.ecs import system
from roguelike.core.state import Now
from roguelike.core.walls import turn_to_band
from roguelike.core.world import occupied

# Every tile something stands on, the doses and the player included.
anything_standing = functools.partial(occupied, False)


@system(Player, StateOfMind)
def shift_walls(now: Now, entity: int, player: Player, som: StateOfMind) -> None:
    """Turn the floor's creeping walls and veils to the player's band, saying so when they move."""
    for message in turn_to_band(now.state.floor, formulas.mood_band(som.value), anything_standing):
        now.state.say(message)
