"""The load-game screen: a numbered list of saves; a number loads, D deletes after y/n.

Damaged saves are listed with the reason and never touched unless the player deletes
them here.
"""

from __future__ import annotations

import tcod.console
import tcod.event
from tcod.event import KeySym

from roguelike.core.names import fit
from roguelike.replay.tosave import rebuild_status
from roguelike.saves import Games, SaveInfo
from roguelike.screens.base import Pop, Push, Replace, Screen, Transition
from roguelike.screens.confirm import ConfirmScreen
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.keymap import CONFIRM_KEYS, MENU_DOWN, MENU_UP
from roguelike.screens.style import HEADING, HINT, SELECTED, TEXT
from roguelike.storage.errors import SaveError

PAGE = 9  # saves per page: one digit key each
DAMAGED = (220, 110, 90)
DIGITS = {KeySym.N1 + i: i for i in range(PAGE)} | {KeySym.KP_1 + i: i for i in range(PAGE)}
DELETE_KEYS = frozenset({KeySym.D, KeySym.DELETE})
REBUILD_KEYS = frozenset({KeySym.R})


class LoadGameScreen(Screen):
    """Pick a save to play on, or delete one."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.saves: list[SaveInfo] = []
        self.cursor = 0
        self.status = ""
        self.refresh()

    def refresh(self) -> None:
        """Read the saves again (after a deletion)."""
        self.saves = self.games.saves()
        self.cursor = min(self.cursor, max(0, len(self.saves) - 1))

    @property
    def page_start(self) -> int:
        """Index of the first save on the page the cursor is on."""
        return self.cursor - self.cursor % PAGE

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Digits and Enter load, arrows move, PgUp/PgDn turn pages, D deletes, Esc goes back."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == KeySym.ESCAPE:
            return Pop()
        if not self.saves:
            return None
        if event.sym in DIGITS and self.page_start + DIGITS[event.sym] < len(self.saves):
            return self.load(self.page_start + DIGITS[event.sym])
        if event.sym in CONFIRM_KEYS:
            return self.load(self.cursor)
        if event.sym in DELETE_KEYS:
            return self.ask_delete(self.saves[self.cursor])
        if event.sym in REBUILD_KEYS:
            return self.rebuild(self.saves[self.cursor])
        self.move(event.sym)
        return None

    def move(self, sym: KeySym) -> None:
        """Move the cursor by a line or a page."""
        step = {KeySym.PAGEUP: -PAGE, KeySym.PAGEDOWN: PAGE}.get(sym, 0)
        step = -1 if sym in MENU_UP else 1 if sym in MENU_DOWN else step
        self.cursor = max(0, min(len(self.saves) - 1, self.cursor + step))

    def load(self, index: int) -> Transition | None:
        """Play a save on, or say why it cannot be played."""
        self.cursor = index
        info = self.saves[index]
        if info.problem is not None:
            self.status = f"This save is damaged ({info.problem}); it is kept as it is."
            return None
        try:
            return Replace(InGameScreen(self.games.resume(info.path)))
        except SaveError as error:
            self.status = error.brief()
            return None

    def rebuild(self, info: SaveInfo) -> Transition | None:
        """Rebuild a damaged save from its replay (the damaged file is kept aside)."""
        self.status = rebuild_status(info.path, damaged=not info.ok)
        self.refresh()
        return None

    def ask_delete(self, info: SaveInfo) -> Transition:
        """Ask before deleting; deleting happens only on y."""
        who = fit(info.name, 20) if info.ok else "this damaged save"
        return Push(ConfirmScreen(f"Delete {who} for good?", lambda: self.delete(info), self))

    def delete(self, info: SaveInfo) -> None:
        """Delete a save the player confirmed."""
        try:
            self.games.delete(info)
            self.status = f"Deleted {fit(info.name, 30)}." if info.ok else f"Deleted the damaged save {info.path.name}."
        except SaveError as error:
            self.status = error.brief()
        self.refresh()

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The page of saves, the cursor, the status and the keys."""
        console.print(2, 1, "Load game", fg=HEADING)
        if not self.saves:
            console.print(4, 4, "There are no saved games.", fg=TEXT)
        for row, info in enumerate(self.saves[self.page_start : self.page_start + PAGE]):
            index = self.page_start + row
            colour = SELECTED if index == self.cursor else DAMAGED if not info.ok else TEXT
            marker = ">" if index == self.cursor else " "
            console.print(2, 4 + row * 2, fit(f"{marker} {row + 1}. {describe(info)}", console.width - 4), fg=colour)
        pages = (len(self.saves) + PAGE - 1) // PAGE
        if pages > 1:
            console.print(2, 22, f"page {self.page_start // PAGE + 1} of {pages} (PgUp/PgDn)", fg=HINT)
        console.print(2, 23, fit(self.status, console.width - 4), fg=DAMAGED)
        console.print(2, 24, "1-9 or Enter: load    D: delete    R: rebuild a damaged save    Esc: back", fg=HINT)


def describe(info: SaveInfo) -> str:
    """One line about a save."""
    if not info.ok:
        return f"damaged: {info.problem} ({info.path.name})"
    busy = "  (open in another game)" if info.open_elsewhere else ""
    return f"{fit(info.name, 20):<20}  turn {info.turn:>6}  floor {info.depth:>3}  {info.mood}{busy}{info.marked}"
