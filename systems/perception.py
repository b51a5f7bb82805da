"""What the player perceives: field of view with memory, and the colours of the world."""

from __future__ import annotations

from components import Palette, Player, Position, StateOfMind
from roguelike.content import formulas
from roguelike.core.ecs import system
from roguelike.core.sight import field_of_view
from roguelike.core.state import GameState


@system(Player, Position)
def cast_sight(state: GameState, entity: int, player: Player, pos: Position) -> None:
    """The one place sight is cast: what the player sees, remembered as explored.

    Sight depends only on the floor's tiles and where the player stands, so it is cast
    again only when one of them changed (the player moved or took the stairs, a door was
    opened, by the player or by a monster). What the player sees is never saved but
    derived on loading, so it must always match the state as the action leaves it.
    """
    seen_from = (state.depth, pos.x, pos.y, state.floor.tiles.tobytes())
    if seen_from == state.seen_from:
        return
    state.seen_from = seen_from
    state.visible = field_of_view(state.floor, pos.x, pos.y)
    state.floor.explored |= state.visible


@system(Player, StateOfMind, Palette)
def shift_colours(state: GameState, entity: int, player: Player, som: StateOfMind, palette: Palette) -> None:
    """Derive the world's saturation and brightness from the State of Mind."""
    palette.saturation, palette.brightness = formulas.palette_for(som.value)
    palette.psychedelic = formulas.is_psychedelic(som.value)
