"""The screen after the end: how the player died and how long they lasted."""

from __future__ import annotations

import tcod.console
import tcod.constants
import tcod.event

from components import Record
from roguelike.bestiary import MONSTER_KINDS
from roguelike.game import Game
from roguelike.keymap import CONFIRM_KEYS
from roguelike.screens.base import Pop, Transition
from roguelike.screens.style import TEXT

CAUSE_TEXT = {
    "exhaustion": "died of exhaustion",
    "overdose": "died of an overdose",
}
HEADING = (220, 60, 60)


class DeathScreen:
    """Cause of death, turns survived, floor reached, doses used; any key goes back."""

    animated = False

    def __init__(self, game: Game) -> None:
        self.game = game

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Enter, Space or Esc returns to the title."""
        if isinstance(event, tcod.event.KeyDown) and (
            event.sym in CONFIRM_KEYS or event.sym == tcod.event.KeySym.ESCAPE
        ):
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw the epitaph and the numbers."""
        state = self.game.state
        record = self.game.player_component(Record)
        cause = state.cause_of_death or "alive"
        centre = console.width // 2
        lines = [
            (f"{state.name} {cause_text(cause)}.", HEADING),
            ("", TEXT),
            (f"Turns survived   {state.turn}", TEXT),
            (f"Deepest floor    {record.deepest_floor}", TEXT),
            (f"Doses used       {record.doses_used}", TEXT),
            (f"Close calls      {record.close_calls}", TEXT),
            ("", TEXT),
            ("Press Enter to return to the title.", (130, 130, 150)),
        ]
        for row, (text, colour) in enumerate(lines):
            console.print(centre, 7 + row, text, fg=colour, alignment=tcod.constants.CENTER)


def cause_text(cause: str) -> str:
    """How a cause of death reads on the epitaph."""
    if cause in CAUSE_TEXT:
        return CAUSE_TEXT[cause]
    kind = MONSTER_KINDS.get(cause)
    return f"was killed by {kind.name}" if kind is not None else f"died ({cause})"
