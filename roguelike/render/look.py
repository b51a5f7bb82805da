"""What rendering needs from the settings: the palette, the motion limit and the glyph set.

:class:`Look` is passed into :func:`~roguelike.render.draw.draw_game` and
:func:`finish_frame` by whoever draws (the screens read the settings in force through
``roguelike.screens.ambient``); rendering never reads the settings itself. Nothing here
touches the game state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import tcod.console
from numpy.typing import NDArray

from roguelike.content.terrain import GLYPHS
from roguelike.render.ascii import ascii_fallback
from roguelike.render.colours import Scheme, scheme_for
from roguelike.settings import Glyphs, Motion, Settings

# Map glyphs indexed by Tile value, from the terrain table. The map is ASCII in both sets
# today (players and tests read "." as floor); Unicode allows box lines and symbols
# elsewhere, which ASCII turns into their stand-ins.
TILE_GLYPHS: dict[Glyphs, NDArray[np.int32]] = {
    Glyphs.ASCII: np.array([ord(c) for c in GLYPHS], dtype=np.int32),
    Glyphs.UNICODE: np.array([ord(c) for c in GLYPHS], dtype=np.int32),
}
# A floor cell inside a dose's pull zone, so the zone shows without colour (ASCII mode above all).
PULL_ZONE_FLOOR: dict[Glyphs, int] = {Glyphs.ASCII: ord(":"), Glyphs.UNICODE: ord(":")}


@dataclass(frozen=True)
class Look:
    """The palette, motion and glyphs to draw a frame with."""

    scheme: Scheme
    motion: Motion
    glyphs: Glyphs

    @classmethod
    def of(cls, chosen: Settings) -> Look:
        """The look the given settings ask for."""
        return cls(scheme_for(chosen.palette), chosen.motion, chosen.glyphs)

    @property
    def tile_glyphs(self) -> NDArray[np.int32]:
        """Glyph codepoints indexed by Tile value."""
        return TILE_GLYPHS[self.glyphs]


# The look of the default settings: for what is drawn apart from a player's choice (the morgue's map).
DEFAULT_LOOK = Look.of(Settings())


def finish_frame(console: tcod.console.Console, look: Look) -> None:
    """Last touch on a drawn frame before it is shown: the palette's whole-screen filter,
    and plain ASCII for every glyph when the glyphs setting asks for it."""
    look.scheme.finish(console.rgb["fg"], console.rgb["bg"])
    if look.glyphs is Glyphs.ASCII:
        to_ascii(console.rgb["ch"])


def to_ascii(glyphs: NDArray[np.int32]) -> None:
    """Replace every non-ASCII codepoint by its ASCII stand-in, in place (box lines by -|+)."""
    wide = glyphs > 0x7E
    if wide.any():
        distinct, where = np.unique(glyphs[wide], return_inverse=True)
        stand_ins = np.array(
            [ord(ascii_fallback(chr(codepoint))) for codepoint in distinct.tolist()], dtype=glyphs.dtype
        )
        glyphs[wide] = stand_ins[where]
