"""Draw a game onto a tcod console: the map, what stands on it, and the panel.

Read-only over the game state. The map is computed with numpy over ``console.rgb``;
colours come from the player's palette (:class:`~roguelike.render.look.Look`), shifted
by the saved State-of-Mind palette, and doses stay bright whatever the State of Mind.
"""

from __future__ import annotations

import numpy as np
import tcod.console
from numpy.typing import NDArray

from components import Dose, Palette, Position, Renderable
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.game import Game
from roguelike.render import colours
from roguelike.render.look import Look, current_look
from roguelike.render.panel import draw_panel

REMEMBERED_DIM = 0.35
# The floor swirls a little slower than the glyphs on it, so the two drift apart.
BACKGROUND_SWIRL = 0.7
# Which content kind a glyph belongs to, for palettes that recolour kinds.
KIND_OF_GLYPH: dict[str, str] = {
    "@": "player",
    **{kind.glyph: key for key, kind in DOSE_KINDS.items()},
    **{kind.glyph: key for key, kind in MONSTER_KINDS.items()},
}


def kind_of_glyph(glyph: str) -> str | None:
    """The content key of the kind drawn with a glyph, if any."""
    return KIND_OF_GLYPH.get(glyph)


def draw_game(console: tcod.console.Console, game: Game, now: float, look: Look | None = None) -> None:
    """Draw the whole in-game screen (in the settings' look unless one is given)."""
    look = look or current_look()
    palette = game.palette()
    draw_map(console, game, palette, now, look)
    draw_entities(console, game, palette, look)
    draw_panel(console, game, look.scheme)


def draw_map(console: tcod.console.Console, game: Game, palette: Palette, now: float, look: Look) -> None:
    """Tiles: seen ones in the palette's colours, remembered ones dim, unknown ones black."""
    floor, visible = game.state.floor, game.state.visible
    h, w = floor.tiles.shape
    tile_fg, tile_bg = look.scheme.tile_colours()
    brightness = max(palette.brightness, look.scheme.least_brightness)
    fg = colours.shade(tile_fg[floor.tiles], palette.saturation, brightness)
    bg = colours.shade(tile_bg[floor.tiles], palette.saturation, brightness)
    if palette.psychedelic:
        turned = now * look.motion.swirl_speed
        fg, bg = colours.swirl(fg, turned), colours.swirl(bg, turned * BACKGROUND_SWIRL)
    remembered = (floor.explored & ~visible)[..., None]
    fg = np.where(remembered, colours.shade(fg, 0.2, REMEMBERED_DIM), fg)
    bg = np.where(remembered, colours.shade(bg, 0.2, REMEMBERED_DIM), bg)
    region = console.rgb[0:h, 0:w]
    region["ch"] = np.where(floor.explored, look.tile_glyphs[floor.tiles], ord(" "))
    region["fg"] = np.where(floor.explored[..., None], colours.to_bytes(fg), 0)
    region["bg"] = np.where(floor.explored[..., None], colours.to_bytes(bg), 0)


def draw_entities(console: tcod.console.Console, game: Game, palette: Palette, look: Look) -> None:
    """Entities in sight, lowest layer first; doses also where the player remembers them."""
    visible, explored = game.state.visible, game.state.floor.explored
    world = game.world
    drawn = sorted(world.query(Position, Renderable), key=lambda p: (p[1][1].layer, p[0]))
    for entity, (pos, thing) in drawn:
        remembered_dose = explored[pos.y, pos.x] and world.has(entity, Dose)
        if visible[pos.y, pos.x] or remembered_dose:
            console.rgb[pos.y, pos.x]["ch"] = ord(thing.glyph)
            console.rgb[pos.y, pos.x]["fg"] = entity_colour(thing, palette, look.scheme)


def entity_colour(thing: Renderable, palette: Palette, scheme: colours.Scheme) -> NDArray[np.uint8]:
    """A thing's colour: doses always bright, the rest shifted with the State of Mind."""
    rgb = np.array(scheme.kind_colour(kind_of_glyph(thing.glyph), thing.colour), dtype=np.float32)
    if thing.always_bright:
        return colours.to_bytes(rgb)
    brightness = max(palette.brightness, 0.75)
    return colours.to_bytes(colours.shade(rgb, max(palette.saturation, 0.3), brightness))

