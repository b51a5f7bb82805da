"""The message log, opened with m during play: every line the panel had no room for.

Besides the game's own messages it keeps what the screen said outside the game (why
automation stopped, the v and c read-outs, questions), in turn order, after the game's
lines of the same turn.
"""

from __future__ import annotations

from collections.abc import Sequence

import tcod.console
import tcod.event
from tcod.event import KeySym

from roguelike.core.game import Game
from roguelike.core.state import Message
from roguelike.render.text import wrap
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.keymap import MENU_DOWN, MENU_UP
from roguelike.screens.style import HEADING, HINT, TEXT

TURN = (120, 120, 140)
ROWS = 21
TEXT_X = 10


class MessageLogScreen(Screen):
    """The messages with their turns, newest at the bottom; arrows scroll, Esc goes back."""

    def __init__(self, game: Game, notes: Sequence[Message] = ()) -> None:
        self.game = game
        self.lines = log_lines(game, notes)
        self.bottom = len(self.lines)  # one past the last line shown

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Arrows and PgUp/PgDn scroll; any other key goes back to the game."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        step = {KeySym.PAGEUP: -ROWS, KeySym.PAGEDOWN: ROWS, KeySym.HOME: -len(self.lines),
                KeySym.END: len(self.lines)}.get(event.sym, 0)
        step = -1 if event.sym in MENU_UP else 1 if event.sym in MENU_DOWN else step
        if step == 0:
            return Pop()
        self.bottom = max(min(ROWS, len(self.lines)), min(len(self.lines), self.bottom + step))
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw a window of the log and how to move it."""
        console.print(2, 1, "Messages", fg=HEADING)
        shown = self.lines[max(0, self.bottom - ROWS) : self.bottom]
        for row, (turn, text) in enumerate(shown):
            if turn is not None:
                console.print(2, 2 + row, f"{turn:>6}", fg=TURN)
            console.print(TEXT_X, 2 + row, text, fg=TEXT)
        console.print(2, 24, "Up/Down, PgUp/PgDn: scroll   any other key: back to the game", fg=HINT)


def log_lines(game: Game, notes: Sequence[Message] = ()) -> list[tuple[int | None, str]]:
    """Every message (and note) wrapped to the screen, its turn on its first line."""
    lines: list[tuple[int | None, str]] = []
    told = sorted([*((m, 0) for m in game.state.messages), *((m, 1) for m in notes)], key=lambda p: (p[0].turn, p[1]))
    for message, _ in told:
        for index, part in enumerate(wrap(message.text, 80 - TEXT_X - 1) or [""]):
            lines.append((message.turn if index == 0 else None, part))
    return lines
