"""The timed statuses a monster's hit leaves wear off: each loses a turn every turn.

Which statuses there are, and what is said when one ends, is the conditions table
(:mod:`roguelike.content.conditions`); while one lasts it may take the controls
(:mod:`systems.control`).
"""

from __future__ import annotations

import esper

from components import Player
from roguelike.core.ecs import system
from roguelike.core.state import Now
from roguelike.core.steering import STATUSES


@system(Player)
def wear_off_statuses(now: Now, entity: int, player: Player) -> None:
    """Every timed status loses a turn; the player is told when one ends."""
    for _, timed, status in STATUSES:
        current = esper.try_component(entity, status)
        if current is None:
            continue
        current.turns -= 1
        if current.turns <= 0:
            esper.remove_component(entity, status)
            now.state.say(timed.ends)
