"""A page of options: a spaced-out title, the options with their values, the keys along the bottom.

The Settings screen, the Sound page and the page of what stops automation are each one.
Up and Down choose an entry; Enter, Space, its number or its first letter changes it
(its next value, or the page it opens); Left and Right step its value back and forth
where the page lets them; Esc leaves. A page says how its entries read (``labels``),
what changing one does (``change``) and what else it shows (``draw_more``); labels are
read again on every change and every frame, so they always show the settings in force.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar

import tcod.console
import tcod.constants
import tcod.event
from tcod.event import KeySym

from roguelike.render.text import wrap
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.menu import Menu
from roguelike.screens.style import HEADING, HINT

SIDEWAYS = {KeySym.LEFT: -1, KeySym.RIGHT: 1}


class OptionList(Screen):
    """A menu of options whose values change in place; Esc leaves."""

    title: ClassVar[str]
    keys: ClassVar[str]
    menu_at: ClassVar[tuple[int, int]]

    def __init__(self) -> None:
        self.menu = Menu(self.labels())

    @abstractmethod
    def labels(self) -> list[str]:
        """One line per entry, as it reads now."""

    @abstractmethod
    def change(self, index: int, step: int) -> Transition | None:
        """Change an entry: its next value (``step`` 1) or the one before (-1), or what the entry opens."""

    def steps(self, index: int) -> bool:
        """Whether Left and Right step this entry's value."""
        return False

    def draw_more(self, console: tcod.console.Console) -> None:
        """What the page shows besides its title, options and keys."""

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Choose an entry, change it, or leave."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == KeySym.ESCAPE:
            return Pop()
        if event.sym in SIDEWAYS and self.steps(self.menu.cursor):
            return self.changed(self.menu.cursor, SIDEWAYS[event.sym])
        chosen = self.menu.on_key(event)
        if chosen is None:
            return None
        self.menu.cursor = chosen
        return self.changed(chosen, 1)

    def changed(self, index: int, step: int) -> Transition | None:
        """Change an entry and read the labels again."""
        transition = self.change(index, step)
        self.menu.labels = self.labels()
        return transition

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The title, the options with the chosen one marked, what else the page shows, the keys."""
        self.menu.labels = self.labels()
        console.print(console.width // 2, 1, self.title, fg=HEADING, alignment=tcod.constants.CENTER)
        self.menu.draw(console, *self.menu_at)
        self.draw_more(console)
        console.print(console.width // 2, console.height - 1, self.keys, fg=HINT, alignment=tcod.constants.CENTER)


def print_wrapped(
    console: tcod.console.Console,
    top: int,
    text: str,
    colour: tuple[int, int, int],
    rows: int | None = None,
    hyphens: bool = True,
) -> None:
    """Text wrapped to the screen's width from row ``top`` (at most ``rows`` lines if given)."""
    for row, line in enumerate(wrap(text, console.width - 4, hyphens=hyphens)[:rows]):
        console.print(2, top + row, line, fg=colour)
