"""A step into a dose that could overdose asks first (the setting "Confirm risky doses").

The in-game screen asks before applying a move of the player's own (confusion turned
around included), or the taking of a carried dose, that would take a dose whose usual
range (:func:`dose_odds`, the depth bonus counted) could or will overdose: the WILL and
COULD cases. Only ``y`` pressed afresh takes it; any other key leaves it. The frontends
drop keys typed ahead of the question and the repeats of a held key, so a held ``y`` (a
vi-key step) never answers it.

A dose that only a rare purer batch of it could make lethal is taken without a question:
asked before nearly every dose from floor 3 on, at odds of 1 in 150 or less, the question
trained a ``y`` pressed by reflex, which then answered the WILL and COULD cases too. The
line under the messages says the risk as the dose is taken (:func:`purer_risk`); the look
panel and the in-view list say it beforehand.
"""

from __future__ import annotations

from components import Carried, Dose, Position, StateOfMind, Tolerance
from roguelike.content.conditions import Steer
from roguelike.content.doses import DOSE_KINDS, DoseOdds, Risk, dose_odds
from roguelike.core.carrying import carried_doses
from roguelike.core.commands import Command, Move, TakeCarried
from roguelike.core.game import Game
from roguelike.screens import ambient

LEFT_ALONE = "You leave the dose alone."
ASKED = (Risk.WILL, Risk.COULD)  # the risks that ask; a purer batch's is said, not asked


def risky_step(game: Game, command: Command) -> str | None:
    """The question to ask before ``command`` (None: nothing to ask)."""
    dose = dose_taken(game, command) if ambient.chosen().confirm_lethal else None
    return question(game, dose) if dose is not None else None


def purer_risk(game: Game, command: Command) -> str | None:
    """What to say as ``command`` takes a dose only a purer batch of which could kill (None: nothing)."""
    dose = dose_taken(game, command) if ambient.chosen().confirm_lethal else None
    odds = figures(game, dose) if dose is not None else None
    if dose is None or odds is None or odds.risk is not Risk.PURER:
        return None
    return (
        f"A purer batch of that {DOSE_KINDS[dose.kind].name} (+{odds.purest}) could have overdosed you"
        f" at {game.player_component(StateOfMind).value}: taken without asking."
    )


def dose_taken(game: Game, command: Command) -> Dose | None:
    """The dose ``command`` would take by the player's own hand (None: it takes none)."""
    steering = game.steering()
    if steering is not None and steering.refuses_doses:
        return None  # ashamed: no dose is taken
    if isinstance(command, TakeCarried):
        doses = carried_doses(game.player_component(Carried))
        return doses[command.index] if command.index < len(doses) else None
    if not isinstance(command, Move):
        return None
    if steering is not None and steering.takes_controls:
        return None  # the game steers: the step is not the player's
    turn = -1 if steering is not None and steering.steer is Steer.TURN_AROUND else 1
    pos = game.player_component(Position)
    spot = (pos.x + turn * command.dx, pos.y + turn * command.dy)
    if any((p.x, p.y) == spot for _, _, p in game.monsters()):
        return None  # a strike comes first; the dose stays
    doses = [dose for _, p, dose in game.doses() if (p.x, p.y) == spot]
    return doses[0] if doses else None


def figures(game: Game, dose: Dose) -> DoseOdds:
    """A dose's true figures for the player now."""
    som = game.player_component(StateOfMind).value
    return dose_odds(DOSE_KINDS[dose.kind], dose.floor, som, game.player_component(Tolerance).value)


def question(game: Game, dose: Dose) -> str | None:
    """``Take the large dose? ...`` if this dose's usual range could overdose the player now, else None."""
    kind = DOSE_KINDS[dose.kind]
    som = game.player_component(StateOfMind).value
    odds = figures(game, dose)
    if odds.risk not in ASKED:
        return None
    purer = odds.if_purer(f" (a purer batch +{odds.purest})")
    return (
        f"Take the {kind.name}? It gives +{odds.low}..+{odds.high}{purer}; at {som}"
        f" {odds.risk.value}. Press y to take it, any other key to leave it."
    )
