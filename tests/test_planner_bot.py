"""The planner bot keeps its High going from the pocket: it takes a carried dose before
Withdrawal would end its streak, and picks up the doses it could take then (roguelike/bots/planner.py)."""

from __future__ import annotations

from bestiary_helpers import set_player
from components import Carried, Dose, Tolerance
from helpers import drawn_game
from roguelike.bots.planner import KEEP_STREAK, PlannerBot
from roguelike.content import formulas
from roguelike.content.doses import SMALL_DOSE
from roguelike.core.carrying import put_in
from roguelike.core.commands import TakeCarried


def test_the_planner_takes_a_carried_dose_as_its_high_streak_nears_withdrawal() -> None:
    game = drawn_game(["@......"])
    game.player_component(Tolerance).value = 20  # even its purer batch could not overdose at the line
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=KEEP_STREAK + 1)
    game.refresh_visible()
    assert not isinstance(PlannerBot().choose(game), TakeCarried)  # not yet
    set_player(game, state_of_mind=KEEP_STREAK)
    assert PlannerBot().choose(game) == TakeCarried(0)
    game.player_component(Tolerance).value = 0  # now a purer batch could kill: it keeps the dose
    assert not isinstance(PlannerBot().choose(game), TakeCarried)


def test_the_planner_leaves_its_pocket_alone_in_withdrawal_for_the_insurance_rule() -> None:
    game = drawn_game(["@......"])
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=formulas.WITHDRAWAL_BELOW - 5)  # the streak is gone: nothing to keep
    game.refresh_visible()
    assert not isinstance(PlannerBot().choose(game), TakeCarried)
