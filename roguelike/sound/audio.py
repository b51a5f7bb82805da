"""The sound of this run: what the screens ask to hear, played where an output is open.

The in-game screen hands over each action's cues (:meth:`Audio.hear`) and the screen
stack the mind to drone (:meth:`Audio.follow`, every frame); the frontend opens an output
(``roguelike.frontend.speaker``) that pulls :attr:`Audio.mixer`'s samples. With no output
open (no audio device, ``--mute``, a test) nothing is built or mixed, and the terminal
bell still rings for the overdose alarm when the player asked for it. The settings to
play with are handed to each call (the screens read those in force); this never reads
them itself. Cosmetic only: the game is read through its cues and a
:class:`~roguelike.sound.drone.Mind`, never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from roguelike.core.cues import Cue
from roguelike.settings import Settings
from roguelike.sound.bank import Bank
from roguelike.sound.drone import Mind
from roguelike.sound.hearing import sounds_for
from roguelike.sound.mixer import Levels, Mixer, loudness

ALARM_BAND = "near overdose"


def levels_of(chosen: Settings) -> Levels:
    """The mixer's levels for the settings in force."""
    return Levels(loudness(chosen.volume), chosen.sound_effects, chosen.drone)


def audible(chosen: Settings) -> bool:
    """Whether these settings would make any sound come out of a speaker."""
    return chosen.volume > 0 and (chosen.sound_effects or chosen.drone)


class Audio:
    """Sound effects, the drone and the terminal bell for one run."""

    def __init__(self) -> None:
        self.mixer = Mixer()
        self.bank: Bank | None = None  # built when an output opens
        self.band: str | None = None
        self.bell_due = False
        self.open_output: Callable[[], None] | None = None  # the frontend's, tried once sound is wanted

    @property
    def playing(self) -> bool:
        """Whether an output is open and its effects are built."""
        return self.bank is not None

    def hear(self, action: Iterable[Cue], chosen: Settings) -> None:
        """Play what an action's cues call for (nothing if effects are off or nothing is open)."""
        if self.bank is None or not chosen.sound_effects:
            return
        for name, delay in sounds_for(action):
            self.mixer.play(self.bank[name], delay)

    def preview(self, name: str, chosen: Settings) -> None:
        """Play one effect at these settings' levels (the Settings page's new volume)."""
        if self.bank is not None:
            self.mixer.set_levels(levels_of(chosen))
            self.mixer.play(self.bank[name])

    def follow(self, mind: Mind | None, chosen: Settings) -> None:
        """The mind to drone now (None: no game shown) at these settings' levels; rings the bell on
        entering near overdose."""
        self.mixer.set_levels(levels_of(chosen))
        if self.open_output is not None and audible(chosen):
            opener, self.open_output = self.open_output, None
            opener()
        self.mixer.follow(mind)
        band = mind.band if mind is not None else None
        if band == ALARM_BAND and self.band != ALARM_BAND and chosen.bell and chosen.volume > 0:
            self.bell_due = True
        self.band = band

    def take_bell(self) -> bool:
        """Whether the terminal should ring its bell now (asked once: the answer is then spent)."""
        due, self.bell_due = self.bell_due, False
        return due
