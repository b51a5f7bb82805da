"""The rules of play: walls, doors, sight, doses, stairs, the clock and death."""

from __future__ import annotations

import esper

from components import ActionPoints, Attributes, Dose, Palette, Position, Record, StateOfMind, Tolerance
from helpers import drawn_game, player_xy
from roguelike.content import formulas
from roguelike.core.commands import Move, Wait
from roguelike.core.floor import Tile
from roguelike.core.game import Game


def test_walls_block_and_cost_no_time() -> None:
    game = drawn_game(["###", "#@#", "###"])
    game.apply(Move(1, 0))
    assert player_xy(game) == (1, 1)
    assert game.state.turn == 0


def test_bumping_a_closed_door_opens_it_and_then_walks_through() -> None:
    game = drawn_game(["@+."])
    game.apply(Move(1, 0))
    assert game.state.floor.tile(1, 0) == Tile.DOOR_OPEN
    assert player_xy(game) == (0, 0)
    game.apply(Move(1, 0))
    assert player_xy(game) == (1, 0)


def test_closed_doors_block_sight_and_open_ones_do_not() -> None:
    game = drawn_game(["@+....", "######"])
    assert not game.view.visible[0, 3]
    game.apply(Move(1, 0))
    assert game.view.visible[0, 3]


def test_seen_tiles_stay_explored_when_out_of_sight() -> None:
    game = drawn_game(["@.+......"])
    game.apply(Move(1, 0))  # step next to the door
    game.apply(Move(1, 0))  # open it: the corridor beyond comes into view
    assert game.state.floor.explored[0, 8]
    game.state.floor.tiles[0, 2] = Tile.DOOR_CLOSED
    game.apply(Wait())
    assert not game.view.visible[0, 8]
    assert game.state.floor.explored[0, 8]


def test_state_of_mind_drains_one_per_turn_and_exhaustion_kills() -> None:
    game = drawn_game(["@."])
    game.player_component(StateOfMind).value = 2
    game.apply(Wait())
    assert (game.player_component(StateOfMind).value, game.state.turn) == (1, 1)
    assert not game.state.game_over
    game.apply(Wait())
    assert game.state.cause_of_death == "exhaustion"
    assert game.state.turn == 2


def test_a_dose_above_one_hundred_is_an_overdose() -> None:
    game = drawn_game(["@i"])
    game.player_component(StateOfMind).value = 90
    game.apply(Move(1, 0))
    assert game.state.cause_of_death == "overdose"
    assert game.player_component(Record).doses_used == 1


def test_bumping_a_dose_uses_it_and_tolerance_rises() -> None:
    game = drawn_game(["@i."])
    game.player_component(StateOfMind).value = 40
    game.apply(Move(1, 0))
    assert game.player_component(Tolerance).value == 1
    assert game.player_component(StateOfMind).value == 40 + 30 - 0 - 1
    assert player_xy(game) == (0, 0)


def test_will_ten_gives_two_actions_per_turn() -> None:
    game = drawn_game(["@...."])
    game.player_component(Attributes).will = 10
    game.player_component(ActionPoints).remaining = 2
    game.player_component(StateOfMind).value = 50
    game.apply(Move(1, 0))
    assert game.state.turn == 0
    game.apply(Move(1, 0))
    assert (game.state.turn, player_xy(game)) == (1, (2, 0))
    assert game.player_component(StateOfMind).value == 49


def test_colours_shift_with_state_of_mind() -> None:
    game = drawn_game(["@.i"])
    game.player_component(StateOfMind).value = 12
    game.apply(Wait())
    grey = game.player_component(Palette).saturation
    game.player_component(StateOfMind).value = 90
    game.apply(Wait())
    palette = game.player_component(Palette)
    assert grey < palette.saturation and palette.psychedelic


def test_new_game_starts_at_twenty_with_one_dose_in_sight() -> None:
    game = Game.new(7, "Start")
    assert game.player_component(StateOfMind).value == formulas.STATE_OF_MIND_START
    doses = [(p.x, p.y) for _, (p, _) in esper.get_components(Position, Dose)]
    assert sum(game.view.visible[y, x] for x, y in doses) == 1


def test_from_floor_sixteen_a_dose_adds_more_tolerance() -> None:
    # Rules epoch 16: the deep extra, so Tolerance outruns the doses' Strength (which stops at floor 20).
    for depth in (formulas.TOLERANCE_DEEP_FROM_FLOOR - 1, formulas.TOLERANCE_DEEP_FROM_FLOOR):
        game = drawn_game(["@i."])
        state = game.state
        floor = state.floors.pop(state.depth)
        floor.depth = state.depth = depth
        state.floors[depth] = floor
        game.player_component(StateOfMind).value = 40
        game.apply(Move(1, 0))
        added = 2 if depth >= formulas.TOLERANCE_DEEP_FROM_FLOOR else 1
        assert game.player_component(Tolerance).value == added
        assert f"Tolerance {added}." in state.messages[-1].text  # what the log tells the player
