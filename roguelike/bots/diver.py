"""The diver: a ten-line policy (a safe dose, else the known stairs down, else explore).

It judges doses and fights as the careful bot does, but never lingers: the measure of
whether exploring a floor is worth more than leaving it at once.
"""

from __future__ import annotations

from components import Attributes
from roguelike.bots.careful import CarefulBot, Walks, far_side
from roguelike.bots.routes import UNREACHABLE, Terrain
from roguelike.bots.sense import KnownDose, Mask, mask_of, state_of_mind
from roguelike.content import formulas
from roguelike.core.game import Game


class DiverBot(CarefulBot):
    """A safe dose, else the stairs down as soon as it knows them, else the unexplored far side."""

    carries = False  # the ten-line policy carries nothing

    def goals(self, game: Game, terrain: Terrain, doses: list[KnownDose], steps: Walks) -> list[Mask | None]:
        """A safe dose, the known stairs, the far side, anywhere unexplored."""
        floor = game.state.floor
        seen = self.routes.seen(terrain, floor.explored)
        som, speed = state_of_mind(game), formulas.action_points(game.player_component(Attributes).will)
        reachable = [dose for dose in doses if steps.to(dose.x, dose.y) < UNREACHABLE]
        safe = [dose for dose in reachable if self.safe_on_arrival(dose, steps, som, speed)]
        order: list[Mask | None] = [
            mask_of(floor.tiles.shape, safe),
            seen.stairs_down,
            far_side(floor, seen.unexplored),
            seen.unexplored,
        ]
        return [goals for goals in order if goals is None or seen.any(goals)]
