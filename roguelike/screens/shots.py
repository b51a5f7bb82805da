"""The screens ``hedonic screenshot --screen NAME`` can draw, built from a bot's game.

Each builder gets the game the bot played (and a scratch data folder) and returns the
screen to draw; ``death`` needs a game that ended, ``stats`` finds it in the history.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import tcod.console
import tcod.event

from components import Bestiary
from roguelike.content import formulas
from roguelike.core.game import Game
from roguelike.render.draw import draw_game
from roguelike.render.look import finish_frame
from roguelike.render.screenshot import SCREENSHOT_TIME
from roguelike.saves import Games
from roguelike.saves.history import record_of, write_record
from roguelike.screens import ambient
from roguelike.screens.base import Screen, Transition
from roguelike.screens.death import RecordScreen
from roguelike.screens.help import HelpScreen, known_in
from roguelike.screens.look import LookScreen
from roguelike.screens.stats import StatsScreen
from roguelike.screens.title import TitleScreen
from roguelike.storage.datadir import DataDir


class GameView(Screen):
    """The in-game screen without a session: what the player sees, drawn read-only."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """A picture takes no input."""
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The map, what stands on it, and the panel."""
        draw_game(console, self.game, now, ambient.look())


def help_screen(game: Game, root: Path, page: str) -> Screen:
    """Help as the player of this game would see it."""
    bestiary = game.player_component_or_none(Bestiary)
    known = known_in(game, frozenset(bestiary.met if bestiary else ()))
    return HelpScreen(known, page or "Controls")


def look_screen(game: Game, root: Path, page: str) -> Screen:
    """The look cursor on the nearest monster or dose in view."""
    screen = LookScreen(game)
    screen.jump(1)
    return screen


def stats_screen(game: Game, root: Path, page: str) -> Screen:
    """Character stats with this game's character in the history."""
    write_record(DataDir(root).record("screenshot"), record_of(game))
    screen = StatsScreen(Games(root))
    screen.overall = page.lower() == "overall"
    return screen


SCREENS: dict[str, Callable[[Game, Path, str], Screen]] = {
    "game": lambda game, root, page: GameView(game),
    "help": help_screen,
    "look": look_screen,
    "death": lambda game, root, page: RecordScreen(record_of(game), died=True),
    "stats": stats_screen,
    "title": lambda game, root, page: TitleScreen(Games(root)),
}


def drawn(screen: Screen) -> tcod.console.Console:
    """An 80x25 console with the screen drawn on it."""
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    screen.on_draw(console, SCREENSHOT_TIME)
    finish_frame(console, ambient.look())
    return console


def console_text(console: tcod.console.Console) -> str:
    """The console's characters as lines of plain text (trailing spaces dropped)."""
    rows = ["".join(chr(c) for c in row).rstrip() for row in console.rgb["ch"]]
    return "\n".join(rows) + "\n"
