"""The screen after the end: how the player died and how long they lasted."""

from __future__ import annotations

import tcod.console
import tcod.constants
import tcod.event

from components import Record
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.core.game import Game
from roguelike.screens.keymap import CONFIRM_KEYS
from roguelike.core.names import fit
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.style import HINT, TEXT

CAUSE_TEXT = {
    "exhaustion": "died of exhaustion",
    "overdose": "died of an overdose",
}
HEADING = (220, 60, 60)


class DeathScreen(Screen):
    """Cause of death, turns survived, floor reached, doses used; any key goes back."""


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
        """Draw the epitaph, then the numbers as an aligned table."""
        state = self.game.state
        centre = console.width // 2
        epitaph = f"{fit(state.name, 40)} {cause_text(state.cause_of_death or 'alive')}."
        console.print(centre, 6, epitaph, fg=HEADING, alignment=tcod.constants.CENTER)
        for row, (label, value) in enumerate(self.numbers()):
            console.print(centre - 12, 9 + row, f"{label:<18}{value:>6}", fg=TEXT)
        console.print(centre, 17, "Press Enter to return to the title.", fg=HINT, alignment=tcod.constants.CENTER)

    def numbers(self) -> list[tuple[str, int]]:
        """What the character's life comes to."""
        record = self.game.player_component(Record)
        return [
            ("Turns survived", self.game.state.turn),
            ("Died on floor", self.game.state.depth),
            ("Deepest floor", record.deepest_floor),
            ("Doses used", record.doses_used),
            ("Close calls", record.close_calls),
            ("Monsters slain", record.kills),
        ]


def cause_text(cause: str) -> str:
    """How a cause of death reads on the epitaph."""
    if cause in CAUSE_TEXT:
        return CAUSE_TEXT[cause]
    kind = MONSTER_KINDS.get(cause)
    return f"was killed by {kind.name}" if kind is not None else f"died ({cause})"
