"""The settings, keys and sound in force: the one place screens and frontends read them.

Three things belong to a run rather than to a game: the player's settings
(:mod:`roguelike.settings`), the keys (:mod:`roguelike.screens.bindings`) and the sound
(:mod:`roguelike.sound`). Each is one per process: the command line installs them before
the first screen opens (with this run's overrides, such as ``--mute`` or ``--palette``),
and the Settings, Keys and Sound pages change them while the game runs. Screens and
frontends read them through this module when they draw or take a key, which is how a
change takes effect at once on every screen without being threaded through each
constructor. Nothing below the screens reads them: the renderer is handed a
:class:`~roguelike.render.look.Look`, the animations a motion, the sound the settings, as
arguments. ``tests/test_layers.py`` holds that only this module and the command line,
which installs them, call their accessors.
"""

from __future__ import annotations

from roguelike import settings, sound
from roguelike.render.look import Look
from roguelike.screens import bindings
from roguelike.screens.bindings import Bindings
from roguelike.settings import Preferences, Settings
from roguelike.sound import Audio


def preferences() -> Preferences:
    """The settings in force, with their file, this run's overrides and any problem reading it."""
    return settings.preferences()


def chosen() -> Settings:
    """The settings to draw and play with now."""
    return settings.current()


def look() -> Look:
    """The palette, motion and glyphs of the settings in force."""
    return Look.of(settings.current())


def motion() -> str:
    """The motion setting in force ("full", "reduced" or "none"), for animations to follow."""
    return settings.current().motion.value


def keys() -> Bindings:
    """The keys in force."""
    return bindings.active()


def use_keys(keys: Bindings) -> None:
    """Put these keys in force (the Keys page, after a rebinding)."""
    bindings.use(keys)


def audio() -> Audio:
    """The sound of this run."""
    return sound.active()
