"""The message log, opened with m during play: every line the panel had no room for."""

from __future__ import annotations

import tcod.console
import tcod.event

from roguelike.core.game import Game
from roguelike.core.names import fit
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.style import HEADING, TEXT

TURN = (120, 120, 140)
ROWS = 21


class MessageLogScreen(Screen):
    """The newest messages with their turns; any key closes it."""


    def __init__(self, game: Game) -> None:
        self.game = game

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Any key press goes back to the game."""
        return Pop() if isinstance(event, tcod.event.KeyDown) else None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw the last messages, oldest at the top."""
        console.print(2, 1, "Messages", fg=HEADING)
        for row, message in enumerate(self.game.state.messages[-ROWS:]):
            console.print(2, 3 + row, f"{message.turn:>6}", fg=TURN)
            console.print(10, 3 + row, fit(message.text, console.width - 12), fg=TEXT)
