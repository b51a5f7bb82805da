"""The player's step: the one rule of steps (:mod:`roguelike.core.stepping`) applied to its ``MoveIntent``."""

from __future__ import annotations

import esper

from components import MoveIntent, Player, Position, Shortcut, TakenOver
from roguelike.core import cues
from roguelike.core.carrying import pick_up
from roguelike.core.ecs import system
from roguelike.core.state import Now
from roguelike.core.stepping import MOVED, OPENED, STOPPED, step_or_bump
from roguelike.core.world import entities_at, shortcut_at

SHORTCUT_TAKEN = "The floor opens in a way only the High can see. You slip down."


@system(Player, Position, MoveIntent)
def move_player(now: Now, entity: int, player: Player, pos: Position, intent: MoveIntent) -> None:
    """The player's step (or wait, or picking up): whatever it does but walking into a wall (or picking
    up nothing) is an action."""
    if intent.dx == 0 and intent.dy == 0:
        now.action.acted = True
        return
    if intent.pick_up:
        picked = pick_up(now, entity, pos, intent.dx, intent.dy)
        if picked is not None:
            now.action.acted = picked
            return
    start = (pos.x, pos.y)
    outcome = step_or_bump(now, entity, pos, intent.dx, intent.dy, entities_at)
    if outcome is STOPPED:
        return
    now.action.acted = True
    if outcome is OPENED:
        now.state.say("You open the door.")
    elif outcome is MOVED:
        moved(now, entity, start, pos)


def moved(now: Now, entity: int, start: tuple[int, int], pos: Position) -> None:
    """After the player's step: a step not chosen is cued; a vision of a way down is taken."""
    if esper.has_component(entity, TakenOver):
        now.action.cue(cues.FORCED, start, (pos.x, pos.y))
    if now.action.travel_to is None and esper.get_component(Shortcut) and shortcut_at(pos.x, pos.y):
        now.action.travel_to = now.state.depth + 1
        now.state.say(SHORTCUT_TAKEN)
