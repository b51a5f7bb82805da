"""The explorer bot: careful with doses, but sees every tile of a floor before it descends."""

from __future__ import annotations

from roguelike.bots.careful import CarefulBot


class ExplorerBot(CarefulBot):
    """Explores each floor fully, then goes down without waiting for the doses it left."""

    explore_target = 1.0
    keeps_doses = False
