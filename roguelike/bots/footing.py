"""The ground under a bot's feet: where a step really lands, and what the tiles cost near monsters.

The terrain table says what each tile does (:mod:`roguelike.content.terrain`): ice slides
a stepper on, water ends its turn and costs more, sand exposes, water covers. A bot that
reads the ground (the climber, :mod:`roguelike.bots.climber`) asks two things of it here:

- :func:`landing`: where a step ends (the far end of a slide) and how many turns more it
  takes (a wade), so that "out of a hunter's reach" counts the turns the world moves on;
- :func:`ground_costs`: walking costs weighted by the monsters in sight, from a
  :class:`Footing` of parameters (sand dearer within an idle monster's notice, water as cheap as
  floor there, a toll on the tiles around the kinds it keeps its distance from).

Everything here reads only what a player sees: the tiles, the monsters in sight and the
table's figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from roguelike.bots.tactics import Threat
from roguelike.content import formulas
from roguelike.content.terrain import by_value
from roguelike.core.floor import WALKABLE, Floor

Spot = tuple[int, int]
EXPOSES = np.array([row.exposes for row in by_value()], dtype=np.int32)
COVER = np.array([row.cover > 0 for row in by_value()], dtype=bool)
WADE = np.array([row.wade for row in by_value()], dtype=np.int32)
SLIDES = tuple(row.slides for row in by_value())


@dataclass(frozen=True)
class Near:
    """A monster in sight, as the climber weighs the ground around it."""

    x: int
    y: int
    kind: str
    hunting: bool


@dataclass(frozen=True)
class Footing:
    """How dear the ground is near monsters: the climber's parameters, one table for every terrain and kind."""

    sand_toll: int = 4  # extra cost a tile of exposing ground has within an idle monster's notice, per tile it exposes
    cover_near: bool = True  # cover costs no more than floor within an idle monster's notice (hiding pays the wade)
    margin: int = 1  # tiles beyond an idle monster's notice still counted as within it
    berths: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # kind: (tiles kept off, toll a tile)


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


def ground_costs(
    cost: NDArray[np.int32], tiles: NDArray[np.uint8], monsters: Sequence[Near], footing: Footing, notice: int
) -> None:
    """Weigh ``cost`` in place (closed tiles stay closed) by the monsters in sight: ``notice`` is how near an
    idle monster notices the player now."""
    if not monsters:
        return
    open_tiles = cost > 0
    ys, xs = np.indices(cost.shape)
    for monster in monsters:
        around = np.maximum(abs(xs - monster.x), abs(ys - monster.y))
        if not monster.hunting:
            watched = open_tiles & (around <= notice + footing.margin + EXPOSES[tiles])
            cost[watched] += footing.sand_toll * EXPOSES[tiles][watched]
            if footing.cover_near:
                hidden = watched & COVER[tiles]
                cost[hidden] = np.minimum(cost[hidden], 1)
        berth = footing.berths.get(monster.kind)
        if berth is not None:
            cost[open_tiles & (around <= berth[0])] += berth[1]


def notice_now(state_of_mind: int) -> int:
    """How near an idle monster notices the player now, as far as a player can tell (the table's figure)."""
    return formulas.notice_range(state_of_mind)
