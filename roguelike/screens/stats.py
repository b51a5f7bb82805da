"""Character stats: every dead character, longest-lived (T) or best-scoring (S) first; Enter opens a full record.

Tab (or O) switches to the Overall page: totals, bests and averages across every
character, and the causes of death as a bar chart.
"""

from __future__ import annotations

import time

import tcod.console
import tcod.event
from tcod.event import KeySym

from roguelike.core.commands import RANKED_ORIGINS
from roguelike.core.names import fit
from roguelike.saves import CharacterRecord, Games
from roguelike.saves.history import by_score, by_turns
from roguelike.scores.standing import known_standing
from roguelike.screens.base import Pop, Push, Screen, Transition
from roguelike.screens.death import RecordScreen, cause_name
from roguelike.screens.keymap import CONFIRM_KEYS, MENU_DOWN, MENU_UP
from roguelike.screens.overall import draw_overall
from roguelike.screens.style import HEADING, HINT, SELECTED, TEXT

ROWS = 17
COLUMNS = (160, 160, 190)
PROBLEM = (220, 110, 90)
MARKED_NOTE = "rep wiz bot pra: from a replay, wizard mode, a bot, practice; never ranked"
HEADER = (
    f"{'#':>3}  {'Name':<18} {'Turns':>6} {'Score':>6} {'Floor':>5}  {'Cause of death':<14} {'Doses':>5}  {'Date':<10}"
)
# The keys that sort the list, and by what.
SORTS = {KeySym.S: ("score", by_score), KeySym.T: ("turns", by_turns)}
PAGE_KEYS = frozenset({KeySym.TAB, KeySym.O})


class StatsScreen(Screen):
    """The character history with a cursor, or the Overall page; Esc goes back."""

    def __init__(self, games: Games) -> None:
        self.root = games.root  # where the hall's cached proofs give each record's feats
        history = games.history()
        self.records = history.records
        self.problems = history.problems
        self.top = 0
        self.cursor = 0
        self.overall = False
        self.order = "turns"

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Esc goes back; arrows and PgUp/PgDn move; Enter opens a record; Tab switches page."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == KeySym.ESCAPE:
            return Pop()
        if event.sym in PAGE_KEYS:
            self.overall = not self.overall
        elif event.sym in SORTS and not self.overall:
            self.order, key = SORTS[event.sym]
            self.records.sort(key=key)
            self.top = self.cursor = 0
        elif event.sym in CONFIRM_KEYS and self.records and not self.overall:
            record = self.records[self.cursor]
            known = known_standing(self.root, record.name, record.seed, record.turns)
            return Push(RecordScreen(record, standing=known))
        else:
            self.move(event.sym)
        return None

    def move(self, sym: KeySym) -> None:
        """Move the cursor, scrolling the list to keep it in view."""
        step = {KeySym.PAGEUP: -ROWS, KeySym.PAGEDOWN: ROWS}.get(sym, 0)
        step = -1 if sym in MENU_UP else 1 if sym in MENU_DOWN else step
        self.cursor = max(0, min(len(self.records) - 1, self.cursor + step))
        self.top = max(0, min(self.top, self.cursor), self.cursor - ROWS + 1)

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The table of characters (or the Overall page) and any records that could not be read."""
        console.print(2, 1, f"Character stats by {self.order}", fg=HEADING if not self.overall else HINT)
        console.print(30, 1, "Overall", fg=HEADING if self.overall else HINT)
        if self.overall:
            draw_overall(console, [record for record in self.records if record.origin in RANKED_ORIGINS])
        else:
            self.draw_list(console)
        if self.problems:
            first = self.problems[0]
            note = f"{len(self.problems)} record(s) could not be read: {first}"
            console.print(2, 22, fit(note, console.width - 4), fg=PROBLEM)
        keys = "Tab: list" if self.overall else "Arrows: choose  Enter: full record  S/T: by score/turns  Tab: overall"
        console.print(2, 24, f"{keys}   Esc: back", fg=HINT)

    def draw_list(self, console: tcod.console.Console) -> None:
        """One line per character, the chosen one highlighted."""
        if not self.records:
            console.print(4, 4, "No character has died yet.", fg=TEXT)
            return
        console.print(1, 3, HEADER, fg=COLUMNS)
        for row, record in enumerate(self.records[self.top : self.top + ROWS]):
            chosen = self.top + row == self.cursor
            colour = SELECTED if chosen else TEXT if record.origin in RANKED_ORIGINS else HINT
            console.print(1, 4 + row, row_text(self.top + row + 1, record), fg=colour)
        if any(record.origin not in RANKED_ORIGINS for record in self.records):
            console.print(2, 23, MARKED_NOTE, fg=HINT)


def row_text(rank: int, record: CharacterRecord) -> str:
    """One character's line; a game from a replay or in wizard mode has no rank (rep, wiz)."""
    place = str(rank) if record.origin in RANKED_ORIGINS else str(record.origin)[:3]
    score = "-" if record.score is None else str(record.score)
    return (
        f"{place:>3}  {fit(record.name, 18):<18} {record.turns:>6} {score:>6} {record.depth:>5}  "
        f"{fit(cause_name(record.cause), 14):<14} {record.doses:>5}  {day(record.died_at):<10}"
    )


def day(seconds: int) -> str:
    """The local date of a moment, or ? for one no calendar holds."""
    try:
        return time.strftime("%Y-%m-%d", time.localtime(seconds))
    except (OverflowError, OSError, ValueError):
        return "?"
