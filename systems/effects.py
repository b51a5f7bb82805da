"""The timed statuses a monster's hit leaves (stun, panic, confusion), and their wearing off.

While one lasts it may take the controls: :mod:`systems.control` decides who steers.
"""

from __future__ import annotations

import esper

from components import Confused, Panicked, Player, Stunned
from roguelike.core.ecs import system
from roguelike.core.state import GameState
from systems.control import CONFUSED_REASON, PANIC_REASON, STUNNED_REASON

# Each timed status, the reason shown while it lasts and the message when it ends.
STATUS_TEXTS: tuple[tuple[type[Stunned] | type[Panicked] | type[Confused], str, str], ...] = (
    (Stunned, STUNNED_REASON, "You can move again."),
    (Panicked, PANIC_REASON, "The panic passes."),
    (Confused, CONFUSED_REASON, "Your head clears."),
)


@system(Player)
def wear_off_effects(state: GameState, entity: int, player: Player) -> None:
    """Every timed status loses a turn; the player is told when one ends."""
    for status, _, ends in STATUS_TEXTS:
        current = esper.try_component(entity, status)
        if current is None:
            continue
        current.turns -= 1
        if current.turns <= 0:
            esper.remove_component(entity, status)
            state.say(ends)
