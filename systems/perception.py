"""What the player perceives: field of view with memory, and the colours of the world."""

from __future__ import annotations

import numpy as np
import tcod.constants
import tcod.map
from numpy.typing import NDArray

from components import Palette, Player, Position, StateOfMind
from roguelike import formulas
from roguelike.ecs import system
from roguelike.floor import Floor
from roguelike.state import GameState


@system(Player, Position)
def update_field_of_view(state: GameState, entity: int, player: Player, pos: Position) -> None:
    """Recompute what the player sees; seen tiles are remembered as explored."""
    state.visible = field_of_view(state.floor, pos)
    state.floor.explored |= state.visible


def field_of_view(floor: Floor, pos: Position) -> NDArray[np.bool_]:
    """The tiles visible from a position (closed doors and walls block sight)."""
    visible: NDArray[np.bool_] = tcod.map.compute_fov(
        floor.transparent(),
        (pos.y, pos.x),
        radius=formulas.FOV_RADIUS,
        light_walls=True,
        algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
    )
    return visible


@system(Player, StateOfMind, Palette)
def shift_colours(state: GameState, entity: int, player: Player, som: StateOfMind, palette: Palette) -> None:
    """Derive the world's saturation and brightness from the State of Mind."""
    palette.saturation, palette.brightness = formulas.palette_for(som.value)
    palette.psychedelic = formulas.is_psychedelic(som.value)
