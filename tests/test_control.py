"""Losing control: Desperation lunges for doses; a weak Will cannot resist one nearby."""

from __future__ import annotations

from components import Attributes, Record, StateOfMind
from helpers import drawn_game, player_xy
from roguelike.content.conditions import DESPERATE, WEAK_WILL
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game

ROOM = [
    "##########",
    "#@.......#",
    "#........#",
    "#.......i#",
    "##########",
]


def test_desperate_player_is_steered_to_the_dose_and_takes_it() -> None:
    game = drawn_game(ROOM)
    game.player_component(StateOfMind).value = 14  # Desperate at Will 5 (threshold 15)
    game.refresh_visible()  # changed by hand: derive who steers again
    assert game.control_reason() == DESPERATE.reason
    for _ in range(12):
        game.apply(Move(-1, 0))  # the player pushes away; the craving decides
        if game.player_component(Record).doses_used:
            break
    assert game.player_component(Record).doses_used == 1
    assert game.player_component(StateOfMind).value > 14


def test_desperate_player_searches_when_no_dose_is_known() -> None:
    game = drawn_game(["@.....+....i"])
    assert not game.state.floor.explored[0, 11]
    game.player_component(StateOfMind).value = 10
    game.apply(Wait())
    assert player_xy(game) == (1, 0)


def test_in_control_above_the_threshold() -> None:
    game = drawn_game(ROOM)
    game.player_component(StateOfMind).value = 16
    assert game.control_reason() is None
    game.apply(Move(1, 0))
    assert player_xy(game) == (2, 1)


def test_will_one_cannot_resist_a_dose_two_tiles_away() -> None:
    game = drawn_game(["@.i."])
    game.player_component(Attributes).will = 1
    game.player_component(StateOfMind).value = 40
    game.apply(Move(-1, 0))
    assert player_xy(game) == (1, 0)
    assert game.control_reason() == WEAK_WILL.reason
    game.apply(Wait())
    assert game.player_component(Record).doses_used == 1


def test_will_two_resists_two_tiles_but_not_one() -> None:
    game = drawn_game(["@.i"])
    game.player_component(Attributes).will = 2
    game.player_component(StateOfMind).value = 40
    game.apply(Wait())
    assert player_xy(game) == (0, 0)
    game.apply(Move(1, 0))
    game.apply(Wait())  # adjacent now: pulled in
    assert game.player_component(Record).doses_used == 1


def test_new_game_ai_takes_the_start_dose_once_desperate() -> None:
    game = Game.new(11, "Start")
    for _ in range(40):
        game.apply(Wait())
    assert game.player_component(Record).doses_used >= 1


def test_control_returns_once_the_dose_is_taken() -> None:
    game = drawn_game(["@i...."])
    game.player_component(StateOfMind).value = 14
    game.apply(Wait())  # Desperate: lunges for the adjacent dose
    assert game.player_component(StateOfMind).value > 15
    assert game.control_reason() is None
