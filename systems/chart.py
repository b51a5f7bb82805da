"""The State-of-Mind chart: one value per turn, for the graph on the death screen."""

from __future__ import annotations

from components import Player, StateOfMind
from roguelike.core.ecs import system
from roguelike.core.state import Moment


@system(Player, StateOfMind)
def chart_state_of_mind(now: Moment, entity: int, player: Player, som: StateOfMind) -> None:
    """Record the State of Mind the turn ends with (a clock system: once a turn)."""
    now.state.chart.add(som.value)
