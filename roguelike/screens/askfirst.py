"""A step into a dose that could overdose asks first (the setting "Confirm risky doses").

The in-game screen asks before applying a move of the player's own (confusion turned
around included), or the taking of a carried dose, that would take a dose whose true figures (:func:`dose_odds`: the depth
bonus and a purer batch counted) could or will overdose. Only ``y`` pressed afresh takes
it; any other key leaves it. The frontends drop keys typed ahead of the question and the
repeats of a held key, so a held ``y`` (a vi-key step) never answers it.
"""

from __future__ import annotations

from components import Carried, Dose, Position, StateOfMind, Tolerance
from roguelike.content.conditions import Steer
from roguelike.content.doses import DOSE_KINDS, dose_odds
from roguelike.core.carrying import carried_doses
from roguelike.core.commands import Command, Move, TakeCarried
from roguelike.core.game import Game
from roguelike.screens import ambient

LEFT_ALONE = "You leave the dose alone."


def risky_step(game: Game, command: Command) -> str | None:
    """The question to ask before ``command`` (None: nothing to ask)."""
    if isinstance(command, TakeCarried) and ambient.chosen().confirm_lethal:
        doses = carried_doses(game.player_component(Carried))
        return question(game, doses[command.index]) if command.index < len(doses) else None
    if not isinstance(command, Move) or not ambient.chosen().confirm_lethal:
        return None
    steering = game.steering()
    if steering is not None and steering.takes_controls:
        return None  # the game steers: the step is not the player's
    turn = -1 if steering is not None and steering.steer is Steer.TURN_AROUND else 1
    pos = game.player_component(Position)
    spot = (pos.x + turn * command.dx, pos.y + turn * command.dy)
    if any((p.x, p.y) == spot for _, _, p in game.monsters()):
        return None  # a strike comes first; the dose stays
    doses = [dose for _, p, dose in game.doses() if (p.x, p.y) == spot]
    return question(game, doses[0]) if doses else None


def question(game: Game, dose: Dose) -> str | None:
    """``Take the large dose? ...`` if this dose could overdose the player now, else None."""
    kind = DOSE_KINDS[dose.kind]
    som = game.player_component(StateOfMind).value
    odds = dose_odds(kind, dose.floor, som, game.player_component(Tolerance).value)
    if not odds.could_kill:
        return None
    purer = odds.if_purer(f" (a purer batch +{odds.purest})")
    return (f"Take the {kind.name}? It gives +{odds.low}..+{odds.high}{purer}; at {som}"
            f" {odds.risk.value}. Press y to take it, any other key to leave it.")

