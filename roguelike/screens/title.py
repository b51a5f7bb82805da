"""The startup screen: the game's name, Marla Daniels' words, and the menu.

Resume last game (with the character's name and stats) appears only when there is a
game to resume; then New game, Daily, Load game, Character stats, Best games (the hall of
fame), Settings, Help and Quit.
"""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.constants
import tcod.event

from roguelike import __version__
from roguelike.core.names import fit
from roguelike.saves import Games, SaveInfo
from roguelike.scores.daily import DailyStart, today
from roguelike.screens import ambient
from roguelike.screens.base import Push, Quit, Screen, Transition
from roguelike.screens.hall import HallScreen
from roguelike.screens.help import HelpScreen, Known
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.loadgame import LoadGameScreen
from roguelike.screens.menu import Menu
from roguelike.screens.newgame import START_KEYS, NewGameScreen
from roguelike.screens.settings import SettingsScreen
from roguelike.screens.stats import StatsScreen
from roguelike.storage.errors import SaveError

TITLE = "H E D O N I C   H Y P O T H E S I S"
QUOTE = '"You cannot lose if you do not play."'
QUOTE_BY = "-- Marla Daniels"
TITLE_COLOUR = (255, 90, 220)
QUOTE_COLOUR = (150, 150, 170)
STATUS_COLOUR = (220, 110, 90)
MENU_TOP = 12
STATUS_TOP = 21
WIZARD_WARNING = "Wizard mode: any game you start or resume is marked for good, never to count."

Action = Callable[[tcod.event.KeyDown], Transition | None]


class TitleScreen(Screen):
    """Title and main menu; it reads the saves again whenever the player comes back to it."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.status = ""
        self.last: SaveInfo | None = None
        self.entries: list[tuple[str, Action]] = []
        self.menu = Menu([])
        self.stale = True

    def refresh(self) -> None:
        """Rebuild the menu from the saves as they are now."""
        self.last = self.games.last()
        resume = [(resume_label(self.last), self.resume)] if self.last is not None else []
        self.entries = resume + [
            ("New game", self.new_game),
            ("Daily", self.daily),
            ("Load game", self.load_game),
            ("Character stats", self.stats),
            ("Best games (hall of fame)", lambda event: Push(HallScreen(self.games.root))),
            ("Settings", lambda event: Push(SettingsScreen())),
            ("Help", self.help),
            ("Quit", lambda event: Quit()),
        ]
        self.menu = Menu([label for label, _ in self.entries])
        self.stale = False

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Arrows and Enter, or a hotkey, pick an entry; Esc quits."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == tcod.event.KeySym.ESCAPE:
            return Quit()
        if ambient.keys().action_for(event) == "help":  # ? opens Help here as it does in play
            self.stale = True
            return self.help(event)
        if self.stale:
            self.refresh()
        chosen = self.menu.on_key(event)
        if chosen is None:
            return None
        self.status = ""
        transition = self.entries[chosen][1](event)
        if isinstance(transition, Push):
            self.stale = True  # saves may change before we are back
        return transition

    def resume(self, event: tcod.event.KeyDown) -> Transition | None:
        """Play the last game on."""
        assert self.last is not None
        try:
            return Push(InGameScreen(self.games.resume(self.last.path)))
        except SaveError as error:
            self.status = error.brief()
            self.stale = True
            return None

    def new_game(self, event: tcod.event.KeyDown) -> Transition:
        """Ask for a name."""
        return Push(NewGameScreen(self.games, swallow_first_text=event.sym not in START_KEYS))

    def daily(self, event: tcod.event.KeyDown) -> Transition:
        """Ask for a name for today's daily game (the UTC date now)."""
        start = DailyStart(self.games, today())
        return Push(NewGameScreen(self.games, swallow_first_text=event.sym not in START_KEYS, daily=start))

    def load_game(self, event: tcod.event.KeyDown) -> Transition:
        """The list of saves."""
        return Push(LoadGameScreen(self.games))

    def stats(self, event: tcod.event.KeyDown) -> Transition:
        """The character history."""
        return Push(StatsScreen(self.games))

    def help(self, event: tcod.event.KeyDown) -> Transition:
        """The help pages, with the monsters every character so far has met."""
        return Push(HelpScreen(Known(self.games.known_monsters())))

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw the title, the quote, the menu and any problem to report."""
        if self.stale:
            self.refresh()
        centre = console.width // 2
        console.print(centre, 5, TITLE, fg=TITLE_COLOUR, alignment=tcod.constants.CENTER)
        console.print(centre, 8, QUOTE, fg=QUOTE_COLOUR, alignment=tcod.constants.CENTER)
        console.print(centre + 10, 9, QUOTE_BY, fg=QUOTE_COLOUR, alignment=tcod.constants.CENTER)
        if self.games.wizard:  # resuming marks a character's own game for good: say so before it is chosen
            console.print(
                centre, 11, fit(WIZARD_WARNING, console.width - 2), fg=STATUS_COLOUR, alignment=tcod.constants.CENTER
            )
        widest = max(len(label) for label, _ in self.entries) + 5
        self.menu.draw(console, max(1, centre - widest // 2), MENU_TOP)
        console.print(
            1,
            STATUS_TOP,
            fit(self.status, 3 * (console.width - 2)),
            width=console.width - 2,
            height=3,
            fg=STATUS_COLOUR,
            alignment=tcod.constants.CENTER,
        )
        console.print(
            console.width - 1, console.height - 1, f"v{__version__}", fg=QUOTE_COLOUR, alignment=tcod.constants.RIGHT
        )


def resume_label(info: SaveInfo) -> str:
    """``Resume Ann (turn 50, floor 1, High)``."""
    return f"Resume {fit(info.name, 20)} (turn {info.turn}, floor {info.depth}, {info.mood}){info.marked}"
