"""A step into a dose that could overdose asks first (the setting "Confirm risky doses").

The in-game screen asks before applying a move of the player's own (confusion turned
around included) that would take a dose whose true figures (:func:`dose_odds`: the depth
bonus and a purer batch counted) could or will overdose. Only ``y`` pressed afresh takes
it; any other key leaves it. The frontends drop keys typed ahead of the question and the
repeats of a held key, so a held ``y`` (a vi-key step) never answers it.
"""

from __future__ import annotations

from components import Position, StateOfMind, Tolerance
from roguelike import settings
from roguelike.content.conditions import Steer
from roguelike.content.doses import DOSE_KINDS, dose_odds
from roguelike.core.commands import Command, Move
from roguelike.core.game import Game

LEFT_ALONE = "You leave the dose alone."


def risky_step(game: Game, command: Command) -> str | None:
    """The question to ask before ``command`` (None: nothing to ask)."""
    if not isinstance(command, Move) or not settings.current().confirm_lethal:
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
    return question(game, DOSE_KINDS[doses[0].kind].key) if doses else None


def question(game: Game, kind_key: str) -> str | None:
    """``Take the large dose? ...`` if a dose of this kind could overdose the player now, else None."""
    kind = DOSE_KINDS[kind_key]
    som = game.player_component(StateOfMind).value
    odds = dose_odds(kind, game.state.depth, som, game.player_component(Tolerance).value)
    if not odds.could_kill:
        return None
    return (f"Take the {kind.name}? It gives +{odds.low}..+{odds.high} (a purer batch +{odds.purest}); at {som}"
            f" {odds.risk.value}. Press y to take it, any other key to leave it.")

