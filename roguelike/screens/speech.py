"""What a screen reader should hear, and where the terminal cursor should rest.

After every frame the terminal frontend in screen-reader mode asks a :class:`Narrator`
for the new lines to write as plain text, and for the cell to leave the cursor on. A
screen that knows better says so itself (``spoken()`` and ``cursor``, as the in-game
screen does: new messages, and the cursor on ``@``); any other screen is read out
whole when it opens, and a menu says the entry its cursor moves to.
"""

from __future__ import annotations

import numpy as np
import tcod.console

from components import Position
from roguelike.assist.readout import next_action, next_action_words
from roguelike.core.game import Game
from roguelike.core.state import Message
from roguelike.screens.base import App
from roguelike.screens.menu import Menu
from roguelike.screens.pilot import Pilot


class GameVoice:
    """The in-game screen's new lines: messages, why automation stopped, readouts."""

    def __init__(self, game: Game, pilot: Pilot) -> None:
        self.game = game
        self.pilot = pilot
        self.heard: Message | None = None
        self.control: str | None = None
        self.mark: tuple[int, int] | None = None  # the Will 10 mark last said

    def spoken(self) -> list[str]:
        """Lines not yet said: game messages, then the control line and the pilot's lines."""
        lines = [message.text for message in self.new_messages()]
        control = None if self.game.state.game_over else self.game.control_reason()
        said_already = any(control in line for line in self.pilot.said) if control else False
        if control != self.control and control is not None and not said_already:
            lines.append(control)
        self.control = control
        lines.extend(line for line in self.pilot.said if line not in lines)
        self.pilot.said.clear()
        mark = next_action(self.game)
        if mark is not None and mark != self.mark and not self.game.state.game_over:
            lines.append(next_action_words(self.game))
        self.mark = mark
        return lines

    def new_messages(self) -> list[Message]:
        """Messages said since the last call."""
        messages = self.game.state.messages
        fresh: list[Message] = []
        for message in reversed(messages):
            if message is self.heard:
                break
            fresh.append(message)
        if messages:
            self.heard = messages[-1]
        return fresh[::-1]

    def cursor(self) -> tuple[int, int]:
        """The player's cell."""
        pos = self.game.player_component(Position)
        return pos.x, pos.y


class Narrator:
    """Follows the top screen of an app and says what changed on it."""

    def __init__(self) -> None:
        self.screen: object | None = None
        self.menu_cursor: int | None = None

    def lines(self, app: App, console: tcod.console.Console) -> list[str]:
        """New lines for the screen reader after a frame of ``console``."""
        if not app.stack:
            return []
        top = app.stack[-1]
        spoken = top.spoken()
        said: list[str] = []
        if top is not self.screen:
            self.screen, self.menu_cursor = top, None
            if spoken is None:
                said.extend(console_text(console))
        said.extend(spoken or [])
        said.extend(self.menu_line(top))
        return said

    def menu_line(self, screen: object) -> list[str]:
        """The entry a menu's cursor moved to, if it moved."""
        menu = getattr(screen, "menu", None)
        if not isinstance(menu, Menu) or not menu.labels:
            return []
        moved = self.menu_cursor is not None and menu.cursor != self.menu_cursor
        self.menu_cursor = menu.cursor
        return [f"{menu.labels[menu.cursor]}, {menu.cursor + 1} of {len(menu.labels)}"] if moved else []

    def cursor(self, app: App) -> tuple[int, int] | None:
        """Where the cursor should rest: the screen's own choice, or a menu's selected entry."""
        if not app.stack:
            return None
        top = app.stack[-1]
        own = top.reader_cursor()
        if own is not None:
            return own
        menu = getattr(top, "menu", None)  # the screens with a menu keep it here
        if isinstance(menu, Menu) and menu.drawn_at is not None:
            x, y = menu.drawn_at
            return x, y + menu.cursor
        return None


def console_text(console: tcod.console.Console) -> list[str]:
    """The console's rows as text, blank rows left out."""
    rows = []
    for codes in console.rgb["ch"]:
        text = "".join(chr(code) if code >= 32 else " " for code in np.asarray(codes).tolist()).strip()
        if text:
            rows.append(" ".join(text.split()))
    return rows
