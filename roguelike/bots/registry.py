"""The bots by name, for ``hedonic simulate --bot`` and ``hedonic balance``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from roguelike.bots.bot import Bot
from roguelike.bots.careful import CarefulBot
from roguelike.bots.climber import ClimberBot
from roguelike.bots.diver import DiverBot
from roguelike.bots.explorer import ExplorerBot
from roguelike.bots.names import BOT_NAMES, DEFAULT_BOT
from roguelike.bots.planner import PlannerBot, PocketlessPlanner
from roguelike.bots.reader import ReaderBot
from roguelike.bots.reckless import RecklessBot
from roguelike.core.commands import Command
from roguelike.core.game import Game


class Player(Protocol):
    """Anything that answers a game with its next command."""

    def choose(self, game: Game) -> Command:
        """The next command for ``game``."""
        ...


BOTS: dict[str, Callable[[], Player]] = {
    "standard": Bot,
    "careful": CarefulBot,
    "climber": ClimberBot,
    "diver": DiverBot,
    "reckless": RecklessBot,
    "explorer": ExplorerBot,
    "reader": ReaderBot,
    "planner": PlannerBot,
    "planner-nopocket": PocketlessPlanner,
}


assert sorted(BOTS) == list(BOT_NAMES) and DEFAULT_BOT in BOTS


def make_bot(name: str) -> Player:
    """A fresh bot of the named kind (KeyError for an unknown name)."""
    return BOTS[name]()
