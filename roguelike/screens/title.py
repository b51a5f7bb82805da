"""The startup screen: the game's name, Marla Daniels' words, and the menu."""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event

from roguelike import __version__
from roguelike.session import Session
from roguelike.screens.base import Push, Quit, Transition
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.menu import Menu

TITLE = "H E D O N I C   H Y P O T H E S I S"
QUOTE = '"You cannot lose if you do not play."'
QUOTE_BY = "-- Marla Daniels"
TITLE_COLOUR = (255, 90, 220)
QUOTE_COLOUR = (150, 150, 170)


class TitleScreen:
    """Title and main menu: New game, Quit."""

    animated = False

    def __init__(self, new_session: Callable[[], Session]) -> None:
        self.new_session = new_session
        self.menu = Menu(["New game", "Quit"])

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Arrows and Enter, or a hotkey, pick an entry; Esc quits."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == tcod.event.KeySym.ESCAPE:
            return Quit()
        match self.menu.on_key(event):
            case 0:
                return Push(InGameScreen(self.new_session()))
            case 1:
                return Quit()
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw the title, the quote and the menu."""
        centre = console.width // 2
        console.print(centre, 5, TITLE, fg=TITLE_COLOUR, alignment=tcod.constants.CENTER)
        console.print(centre, 8, QUOTE, fg=QUOTE_COLOUR, alignment=tcod.constants.CENTER)
        console.print(centre + 10, 9, QUOTE_BY, fg=QUOTE_COLOUR, alignment=tcod.constants.CENTER)
        self.menu.draw(console, centre - 8, 13)
        console.print(console.width - 1, console.height - 1, f"v{__version__}", fg=QUOTE_COLOUR, alignment=tcod.constants.RIGHT)
