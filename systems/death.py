"""Death by exhaustion or overdose."""

from __future__ import annotations

from components import Player, StateOfMind
from roguelike.content import formulas
from roguelike.core.ecs import system
from roguelike.core.state import Now


@system(Player, StateOfMind)
def check_death(now: Now, entity: int, player: Player, som: StateOfMind) -> None:
    """The State of Mind at zero kills by exhaustion, above 100 by overdose."""
    if now.state.game_over:
        return
    if formulas.is_overdose(som.value):
        now.state.cause_of_death = "overdose"
        now.state.say("Your heart races, then stops. You overdosed.")
    elif formulas.is_exhausted(som.value):
        now.state.cause_of_death = "exhaustion"
        now.state.say("There is nothing left in you. You die of exhaustion.")
