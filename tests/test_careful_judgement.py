"""The careful bot's judgement of a dose it could take: a vision it reaches too late, a Will a dose may weaken,
and a bump that keeps it where it stands."""

from __future__ import annotations

import esper

from bestiary_helpers import add_monster, arena
from components import ActionPoints, Attributes, Dose, StateOfMind, Vision
from helpers import add_dose, drawn_game, player_xy
from roguelike.bots import tactics
from roguelike.bots.careful import CarefulBot
from roguelike.bots.sense import known_doses
from roguelike.content import formulas
from roguelike.content.doses import NORMAL_DOSE, SMALL_DOSE
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game


def vision_game(row: str, state_of_mind: int) -> Game:
    """A drawn row, seen whole, whose one dose is a small vision."""
    game = drawn_game([row.replace("v", ".")])
    game.state.floor.explored[:] = True
    x = row.index("v")
    game.activate()
    esper.add_component(add_dose(x, 0, Dose(SMALL_DOSE.key, 30, 0, 0, 0)), Vision())
    game.player_component(StateOfMind).value = state_of_mind
    return game


def test_the_careful_bot_walks_to_a_vision_only_if_it_will_still_be_high_there() -> None:
    # Ten steps away the High is over on arrival and the vision with it; beside it the bot still sees it.
    som = formulas.STATE_OF_MIND_MAX - SMALL_DOSE.strength[1]  # High, and the strongest small dose is safe
    assert formulas.is_high(som)
    far = vision_game("@.........v", som)
    assert [dose.vision for dose in known_doses(far)] == [True]
    assert isinstance(CarefulBot().plan(far, known_doses(far)), Wait)
    near = vision_game("@v.........", som)
    near.apply(CarefulBot().choose(near))
    assert near.player_component(StateOfMind).value > som


def test_the_careful_bot_leaves_a_dose_whose_will_loss_would_put_another_in_the_pull() -> None:
    # At Will 3 nothing pulls; a dose can cost a point of Will, and at Will 2 the dose two tiles
    # further, unsafe after the first, would draw in a player standing beside the first.
    close = drawn_game(["@i.i......"], dose=Dose(NORMAL_DOSE.key, 40, 0, 0, -1))
    close.state.floor.explored[:] = True
    close.player_component(Attributes).will = 3
    close.player_component(StateOfMind).value = 40
    assert isinstance(CarefulBot().plan(close, known_doses(close)), Wait)
    apart = drawn_game(["@i.....i.."], dose=Dose(NORMAL_DOSE.key, 40, 0, 0, -1))
    apart.state.floor.explored[:] = True
    apart.player_component(Attributes).will = 3
    apart.player_component(StateOfMind).value = 40
    apart.apply(CarefulBot().choose(apart))
    assert apart.player_component(StateOfMind).value > 40


def test_taking_a_dose_does_not_count_as_a_step_out_of_a_depressions_reach() -> None:
    # The dose lies on the side away from the Depression, but taking it is a bump: the player
    # would stay two steps from the Depression, which steps up and strikes.
    game = arena()
    game.activate()
    add_dose(7, 4, Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    add_monster(game, "depression", 10, 4, hunting=True)
    command = tactics.adjust(game, Move(-1, 0), wary=True)
    assert isinstance(command, Move) and command != Move(-1, 0)
    x, y = player_xy(game)
    assert max(abs(x + command.dx - 10), abs(y + command.dy - 4)) > 2


def test_opening_a_door_does_not_count_as_a_step_out_of_a_depressions_reach() -> None:
    rows = ["#########", "#.......#", "#.+@....#", "#.......#", "#########"]
    game = arena(rows)
    add_monster(game, "depression", 5, 2, hunting=True)
    command = tactics.adjust(game, Move(-1, 0), wary=True)
    assert isinstance(command, Move) and command != Move(-1, 0)
    assert max(abs(3 + command.dx - 5), abs(2 + command.dy - 2)) > 2


def test_cornered_with_two_actions_left_the_bot_steps_up_to_a_depression_and_strikes_first() -> None:
    # A corridor, a Depression two steps off: no step gets out of its reach. With a second action
    # this turn the bot steps beside it and strikes before it moves; with one, it does not step in.
    rows = ["#######", "#@....#", "#######"]
    game = arena(rows)
    depression = add_monster(game, "depression", 3, 1, hunting=True)
    game.player_component(ActionPoints).remaining = 1
    assert tactics.adjust(game, Wait(), wary=True) == Wait()
    game.player_component(ActionPoints).remaining = 2
    assert tactics.adjust(game, Wait(), wary=True) == Move(1, 0)
    game.apply(Move(1, 0))
    game.apply(tactics.adjust(game, Wait(), wary=True))
    game.activate()
    assert not esper.entity_exists(depression) and game.state.cause_of_death is None


def test_the_standard_bot_keeps_its_old_judgement_so_its_recorded_games_stay_the_same() -> None:
    # Only a wary bot knows a bump for no step: the standard bot, which benches and old figures
    # rely on, still takes the dose as it always did.
    game = arena()
    game.activate()
    add_dose(7, 4, Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    add_monster(game, "depression", 10, 4, hunting=True)
    assert tactics.adjust(game, Move(-1, 0)) == Move(-1, 0)
