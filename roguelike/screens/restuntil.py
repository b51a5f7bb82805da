"""Rest until the State of Mind is down to a number (R): DCSS's rest-until, for a dose to become safe.

The prompt opens with a suggestion: the highest State of Mind at which the nearest known
dose could not overdose you even as a purer batch (else ten below where you are). Digits
change it, Enter rests, Esc goes back. Resting still stops for whatever disturbs, and
before Desperation would leave the nearest safe dose out of reach.
"""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event
from tcod.event import KeySym

from components import Attributes, Position, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, dose_odds
from roguelike.core.game import Game
from roguelike.core.pathing import chebyshev
from roguelike.render.colours import Slot
from roguelike.render.panel import MESSAGE_WIDTH, MESSAGES_X, PANEL_TOP
from roguelike.screens import ambient
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.style import HEADING, HINT

DIGITS = {getattr(KeySym, f"N{d}"): d for d in range(10)} | {getattr(KeySym, f"KP_{d}"): d for d in range(10)}
CONFIRM = frozenset({KeySym.RETURN, KeySym.KP_ENTER})
PROMPT = "Rest until your State of Mind is at most:"
KEYS = "Digits: change  Enter: rest  Esc: back"


class RestUntilScreen(Screen):
    """The number to rest down to, over the game."""

    def __init__(
        self, game: Game, draw_under: Callable[[tcod.console.Console, float], None], rest: Callable[[int], None]
    ) -> None:
        self.game = game
        self.draw_under = draw_under
        self.rest = rest
        self.typed = str(suggested(game))
        self.fresh = True  # the first digit replaces the suggestion
        self.told: str | None = None  # the number a screen reader last heard

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Digits, Backspace, Enter or Esc."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym in CONFIRM:
            if self.typed:
                self.rest(int(self.typed))
            return Pop()
        if event.sym == KeySym.ESCAPE:
            return Pop()
        if event.sym == KeySym.BACKSPACE:
            self.typed, self.fresh = self.typed[:-1], False
        elif event.sym in DIGITS:
            typed = ("" if self.fresh else self.typed) + str(DIGITS[event.sym])
            self.typed, self.fresh = typed[-3:].lstrip("0") or "0", False
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The game, and the prompt over the message area."""
        self.draw_under(console, now)
        console.draw_rect(MESSAGES_X, PANEL_TOP, MESSAGE_WIDTH, 4, ch=ord(" "), bg=ambient.look().scheme[Slot.PANEL_BG])
        console.print(MESSAGES_X, PANEL_TOP, PROMPT, fg=HEADING)
        console.print(MESSAGES_X, PANEL_TOP + 1, f"> {self.typed}_", fg=HEADING)
        console.print(MESSAGES_X, PANEL_TOP + 3, KEYS, fg=HINT)

    def spoken(self) -> list[str] | None:
        """The prompt with its number when it opens, then the number whenever it changes."""
        if self.typed == self.told:
            return []
        first, self.told = self.told is None, self.typed
        return [f"{PROMPT} {self.typed}. {KEYS}."] if first else [self.typed or "empty"]


def suggested(game: Game) -> int:
    """Where the nearest known dose becomes safe, purer batch and all (else ten below now), kept above Desperation."""
    som = game.player_component(StateOfMind).value
    will = game.player_component(Attributes).will
    tolerance = game.player_component(Tolerance).value
    pos = game.player_component(Position)
    dose_known = game.state.floor.dose_known()
    known = [(chebyshev(pos.x, pos.y, p.x, p.y), dose) for _, p, dose in game.doses() if dose_known[p.y, p.x]]
    if known:
        dose = min(known, key=lambda pair: pair[0])[1]
        odds = dose_odds(DOSE_KINDS[dose.kind], dose.floor, som, tolerance)
        target = formulas.STATE_OF_MIND_MAX - odds.purest
    else:
        target = som - 10
    return max(formulas.desperation_threshold(will) + 1, min(som - 1, target))
