"""The game's font: DejaVu Sans Mono, shipped with its licence, made into a tcod tileset.

libtcod loads a TrueType font into tiles as wide as its widest glyph; the grid looks
right only when every tile is cropped to the advance of a monospaced cell, which the
full block glyph shows exactly.
"""

from __future__ import annotations

import functools
from importlib import resources

import numpy as np
import tcod.tileset

from roguelike.settings import TileSize

FONT_FILE = "DejaVuSansMono.ttf"
TILE_HEIGHT = 20
FULL_BLOCK = 0x2588
# Latin, Greek, Cyrillic, punctuation, arrows, box drawing and blocks: enough for names
# typed in most European scripts and for every glyph the game draws.
CODEPOINT_RANGES = ((0x20, 0x250), (0x370, 0x530), (0x2010, 0x2060), (0x2190, 0x2200), (0x2500, 0x25A0))


def load_tileset(height: int = TILE_HEIGHT) -> tcod.tileset.Tileset:
    """The game's tileset at a tile height, with clean procedural block elements."""
    path = resources.files("roguelike") / "data" / "fonts" / FONT_FILE
    with resources.as_file(path) as font:
        wide = tcod.tileset.load_truetype_font(font, 0, height)
    left, right = _cell_columns(wide)
    tileset = tcod.tileset.Tileset(right - left, height)
    for start, stop in CODEPOINT_RANGES:
        for codepoint in range(start, stop):
            tile = wide.get_tile(codepoint)
            if tile[..., 3].any() or codepoint == 0x20:
                tileset[codepoint] = np.ascontiguousarray(tile[:, left:right])
    tcod.tileset.procedural_block_elements(tileset=tileset)
    draw_box_lines(tileset)
    return tileset


@functools.lru_cache(maxsize=4)
def tileset_for(size: TileSize) -> tcod.tileset.Tileset:
    """The tileset of one of the listed tile sizes (the font at that height is that wide)."""
    tileset = load_tileset(size.height)
    if (tileset.tile_width, tileset.tile_height) != (size.width, size.height):
        raise ValueError(
            f"the font at height {size.height} gives {tileset.tile_width}x{tileset.tile_height} tiles, not {size}"
        )
    return tileset


# Light box-drawing glyphs as the arms they reach out with: (up, down, left, right).
BOX_ARMS: dict[int, tuple[bool, bool, bool, bool]] = {
    0x2500: (False, False, True, True),
    0x2502: (True, True, False, False),
    0x250C: (False, True, False, True),
    0x2510: (False, True, True, False),
    0x2514: (True, False, False, True),
    0x2518: (True, False, True, False),
    0x251C: (True, True, False, True),
    0x2524: (True, True, True, False),
    0x252C: (False, True, True, True),
    0x2534: (True, False, True, True),
    0x253C: (True, True, True, True),
}


def draw_box_lines(tileset: tcod.tileset.Tileset) -> None:
    """Box lines drawn to the tile's edges, so frames join (the font's glyphs stop short)."""
    height, width = tileset.tile_height, tileset.tile_width
    thick = max(1, height // 12)
    top, left = (height - thick) // 2, (width - thick) // 2
    for codepoint, (up, down, west, east) in BOX_ARMS.items():
        alpha = np.zeros((height, width), dtype=np.uint8)
        if up:
            alpha[: top + thick, left : left + thick] = 255
        if down:
            alpha[top:, left : left + thick] = 255
        if west:
            alpha[top : top + thick, : left + thick] = 255
        if east:
            alpha[top : top + thick, left:] = 255
        tile = np.full((height, width, 4), 255, dtype=np.uint8)
        tile[..., 3] = alpha
        tileset[codepoint] = tile


def _cell_columns(wide: tcod.tileset.Tileset) -> tuple[int, int]:
    """The columns of a wide tile that one monospaced cell covers."""
    alpha = wide.get_tile(FULL_BLOCK)[..., 3]
    columns = np.nonzero(alpha.max(axis=0))[0]
    return int(columns.min()), int(columns.max()) + 1
