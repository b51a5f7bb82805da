"""The player's settings: how the game looks and moves, never what happens in it.

One :class:`Preferences` is in force per process (:func:`preferences`); the command
line installs the data directory's with :func:`use` before the first screen opens.
Screens and frontends read it through ``roguelike.screens.ambient`` when they draw, which
is how a change made on the Settings screen takes effect at once without threading it
through every screen; the renderer and the sound are handed what they need as arguments
(the layer test holds who calls :func:`preferences` and :func:`current`). Nothing here is
read by the game's rules, saves, replays or checksums.
"""

from __future__ import annotations

from roguelike.settings.options import (
    CHOICES,
    MAX_FLASHES_PER_SECOND,
    SOUND_CHOICES,
    TILE_SIZES,
    VOLUMES,
    Glyphs,
    Motion,
    PaletteName,
    Scaling,
    Settings,
    TileSize,
    WindowPlace,
    next_choice,
    tile_size,
)
from roguelike.settings.store import Preferences

__all__ = [
    "CHOICES",
    "MAX_FLASHES_PER_SECOND",
    "SOUND_CHOICES",
    "TILE_SIZES",
    "VOLUMES",
    "Glyphs",
    "Motion",
    "PaletteName",
    "Preferences",
    "Scaling",
    "Settings",
    "TileSize",
    "WindowPlace",
    "current",
    "next_choice",
    "preferences",
    "tile_size",
    "use",
]

_active = Preferences(None)


def use(prefs: Preferences) -> None:
    """Make these the settings in force for this process."""
    global _active
    _active = prefs


def preferences() -> Preferences:
    """The settings in force, with their file and any problem reading it."""
    return _active


def current() -> Settings:
    """The settings to draw with now."""
    return _active.current
