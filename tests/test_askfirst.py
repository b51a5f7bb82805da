"""The dose prompt asks only where the usual range can kill; a purer batch's risk is said, not asked.

From floor 3 on nearly every dose carried a purer batch's risk (odds of 1 in 150 or less):
asking before each trained a ``y`` pressed by reflex, which then answered the WILL and
COULD cases too. Those still ask; the purer batch's is said on the line under the messages.
"""

from __future__ import annotations

from tcod.event import KeySym

from bestiary_helpers import arena, set_player
from components import Dose, Record
from helpers import add_dose
from roguelike import settings
from roguelike.content.doses import SMALL_DOSE, Risk, dose_odds
from roguelike.core.commands import Move
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.screens.ingame import InGameScreen
from save_helpers import key

DEEP = 3  # the first floor where purer batches lie


def beside_a_deep_dose(state_of_mind: int) -> tuple[Game, InGameScreen]:
    """The player at ``state_of_mind`` beside a small dose found on floor 3 (a mild one of its kind)."""
    game = arena()
    set_player(game, state_of_mind=state_of_mind)
    add_dose(9, 4, Dose(SMALL_DOSE.key, 20, 0, 0, 0, floor=DEEP))
    return game, InGameScreen(Session(game))


def test_a_dose_only_a_purer_batch_could_make_lethal_is_taken_at_once_and_the_risk_said() -> None:
    assert dose_odds(SMALL_DOSE, DEEP, 45, 0).risk is Risk.PURER
    game, screen = beside_a_deep_dose(45)
    screen.on_event(key(KeySym.RIGHT))
    assert screen.asking is None and game.player_component(Record).doses_used == 1
    said = screen.pilot.shown or ""
    assert "purer batch" in said and "could have overdosed you at 45" in said
    assert said in [note.text for note in screen.pilot.notes]  # kept in the message log


def test_the_usual_range_that_could_kill_still_asks() -> None:
    assert dose_odds(SMALL_DOSE, DEEP, 65, 0).risk is Risk.COULD
    game, screen = beside_a_deep_dose(65)
    screen.on_event(key(KeySym.RIGHT))
    assert screen.asking == Move(1, 0) and game.player_component(Record).doses_used == 0
    assert "it COULD overdose you" in (screen.pilot.shown or "")


def test_a_safe_dose_says_nothing_and_the_setting_off_says_nothing_either() -> None:
    game, screen = beside_a_deep_dose(10)
    screen.on_event(key(KeySym.RIGHT))
    assert game.player_component(Record).doses_used == 1 and screen.pilot.shown is None
    game, screen = beside_a_deep_dose(45)
    settings.preferences().change("confirm_lethal", False)
    try:
        screen.on_event(key(KeySym.RIGHT))
    finally:
        settings.preferences().change("confirm_lethal", True)
    assert game.player_component(Record).doses_used == 1 and screen.pilot.shown is None
