"""The pull zone: the tiles around a dose from which a weak Will cannot resist it.

Drawn as the palette's ``PULL_ZONE`` background with the floor as ``PULL_ZONE_FLOOR``, so
the zone shows in every palette, with 16 colours and in ASCII.
"""

from __future__ import annotations

import numpy as np
import tcod.console
from numpy.typing import NDArray

from components import Attributes
from roguelike.content import formulas
from roguelike.core.floor import WALKABLE, Tile
from roguelike.core.game import Game
from roguelike.render.colours import Slot
from roguelike.render.look import PULL_ZONE_FLOOR, Look


def pull_zone(game: Game) -> NDArray[np.bool_]:
    """Tiles in sight from which a dose in sight pulls the player's weak Will (none at Will 3+)."""
    state = game.state
    zone = np.zeros_like(game.view.visible)
    reach = formulas.irresistible_range(game.player_component(Attributes).will)
    if reach == 0:
        return zone
    for _, pos, _ in game.doses():
        if game.view.visible[pos.y, pos.x]:
            zone[max(0, pos.y - reach) : pos.y + reach + 1, max(0, pos.x - reach) : pos.x + reach + 1] = True
    result: NDArray[np.bool_] = zone & game.view.visible & WALKABLE[state.floor.tiles]
    return result


def draw_pull_zone(console: tcod.console.Console, game: Game, look: Look) -> None:
    """Tint the pull zone and pattern its floor, so it shows without colour."""
    zone = pull_zone(game)
    h, w = zone.shape
    region = console.rgb[0:h, 0:w]
    region["bg"][zone] = look.scheme[Slot.PULL_ZONE]
    region["ch"][zone & (game.state.floor.tiles == Tile.FLOOR)] = PULL_ZONE_FLOOR[look.glyphs]
