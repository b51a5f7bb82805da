"""A yes/no question over another screen: y confirms, n or Esc declines."""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.constants
import tcod.event

from roguelike.core.names import fit
from roguelike.screens.base import Pop, Screen, Transition

BOX = (40, 16, 24)
TEXT = (230, 220, 220)
KEYS = (255, 230, 120)


class ConfirmScreen(Screen):
    """Asks a question; only the y key says yes."""

    def __init__(self, question: str, on_yes: Callable[[], None], under: Screen) -> None:
        self.question = question
        self.on_yes = on_yes
        self.under = under

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """y runs the action and closes; n or Esc just closes; other keys are ignored."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == tcod.event.KeySym.Y:
            self.on_yes()
            return Pop()
        if event.sym in (tcod.event.KeySym.N, tcod.event.KeySym.ESCAPE):
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The screen underneath with the question in a box."""
        self.under.on_draw(console, now)
        width = console.width - 10
        console.draw_frame(5, 9, width, 6, bg=BOX, fg=TEXT)
        console.print(console.width // 2, 11, fit(self.question, width - 4), fg=TEXT, alignment=tcod.constants.CENTER)
        console.print(console.width // 2, 12, "y: yes    n: no", fg=KEYS, alignment=tcod.constants.CENTER)
