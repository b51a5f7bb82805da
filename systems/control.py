"""Who steers the player: Desperation and a weak Will take the controls away."""

from __future__ import annotations

import esper

from components import Attributes, MoveIntent, Player, Position, StateOfMind, TakenOver
from roguelike.content import formulas
from roguelike.core.ecs import system
from roguelike.core.floor import Tile
from roguelike.core.pathing import step_toward, travel_cost
from roguelike.core.state import GameState
from roguelike.core.world import doses_on_floor
from systems.effects import lost_control_reason, stun_reason

DESPERATE_REASON = "Desperate: the craving drags you to a dose."
WEAK_WILL_REASON = "Your Will gives way: you cannot resist the dose."


@system(Player, TakenOver)
def return_control(state: GameState, entity: int, player: Player, taken: TakenOver) -> None:
    """Each action starts with the player in control until a system says otherwise."""
    esper.remove_component(entity, TakenOver)


@system(Player, Position, StateOfMind, Attributes, MoveIntent)
def take_over_desperate(
    state: GameState, entity: int, player: Player, pos: Position,
    som: StateOfMind, attrs: Attributes, intent: MoveIntent,
) -> None:
    """When Desperate, lunge along a path to the nearest known dose (or search for one)."""
    if not formulas.is_desperate(som.value, attrs.will):
        return
    floor = state.floor
    known = [(p.x, p.y) for _, p, _ in doses_on_floor() if floor.explored[p.y, p.x]]
    cost = travel_cost(floor)
    step = step_toward(cost, (pos.x, pos.y), known)
    if step is None:
        step = step_toward(cost, (pos.x, pos.y), ~floor.explored & (floor.tiles != Tile.WALL))
    intent.dx, intent.dy = step if step is not None else (0, 0)
    esper.add_component(entity, TakenOver(DESPERATE_REASON))


@system(Player, Position, Attributes, MoveIntent)
def pull_to_dose(
    state: GameState, entity: int, player: Player, pos: Position,
    attrs: Attributes, intent: MoveIntent,
) -> None:
    """At Will 1 a dose within 2 tiles, at Will 2 an adjacent one, cannot be resisted."""
    reach = formulas.irresistible_range(attrs.will)
    if reach == 0 or esper.has_component(entity, TakenOver):
        return
    step = step_toward(travel_cost(state.floor), (pos.x, pos.y), irresistible_doses(state, pos, reach))
    if step is not None:
        intent.dx, intent.dy = step
        esper.add_component(entity, TakenOver(WEAK_WILL_REASON))


def irresistible_doses(state: GameState, pos: Position, reach: int) -> list[tuple[int, int]]:
    """Doses in sight and within ``reach`` tiles of the player."""
    return [
        (p.x, p.y)
        for _, p, _ in doses_on_floor()
        if max(abs(p.x - pos.x), abs(p.y - pos.y)) <= reach and state.visible[p.y, p.x]
    ]


def control_reason(state: GameState) -> str | None:
    """Why the next action will not be the player's own, or None if it will be."""
    stunned = stun_reason(state)
    if stunned is not None:
        return stunned
    som = esper.component_for_entity(state.player, StateOfMind)
    attrs = esper.component_for_entity(state.player, Attributes)
    if formulas.is_desperate(som.value, attrs.will):
        return DESPERATE_REASON
    pos = esper.component_for_entity(state.player, Position)
    reach = formulas.irresistible_range(attrs.will)
    if reach and irresistible_doses(state, pos, reach):
        return WEAK_WILL_REASON
    return lost_control_reason(state)
