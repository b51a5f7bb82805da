"""The planner: the best play the team can write, seeing only what a player sees.

It judges doses and fights as the careful bot does and plans for the score's biggest part,
the longest High: it carries up to three doses, picks up the ones that will keep it High
later (safe to take at the edge of High, not now), and takes one as the High is about to
lapse with no safe dose near, risking the purer batch (as every dose the bots take from the
floor does; careful's pocket never does); it keeps the last one for the Desperation line. It
explores more of each floor than the careful bot (the explored share is what a floor's
points are kept by), and leaves the doses it cannot take yet behind for the pocket instead
of waiting. It keeps pace with its Tolerance: once Tolerance has outrun the Strength that
depth adds to doses (each dose adds a point of Tolerance, each floor down 3 Strength), it
leaves each floor once it has seen a third of it, for the stronger doses below.

``PlannerBot(carries=False)`` (:class:`PocketlessPlanner`, ``planner-nopocket``) is the same
play with no pocket: it never picks up a dose, so it never carries one; what the planner's
skill is worth without it.
"""

from __future__ import annotations

from components import Tolerance
from roguelike.assist.carried import carried_figures, doses_beside
from roguelike.bots import pocket
from roguelike.bots.careful import CarefulBot, Walks
from roguelike.bots.routes import RouteFinder, Terrain
from roguelike.bots.sense import KnownDose, Mask, most_gain, state_of_mind
from roguelike.content import formulas
from roguelike.core.commands import Command, PickUp, TakeCarried
from roguelike.core.game import Game

EXPLORE_TARGET = 0.75  # the share of a floor the planner sees before it may leave (careful: 0.6)
CARRIED = 3  # doses it carries at most
# It takes a carried dose at or below this, before Withdrawal could end its High streak
# (a Sober turn only pauses a streak).
KEEP_STREAK = formulas.WITHDRAWAL_BELOW + 8
SPARE = 1  # carried doses it never spends on a streak: they are for the Desperation line
# Tolerance more than this above the depth's Strength bonus means the doses here are spent:
# it then leaves a floor once it has seen HURRIED_TARGET of it.
TOLERANCE_AHEAD = 5
HURRIED_TARGET = 0.35
# Without a pocket it takes a last safe dose before the stairs while below this: the High it
# arrives with is all the time it has to find the next floor's first dose.
TOP_UP_BELOW = 75


class PlannerBot(CarefulBot):
    """The careful bot's judgement, a pocket that keeps the High going, most of each floor seen."""

    explore_target = EXPLORE_TARGET
    line = KEEP_STREAK

    def __init__(self, routes: RouteFinder | None = None, carries: bool = True) -> None:
        super().__init__(routes)
        self.carries = carries
        self.keep = CARRIED if carries else 0  # with nothing to carry, nothing is picked up

    def decide(self, game: Game, doses: list[KnownDose]) -> Command:
        """Keep the High going from the pocket, else the careful bot's choice."""
        command = keep_streak(game, doses, self.line) or stock_up(game, self.keep, self.line)
        if command is None:
            return super().decide(game, doses)
        return self.fight(game, command)

    def enough_seen(self, game: Game) -> float:
        """Its explore target, or less where its Tolerance has outrun this depth's doses."""
        return HURRIED_TARGET if tolerance_ahead(game) > TOLERANCE_AHEAD else self.explore_target

    def goals(self, game: Game, terrain: Terrain, doses: list[KnownDose], steps: Walks) -> list[Mask | None]:
        """The careful bot's goals, with the doses worth stocking up on after the safe doses and finds."""
        order = super().goals(game, terrain, doses, steps)
        if len(carried_figures(game)) >= self.keep or state_of_mind(game) < pocket.COMFORT:
            return order
        stock = pocket.beside(game, [dose for dose in doses if stockable(game, dose.kind, dose.floor, self.line)])
        return order[:2] + [stock] + order[2:] if stock.any() else order


class PocketlessPlanner(PlannerBot):
    """The planner with its pocket turned off (a bot of its own, so a twin is made by its type)."""

    def __init__(self, routes: RouteFinder | None = None) -> None:
        super().__init__(routes, carries=False)

    def leaving_goals(
        self, game: Game, finds: Mask, safe: Mask, reachable: list[KnownDose], stairs: Mask
    ) -> list[Mask | None]:
        """Finds, then a last safe dose while below TOP_UP_BELOW, then the stairs: with nothing carried, the
        next floor's search for a dose runs on what it arrives with."""
        top_up = safe if state_of_mind(game) < TOP_UP_BELOW else None
        return [finds, top_up, stairs]


def tolerance_ahead(game: Game) -> int:
    """How far the player's Tolerance runs ahead of the Strength this depth adds to its doses."""
    return game.player_component(Tolerance).value - formulas.dose_strength_bonus(game.state.depth)


def keep_streak(game: Game, doses: list[KnownDose], line: int) -> Command | None:
    """The weakest carried dose whose usual range cannot overdose, as the State of Mind nears
    Withdrawal (at ``line``) with no safe dose near; the last one carried stays for the
    Desperation line.

    Unlike the careful pocket's doses, this one may be a purer batch that kills (up to 1 in 150), as
    any dose taken from the floor may: the longest High is most of a planned game's score and a
    streak's worth grows with its length, so the planner takes that risk for it, as a player
    playing for the score would.
    """
    som = state_of_mind(game)
    near = som - formulas.WITHDRAWAL_BELOW
    if not formulas.WITHDRAWAL_BELOW <= som <= line or pocket.safe_dose_near(game, doses, near):
        return None
    figures = carried_figures(game)
    usable = [index for index, (_, odds) in enumerate(figures) if not formulas.is_overdose(som + odds.high)]
    if len(figures) <= SPARE or not usable:
        return None
    return TakeCarried(min(usable, key=lambda index: (figures[index][1].purest, index)))


def stock_up(game: Game, keep: int, line: int) -> Command | None:
    """Pick up a dose beside it that could overdose it now but not at ``line`` (while it carries fewer than ``keep``)."""
    if len(carried_figures(game)) >= keep:
        return None
    for step, dose in doses_beside(game):
        if stockable(game, dose.kind, dose.floor, line):
            return PickUp(*step)
    return None


def stockable(game: Game, kind: str, floor: int, line: int) -> bool:
    """A dose that could overdose the player now but not at ``line``: worth carrying for later."""
    most = most_gain(kind, floor, game.player_component(Tolerance).value)
    return formulas.is_overdose(state_of_mind(game) + most) and not formulas.is_overdose(line + most)
