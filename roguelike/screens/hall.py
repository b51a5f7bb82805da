"""The hall of fame screen: this machine's best games, each counted only if its replay verifies.

It opens on what the cache already knows (the rest marked pending) and verifies the
rest in worker processes on a thread of its own, so the list fills in while it is shown.
Tab switches between every game and today's daily board, which shows the day's par when
this machine has it (:func:`roguelike.records.coaching.daily_par_line`).
"""

from __future__ import annotations

import threading
from pathlib import Path

import tcod.console
import tcod.constants
import tcod.event

from roguelike.core.names import fit, on_one_line
from roguelike.records.coaching import daily_par_line
from roguelike.scores.daily import today
from roguelike.scores.feats import titles
from roguelike.scores.hall import PENDING, VERIFIED_MARK, Entry, daily_board, hall
from roguelike.scores.workers import prove_all
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.keymap import MENU_DOWN, MENU_UP
from roguelike.screens.style import HEADING, HINT, SELECTED, TEXT

ROWS = 16
HEADER = f"{'#':>3}  {'Score':>6}  {'Name':<18} {'Turns':>6}  {'Origin':<17} {'Mark':<9}"
MARK_COLOURS = {VERIFIED_MARK: TEXT, PENDING: HINT}


class HallScreen(Screen):
    """Every finished game of the data directory, best verified score first."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.entries = hall(root, None)
        self.daily_only = False
        self.cursor = 0
        self.verifying: threading.Thread | None = None
        self.par = ""  # the daily board's par line, read when that board is first shown
        if any(entry.mark == PENDING for entry in self.entries):
            self.verifying = threading.Thread(target=self.verify, daemon=True)
            self.verifying.start()

    def verify(self) -> None:
        """Verify the pending games (spawned workers: a window's process must not fork)."""
        self.entries = hall(self.root, lambda paths: prove_all(paths, method="spawn", apart=True))

    @property
    def animated(self) -> bool:
        """Redrawn while games are being verified."""
        return self.verifying is not None and self.verifying.is_alive()

    def shown(self) -> list[Entry]:
        """The games listed: all, or today's daily board."""
        return daily_board(self.entries, today().isoformat()) if self.daily_only else self.entries

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Arrows choose a game, Tab switches board, Esc goes back."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == tcod.event.KeySym.ESCAPE:
            return Pop()
        if event.sym == tcod.event.KeySym.TAB:
            self.daily_only, self.cursor = not self.daily_only, 0
            self.par = self.par or daily_par_line(self.root, today())
        elif event.sym in MENU_UP:
            self.cursor = max(0, self.cursor - 1)
        elif event.sym in MENU_DOWN:
            self.cursor = min(max(0, len(self.shown()) - 1), self.cursor + 1)
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The board, the chosen game's feats and the keys."""
        board = f"Daily board of {today().isoformat()} (UTC)" if self.daily_only else "Hall of fame"
        console.print(console.width // 2, 1, board, fg=HEADING, alignment=tcod.constants.CENTER)
        if self.daily_only:
            console.print(
                console.width // 2, 2, fit(self.par, console.width - 2), fg=HINT, alignment=tcod.constants.CENTER
            )
        entries = self.shown()
        if not entries:
            console.print(4, 4, "No finished game here yet.", fg=TEXT)
        else:
            self.draw_rows(console, entries)
        waiting = "   verifying..." if self.animated else ""
        console.print(2, 24, f"Up/Down: choose   Tab: all games / today's daily   Esc: back{waiting}", fg=HINT)

    def draw_rows(self, console: tcod.console.Console, entries: list[Entry]) -> None:
        """One line a game, the chosen one highlighted, and its feats below the list."""
        console.print(1, 3, HEADER, fg=HEADING)
        top = max(0, self.cursor - ROWS + 1)
        place = 0
        for index, entry in enumerate(entries):
            place += entry.mark == VERIFIED_MARK
            if top <= index < top + ROWS:
                colour = SELECTED if index == self.cursor else MARK_COLOURS.get(entry.mark, HINT)
                console.print(
                    1, 4 + index - top, row_text(place if entry.mark == VERIFIED_MARK else None, entry), fg=colour
                )
        chosen = entries[min(self.cursor, len(entries) - 1)].proof
        feats = ", ".join(titles(chosen.feats)) if chosen and chosen.feats else "none"
        console.print(
            1, 21, fit(f"Feats: {feats}", 2 * (console.width - 2)), width=console.width - 2, height=2, fg=TEXT
        )


def row_text(place: int | None, entry: Entry) -> str:
    """One game's line."""
    proof = entry.proof
    score = "-" if entry.score is None or entry.mark == PENDING else str(entry.score)
    name = on_one_line(fit(proof.name or "?", 18)) if proof else fit(entry.path.name, 18)
    origin = f"{proof.origin or ''} {proof.daily or ''}".strip() if proof else ""
    turns = str(proof.turns) if proof else ""
    return f"{place or '':>3}  {score:>6}  {name:<18} {turns:>6}  {fit(origin, 17):<17} {entry.mark:<9}"
