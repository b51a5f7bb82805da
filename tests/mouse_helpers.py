"""Helpers for the mouse tests: pointer events and a High game's in-game screen on a drawn room."""

from __future__ import annotations

import tcod.event
from tcod.event import MouseButton, Point

from bestiary_helpers import set_player
from helpers import drawn_game
from roguelike.core.session import Session
from roguelike.screens.ingame import InGameScreen


def motion(x: float, y: float) -> tcod.event.MouseMotion:
    """The pointer moved to pixel or cell ``(x, y)``."""
    return tcod.event.MouseMotion(position=Point(x, y))


def click(x: float, y: float, button: MouseButton = MouseButton.LEFT) -> tcod.event.MouseButtonDown:
    """A button pressed at ``(x, y)``."""
    return tcod.event.MouseButtonDown(position=Point(x, y), button=button)


def room_screen(rows: list[str]) -> tuple[InGameScreen, Session]:
    """The in-game screen on a game drawn from ``rows``, the player High (no monster grows meanwhile)."""
    game = drawn_game(rows)
    set_player(game, state_of_mind=90)
    game.refresh_visible()
    session = Session(game)
    return InGameScreen(session), session
