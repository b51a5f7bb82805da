"""Who steers the player: a stun, Desperation, a weak Will, panic and confusion take the controls.

:func:`who_steers` is the one place that decides it, in order of strength: a stun beats
everything, Desperation beats a weak Will, both beat panic, and confusion only turns the
player's own step around. :func:`steer_player` acts on it at the start of an action;
:func:`decide_steering` runs it at the end and keeps the answer in ``state.steering``
(derived, never saved) for the panel and the keys, which no longer ask on every frame.
The rule asks afresh rather than trusting the kept answer, so a game changed by hand
between two actions (a test, a tool) is still steered by what it holds.
"""

from __future__ import annotations

from collections.abc import Callable

import esper

from components import Attributes, Confused, MoveIntent, Panicked, Player, Position, StateOfMind, Stunned, TakenOver
from roguelike.content import formulas
from roguelike.core.ecs import system
from roguelike.core.floor import WALKABLE, Tile
from roguelike.core.pathing import NEIGHBOURS, step_toward, travel_cost
from roguelike.core.state import GameState
from roguelike.core.world import doses_on_floor, monsters_in_sight, occupied

STUNNED_REASON = "Stunned: you cannot move."
DESPERATE_REASON = "Desperate: the craving drags you to a dose."
WEAK_WILL_REASON = "Your Will gives way: you cannot resist the dose."
PANIC_REASON = "Panic: you run and cannot stop."
NERVE_REASON = "Your nerve fails: you flee the monsters."
CONFUSED_REASON = "Confused: your moves go the wrong way."
NERVE_BREAKS = "Your nerve breaks. You run."
PULL_BEGINS = "A dose within {reach} of you pulls at your weak Will: you go to it."
Step = tuple[int, int]


def who_steers(state: GameState) -> str | None:
    """Why the next action will not be the player's own, or None if it will be."""
    player = state.player
    if esper.has_component(player, Stunned):
        return STUNNED_REASON
    attrs = esper.component_for_entity(player, Attributes)
    if formulas.is_desperate(esper.component_for_entity(player, StateOfMind).value, attrs.will):
        return DESPERATE_REASON
    if formulas.irresistible_range(attrs.will) and weak_will_step(
        state, esper.component_for_entity(player, Position), attrs
    ) is not None:
        return WEAK_WILL_REASON
    if esper.has_component(player, Panicked):
        return PANIC_REASON
    if formulas.panics(attrs.nerve) and monsters_in_sight(state):
        return NERVE_REASON
    return CONFUSED_REASON if esper.has_component(player, Confused) else None


@system(Player)
def decide_steering(state: GameState, entity: int, player: Player) -> None:
    """Decide, once per action, who steers the next one."""
    state.steering = who_steers(state)


@system(Player, TakenOver)
def return_control(state: GameState, entity: int, player: Player, taken: TakenOver) -> None:
    """Each action starts with the player in control until the steering says otherwise."""
    esper.remove_component(entity, TakenOver)


@system(Player, Position, Attributes, MoveIntent)
def steer_player(
    state: GameState, entity: int, player: Player, pos: Position, attrs: Attributes, intent: MoveIntent
) -> None:
    """Replace the player's step by the one whatever holds the controls takes."""
    reason = who_steers(state)
    if reason is None:
        return
    if reason == CONFUSED_REASON:
        intent.dx, intent.dy = -intent.dx, -intent.dy  # the player's own step, turned around
        return
    intent.dx, intent.dy = STEERS[reason](state, pos, attrs)
    esper.add_component(entity, TakenOver(reason))
    notice = NOTICES.get(reason)
    if notice is not None:
        say_once(state, notice(attrs))


def say_once(state: GameState, text: str) -> None:
    """Say something unless it is already the newest message (once, not on every step)."""
    if not state.messages or state.messages[-1].text != text:
        state.say(text)


def pull_notice(attrs: Attributes) -> str:
    """What the log says when a weak Will is pulled: how near a dose must be."""
    reach = formulas.irresistible_range(attrs.will)
    return PULL_BEGINS.format(reach="a step" if reach == 1 else f"{reach} steps")


def desperate_step(state: GameState, pos: Position, attrs: Attributes) -> Step:
    """Along a path to the nearest known dose, or else toward the unexplored."""
    floor = state.floor
    known = [(p.x, p.y) for _, p, _ in doses_on_floor() if floor.explored[p.y, p.x]]
    cost = travel_cost(floor)
    step = step_toward(cost, (pos.x, pos.y), known)
    if step is None:
        step = step_toward(cost, (pos.x, pos.y), ~floor.explored & (floor.tiles != Tile.WALL))
    return step if step is not None else (0, 0)


def weak_will_step(state: GameState, pos: Position, attrs: Attributes) -> Step | None:
    """At Will 1 a dose within 2 tiles, at Will 2 an adjacent one, draws the player in."""
    reach = formulas.irresistible_range(attrs.will)
    if reach == 0:
        return None
    doses = [
        (p.x, p.y)
        for _, p, _ in doses_on_floor()
        if max(abs(p.x - pos.x), abs(p.y - pos.y)) <= reach and state.visible[p.y, p.x]
    ]
    return step_toward(travel_cost(state.floor), (pos.x, pos.y), doses) if doses else None


def pulled_step(state: GameState, pos: Position, attrs: Attributes) -> Step:
    """The weak Will's step (who_steers only says so when there is one)."""
    return weak_will_step(state, pos, attrs) or (0, 0)


def stunned_step(state: GameState, pos: Position, attrs: Attributes) -> Step:
    """A stunned player does nothing, not even what Desperation wants."""
    return 0, 0


def flee_step(state: GameState, pos: Position, attrs: Attributes) -> Step:
    """The step farthest from the nearest monster in sight (at random with none); (0, 0) if cornered."""
    threats = monsters_in_sight(state)
    free = free_steps(state, (pos.x, pos.y))
    if not threats:
        return state.rng.choice(free) if free else (0, 0)
    x, y = pos.x, pos.y

    def safety(step: Step) -> int:
        return min((x + step[0] - tx) ** 2 + (y + step[1] - ty) ** 2 for tx, ty in threats)

    best = max((safety(step) for step in free), default=0)
    if best <= safety((0, 0)):
        return 0, 0
    return state.rng.choice([step for step in free if safety(step) == best])


def free_steps(state: GameState, at: Step) -> list[Step]:
    """Steps onto open tiles where nothing stands (panic runs past doors and doses)."""
    floor, taken = state.floor, occupied(blockers_only=False)
    x, y = at
    return [
        (dx, dy)
        for dx, dy in NEIGHBOURS
        if WALKABLE[floor.tile(x + dx, y + dy)] and (x + dx, y + dy) not in taken
    ]


# What the log says when a reason takes the controls (Desperation is told by systems.announce).
NOTICES: dict[str, Callable[[Attributes], str]] = {
    NERVE_REASON: lambda attrs: NERVE_BREAKS,
    WEAK_WILL_REASON: pull_notice,
}

# The step each reason takes instead of the player's own.
STEERS: dict[str, Callable[[GameState, Position, Attributes], Step]] = {
    STUNNED_REASON: stunned_step,
    DESPERATE_REASON: desperate_step,
    WEAK_WILL_REASON: pulled_step,
    PANIC_REASON: flee_step,
    NERVE_REASON: flee_step,
}
