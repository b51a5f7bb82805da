"""Render screens to PNG with the real tileset and no window."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import tcod.console
from numpy.typing import NDArray

from roguelike.content import formulas
from roguelike.core.game import Game
from roguelike.render.draw import draw_game
from roguelike.render.look import DEFAULT_LOOK, Look, finish_frame
from roguelike.render.png import write_png
from roguelike.render.tileset import tileset_for
from roguelike.settings import Settings, TileSize

# A fixed instant for the cosmetic animation, so screenshots of one state are identical.
SCREENSHOT_TIME = 0.0
DEFAULT_TILES = Settings().tiles


def game_console(game: Game, look: Look = DEFAULT_LOOK) -> tcod.console.Console:
    """An 80x25 console with the in-game screen drawn on it, in a look (the default settings' unless given)."""
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    draw_game(console, game, SCREENSHOT_TIME, look)
    finish_frame(console, look)
    return console


def render_pixels(console: tcod.console.Console, tiles: TileSize = DEFAULT_TILES) -> NDArray[np.uint8]:
    """The console as RGBA pixels, drawn with the game's tileset at a tile size (the default unless given)."""
    pixels: NDArray[np.uint8] = tileset_for(tiles).render(console)
    return pixels


def save_screenshot(game: Game, path: Path, look: Look = DEFAULT_LOOK, tiles: TileSize = DEFAULT_TILES) -> None:
    """Write the in-game screen of a game as a PNG file."""
    write_png(path, render_pixels(game_console(game, look), tiles))
