"""Automation's State of Mind rule: how far the nearest safe dose is, against the time left.

Auto-explore, travel and rest must not walk the player into Desperation far from any
dose: before each step the autopilot weighs the actions left before Desperation takes the
controls against the steps to the nearest known dose that is safe to take by then (its
purest draw, the depth bonus and a purer batch included, would not overdose at the last
State of Mind before Desperation). Read-only over the game, like every planning module.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import tcod.path

from components import Attributes, Position, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, dose_odds
from roguelike.content.wording import counted
from roguelike.assist.autoexplore import Mask, known_cost
from roguelike.core.distances import fill_distances
from roguelike.core.game import Game

UNREACHABLE = int(np.iinfo(np.int32).max)


@dataclass(frozen=True)
class Reserve:
    """The actions left before Desperation and the steps to the nearest safe known dose."""

    actions: int
    steps: int | None  # None: no safe dose is known and reachable

    @property
    def slack(self) -> int | None:
        """Actions to spare once the nearest safe dose is reached (None: no such dose)."""
        return None if self.steps is None else self.actions - self.steps

    @property
    def short(self) -> bool:
        """Whether going on would leave that dose out of reach before Desperation."""
        return self.slack is not None and self.slack <= formulas.AUTOMATION_RESERVE_ACTIONS

    def words(self) -> str:
        """Why automation stops or refuses, in the player's words."""
        steps, actions = counted(self.steps or 0, "step"), counted(self.actions, "action")
        return f"The nearest safe dose is {steps} away and Desperation {actions} off: go to it first."


def reserve(game: Game) -> Reserve:
    """The player's reserve now."""
    som = game.player_component(StateOfMind).value
    will = game.player_component(Attributes).will
    turns = max(0, som - formulas.desperation_threshold(will) - 1)
    return Reserve(turns * formulas.action_points(will), steps_to_safe_dose(game))


def safe_doses(game: Game) -> Mask:
    """Known doses that cannot overdose the player at the last State of Mind before Desperation."""
    floor = game.state.floor
    edge = formulas.desperation_threshold(game.player_component(Attributes).will) + 1
    tolerance = game.player_component(Tolerance).value
    mask, known = np.zeros(floor.tiles.shape, dtype=bool), floor.dose_known()
    for _, pos, dose in game.doses():
        if known[pos.y, pos.x] and not dose_odds(DOSE_KINDS[dose.kind], dose.floor, edge, tolerance).could_kill:
            mask[pos.y, pos.x] = True
    return mask


def steps_to_safe_dose(game: Game) -> int | None:
    """Steps over known ground to take the nearest safe dose (None: none known and reachable)."""
    goals = safe_doses(game)
    if not goals.any():
        return None
    dist = tcod.path.maxarray(goals.shape, dtype=np.int32)
    dist[goals] = 0
    fill_distances(dist, known_cost(game, goals), 1, 1)
    pos = game.player_component(Position)
    steps = int(dist[pos.y, pos.x])
    return None if steps == UNREACHABLE else steps
