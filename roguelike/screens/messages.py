"""The message log, opened with m during play: every line the panel had no room for.

Besides the game's own messages it keeps what the screen said outside the game (why
automation stopped, the v and c read-outs, questions), in turn order, after the game's
lines of the same turn. It uses the whole terminal or window (:attr:`Screen.roomy`): on one
larger than 80x25 its lines are as wide and as many as the room allows.
"""

from __future__ import annotations

from collections.abc import Sequence

import tcod.console
import tcod.event
from tcod.event import KeySym

from roguelike.content import formulas
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
        self.told = told(game, notes)
        self.width = formulas.SCREEN_WIDTH
        self.lines = wrapped(self.told, self.width)
        self.rows = ROWS  # as many as the last drawing showed
        self.back = 0  # lines scrolled back from the newest

    @property
    def roomy(self) -> bool:
        """The log fills a larger terminal or window."""
        return True

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Arrows and PgUp/PgDn scroll; any other key goes back to the game."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        step = {
            KeySym.PAGEUP: -self.rows,
            KeySym.PAGEDOWN: self.rows,
            KeySym.HOME: -len(self.lines),
            KeySym.END: len(self.lines),
        }.get(event.sym, 0)
        step = -1 if event.sym in MENU_UP else 1 if event.sym in MENU_DOWN else step
        if step == 0:
            return Pop()
        self.back = formulas.clamp(self.back - step, 0, max(0, len(self.lines) - self.rows))
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw a window of the log, as wide and as tall as the console, and how to move it."""
        if console.width != self.width:
            self.width, self.lines = console.width, wrapped(self.told, console.width)
        self.rows = console.height - 4
        bottom = len(self.lines) - min(self.back, max(0, len(self.lines) - self.rows))
        console.print(2, 1, "Messages", fg=HEADING)
        for row, (turn, text) in enumerate(self.lines[max(0, bottom - self.rows) : bottom]):
            if turn is not None:
                console.print(2, 2 + row, f"{turn:>6}", fg=TURN)
            console.print(TEXT_X, 2 + row, text, fg=TEXT)
        console.print(2, console.height - 1, "Up/Down, PgUp/PgDn: scroll   any other key: back to the game", fg=HINT)


def told(game: Game, notes: Sequence[Message] = ()) -> list[Message]:
    """Every message and note in turn order, the game's own first within a turn."""
    pairs = sorted([*((m, 0) for m in game.state.messages), *((m, 1) for m in notes)], key=lambda p: (p[0].turn, p[1]))
    return [message for message, _ in pairs]


def wrapped(messages: Sequence[Message], width: int) -> list[tuple[int | None, str]]:
    """Messages wrapped to ``width`` columns, each one's turn on its first line."""
    lines: list[tuple[int | None, str]] = []
    for message in messages:
        for index, part in enumerate(wrap(message.text, width - TEXT_X - 1) or [""]):
            lines.append((message.turn if index == 0 else None, part))
    return lines


def log_lines(game: Game, notes: Sequence[Message] = ()) -> list[tuple[int | None, str]]:
    """Every message (and note) wrapped to the 80-column screen, its turn on its first line."""
    return wrapped(told(game, notes), formulas.SCREEN_WIDTH)
