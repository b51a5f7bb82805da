"""The carry keys: ``g`` picks up a dose beside the player, ``q`` takes a carried one.

Walking into a dose still takes it; picking one up is its own key. With one dose beside
the player (or one carried) the key acts at once; with several it asks, on the pilot's
line (so the screen reader hears it), for a direction (or the dose's number, as the panel
numbers them), and any other key asks nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass

import tcod.event
from tcod.event import KeySym

from components import Carried
from roguelike.assist.carried import doses_beside
from roguelike.content import formulas
from roguelike.core.carrying import carried_doses
from roguelike.core.commands import Command, PickUp, TakeCarried
from roguelike.core.game import Game
from roguelike.screens import ambient, bindings

DIRECTION, NUMBER = "direction", "number"
NOTHING_BESIDE = "No dose lies beside you to pick up."
CARRY_FULL = f"You carry {formulas.CARRY_LIMIT} doses already: take one before picking up another."
NONE_CARRIED = "You carry no dose."
ASK_DIRECTION = "Pick up which dose? A direction; any other key: none."
ASK_NUMBER = "Take which carried dose? Its number ({}); any other key: none."
NUMBER_KEYS = {
    KeySym.N1: 0,
    KeySym.N2: 1,
    KeySym.N3: 2,
    KeySym.N4: 3,
    KeySym.N5: 4,
    KeySym.KP_1: 0,
    KeySym.KP_2: 1,
    KeySym.KP_3: 2,
    KeySym.KP_4: 3,
    KeySym.KP_5: 4,
}


@dataclass(frozen=True)
class Choice:
    """What a carry key leads to: a command at once, or a question and what answers it (or just words)."""

    command: Command | None = None
    words: str | None = None
    awaits: str | None = None  # DIRECTION or NUMBER while a question waits for its answer


def directions_beside(game: Game) -> list[tuple[int, int]]:
    """The directions of the doses one step from the player, clockwise from north."""
    return [step for step, _ in doses_beside(game)]


def pick_up_choice(game: Game) -> Choice:
    """``g``: pick up the one dose beside the player, or ask which."""
    beside = directions_beside(game)
    if not beside:
        return Choice(words=NOTHING_BESIDE)
    if len(game.player_component(Carried).kinds) >= formulas.CARRY_LIMIT:
        return Choice(words=CARRY_FULL)
    if len(beside) == 1:
        return Choice(command=PickUp(*beside[0]))
    return Choice(words=ASK_DIRECTION, awaits=DIRECTION)


def take_choice(game: Game) -> Choice:
    """``q``: take the one carried dose, or ask which."""
    count = len(carried_doses(game.player_component(Carried)))
    if count == 0:
        return Choice(words=NONE_CARRIED)
    if count == 1:
        return Choice(command=TakeCarried(0))
    return Choice(words=ASK_NUMBER.format(f"1-{count}"), awaits=NUMBER)


def answer(game: Game, awaits: str, event: tcod.event.KeyDown) -> Command | None:
    """The command a key answers a carry question with (None: it answers nothing)."""
    if awaits == DIRECTION:
        step = bindings.STEPS.get(ambient.keys().action_for(event) or "")
        return PickUp(*step) if step is not None and step in directions_beside(game) else None
    index = NUMBER_KEYS.get(event.sym)
    count = len(game.player_component(Carried).kinds)
    return TakeCarried(index) if index is not None and index < count else None


CHOICES = {"pick_up": pick_up_choice, "take_carried": take_choice}
