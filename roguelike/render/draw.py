"""Draw a game onto a tcod console: the map, what stands on it, and the panel.

Read-only over the game state. The map is computed with numpy over ``console.rgb``;
colours follow the saved palette, and doses stay bright whatever the State of Mind.
"""

from __future__ import annotations

import numpy as np
import tcod.console
from numpy.typing import NDArray

from components import Dose, Palette, Position, Renderable
from roguelike.render import colours
from roguelike.core.game import Game
from roguelike.render.panel import draw_panel

# Indexed by Tile value.
TILE_GLYPHS = np.array([ord("#"), ord("."), ord("+"), ord("'"), ord(">"), ord("<")], dtype=np.int32)
TILE_FG = np.array(
    [[150, 110, 80], [110, 110, 140], [210, 150, 60], [210, 150, 60], [255, 255, 120], [255, 255, 120]],
    dtype=np.float32,
)
TILE_BG = np.array(
    [[70, 45, 35], [18, 18, 30], [60, 40, 20], [18, 18, 30], [40, 40, 70], [40, 40, 70]],
    dtype=np.float32,
)
REMEMBERED_DIM = 0.35


def draw_game(console: tcod.console.Console, game: Game, now: float) -> None:
    """Draw the whole in-game screen."""
    palette = game.palette()
    draw_map(console, game, palette, now)
    draw_entities(console, game, palette)
    draw_panel(console, game)


def draw_map(console: tcod.console.Console, game: Game, palette: Palette, now: float) -> None:
    """Tiles: seen ones in the palette's colours, remembered ones dim, unknown ones black."""
    floor, visible = game.state.floor, game.state.visible
    h, w = floor.tiles.shape
    fg = colours.shade(TILE_FG[floor.tiles], palette.saturation, palette.brightness)
    bg = colours.shade(TILE_BG[floor.tiles], palette.saturation, palette.brightness)
    if palette.psychedelic:
        fg, bg = colours.swirl(fg, now), colours.swirl(bg, now * 0.7)
    remembered = (floor.explored & ~visible)[..., None]
    fg = np.where(remembered, colours.shade(fg, 0.2, REMEMBERED_DIM), fg)
    bg = np.where(remembered, colours.shade(bg, 0.2, REMEMBERED_DIM), bg)
    region = console.rgb[0:h, 0:w]
    region["ch"] = np.where(floor.explored, TILE_GLYPHS[floor.tiles], ord(" "))
    region["fg"] = np.where(floor.explored[..., None], colours.to_bytes(fg), 0)
    region["bg"] = np.where(floor.explored[..., None], colours.to_bytes(bg), 0)


def draw_entities(console: tcod.console.Console, game: Game, palette: Palette) -> None:
    """Entities in sight, lowest layer first; doses also where the player remembers them."""
    visible, explored = game.state.visible, game.state.floor.explored
    world = game.world
    drawn = sorted(world.query(Position, Renderable), key=lambda p: (p[1][1].layer, p[0]))
    for entity, (pos, look) in drawn:
        remembered_dose = explored[pos.y, pos.x] and world.has(entity, Dose)
        if visible[pos.y, pos.x] or remembered_dose:
            console.rgb[pos.y, pos.x]["ch"] = ord(look.glyph)
            console.rgb[pos.y, pos.x]["fg"] = entity_colour(look, palette)


def entity_colour(look: Renderable, palette: Palette) -> NDArray[np.uint8]:
    """A thing's colour: doses always bright, the rest shifted with the State of Mind."""
    rgb = np.array(look.colour, dtype=np.float32)
    if look.always_bright:
        return colours.to_bytes(rgb)
    brightness = max(palette.brightness, 0.75)
    return colours.to_bytes(colours.shade(rgb, max(palette.saturation, 0.3), brightness))



