"""The reckless bot: takes every dose it sees and fights everything, whatever the risk."""

from __future__ import annotations

import numpy as np

from components import Position
from roguelike.bots.routes import RouteFinder, Routes
from roguelike.bots.sense import known_doses, mask_of
from roguelike.bots.tactics import threats_in_sight, undo_turning
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.game import Game
from roguelike.core.pathing import chebyshev

EXPLORE_ENOUGH = 0.75


class RecklessBot:
    """Doses first, then any monster in sight, then exploring and the stairs."""

    def __init__(self, routes: RouteFinder | None = None) -> None:
        self.routes = routes or Routes()

    def choose(self, game: Game) -> Command:
        """Its wish, turned around while confused (even a reckless player learns that)."""
        return undo_turning(game, self.wish(game))

    def wish(self, game: Game) -> Command:
        """Strike whatever is adjacent, else chase doses and monsters."""
        game.activate()
        pos = game.player_component(Position)
        threats = threats_in_sight(game)
        adjacent = [t for t in threats if chebyshev(t.x, t.y, pos.x, pos.y) == 1]
        if adjacent:
            target = max(adjacent, key=lambda t: t.danger)
            return Move(target.x - pos.x, target.y - pos.y)
        floor = game.state.floor
        terrain = self.routes.terrain(floor)
        shape = floor.tiles.shape
        monsters = np.zeros(shape, dtype=bool)
        for threat in threats:
            monsters[threat.y, threat.x] = True
        seen = self.routes.seen(terrain, floor.explored)
        unexplored, stairs = seen.unexplored, seen.stairs_down
        later = [unexplored, stairs] if seen.fraction < EXPLORE_ENOUGH else [stairs, unexplored]
        for goals in [mask_of(shape, known_doses(game)), monsters, *later]:
            step = self.routes.step(terrain.cost, goals, (pos.x, pos.y)) if seen.any(goals) else None
            if step is not None:
                return Move(*step)
        return Wait()
