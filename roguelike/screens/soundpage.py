"""The settings page of sound: master volume, effects, the drone, the terminal bell.

Up and Down choose an option; Enter, Right or its first letter (or number) takes its
next value, Left the one before; Esc leaves. A change applies at once and is saved with
the other settings; a new volume plays a short sound at that volume where a speaker is
open. The page says when nothing can be heard in this run, and why.
"""

from __future__ import annotations

import tcod.console

from roguelike.screens import ambient
from roguelike.screens.base import Transition
from roguelike.screens.optionlist import OptionList, print_wrapped
from roguelike.screens.style import HINT, TEXT
from roguelike.settings import SOUND_CHOICES, next_choice

TITLE = "S O U N D"
TOP = 4
ABOUT_TOP = 11
STATUS_TOP = 15
KEYS = "Up/Down option   Enter, Right or its letter: next value   Left: previous   Esc"
PREVIEW = "dose_normal"
TITLES: dict[str, str] = {
    "volume": "Volume",
    "sound_effects": "Effects",
    "drone": "State of Mind drone",
    "bell": "Terminal bell",
}
ABOUT: dict[str, str] = {
    "volume": "Master volume of every sound (0: silent). --mute silences one run.",
    "sound_effects": "Doses (larger ones deeper and longer), close calls, monsters first seen, hits, "
    "slayings, stairs, Desperation, the Perfect High, death.",
    "drone": "A quiet drone whose pitch rises with the State of Mind: it thins in Withdrawal, shimmers "
    "when High and throbs near overdose. It can stay on with the effects off.",
    "bell": "In a terminal, the bell rings when the State of Mind comes near overdose.",
}
SILENT = "No audio device was found: this run is silent (the terminal bell still rings if on)."
MUTED = "Muted for this run (--mute): choose a volume to hear sound again."


def value_text(name: str, value: object) -> str:
    """How a sound option's value reads."""
    if name == "volume":
        return f"{value}%" if value else "off"
    return "on" if value else "off"


class SoundScreen(OptionList):
    """Change the sound settings; each change applies at once and is saved."""

    title, keys, menu_at = TITLE, KEYS, (6, TOP)

    def __init__(self) -> None:
        self.names = list(SOUND_CHOICES)
        super().__init__()

    def labels(self) -> list[str]:
        """One line per option with its value."""
        chosen = ambient.chosen()
        return [f"{TITLES[name]:<22} {value_text(name, getattr(chosen, name))}" for name in self.names]

    def steps(self, index: int) -> bool:
        """Every option steps with Left and Right."""
        return True

    def change(self, index: int, step: int) -> Transition | None:
        """Give an option its next (or previous) value, use it, save it, and let it be heard."""
        name = self.names[index]
        prefs = ambient.preferences()
        prefs.change(name, next_choice(prefs.current, name, step))
        audio = ambient.audio()
        audio.follow(None, prefs.current)  # the new levels now (and a speaker opened if sound is wanted at last)
        if name == "volume":
            audio.preview(PREVIEW, prefs.current)
        return None

    def draw_more(self, console: tcod.console.Console) -> None:
        """What the chosen option does, and whether anything can be heard."""
        print_wrapped(console, ABOUT_TOP, ABOUT[self.names[self.menu.cursor]], TEXT)
        print_wrapped(console, STATUS_TOP, status_line(), HINT)


def status_line() -> str:
    """Why nothing is heard in this run, if so."""
    prefs = ambient.preferences()
    if prefs.overrides.get("volume") == 0:
        return MUTED
    if ambient.chosen().volume > 0 and not ambient.audio().playing:
        return SILENT
    return ""
