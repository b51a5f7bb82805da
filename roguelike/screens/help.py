"""The key reference, opened with ? during play."""

from __future__ import annotations

import tcod.console
import tcod.event

from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.style import HEADING, TEXT

LINES = (
    ("Move", "arrows, numpad 2 4 6 8, h j k l"),
    ("Diagonals", "numpad 7 9 1 3, Home PgUp End PgDn, y u b n"),
    ("", "Shift+Left/Right: up-left/up-right"),
    ("", "Ctrl+Left/Right: down-left/down-right"),
    ("Wait", ". or s or numpad 5"),
    ("Doors, doses, stairs", "walk into them"),
    ("Message log", "m"),
    ("Menu", "Esc"),
    ("Fullscreen (window)", "Alt+Enter"),
)
NOTES = (
    "State of Mind drains every turn: 0 is exhaustion, over 100 an overdose.",
    "Every dose raises Tolerance, and Tolerance weakens every dose.",
    "At or below 20 - Will you are Desperate: the craving takes the controls.",
)
KEY = (170, 200, 255)


class HelpScreen(Screen):
    """Keys and the rules in a few lines; any key closes it."""


    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Any key press goes back to the game."""
        return Pop() if isinstance(event, tcod.event.KeyDown) else None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw the key table and the notes."""
        console.print(2, 1, "Keys", fg=HEADING)
        for row, (action, keys) in enumerate(LINES):
            console.print(4, 3 + row, action, fg=TEXT)
            console.print(28, 3 + row, keys, fg=KEY)
        console.print(2, 14, "Remember", fg=HEADING)
        for row, note in enumerate(NOTES):
            console.print(4, 16 + row, note, fg=TEXT)
        console.print(2, 23, "Press any key to return.", fg=(130, 130, 150))
