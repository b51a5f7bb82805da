"""The settings page of what stops automation: each kind of disturbance, on or off.

Up and Down choose a kind; Enter, Space or its number turns it on or off; Esc leaves.
A change applies at once (to auto-explore, travel, rest and held keys alike) and is
saved with the other settings.
"""

from __future__ import annotations

import tcod.console
import tcod.constants
import tcod.event
from tcod.event import KeySym

from roguelike.content.interrupts import DESCRIPTIONS, Disturbance
from roguelike.screens import ambient
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.menu import Menu
from roguelike.screens.style import HEADING, HINT, TEXT

TITLE = "A U T O M A T I O N   S T O P S   W H E N"
TOP = 4
KEYS = "Up/Down choose   Enter or Space: on/off   Esc: back"
ABOUT = ("Auto-explore (o), travel (> < or a click) and rest (Z) stop, and a held",
         "key stops repeating, when one of these happens. Any key stops them too.")
TOGGLE = frozenset({KeySym.RETURN, KeySym.KP_ENTER, KeySym.SPACE})


class InterruptsScreen(Screen):
    """Turns each kind of disturbance on or off."""

    def __init__(self) -> None:
        self.kinds = list(Disturbance)
        self.menu = Menu(self.labels())

    def labels(self) -> list[str]:
        """One line per kind: whether it stops automation, and what it is."""
        enabled = ambient.chosen().interrupts
        return [f"[{'x' if kind in enabled else ' '}] {DESCRIPTIONS[kind]}" for kind in self.kinds]

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Choose a kind, turn it on or off, or leave."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == KeySym.ESCAPE:
            return Pop()
        if event.sym in TOGGLE:
            self.toggle(self.menu.cursor)
            return None
        chosen = self.menu.on_key(event)
        if chosen is not None:
            self.menu.cursor = chosen
            self.toggle(chosen)
        return None

    def toggle(self, index: int) -> None:
        """Turn one kind on or off, in force and in the settings file."""
        prefs = ambient.preferences()
        enabled = prefs.current.interrupts
        kind = self.kinds[index]
        prefs.change("interrupts", enabled - {kind} if kind in enabled else enabled | {kind})
        self.menu.labels = self.labels()

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """What the page is for, the kinds with their state, the keys."""
        self.menu.labels = self.labels()
        console.print(console.width // 2, 1, TITLE, fg=HEADING, alignment=tcod.constants.CENTER)
        for row, line in enumerate(ABOUT):
            console.print(2, 2 + row, line, fg=TEXT)
        self.menu.draw(console, 6, TOP + 1)
        console.print(console.width // 2, console.height - 1, KEYS, fg=HINT, alignment=tcod.constants.CENTER)
