"""Monsters follow the mind live: a floor grows fears while the player is low, loses them High.

Every few turns after the player arrives, out of their sight, a floor holding fewer monsters than the
current State of Mind calls for grows one (far from the player), and while High a floor
holding more than the mind allows loses one that is not hunting. Numbers and the rule
come from :func:`roguelike.content.formulas.reinforcement`; draws from the floor's and turn's own
stream (:class:`~roguelike.core.rng.WorldClock`), so the monster a turn grows does not hang on
every draw made before it.
"""

from __future__ import annotations

import esper
import numpy as np

from components import Monster, Player, Position, StateOfMind
from components.monsters import NO_TARGET
from roguelike.content import formulas
from roguelike.core import ecsworld
from roguelike.core.ecs import system
from roguelike.core.floor import GROUND
from roguelike.core.packing import unpack_entity
from roguelike.core.rng import Purpose
from roguelike.core.spawning import choose_kind, make_monster
from roguelike.core.state import Now
from roguelike.core.world import occupied, roster


@system(Player, Position, StateOfMind)
def follow_the_mind(now: Now, entity: int, player: Player, pos: Position, som: StateOfMind) -> None:
    """Grow or fade one monster if the floor's numbers no longer suit the State of Mind."""
    if now.state.turns_here % formulas.REINFORCE_EVERY or now.state.game_over or now.state.monsters_still:
        return  # (wizard mode's still monsters neither come nor go)
    monsters = roster()
    change = formulas.reinforcement(len(monsters), som.value, now.state.depth)
    if change > 0:
        grow(now, (pos.x, pos.y), som.value)
    elif change < 0:
        fade(now, monsters)


def grow(now: Now, at: tuple[int, int], som: int) -> None:
    """A new monster on a plain tile out of sight and far from the player."""
    floor, reach = now.state.floor, formulas.REINFORCE_MIN_DISTANCE
    free = GROUND[floor.tiles] & ~now.view.visible
    free[max(0, at[1] - reach + 1) : at[1] + reach, max(0, at[0] - reach + 1) : at[0] + reach] = False
    for x, y in occupied(blockers_only=False):
        free[y, x] = False
    ys, xs = np.nonzero(free)
    if len(xs):
        rng = now.state.clock().at(Purpose.GROW)  # the same monster on this turn, whatever came before
        index = rng.below(len(xs))
        spot = (int(xs[index]), int(ys[index]))
        kind = choose_kind(rng, now.state.depth, floor.kind)  # a floor grows what lives this deep, and here
        ecsworld.current().create(*unpack_entity(make_monster(kind, spot, formulas.notice_range(som))))


def fade(now: Now, monsters: list[tuple[int, Monster, Position]]) -> None:
    """The newest monster that neither hunts nor is seen fades away."""
    unseen = [m for m in monsters if m[1].target == NO_TARGET and not now.view.visible[m[2].y, m[2].x]]
    if unseen:
        esper.delete_entity(unseen[-1][0], immediate=True)
