"""The character stats screen: every dead character, longest-lived first."""

from __future__ import annotations

import time

import tcod.console
import tcod.event
from tcod.event import KeySym

from roguelike.screens.keymap import MENU_DOWN, MENU_UP
from roguelike.core.names import fit
from roguelike.saves import CharacterRecord, Games
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.style import HEADING, HINT, TEXT

ROWS = 17
COLUMNS = (160, 160, 190)
PROBLEM = (220, 110, 90)
MARKED_NOTE = "rep, wiz: made from a replay or played in wizard mode; never ranked"
HEADER = f"{'#':>3}  {'Name':<20} {'Turns':>6} {'Floor':>5}  {'Cause of death':<16} {'Doses':>5}  {'Date':<10}"


class StatsScreen(Screen):
    """The character history, scrolled with the arrows; Esc goes back."""


    def __init__(self, games: Games) -> None:
        history = games.history()
        self.records = history.records
        self.problems = history.problems
        self.top = 0

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Esc or Enter goes back; arrows and PgUp/PgDn scroll."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym in (KeySym.ESCAPE, KeySym.RETURN, KeySym.KP_ENTER):
            return Pop()
        step = {KeySym.PAGEUP: -ROWS, KeySym.PAGEDOWN: ROWS}.get(event.sym, 0)
        step = -1 if event.sym in MENU_UP else 1 if event.sym in MENU_DOWN else step
        self.top = max(0, min(max(0, len(self.records) - ROWS), self.top + step))
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The table of characters and any records that could not be read."""
        console.print(2, 1, "Character stats", fg=HEADING)
        if not self.records:
            console.print(4, 4, "No character has died yet.", fg=TEXT)
        else:
            console.print(1, 3, HEADER, fg=COLUMNS)
        for row, record in enumerate(self.records[self.top : self.top + ROWS]):
            console.print(1, 4 + row, row_text(self.top + row + 1, record), fg=TEXT if record.origin is None else HINT)
        if any(record.origin is not None for record in self.records):
            console.print(2, 23, MARKED_NOTE, fg=HINT)
        if self.problems:
            first = self.problems[0]
            note = f"{len(self.problems)} record(s) could not be read: {first}"
            console.print(2, 22, fit(note, console.width - 4), fg=PROBLEM)
        console.print(2, 24, "Arrows, PgUp/PgDn: scroll    Esc: back", fg=HINT)


def row_text(rank: int, record: CharacterRecord) -> str:
    """One character's line; a game from a replay or in wizard mode has no rank (rep, wiz)."""
    place = str(rank) if record.origin is None else record.origin[:3]
    return (
        f"{place:>3}  {fit(record.name, 20):<20} {record.turns:>6} {record.depth:>5}  "
        f"{fit(record.cause, 16):<16} {record.doses:>5}  {day(record.died_at):<10}"
    )


def day(seconds: int) -> str:
    """The local date of a moment, or ? for one no calendar holds."""
    try:
        return time.strftime("%Y-%m-%d", time.localtime(seconds))
    except (OverflowError, OSError, ValueError):
        return "?"
