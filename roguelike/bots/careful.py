"""The careful bot: the best play the team can write, seeing only what a player sees.

It takes a dose only when the strongest usual draw of its kind cannot overdose it (a
purer batch, at most 1 in 150, still could: the risk any player takes who takes a dose), nearest
first; while High it takes a find in sight, or a vision (a dose only the High can see), that
it can reach before the High wears off; it never walks into the pull of a dose it does not
want, nor takes one whose Will loss could leave such a dose in the pull's reach; it explores
most of a floor, keeps the doses it cannot take yet for later, carries one as insurance
(:mod:`roguelike.bots.pocket`), and goes down when the floor has nothing left to give.
Its fighting sense is :mod:`roguelike.bots.tactics`, with the memory of :mod:`roguelike.bots.lookout`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from components import Attributes, Position
from roguelike.assist.pullzone import pull_zone
from roguelike.bots import pocket, tactics
from roguelike.bots.lookout import Lookout
from roguelike.bots.routes import UNREACHABLE, RouteFinder, Routes, Terrain
from roguelike.bots.sense import KnownDose, Mask, finds_in_sight, is_safe, known_doses, mask_of, state_of_mind
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.floor import Floor
from roguelike.core.game import Game

EXPLORE_TARGET = 0.6  # the share of a floor the careful bot sees before it may leave
NO_STEP = (0, 0)
APPROACH = 3  # waits this many steps from a dose it keeps: beyond the pull of the weakest Will
HEAD_START = 25  # sets off for a dose it would reach no more than this many turns after it is safe
LEAVE_ABOVE = 50  # with the floor seen and the stairs known, goes down while this high
LEAVE_RESERVE = 35  # State of Mind it wants left on reaching the stairs, to search the next floor
FAR_SIDE = 20  # tiles from the arrival point where the stairs down are sought first


class CarefulBot:
    """Safe doses first, then exploring, then waiting out the doses it keeps, then down."""

    explore_target = EXPLORE_TARGET
    keeps_doses = False  # waits on a fully explored floor for doses it cannot take yet
    see_doses = staticmethod(known_doses)  # how it learns what a dose could give
    carries = True  # carries a dose as insurance (the pocket)
    keep = pocket.INSURANCE  # how many it carries at most

    def __init__(self, routes: RouteFinder | None = None) -> None:
        self.routes = routes or Routes()
        self.lookout = Lookout()  # the killers it saw a moment ago, now hidden

    def choose(self, game: Game) -> Command:
        """The next command, from the doses it knows of this turn."""
        return self.decide(game, self.see_doses(game))

    def decide(self, game: Game, doses: list[KnownDose]) -> Command:
        """The pocket's command or the plan, unless monsters call for a fight or caution."""
        carried = pocket.pocket_command(game, doses, self.keep) if self.carries else None
        return self.fight(game, carried or self.plan(game, doses))

    def fight(self, game: Game, planned: Command) -> Command:
        """The planned command, changed by the monsters in sight and the killers just hidden."""
        return tactics.adjust(game, planned, wary=True, remembered=self.lookout.out_of_sight(game))

    def plan(self, game: Game, doses: list[KnownDose]) -> Command:
        """Where the bot wants to go, monsters aside."""
        pos = game.player_component(Position)
        here = (pos.x, pos.y)
        terrain = self.routes.terrain(game.state.floor)
        steps = Walks(self.routes, terrain, here)
        for goals in self.goals(game, terrain, doses, steps):
            if goals is None:
                return Wait()
            step = self.routes.step(self.cost(game, terrain, doses, goals), goals, here)
            if step is not None and step != NO_STEP:
                return Move(*step)
        return Wait()

    def goals(self, game: Game, terrain: Terrain, doses: list[KnownDose], steps: Walks) -> list[Mask | None]:
        """Places worth going to, most wanted first; None means stay and wait."""
        floor = game.state.floor
        shape = floor.tiles.shape
        seen = self.routes.seen(terrain, floor.explored)
        unexplored, stairs = seen.unexplored, seen.stairs_down
        reachable = [dose for dose in doses if steps.to(dose.x, dose.y) < UNREACHABLE]
        explored = seen.fraction >= self.enough_seen(game)
        som, speed = state_of_mind(game), formulas.action_points(game.player_component(Attributes).will)
        finds = self.finds_in_reach(game, steps, som, speed)
        safe = [
            dose
            for dose in reachable
            if self.safe_on_arrival(dose, steps, som, speed) and not pulls_after(game, dose, doses, som + dose.most)
        ]
        if explored and seen.any_stairs_down and som >= LEAVE_ABOVE:
            leaving = self.leaving_goals(game, finds, mask_of(shape, safe), reachable, stairs)
            return [goals for goals in leaving if goals is not None and seen.any(goals)]
        order: list[Mask | None] = [mask_of(shape, safe), finds]
        if not reachable and self.time_to_leave(game, stairs, steps):
            order.append(stairs)
        if not seen.any_stairs_down:
            order.append(far_side(floor, unexplored))
        if not explored or not seen.any_stairs_down:
            order.append(unexplored)
        if self.keeps_doses and reachable:
            far = [dose for dose in reachable if steps.to(dose.x, dose.y) > APPROACH]
            order.append(mask_of(shape, far) if len(far) == len(reachable) else None)
        order += [stairs, unexplored]
        return [goals for goals in order if goals is None or seen.any(goals)]

    def leaving_goals(
        self, game: Game, finds: Mask, safe: Mask, reachable: list[KnownDose], stairs: Mask
    ) -> list[Mask | None]:
        """Where it goes on a floor it is done with: finds, a dose to carry down, the stairs."""
        # Deeper doses are stronger: no lingering for weaker ones, but one to carry down.
        fetch = self.carries and pocket.wants_insurance(game, self.keep)
        insurance = pocket.beside_insurance(game, reachable) if fetch else None
        return [finds, insurance, stairs]

    def finds_in_reach(self, game: Game, steps: Walks, som: int, speed: int) -> Mask:
        """The finds in sight it can walk to while still High (a find is taken only by the High)."""
        mask = np.zeros(game.state.floor.tiles.shape, dtype=bool)
        for x, y in finds_in_sight(game):
            turns = steps.to(x, y) // speed
            if turns < UNREACHABLE and formulas.is_high(som - turns * formulas.STATE_OF_MIND_DECAY):
                mask[y, x] = True
        return mask

    def enough_seen(self, game: Game) -> float:
        """The share of this floor it sees before it may leave."""
        return self.explore_target

    def time_to_leave(self, game: Game, stairs: Mask, steps: Walks) -> bool:
        """With no dose in view, whether the State of Mind left only just covers the way down and a search."""
        if not stairs.any():
            return False
        turns = steps.nearest(stairs) // formulas.action_points(game.player_component(Attributes).will)
        return state_of_mind(game) - turns <= LEAVE_RESERVE

    def safe_on_arrival(self, dose: KnownDose, steps: Walks, som: int, speed: int) -> bool:
        """The strongest usual dose of its kind would not overdose the player (State of Mind ``som`` now, ``speed``
        actions a turn) on arrival, and it is worth going now."""
        # The dose is taken by the bump of the last step, before that turn's decay.
        turns = (steps.to(dose.x, dose.y) - 1) // speed
        arrival = som - turns * formulas.STATE_OF_MIND_DECAY
        if dose.vision and not formulas.is_high(arrival):
            return False  # a vision is gone once the High is
        # Not a long walk back for a dose it could not take yet: only one it reaches about
        # when it becomes safe, or any once it is safe already.
        return is_safe(dose, arrival) and (not is_safe(dose, arrival + HEAD_START) or is_safe(dose, som))

    def cost(self, game: Game, terrain: Terrain, doses: list[KnownDose], goals: Mask) -> NDArray[np.int32]:
        """Walking costs that keep clear of unwanted doses, their pull, and stairs not aimed for."""
        cost = terrain.costs()
        unwanted = [dose for dose in doses if not goals[dose.y, dose.x]]
        avoid = terrain.stairs | mask_of(cost.shape, doses) | pull_zone(game, ((dose.x, dose.y) for dose in unwanted))
        cost[avoid & ~goals] = 0
        pos = game.player_component(Position)
        cost[pos.y, pos.x] = 1  # its own tile stays walkable, or no path leads off it
        return cost


