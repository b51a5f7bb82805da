"""The pull zone: the tiles around a dose from which a weak Will cannot resist it.

One rule for everyone who shows or avoids it: the map draws the zone of the doses in
sight (``roguelike.render.pullzone``), the careful bots steer around the zone of the
doses they do not want (``roguelike.bots.careful``). At Will 3 and above there is none.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from components import Attributes
from roguelike.content import formulas
from roguelike.core.floor import WALKABLE
from roguelike.core.game import Game

Mask = NDArray[np.bool_]


def pull_zone(game: Game, doses: Iterable[tuple[int, int]]) -> Mask:
    """Tiles (a ``[y, x]`` mask of the floor) from which one of the doses at these ``(x, y)``
    spots pulls the player's weak Will (none when Will is strong)."""
    zone = np.zeros(game.state.floor.tiles.shape, dtype=bool)
    reach = formulas.irresistible_range(game.player_component(Attributes).will)
    if reach == 0:
        return zone
    for x, y in doses:
        zone[max(0, y - reach) : y + reach + 1, max(0, x - reach) : x + reach + 1] = True
    return zone


def pull_zone_in_sight(game: Game) -> Mask:
    """The pull zone the player sees: around the doses in sight, on the walkable tiles in sight."""
    visible = game.view.visible
    spots = [(pos.x, pos.y) for _, pos, _ in game.doses() if visible[pos.y, pos.x]]
    shown: Mask = pull_zone(game, spots) & visible & WALKABLE[game.state.floor.tiles]
    return shown
