"""The doses a player carries and the doses beside them, read from a game as the panel shows them.

Read-only over the game, for the panel, the readouts, the carry keys and the bots (which see
only what a player sees: these are the figures the panel is drawn from).
"""

from __future__ import annotations

from components import Carried, Dose, Position, StateOfMind, Tolerance, Vision
from roguelike.content.doses import DoseOdds
from roguelike.core.carrying import carried_doses, true_odds
from roguelike.core.game import Game

CLOCKWISE = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def carried_figures(game: Game) -> list[tuple[Dose, DoseOdds]]:
    """Each carried dose, oldest first, with what it would give now (its found floor's true figures)."""
    som = game.player_component(StateOfMind).value
    tolerance = game.player_component(Tolerance).value
    return [(dose, true_odds(dose, som, tolerance)) for dose in carried_doses(game.player_component(Carried))]


def doses_beside(game: Game) -> list[tuple[tuple[int, int], Dose]]:
    """The doses one step from the player that could be carried (a vision cannot), with their
    directions, clockwise from north."""
    pos = game.player_component(Position)
    spots = {
        (p.x - pos.x, p.y - pos.y): dose
        for entity, p, dose in game.doses()
        if abs(p.x - pos.x) <= 1 and abs(p.y - pos.y) <= 1 and not game.world.has(entity, Vision)
    }
    return [(step, spots[step]) for step in CLOCKWISE if step in spots]
