"""The reader: plays by what the player is told, to prove the screen tells enough to play well.

It plays as the careful bot does, but knows a dose only by the figures the look panel,
the mouse hover and the screen-reader readout show for it (:func:`roguelike.assist.readout.shown_odds`,
the structured data those words are rendered from), never by the dose tables or the
formulas the rules use. If the panel misstated a dose, this bot would die of it.
"""

from __future__ import annotations

from roguelike.assist.readout import shown_odds
from roguelike.bots.careful import CarefulBot
from roguelike.bots.sense import KnownDose, is_vision
from roguelike.core.game import Game
from roguelike.core.world import doses_on_floor


def shown_doses(game: Game) -> list[KnownDose]:
    """Every dose the map shows (explored, or shown by a Perfect High), with the most the panel says it could give."""
    game.activate()
    known = game.state.floor.dose_known()
    return [
        KnownDose(
            pos.x, pos.y, dose.kind, shown_odds(game, dose.kind, dose.floor).high, dose.floor, is_vision(game, entity)
        )
        for entity, pos, dose in doses_on_floor()
        if known[pos.y, pos.x]
    ]


class ReaderBot(CarefulBot):
    """The careful bot's play, judging every dose by the panel's own figures."""

    see_doses = staticmethod(shown_doses)
