"""Sound: effects made at start-up, and a State of Mind you can hear.

Frontend-side: the rules never import this package; they leave cues (what they did) that
the in-game screen hands to :func:`active`'s :class:`~roguelike.sound.audio.Audio`, and
the frontend opens the speaker that plays it. One :class:`Audio` is in force per process,
as one set of settings is; until a frontend installs its own, a silent one. Screens and
frontends read it through ``roguelike.screens.ambient`` (the layer test holds who calls
:func:`active`).
"""

from __future__ import annotations

from roguelike.sound.audio import Audio
from roguelike.sound.drone import Mind

__all__ = ["Audio", "Mind", "active", "use"]

_active = Audio()


def use(audio: Audio) -> None:
    """Make this the sound of the process."""
    global _active
    _active = audio


def active() -> Audio:
    """The sound in force."""
    return _active
