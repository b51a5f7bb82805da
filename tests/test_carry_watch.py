"""The balance report's watch counts carried doses: taken, taken low, and a game one saved
(roguelike/bots/watch.py; docs/balance.md, "Carried doses")."""

from __future__ import annotations

from bestiary_helpers import add_monster, arena, set_player
from components import Carried, Dose
from helpers import drawn_game, player_xy
from roguelike.bots.watch import SAVED_AT, SAVED_FOR, Watch
from roguelike.content.doses import SMALL_DOSE
from roguelike.core.carrying import carried_doses, put_in
from roguelike.core.commands import TakeCarried, Wait
from roguelike.core.game import Game


def carried(game: Game) -> list[Dose]:
    return carried_doses(game.player_component(Carried))


def test_the_watch_counts_a_carried_dose_taken_low_that_saved_the_game() -> None:
    game = drawn_game(["@.."])
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=SAVED_AT, will=1)  # low, one above the Desperation line at Will 1
    game.refresh_visible()
    watch = Watch()
    watch.before(game)
    game.apply(TakeCarried(0))
    watch.after(game)
    assert watch.carried_taken == 1 and watch.low_takes == [1]
    assert watch.saved(1 + SAVED_FOR, alive=False) and not watch.saved(SAVED_FOR, alive=False)
    assert watch.saved(2, alive=True)  # still alive at the turn limit


def test_a_dropped_dose_is_not_counted_as_taken() -> None:
    game = arena()
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    x, y = player_xy(game)
    add_monster(game, "anxiety", x + 1, y, hunting=True)
    watch = Watch()
    watch.before(game)
    game.apply(Wait())
    watch.after(game)
    assert carried(game) == [] and watch.carried_taken == 0
