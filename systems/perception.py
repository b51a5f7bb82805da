"""What the player perceives: field of view with memory, and the colours of the world."""

from __future__ import annotations

from components import Palette, Player, Position, StateOfMind
from roguelike.content import formulas
from roguelike.core.ecs import Phase, system
from roguelike.core.sight import field_of_view
from roguelike.core.state import GameState


@system(Player, Position)
def update_field_of_view(state: GameState, entity: int, player: Player, pos: Position) -> None:
    """Recompute what the player sees; seen tiles are remembered as explored."""
    state.visible = field_of_view(state.floor, pos.x, pos.y)
    state.floor.explored |= state.visible


@system(Player, Position, phase=Phase.CLOCK)
def refresh_field_of_view(state: GameState, entity: int, player: Player, pos: Position) -> None:
    """Cast sight again if a monster opened a door after it was cast this turn.

    What the player sees is never saved but derived from the saved state on loading, so it
    must always match the state as the action leaves it.
    """
    if state.doors_opened:
        state.doors_opened = False
        update_field_of_view.fn(state, entity, player, pos)


@system(Player, StateOfMind, Palette)
def shift_colours(state: GameState, entity: int, player: Player, som: StateOfMind, palette: Palette) -> None:
    """Derive the world's saturation and brightness from the State of Mind."""
    palette.saturation, palette.brightness = formulas.palette_for(som.value)
    palette.psychedelic = formulas.is_psychedelic(som.value)