def pulls_after(game: Game, dose: KnownDose, doses: list[KnownDose], after: int) -> bool:
    """Whether taking ``dose`` could weaken Will enough for another dose near it, unsafe at ``after``, to pull."""
    weakest = formulas.clamp_attribute(game.player_component(Attributes).will + DOSE_KINDS[dose.kind].will[0])
    reach = formulas.irresistible_range(weakest)
    if reach == 0:
        return False
    # The dose is taken by a bump from any tile beside it: one step beyond the pull's reach.
    return any(
        other is not dose
        and max(abs(other.x - dose.x), abs(other.y - dose.y)) <= reach + 1
        and not is_safe(other, after)
        for other in doses
    )


@dataclass(frozen=True)
class Walks:
    """Steps from the player to the tiles the careful bot asks about, each counted when asked."""

    routes: RouteFinder
    terrain: Terrain
    start: tuple[int, int]

    def to(self, x: int, y: int) -> int:
        """Steps to ``(x, y)`` (diagonals count one; UNREACHABLE if no way)."""
        return self.routes.steps(self.terrain, self.start, (x, y))

    def nearest(self, goals: Mask) -> int:
        """Steps to the nearest of ``goals`` (at least one)."""
        ys, xs = np.nonzero(goals)
        return min(self.to(int(x), int(y)) for x, y in zip(xs, ys))


def far_side(floor: Floor, unexplored: Mask) -> Mask:
    """The unexplored tiles far from where the player arrived: the stairs down lie that way."""
    result: Mask = unexplored & far_from(unexplored.shape, floor.arrival)
    return result


@functools.lru_cache(maxsize=16)
def far_from(shape: tuple[int, ...], arrival: tuple[int, int]) -> Mask:
    """The tiles at least FAR_SIDE from ``arrival`` (read-only: it is shared)."""
    ys, xs = np.indices(shape)
    ax, ay = arrival
    far: Mask = np.maximum(abs(xs - ax), abs(ys - ay)) >= FAR_SIDE
    far.flags.writeable = False
    return far
