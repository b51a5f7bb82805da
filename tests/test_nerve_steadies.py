"""Nerve's way back from a panic spiral: out of every monster's sight it steadies, a point every 12th turn, up to 3 (one above the panic line)."""

from __future__ import annotations

import esper

from bestiary_helpers import add_monster, arena, messages, set_player
from components import Attributes, TakenOver
from roguelike.content import formulas
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game
from systems.nerve import STEADIES

# A room for the player and a corridor round a corner, out of its sight.
HIDING = [
    "###########",
    "#.........#",
    "#....@....#",
    "#.........#",
    "#########.#",
    "#.........#",
    "###########",
]


def wait_until_turn(game: Game, turn: int) -> None:
    """Wait (keeping every State of Mind well inside the bounds) until the clock reads ``turn``."""
    while game.state.turn < turn:
        set_player(game, state_of_mind=60)
        game.apply(Wait())


def nerve(game: Game) -> int:
    """The player's Nerve now."""
    return game.player_component(Attributes).nerve


def test_out_of_sight_nerve_steadies_every_twelfth_turn_up_to_one_above_the_panic_line() -> None:
    game = arena(HIDING)
    set_player(game, nerve=1)
    steady = formulas.NERVE_STEADY_TURNS
    wait_until_turn(game, steady - 1)
    assert nerve(game) == 1  # not before the steadying turn
    wait_until_turn(game, steady)
    assert nerve(game) == 2
    assert messages(game)[-1] == STEADIES.format(nerve=2)
    wait_until_turn(game, 6 * steady)
    assert nerve(game) == formulas.NERVE_STEADY_UP_TO == formulas.NERVE_PANIC_AT + 1  # and no higher


def test_a_monster_in_sight_on_the_steadying_turn_keeps_the_nerve_where_it_is() -> None:
    game = arena(HIDING)
    set_player(game, nerve=formulas.NERVE_PANIC_AT)
    wait_until_turn(game, formulas.NERVE_STEADY_TURNS - 1)
    add_monster(game, "voices", 9, 1)  # in sight, across the room, as the steadying turn ends
    wait_until_turn(game, formulas.NERVE_STEADY_TURNS)
    assert nerve(game) == formulas.NERVE_PANIC_AT
    assert STEADIES.format(nerve=formulas.NERVE_PANIC_AT + 1) not in messages(game)


def test_a_panicked_player_who_breaks_the_line_of_sight_and_waits_gets_the_controls_back() -> None:
    game = arena(HIDING)
    set_player(game, nerve=formulas.NERVE_PANIC_AT)
    shadows = add_monster(game, "shadows", 1, 1)
    game.apply(Move(1, 0))
    assert game.player_component_or_none(TakenOver) is not None  # the sight of it: the nerve breaks, flight
    game.activate()
    esper.delete_entity(shadows, immediate=True)  # it is gone from sight (left behind the corner)
    game.refresh_visible()
    wait_until_turn(game, formulas.NERVE_STEADY_TURNS * ((game.state.turn // formulas.NERVE_STEADY_TURNS) + 1))
    assert nerve(game) == formulas.NERVE_PANIC_AT + 1
    add_monster(game, "shadows", 1, 1)
    game.apply(Wait())
    assert game.player_component_or_none(TakenOver) is None  # seen again, no panic: the player steers
