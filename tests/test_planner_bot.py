"""The planner bot keeps its High going from the pocket: it takes a carried dose before
Withdrawal would end its streak (risking a purer batch, keeping its last dose), and picks up the doses it could take then;
it leaves floors sooner once its Tolerance outruns the doses; without a pocket it takes a last safe dose before the
stairs (roguelike/bots/planner.py)."""

from __future__ import annotations

from bestiary_helpers import set_player
from components import Carried, Dose, Tolerance
from helpers import drawn_game
from roguelike.bots.planner import (
    HURRIED_TARGET,
    KEEP_STREAK,
    TOLERANCE_AHEAD,
    TOP_UP_BELOW,
    PlannerBot,
    PocketlessPlanner,
)
from roguelike.content import formulas
from roguelike.content.doses import LARGE_DOSE, SMALL_DOSE, dose_odds
from roguelike.core.carrying import put_in
from roguelike.core.commands import Move, TakeCarried


def risky_tolerance() -> int:
    """The lowest Tolerance at which a large dose's usual range cannot overdose at the streak
    line (though its purer batch could)."""
    for tolerance in range(60):
        odds = dose_odds(LARGE_DOSE, formulas.PURE_BATCH_FROM_FLOOR, KEEP_STREAK, tolerance)
        if not formulas.is_overdose(KEEP_STREAK + odds.high) and formulas.is_overdose(KEEP_STREAK + odds.purest):
            return tolerance
    raise AssertionError("no such Tolerance for a large dose")


def test_the_planner_takes_a_carried_dose_as_its_high_streak_nears_withdrawal() -> None:
    game = drawn_game(["@......"])
    lowest = risky_tolerance()
    assert lowest > 0
    game.player_component(Tolerance).value = lowest
    for _ in range(2):
        put_in(game.player_component(Carried), Dose(LARGE_DOSE.key, 30, 0, 0, 0, floor=formulas.PURE_BATCH_FROM_FLOOR))
    set_player(game, state_of_mind=KEEP_STREAK + 1)
    game.refresh_visible()
    assert not isinstance(PlannerBot().choose(game), TakeCarried)  # not yet
    set_player(game, state_of_mind=KEEP_STREAK)
    assert PlannerBot().choose(game) == TakeCarried(0)  # only a purer batch could kill: it takes the risk
    game.player_component(Tolerance).value = lowest - 1  # now its usual range could: it keeps the doses
    assert not isinstance(PlannerBot().choose(game), TakeCarried)


def test_the_planner_keeps_its_last_carried_dose_for_the_desperation_line() -> None:
    game = drawn_game(["@......"])
    game.player_component(Tolerance).value = 20  # even a purer batch could not overdose at the line
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=KEEP_STREAK)
    game.refresh_visible()
    assert not isinstance(PlannerBot().choose(game), TakeCarried)


def test_the_planner_leaves_its_pocket_alone_in_withdrawal_for_the_insurance_rule() -> None:
    game = drawn_game(["@......"])
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=formulas.WITHDRAWAL_BELOW - 5)  # the streak is gone: nothing to keep
    game.refresh_visible()
    assert not isinstance(PlannerBot().choose(game), TakeCarried)


# A floor seen at 57% from where the player stands: the stairs down west, an unseen room east.
HALF_SEEN = [
    "###################",
    "#>........#.......#",
    "#....@....+.......#",
    "#.........#.......#",
    "###################",
]


def test_the_planner_leaves_a_floor_half_seen_once_its_tolerance_outruns_the_doses_here() -> None:
    game = drawn_game(HALF_SEEN)
    set_player(game, state_of_mind=70)
    game.refresh_visible()
    bot = PlannerBot()
    terrain = bot.routes.terrain(game.state.floor)
    assert HURRIED_TARGET <= bot.routes.seen(terrain, game.state.floor.explored).fraction < bot.explore_target
    assert bot.choose(game) == Move(1, 0)  # doses here still give enough: it explores east
    game.player_component(Tolerance).value = formulas.dose_strength_bonus(1) + TOLERANCE_AHEAD + 1
    assert bot.choose(game) == Move(-1, -1)  # they give too little now: it heads for the stairs


# A floor seen whole: the stairs down west, a small dose east.
DONE_WITH = [
    "#############",
    "#>....@....i#",
    "#############",
]


def test_the_pocketless_planner_takes_a_last_safe_dose_before_the_stairs() -> None:
    game = drawn_game(DONE_WITH, dose=Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    game.player_component(Tolerance).value = 20  # the small dose is safe even just below the top-up line
    set_player(game, state_of_mind=TOP_UP_BELOW - 1)
    game.refresh_visible()
    assert PocketlessPlanner().choose(game) == Move(1, 0)  # the dose first: the next floor's search runs on it
    assert PlannerBot().choose(game) == Move(-1, 0)  # the pocket's planner goes down: it carries its High
    set_player(game, state_of_mind=TOP_UP_BELOW)
    assert PocketlessPlanner().choose(game) == Move(-1, 0)  # high enough: down
