"""A built-in player for headless games: takes doses when it needs them, explores, descends.

It reads the game like a player would (what is explored, which doses are known) and
answers with a command; it is deterministic, so the same seed gives the same game.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from components import Position, StateOfMind, Tolerance
from roguelike.bots import tactics as bot_tactics
from roguelike.content import formulas
from roguelike.core.commands import Command, Move, Wait
from roguelike.content.doses import NORMAL_DOSE
from roguelike.core.tiles import STAIRS_DOWN, STAIRS_UP, WALL
from roguelike.core.game import Game
from roguelike.core.pathing import distance_map, downhill_step, goal_mask, steer_clear, travel_cost

CRAVING_BELOW = 45  # the bot goes for a dose when its State of Mind falls under this
SAFETY_MARGIN = 8  # ...and only if the strongest small dose cannot overdose it
EXPLORE_ENOUGH = 0.75
PATHS_KEPT = 8  # distance maps remembered (one per kind of goal is enough)
Mask = NDArray[np.bool_]


class Bot:
    """Chooses the next command for a game."""

    def __init__(self) -> None:
        # Distance maps by (costs, goals): walking through known ground, neither changes
        # for many steps, and a Dijkstra map is most of what a step of the bot costs.
        self.paths: dict[tuple[bytes, bytes], NDArray[np.int32]] = {}

    def choose(self, game: Game) -> Command:
        """The bot's next command: its plan, unless monsters call for a fight or caution."""
        return bot_tactics.adjust(game, self.plan(game))

    def plan(self, game: Game) -> Command:
        """Where the bot wants to go, monsters aside."""
        floor = game.state.floor
        pos = game.player_component(Position)
        doses = goal_mask(floor.tiles.shape, [(p.x, p.y) for _, p, _ in game.doses()]) & floor.explored
        for goals in self.goals(game, doses):
            step = downhill_step(self.distances(self.cost(game, doses, goals), goals), (pos.x, pos.y))
            if step is not None:
                return Move(*step)
        return Wait()

    def distances(self, cost: NDArray[np.int32], goals: Mask) -> NDArray[np.int32]:
        """Walking distance to the nearest goal, reused while costs and goals are unchanged."""
        key = (cost.tobytes(), goals.tobytes())
        found = self.paths.get(key)
        if found is None:
            if len(self.paths) >= PATHS_KEPT:
                self.paths.clear()
            found = self.paths[key] = distance_map(cost, goals)
        return found

    def goals(self, game: Game, doses: Mask) -> list[Mask]:
        """Places worth going to, most wanted first."""
        floor = game.state.floor
        explore = ~floor.explored & (floor.tiles != WALL)
        stairs = (floor.tiles == STAIRS_DOWN) & floor.explored
        wanted = [doses] if self.wants_dose(game) else []
        if floor.explored_fraction() >= EXPLORE_ENOUGH:
            wanted += [stairs, explore]
        else:
            wanted += [explore, stairs]
        return [goals for goals in wanted if goals.any()]

    def wants_dose(self, game: Game) -> bool:
        """Whether a dose now helps more than it risks."""
        som = game.player_component(StateOfMind).value
        tolerance = game.player_component(Tolerance).value
        worst = formulas.dose_gain(NORMAL_DOSE.strength[1], tolerance)
        return som < CRAVING_BELOW and som + worst <= formulas.STATE_OF_MIND_MAX - SAFETY_MARGIN

    def cost(self, game: Game, doses: Mask, goals: Mask) -> NDArray[np.int32]:
        """Walking costs that steer around doses and stairs the bot is not heading for."""
        floor = game.state.floor
        cost = travel_cost(floor)
        stairs = (floor.tiles == STAIRS_DOWN) | (floor.tiles == STAIRS_UP)
        pos = game.player_component(Position)
        return steer_clear(cost, (doses | stairs) & ~goals, (pos.x, pos.y))
