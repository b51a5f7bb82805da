"""The pull zone: the tiles around a dose from which a weak Will cannot resist it.

Drawn as the palette's ``PULL_ZONE`` background with the floor as ``PULL_ZONE_FLOOR``, so
the zone shows in every palette, with 16 colours and in ASCII. Which tiles it covers is
``roguelike.assist.pullzone``'s rule, the one the bots steer by.
"""

from __future__ import annotations

import tcod.console

from roguelike.assist.pullzone import pull_zone_in_sight
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.render.colours import Slot
from roguelike.render.look import PULL_ZONE_FLOOR, Look


def draw_pull_zone(console: tcod.console.Console, game: Game, look: Look) -> None:
    """Tint the pull zone and pattern its floor, so it shows without colour."""
    zone = pull_zone_in_sight(game)
    h, w = zone.shape
    region = console.rgb[0:h, 0:w]
    region["bg"][zone] = look.scheme[Slot.PULL_ZONE]
    region["ch"][zone & (game.state.floor.tiles == Tile.FLOOR)] = PULL_ZONE_FLOOR[look.glyphs]
