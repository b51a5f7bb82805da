"""The in-game menu on Esc: Continue (the default), Settings, a morgue file now, or Quit,
which saves and returns to the title."""

from __future__ import annotations

import tcod.console
import tcod.constants
import tcod.event

from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.records.morguefile import morgue_file, recorded_replay
from roguelike.render.draw import draw_game
from roguelike.screens import ambient
from roguelike.screens.base import Pop, Push, Screen, Transition
from roguelike.screens.menu import Menu
from roguelike.screens.noticebar import draw_notices
from roguelike.screens.settings import SettingsScreen

BOX = (20, 18, 36)


class PauseScreen(Screen):
    """Continue playing or quit; there is no quitting without saving."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.game: Game = session.game
        self.menu = Menu(["Continue", "Settings", "Morgue file (write one now)", "Quit (saves the game)"])
        self.status = "The game is saved every turn."

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Esc or Continue closes the menu; Settings opens them; Morgue file writes one; Quit returns to the title."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == tcod.event.KeySym.ESCAPE:
            return Pop()
        match self.menu.on_key(event):
            case 0:
                return Pop()
            case 1:
                return Push(SettingsScreen())
            case 2:
                self.status = morgue_file(self.game, recorded_replay(self.session)).line
            case 3:
                self.session.close()  # the autosave writes anything unsaved and lets go of the save
                return Pop(2)  # this menu and the game under it
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The game underneath, with the menu in a box over it."""
        draw_game(console, self.game, now, ambient.look())
        draw_notices(console, self.session)
        console.draw_frame(12, 7, 56, 11, bg=BOX, fg=(200, 200, 220))
        console.print(14, 7, " Menu ", fg=(255, 230, 120), bg=BOX)
        self.menu.draw(console, 26, 9)
        console.print(14, 14, self.status, width=52, height=3, fg=(130, 130, 150), bg=BOX)
