"""The wizard prompt (``&`` in a wizard-mode game): change the game to reproduce a bug quickly.

A list of changes, each picked by its key: a number to type (State of Mind, attributes,
Tolerance), a kind to pick (monster, dose), or done at once (reveal, descend, still the
monsters). The change goes through the session as a :class:`~roguelike.core.commands.Wizard`
command, so it is saved and recorded in the replay like any other command.
"""

from __future__ import annotations

from dataclasses import dataclass

import tcod.console
import tcod.event
from tcod.event import KeySym

from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.core.commands import WIZARD_LIMIT, Wizard
from roguelike.core.session import Session
from roguelike.render.draw import draw_game
from roguelike.screens import ambient
from roguelike.screens.base import Pop, Screen, Transition

BOX = (40, 12, 40)
TITLE = (255, 200, 90)
TEXT = (225, 215, 235)
HINT = (160, 140, 175)
ENTER = frozenset({KeySym.RETURN, KeySym.KP_ENTER})
DIGITS = "0123456789"  # str.isdigit also takes superscripts, which int() refuses


@dataclass(frozen=True)
class Entry:
    """One line of the prompt: its key, its words, the wizard action and what it asks for."""

    key: str
    label: str
    action: str
    asks: str = ""  # "number", "monster", "dose", "find" or nothing


ENTRIES = (
    Entry("m", "State of Mind", "mind", "number"),
    Entry("c", "Confidence", "confidence", "number"),
    Entry("n", "Nerve", "nerve", "number"),
    Entry("w", "Will", "will", "number"),
    Entry("t", "Tolerance", "tolerance", "number"),
    Entry("r", "Reveal the floor", "reveal"),
    Entry("s", "Spawn a monster next to you", "monster", "monster"),
    Entry("d", "Spawn a dose next to you", "dose", "dose"),
    Entry("f", "Spawn a find next to you", "find", "find"),
    Entry("g", "Go down a floor", "descend"),
    Entry("a", "Monsters still / moving", "still"),
)
KINDS = {"monster": sorted(MONSTER_KINDS), "dose": sorted(DOSE_KINDS), "find": sorted(FIND_KINDS)}


class WizardScreen(Screen):
    """Pick a change; a number or a kind when it needs one; Esc goes back a step."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.chosen: Entry | None = None
        self.typed = ""

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Letters pick a change; digits and Enter give its number, or a digit its kind."""
        if isinstance(event, tcod.event.TextInput):
            return self.on_text(event.text)
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == KeySym.ESCAPE:
            if self.chosen is None:
                return Pop()
            self.chosen, self.typed = None, ""
        elif event.sym == KeySym.BACKSPACE:
            self.typed = self.typed[:-1]
        elif event.sym in ENTER and self.chosen is not None and self.chosen.asks == "number" and self.typed:
            return self.apply(Wizard(self.chosen.action, int(self.typed)))
        return None

    def on_text(self, text: str) -> Transition | None:
        """A typed character: a change's key, a digit of a number, or a kind's number."""
        if self.chosen is None:
            entry = next((entry for entry in ENTRIES if entry.key == text.lower()), None)
            if entry is not None and not entry.asks:
                return self.apply(Wizard(entry.action))
            self.chosen = entry
        elif self.chosen.asks == "number" and text in DIGITS and text and int(self.typed + text) <= WIZARD_LIMIT:
            self.typed += text
        elif self.chosen.asks in KINDS and text in DIGITS and text:
            kinds = KINDS[self.chosen.asks]
            if 1 <= int(text) <= len(kinds):
                return self.apply(Wizard(self.chosen.action, kind=kinds[int(text) - 1]))
        return None

    def apply(self, command: Wizard) -> Transition:
        """Give the command to the game (saved and recorded) and go back to it."""
        self.session.apply(command)
        return Pop()

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The game, with the prompt in a box over it."""
        draw_game(console, self.session.game, now, ambient.look())
        console.draw_frame(14, 3, 52, 17, bg=BOX, fg=TITLE)
        console.print(16, 3, " Wizard (this game never counts) ", fg=TITLE, bg=BOX)
        for row, line in enumerate(self.lines()):
            console.print(17, 5 + row, line, fg=TEXT, bg=BOX)
        console.print(17, 18, "Esc: back", fg=HINT, bg=BOX)

    def lines(self) -> list[str]:
        """The changes, or what the chosen one asks for."""
        if self.chosen is None:
            return [f"{entry.key}  {entry.label}" for entry in ENTRIES]
        if self.chosen.asks == "number":
            return [f"{self.chosen.label}: {self.typed}_", "", "type a number, then Enter"]
        kinds = KINDS[self.chosen.asks]
        return [f"{self.chosen.label}:", "", *(f"{number}  {kind}" for number, kind in enumerate(kinds, start=1))]
