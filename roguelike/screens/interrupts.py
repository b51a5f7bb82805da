"""The settings page of what stops automation: each kind of disturbance, on or off.

Up and Down choose a kind; Enter, Space or its number turns it on or off; Esc leaves.
A change applies at once (to auto-explore, travel, rest and held keys alike) and is
saved with the other settings.
"""

from __future__ import annotations

import tcod.console

from roguelike.content.interrupts import DESCRIPTIONS, Disturbance
from roguelike.screens import ambient
from roguelike.screens.base import Transition
from roguelike.screens.optionlist import OptionList
from roguelike.screens.style import TEXT

TITLE = "A U T O M A T I O N   S T O P S   W H E N"
TOP = 4
KEYS = "Up/Down choose   Enter or Space: on/off   Esc: back"
ABOUT = (
    "Auto-explore (o), travel (> < or a click) and rest (Z) stop, and a held",
    "key stops repeating, when one of these happens. Any key stops them too.",
)


class InterruptsScreen(OptionList):
    """Turns each kind of disturbance on or off."""

    title, keys, menu_at = TITLE, KEYS, (6, TOP + 1)

    def __init__(self) -> None:
        self.kinds = list(Disturbance)
        super().__init__()

    def labels(self) -> list[str]:
        """One line per kind: whether it stops automation, and what it is."""
        enabled = ambient.chosen().interrupts
        return [f"[{'x' if kind in enabled else ' '}] {DESCRIPTIONS[kind]}" for kind in self.kinds]

    def change(self, index: int, step: int) -> Transition | None:
        """Turn one kind on or off, in force and in the settings file."""
        prefs = ambient.preferences()
        enabled = prefs.current.interrupts
        kind = self.kinds[index]
        prefs.change("interrupts", enabled - {kind} if kind in enabled else enabled | {kind})
        return None

    def draw_more(self, console: tcod.console.Console) -> None:
        """What the page is for."""
        for row, line in enumerate(ABOUT):
            console.print(2, 2 + row, line, fg=TEXT)
