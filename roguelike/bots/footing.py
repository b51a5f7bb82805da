"""The ground under a bot's feet: where a step really lands, and whether a hunter reaches it in time.

The terrain table says what each tile does (:mod:`roguelike.content.terrain`): ice slides
a stepper on, water ends its turn and costs more. A bot that reads the ground (the climber,
:mod:`roguelike.bots.climber`) asks :func:`landing` where a step ends (the far end of a slide) and
how many turns more it takes (a wade), so that "out of a hunter's reach" (:func:`safe_landing`)
counts the turns the world moves on. It reads only what a player sees: the tiles, the monsters in
sight and the table's figures.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from roguelike.bots.tactics import Threat
from roguelike.content.terrain import by_value
from roguelike.core.floor import WALKABLE, Floor

Spot = tuple[int, int]
WADE = np.array([row.wade for row in by_value()], dtype=np.int32)
SLIDES = tuple(row.slides for row in by_value())


def landing(floor: Floor, here: Spot, step: Spot, taken: set[Spot]) -> tuple[Spot, int]:
    """Where a step from ``here`` ends (slides followed, as :func:`roguelike.core.stepping.slide` does)
    and the turns more it takes (a wade); a blocked step lands where it stands."""
    x, y = here[0] + step[0], here[1] + step[1]
    tile = floor.tile(x, y)
    if step == (0, 0) or not WALKABLE[tile] or (x, y) in taken:
        return here, 0
    while SLIDES[tile]:
        ahead = floor.tile(x + step[0], y + step[1])
        if not WALKABLE[ahead] or (x + step[0], y + step[1]) in taken:
            break
        x, y, tile = x + step[0], y + step[1], ahead
    return (x, y), int(WADE[tile])


def safe_landing(spot: Spot, turns: int, hunters: Sequence[Threat]) -> bool:
    """No hunter can reach ``spot`` and hit in the turns the step takes (``turns`` more than one)."""
    return all(max(abs(t.x - spot[0]), abs(t.y - spot[1])) > t.reach * (1 + turns) for t in hunters)
