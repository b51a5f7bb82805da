"""A vertical menu of labelled choices, driven by arrows, hotkeys and Enter."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import tcod.console
import tcod.event

from roguelike.screens.keymap import CONFIRM_KEYS, MENU_DOWN, MENU_UP
from roguelike.screens.style import NORMAL, SELECTED


@dataclass
class Menu:
    """Choices with a cursor; each label's first letter (or its number) picks it."""

    labels: Sequence[str]
    cursor: int = 0
    drawn_at: tuple[int, int] | None = None  # where the first entry was last drawn

    def on_key(self, event: tcod.event.KeyDown) -> int | None:
        """Move the cursor; return the index of a chosen entry."""
        if event.sym in MENU_UP:
            self.cursor = (self.cursor - 1) % len(self.labels)
        elif event.sym in MENU_DOWN:
            self.cursor = (self.cursor + 1) % len(self.labels)
        elif event.sym in CONFIRM_KEYS:
            return self.cursor
        return self.hotkey(event.sym)

    def hotkey(self, sym: tcod.event.KeySym) -> int | None:
        """The entry whose number or initial letter was pressed."""
        for index, label in enumerate(self.labels):
            if int(sym) in (int(tcod.event.KeySym.N1) + index, ord(label[0].lower())):
                return index
        return None

    def draw(self, console: tcod.console.Console, x: int, y: int) -> None:
        """Draw the entries, the selected one highlighted."""
        self.drawn_at = (x, y)
        for index, label in enumerate(self.labels):
            marker = ">" if index == self.cursor else " "
            colour = SELECTED if index == self.cursor else NORMAL
            console.print(x, y + index, f"{marker} {index + 1}. {label}", fg=colour)
