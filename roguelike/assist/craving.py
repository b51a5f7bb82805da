"""What the craving would do: the dose Desperation's takeover would take or walk to, and whether it could kill.

Desperation takes the controls: it takes the weakest dose the player carries, else walks to
the nearest known dose, whatever it holds (:mod:`roguelike.core.steering`): deep down that
dose is often lethal. So
while Desperation is near, the panel and the condition readout name that dose and warn
when it could overdose the player on arrival. Read-only over the game; nothing here is
saved or enters a checksum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import tcod.path

from components import Attributes, Carried, Dose, Position, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, DoseKind, DoseOdds
from roguelike.core.carrying import carried_doses, true_odds, weakest
from roguelike.core.game import Game
from roguelike.core.pathing import distance_map, travel_cost

UNREACHABLE = int(np.iinfo(np.int32).max)


@dataclass(frozen=True)
class Craving:
    """The dose the takeover would take, how many steps off (0: a carried one), and what it would give on arrival."""

    kind: DoseKind
    steps: int
    odds: DoseOdds
    carried: bool = False

    def warning(self) -> str | None:
        """The panel's warning when the dose could kill (None when it could not)."""
        if not self.odds.could_kill:
            return None
        where = "your carried " + self.kind.name if self.carried else f"the {self.kind.name} {self.steps} steps off"
        return f"Craving: Desperation would take {where}; {self.odds.risk.value}."


def craving(game: Game) -> Craving | None:
    """While Desperation is near (or here), the dose its takeover would walk to; else None."""
    som = game.player_component(StateOfMind).value
    will = game.player_component(Attributes).will
    line = formulas.desperation_threshold(will)
    if game.state.game_over or som > line + formulas.CRAVING_WARNING_MARGIN:
        return None
    tolerance = game.player_component(Tolerance).value
    carried = game.player_component(Carried)
    index = weakest(carried)
    if index is not None:
        dose = carried_doses(carried)[index]
        return Craving(DOSE_KINDS[dose.kind], 0, true_odds(dose, min(som, line), tolerance), carried=True)
    target = takeover_target(game)
    if target is None:
        return None
    dose, steps = target
    arrival = max(1, min(som, line) - steps // formulas.action_points(will) * formulas.STATE_OF_MIND_DECAY)
    return Craving(DOSE_KINDS[dose.kind], steps, true_odds(dose, arrival, tolerance))


def takeover_target(game: Game) -> tuple[Dose, int] | None:
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
    return known[end], len(path) - 1
