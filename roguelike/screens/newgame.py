"""The new-game screen: type a name (any script, any length), Enter starts, Esc goes back."""

from __future__ import annotations

import tcod.console
import tcod.constants
import tcod.event

from roguelike.core.names import DEFAULT_NAME, NAME_MAX, clean_name, fit, printable
from roguelike.render.text import wrap
from roguelike.saves import Games
from roguelike.scores.daily import DailyStart
from roguelike.screens.base import Pop, Replace, Screen, Transition
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.style import HEADING, HINT

TEXT = (220, 220, 230)
FIELD_BG = (30, 28, 45)
FIELD_WIDTH = 40
START_KEYS = frozenset({tcod.event.KeySym.RETURN, tcod.event.KeySym.KP_ENTER})
DAILY_RULE = "The first attempt under a name ranks on the board; later ones are practice."


class NewGameScreen(Screen):
    """Asks for the character's name; nothing about sex or gender, as the design asks."""

    def __init__(self, games: Games, swallow_first_text: bool = False, daily: DailyStart | None = None) -> None:
        self.games = games
        self.daily = daily  # the daily seed's start, when this asks for a daily game's name
        self.standings: dict[str, str] = {}  # by name typed: each looks through the replays once
        self.name = ""
        # The key that opened this screen may still send its character as text input.
        self.swallow = swallow_first_text

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Typed text extends the name; Backspace deletes; Enter starts; Esc goes back."""
        if isinstance(event, tcod.event.TextInput):
            self.type(event.text)
        elif isinstance(event, tcod.event.KeyDown):
            return self.on_key(event)
        return None

    def type(self, text: str) -> None:
        """Add typed characters (unsafe ones dropped, the length capped)."""
        if self.swallow:
            self.swallow = False
            return
        self.name = (self.name + printable(text))[:NAME_MAX]

    def on_key(self, event: tcod.event.KeyDown) -> Transition | None:
        """Keys that edit, start or leave."""
        self.swallow = False
        if event.sym == tcod.event.KeySym.ESCAPE:
            return Pop()
        if event.sym == tcod.event.KeySym.BACKSPACE:
            self.name = self.name[:-1]
        elif event.sym in START_KEYS:
            return Replace(InGameScreen(self.daily.start(self.name) if self.daily else self.games.new(self.name)))
        return None

    def standing(self) -> str:
        """Whether a daily attempt under the name typed would rank (the rule alone before a name is typed)."""
        assert self.daily is not None
        if not clean_name(self.name):
            return DAILY_RULE
        if self.name not in self.standings:
            self.standings[self.name] = self.daily.standing(self.name)
        return self.standings[self.name]

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The question, the name typed so far (its end, if long) and the keys."""
        centre = console.width // 2
        console.print(centre, 7, "What is your name?", fg=HEADING, alignment=tcod.constants.CENTER)
        left = centre - FIELD_WIDTH // 2
        console.draw_rect(left, 10, FIELD_WIDTH, 1, ch=ord(" "), bg=FIELD_BG)
        shown = self.name[-(FIELD_WIDTH - 1) :] if self.name else ""
        console.print(left, 10, fit(shown, FIELD_WIDTH - 1) + "_", fg=TEXT, bg=FIELD_BG)
        if not clean_name(self.name):
            console.print(centre, 12, f"(blank: you will be {DEFAULT_NAME})", fg=HINT, alignment=tcod.constants.CENTER)
        if self.daily is not None:
            console.print(
                centre,
                3,
                f"Daily game of {self.daily.day.isoformat()} (UTC)",
                fg=HEADING,
                alignment=tcod.constants.CENTER,
            )
            console.print(centre, 4, "the same dungeon for everyone today", fg=HINT, alignment=tcod.constants.CENTER)
            for row, line in enumerate(wrap(self.standing(), console.width - 2)[:2]):  # a long name's wraps
                console.print(centre, 14 + row, line, fg=HINT, alignment=tcod.constants.CENTER)
        console.print(
            centre, 16, "Enter: start    Backspace: delete    Esc: back", fg=HINT, alignment=tcod.constants.CENTER
        )
