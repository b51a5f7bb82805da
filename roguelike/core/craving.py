"""What the craving would do: the dose Desperation's takeover would walk to, and whether it could kill.

Desperation takes the controls and walks to the nearest known dose, whatever it holds
(:func:`roguelike.core.steering.desperate_step`): deep down that dose is often lethal. So
while Desperation is near, the panel and the condition readout name that dose and warn
when it could overdose the player on arrival. Read-only over the game; nothing here is
saved or enters a checksum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import tcod.path

from components import Attributes, Position, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, DoseKind, DoseOdds, dose_odds
from roguelike.core.game import Game
from roguelike.core.pathing import distance_map, travel_cost

UNREACHABLE = int(np.iinfo(np.int32).max)


@dataclass(frozen=True)
class Craving:
    """The dose the takeover would take, how many steps off, and what it would give on arrival."""

    kind: DoseKind
    steps: int
    odds: DoseOdds

    def warning(self) -> str | None:
        """The panel's warning when the dose could kill (None when it could not)."""
        if not self.odds.could_kill:
            return None
        return f"Craving: Desperation would take the {self.kind.name} {self.steps} steps off; {self.odds.risk.value}."


def craving(game: Game) -> Craving | None:
    """While Desperation is near (or here), the dose its takeover would walk to; else None."""
    som = game.player_component(StateOfMind).value
    will = game.player_component(Attributes).will
    line = formulas.desperation_threshold(will)
    if game.state.game_over or som > line + formulas.CRAVING_WARNING_MARGIN:
        return None
    target = takeover_target(game)
    if target is None:
        return None
    kind, steps = target
    arrival = max(1, min(som, line) - steps // formulas.action_points(will) * formulas.STATE_OF_MIND_DECAY)
    return Craving(kind, steps, dose_odds(kind, game.state.depth, arrival, game.player_component(Tolerance).value))


def takeover_target(game: Game) -> tuple[DoseKind, int] | None:
    """The known dose at the end of the takeover's path from here, with the steps to it."""
    floor = game.state.floor
    known = {(p.x, p.y): dose for _, p, dose in game.doses() if floor.explored[p.y, p.x]}
    if not known:
        return None
    dist = distance_map(travel_cost(floor), list(known))
    pos = game.player_component(Position)
    if dist[pos.y, pos.x] == UNREACHABLE:
        return None
    path = tcod.path.hillclimb2d(dist, (pos.y, pos.x), True, True)
    end = (int(path[-1][1]), int(path[-1][0]))
    return DOSE_KINDS[known[end].kind], len(path) - 1
