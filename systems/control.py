"""Who steers the player: the conditions of :mod:`roguelike.content.conditions` take the controls.

:func:`roguelike.core.steering.who_steers` is the one place that decides it, walking the
conditions table in order of strength. :func:`steer_player` acts on it at the start of
an action; :func:`decide_steering` runs it at the end and keeps the answer in
``now.view.steering`` (derived, never saved) for the panel and the keys, which no longer ask
on every frame. The rule asks afresh rather than trusting the kept answer, so a game
changed by hand between two actions (a test, a tool) is still steered by what it holds.
"""

from __future__ import annotations

import esper

from components import Attributes, Carried, MoveIntent, Player, Position, TakenOver
from components.intents import NOT_CARRIED
from roguelike.content.conditions import Condition, Steer
from roguelike.core.carrying import weakest
from roguelike.core.ecs import system
from roguelike.core.state import Now
from roguelike.core.steering import STEP_OF, notice_text, who_steers


@system(Player)
def decide_steering(now: Now, entity: int, player: Player) -> None:
    """Decide, once per action, who steers the next one."""
    now.view.steering = who_steers(now)


@system(Player, TakenOver)
def return_control(now: Now, entity: int, player: Player, taken: TakenOver) -> None:
    """Each action starts with the player in control until the steering says otherwise."""
    esper.remove_component(entity, TakenOver)


@system(Player, Position, Attributes, MoveIntent)
def steer_player(now: Now, entity: int, player: Player, pos: Position, attrs: Attributes, intent: MoveIntent) -> None:
    """Replace the player's step by the one whatever holds the controls takes."""
    condition = who_steers(now)
    if condition is None:
        return
    own = (intent.dx, intent.dy)
    intent.dx, intent.dy = STEP_OF[condition.key](now, pos, attrs, own)
    if not condition.takes_controls:
        hold_back(now, condition, intent, own != (0, 0) and (intent.dx, intent.dy) == (0, 0))
        return
    intent.pick_up, intent.carried = False, NOT_CARRIED  # the action is not the player's own
    if condition.steer is Steer.TAKE_CARRIED:
        intent.carried = weakest(esper.component_for_entity(entity, Carried)) or 0
    esper.add_component(entity, TakenOver(condition.key))
    notice = notice_text(condition, attrs)
    if notice:
        say_once(now, notice)


def hold_back(now: Now, condition: Condition, intent: MoveIntent, held: bool) -> None:
    """A condition that leaves the controls says when it held the player's own action back
    (a faltering step, a dose refused, the pocket's too)."""
    if condition.refuses_doses and intent.carried != NOT_CARRIED:
        intent.carried, held = NOT_CARRIED, True
    if held and condition.notice:
        now.state.say(condition.notice)


def say_once(now: Now, text: str) -> None:
    """Say something unless it is already the newest message (once, not on every step)."""
    if not now.state.messages or now.state.messages[-1].text != text:
        now.state.say(text)
