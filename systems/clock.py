"""The turn clock: action points, the State of Mind draining every turn, and its chart."""

from __future__ import annotations

from components import ActionPoints, Attributes, Player, StateOfMind
from roguelike.content import formulas
from roguelike.core.ecs import system
from roguelike.core.state import Now


@system(Player, ActionPoints)
def spend_action_point(now: Now, entity: int, player: Player, points: ActionPoints) -> None:
    """An action that did something costs a point; the last point ends the turn, and so does a step into water."""
    if not now.action.acted:
        return
    points.remaining = 0 if now.action.wading else points.remaining - 1
    now.action.clock_ticks = points.remaining <= 0


@system(Player, StateOfMind)
def decay_state_of_mind(now: Now, entity: int, player: Player, som: StateOfMind) -> None:
    """The State of Mind drains by one every turn."""
    som.value -= formulas.STATE_OF_MIND_DECAY


@system(Player, ActionPoints, Attributes)
def advance_turn(now: Now, entity: int, player: Player, points: ActionPoints, attrs: Attributes) -> None:
    """Count the turn and refill action points (two at Will 10)."""
    now.state.turn += 1
    points.remaining = formulas.action_points(attrs.will)


@system(Player, StateOfMind)
def chart_state_of_mind(now: Now, entity: int, player: Player, som: StateOfMind) -> None:
    """Record the State of Mind the turn ends with in the saved chart (for the graph of a life)."""
    now.state.chart.add(som.value)
