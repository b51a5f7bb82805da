"""Where the player's own automation steps next: auto-explore and travel.

Planning reads only what the player knows (the explored tiles and the doses seen there),
never the real map behind the fog. Auto-explore goes first where the walk there and on to
the nearest dose worth keeping near (the caller says which) is shortest, so it explores
around the doses it knows instead of walking far off and back. Paths go around doses, stairs and the High's ways down
the player is not heading for, because stepping onto them takes them: a dose is always the
player's choice.
The path-finding is the bot's and the takeover's (:mod:`roguelike.core.pathing`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from components import Position, Shortcut
from roguelike.core.commands import Move
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.core.pathing import (
    distance_map,
    frontier,
    goal_mask,
    steer_clear,
    step_toward,
    travel_cost,
)

Mask = NDArray[np.bool_]
STAIRS_TILE = {">": Tile.STAIRS_DOWN, "<": Tile.STAIRS_UP}


def known_doses(game: Game) -> Mask:
    """Doses the player knows of: on tiles they have seen, or shown by a Perfect High."""
    floor = game.state.floor
    return goal_mask(floor.tiles.shape, [(p.x, p.y) for _, p, _ in game.doses()]) & floor.dose_known()


def lures(game: Game) -> Mask:
    """Tiles that act when stepped on: known doses, stairs, and ways down and finds only the High see."""
    floor = game.state.floor
    visions = [(pos.x, pos.y) for _, (pos, _) in game.world.query(Position, Shortcut)]
    visions += [(pos.x, pos.y) for _, pos, _ in game.finds()]  # taken only on purpose, like doses
    stairs = (floor.tiles == Tile.STAIRS_DOWN) | (floor.tiles == Tile.STAIRS_UP)
    mask: Mask = known_doses(game) | stairs | (goal_mask(floor.tiles.shape, visions) & floor.explored)
    return mask


def known_cost(game: Game, goals: Mask) -> NDArray[np.int32]:
    """Walking costs over seen tiles only, closed on lures that are not goals."""
    floor = game.state.floor
    cost = travel_cost(floor) * floor.explored
    pos = game.player_component(Position)
    return steer_clear(cost.astype(np.int32), lures(game) & ~goals, (pos.x, pos.y))


def step_to(game: Game, goals: Mask) -> Move | None:
    """The first step toward the nearest goal over known ground (None: unreachable or there)."""
    if not goals.any():
        return None
    pos = game.player_component(Position)
    step = step_toward(known_cost(game, goals), (pos.x, pos.y), goals)
    return None if step is None else Move(*step)


def explore_goals(game: Game) -> Mask:
    """Where exploring may go: the frontier, lures left out."""
    return frontier(game.state.floor) & ~lures(game)


def explore_step(game: Game, near: Mask | None = None) -> Move | None:
    """The next step of auto-explore, or None when nothing reachable is left unseen; with
    ``near`` (doses), toward the unexplored places nearest to them by way of the player."""
    goals = explore_goals(game)
    if near is not None and near.any() and goals.any():
        goals = nearest_detours(game, goals, near)
    return step_to(game, goals)


def nearest_detours(game: Game, goals: Mask, near: Mask) -> Mask:
    """The goals with the shortest walk from the player to them and on to the nearest of ``near``
    (all the goals when none can reach ``near`` over known ground)."""
    pos = game.player_component(Position)
    from_player = distance_map(known_cost(game, goals), [(pos.x, pos.y)]).astype(np.int64)
    from_doses = distance_map(known_cost(game, near), near).astype(np.int64)
    unreachable = np.iinfo(np.int32).max
    detour = np.where((from_player < unreachable) & (from_doses < unreachable), from_player + from_doses, -1)
    detour[~goals] = -1
    if not (detour >= 0).any():
        return goals
    best: Mask = detour == detour[detour >= 0].min()
    return best


def stairs_goal(game: Game, glyph: str) -> Mask:
    """The known staircase ``>`` or ``<`` of this floor (empty if not yet seen)."""
    floor = game.state.floor
    mask: Mask = (floor.tiles == STAIRS_TILE[glyph]) & floor.explored
    return mask


def cell_goal(game: Game, x: int, y: int) -> Mask:
    """Where travelling to a cell ends: the cell, or beside it if a dose lies there."""
    floor = game.state.floor
    mask = np.zeros(floor.tiles.shape, dtype=bool)
    if not known_doses(game)[y, x]:
        mask[y, x] = True
        return mask
    mask[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2] = True
    mask[y, x] = False
    return mask & (travel_cost(floor) > 0) & floor.explored


def standing_on(game: Game, goals: Mask) -> bool:
    """Whether the player stands on one of the goals."""
    pos = game.player_component(Position)
    return bool(goals[pos.y, pos.x])
