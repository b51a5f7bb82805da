"""A built-in player for headless games: takes doses when it needs them, explores, descends.

It reads the game like a player would (what is explored, which doses are known) and
answers with a command; it is deterministic, so the same seed gives the same game.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from components import Position, StateOfMind, Tolerance
from roguelike.bots import tactics as bot_tactics
from roguelike.bots.routes import RouteFinder, Routes, Terrain
from roguelike.content import formulas
from roguelike.content.doses import NORMAL_DOSE
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.game import Game
from roguelike.core.pathing import goal_mask, steer_clear

CRAVING_BELOW = 45  # the bot goes for a dose when its State of Mind falls under this
SAFETY_MARGIN = 8  # ...and only if the strongest small dose cannot overdose it
EXPLORE_ENOUGH = 0.75
Mask = NDArray[np.bool_]


class Bot:
    """Chooses the next command for a game."""

    def __init__(self, routes: RouteFinder | None = None) -> None:
        # Masks and distance maps kept while the floor and the goals are unchanged: a
        # Dijkstra map is most of what a step of the bot costs.
        self.routes = routes or Routes()

    def choose(self, game: Game) -> Command:
        """The bot's next command: its plan, unless monsters call for a fight or caution."""
        return bot_tactics.adjust(game, self.plan(game))

    def plan(self, game: Game) -> Command:
        """Where the bot wants to go, monsters aside."""
        floor = game.state.floor
        terrain = self.routes.terrain(floor)
        pos = game.player_component(Position)
        doses = goal_mask(floor.tiles.shape, [(p.x, p.y) for _, p, _ in game.doses()]) & floor.dose_known()
        for goals in self.goals(game, terrain, doses):
            step = self.routes.step(self.cost(terrain, doses, goals, pos), goals, (pos.x, pos.y))
            if step is not None:
                return Move(*step)
        return Wait()

    def goals(self, game: Game, terrain: Terrain, doses: Mask) -> list[Mask]:
        """Places worth going to, most wanted first."""
        seen = self.routes.seen(terrain, game.state.floor.explored)
        explore, stairs = seen.unexplored, seen.stairs_down
        wanted = [doses] if self.wants_dose(game) else []
        if seen.fraction >= EXPLORE_ENOUGH:
            wanted += [stairs, explore]
        else:
            wanted += [explore, stairs]
        return [goals for goals in wanted if seen.any(goals)]

    def wants_dose(self, game: Game) -> bool:
        """Whether a dose now helps more than it risks."""
        som = game.player_component(StateOfMind).value
        tolerance = game.player_component(Tolerance).value
        worst = formulas.dose_gain(NORMAL_DOSE.strength[1], tolerance)
        return som < CRAVING_BELOW and som + worst <= formulas.STATE_OF_MIND_MAX - SAFETY_MARGIN

    def cost(self, terrain: Terrain, doses: Mask, goals: Mask, pos: Position) -> NDArray[np.int32]:
        """Walking costs that steer around doses and stairs the bot is not heading for."""
        return steer_clear(terrain.costs(), (doses | terrain.stairs) & ~goals, (pos.x, pos.y))
