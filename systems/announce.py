"""What the log tells as it happens: Desperation beginning and ending.

The panel shows who steers while it lasts; the log keeps when it began, so the message
log (and a player who looked away) can tell what happened.
"""

from __future__ import annotations

from components import Attributes, Player, Position, StateOfMind
from roguelike.content import formulas
from roguelike.core import cues
from roguelike.core.ecs import system
from roguelike.core.state import Now

DESPERATE_BEGINS = "You are Desperate (State of Mind {som}, at or below {line}): the craving takes the controls."
DESPERATE_ENDS = "The craving loosens its grip: the controls are yours."


@system(Player, StateOfMind, Attributes)
def remember_desperation(now: Now, entity: int, player: Player, som: StateOfMind, attrs: Attributes) -> None:
    """Note whether the action starts Desperate, to tell the player when that changes."""
    now.action.desperate_before = formulas.is_desperate(som.value, attrs.will)


@system(Player, StateOfMind, Attributes, Position)
def announce_desperation(
    now: Now, entity: int, player: Player, som: StateOfMind, attrs: Attributes, pos: Position
) -> None:
    """Say in the log when Desperation begins or ends (and cue its beginning)."""
    desperate = formulas.is_desperate(som.value, attrs.will)
    if now.state.game_over or desperate == now.action.desperate_before:
        return
    line = formulas.desperation_threshold(attrs.will)
    now.state.say(DESPERATE_BEGINS.format(som=som.value, line=line) if desperate else DESPERATE_ENDS)
    if desperate:
        now.action.cue(cues.DESPERATE, (pos.x, pos.y))
