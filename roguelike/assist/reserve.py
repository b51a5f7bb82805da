"""Automation's State of Mind rule: how far the way out of a craving is, against the time left.

Auto-explore, travel and rest must not walk the player into Desperation far from any
dose: before each step the autopilot weighs the actions left before Desperation takes the
controls against the steps to the way on. That is the nearest known dose that is safe to
take by then (its purest draw, the depth bonus and a purer batch included, would not
overdose at the last State of Mind before Desperation) or, with no such dose known, the
known stairs down (a new floor has doses). With neither, the rule only counts the turns
left. The actions are counted exactly, the ones left in this turn included, so a step
toward the way costs one action and saves one step: the slack holds still on the
shortest path, at Will 10 as at Will 1. Read-only over the game, like every planning module.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np
import tcod.path

from components import ActionPoints, Attributes, Position, StateOfMind, Tolerance
from roguelike.assist.autoexplore import Mask, known_cost, stairs_goal
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, dose_odds
from roguelike.content.wording import counted
from roguelike.core.distances import fill_distances
from roguelike.core.game import Game

UNREACHABLE = int(np.iinfo(np.int32).max)


class Way(Enum):
    """What the rule counts the steps to, in the player's words."""

    DOSE = "The nearest safe dose is"
    STAIRS = "No safe dose known: the stairs down are"


class Alarm(Enum):
    """How the reserve stands, from no concern to out of reach."""

    FINE = 0  # time enough, or no dose known and Desperation still far
    SHORT = 1  # the way is within reach, but barely: go to it first
    BEYOND = 2  # the way is already out of reach, or none is known and Desperation is near


@dataclass(frozen=True)
class Reserve:
    """The actions left before Desperation and the steps to the way on."""

    actions: int
    per_turn: int
    steps: int | None  # None: no safe dose (nor the stairs down) is known and reachable
    way: Way | None = None

    @property
    def slack(self) -> int | None:
        """Actions to spare once the way is reached (None: no way is known)."""
        return None if self.steps is None else self.actions - self.steps

    @property
    def alarm(self) -> Alarm:
        """How the reserve stands."""
        margin = formulas.AUTOMATION_RESERVE_ACTIONS
        if self.slack is None:
            return Alarm.BEYOND if self.actions <= margin else Alarm.FINE
        if self.slack < 0:
            return Alarm.BEYOND
        return Alarm.SHORT if self.slack <= margin else Alarm.FINE

    @property
    def short(self) -> bool:
        """Whether going on would leave the way out of reach before Desperation (or already has)."""
        return self.alarm is not Alarm.FINE

    @property
    def within_reach(self) -> bool:
        """Whether the way is known and can still be reached before Desperation."""
        return self.slack is not None and self.slack >= 0

    @property
    def last_call(self) -> bool:
        """Whether Desperation is no more than the margin off, however far the way is."""
        return self.actions <= formulas.AUTOMATION_RESERVE_ACTIONS

    @property
    def turns(self) -> int:
        """Turns left before Desperation, this one included."""
        return -(-self.actions // self.per_turn)

    def words(self) -> str:
        """Why automation stops, refuses or warns, in the player's words."""
        actions = counted(self.actions, "action")
        if self.way is None or self.steps is None:
            return f"No safe dose known: {counted(self.turns, 'turn')} to Desperation."
        steps = counted(self.steps, "step")
        if self.slack is not None and self.slack < 0:
            return f"{self.way.value} {steps} away, beyond reach: Desperation is {actions} off."
        return f"{self.way.value} {steps} away and Desperation {actions} off: go {GO[self.way]} first."


GO = {Way.DOSE: "to it", Way.STAIRS: "down"}


def reserve(game: Game) -> Reserve:
    """The player's reserve now."""
    actions, per_turn = actions_left(game)
    steps = steps_to_safe_dose(game)
    if steps is not None:
        return Reserve(actions, per_turn, steps, Way.DOSE)
    stairs = steps_to(game, stairs_goal(game, ">"))
    return Reserve(actions, per_turn, stairs, None if stairs is None else Way.STAIRS)


def actions_left(game: Game) -> tuple[int, int]:
    """The actions the player has before Desperation (those left this turn, then every turn's),
    and the actions a turn."""
    som = game.player_component(StateOfMind).value
    will = game.player_component(Attributes).will
    per_turn = formulas.action_points(will)
    line = formulas.desperation_threshold(will)
    if som <= line:
        return 0, per_turn
    points = game.player_component_or_none(ActionPoints)
    this_turn = per_turn if points is None else formulas.clamp(points.remaining, 1, per_turn)
    whole_turns = (som - line - 1) // formulas.STATE_OF_MIND_DECAY
    return this_turn + whole_turns * per_turn, per_turn


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
    return steps_to(game, safe_doses(game))


def nearest_safe_dose(game: Game) -> tuple[int, int] | None:
    """Where the safe dose fewest steps away over known ground lies (None: none known and reachable)."""
    goals = safe_doses(game)
    if not goals.any():
        return None
    pos = game.player_component(Position)
    dist = tcod.path.maxarray(goals.shape, dtype=np.int32)
    dist[pos.y, pos.x] = 0
    fill_distances(dist, known_cost(game, goals), 1, 1)
    reach = np.where(goals, dist, UNREACHABLE)
    y, x = np.unravel_index(int(np.argmin(reach)), reach.shape)
    return None if reach[y, x] == UNREACHABLE else (int(x), int(y))


def steps_to(game: Game, goals: Mask) -> int | None:
    """Steps over known ground onto the nearest goal (None: none, or none reachable)."""
    if not goals.any():
        return None
    dist = tcod.path.maxarray(goals.shape, dtype=np.int32)
    dist[goals] = 0
    fill_distances(dist, known_cost(game, goals), 1, 1)
    pos = game.player_component(Position)
    steps = int(dist[pos.y, pos.x])
    return None if steps == UNREACHABLE else steps
