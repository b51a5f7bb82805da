"""The climber: steps that count slides and wades, strikes while doubting, no dose faced while ashamed, no pocket."""

from __future__ import annotations

import esper
import pytest

from bestiary_helpers import add_monster, arena, set_player
from components.monsters import Ashamed, Doubting
from roguelike.assist.carried import carried_figures
from roguelike.bots.climber import ClimberBot
from roguelike.bots.footing import landing
from roguelike.bots.registry import make_bot
from roguelike.core.commands import Move, PickUp
from roguelike.core.game import Game

# Two ways from the player to the stairs: open sand below, shallow water above.
# Deep water between them (seen over, never crossed), and a rock of floor in it for a monster.
FORK = [
    "###########",
    "#%%%%.%%%%#",
    "#%%%%%%%%%#",
    "#%%%%%%%%%#",
    '##"""""""##',
    "#@%%%%%%%>#",
    "##,,,,,,,##",
    "###########",
]


def forked(monster: bool) -> Game:
    """The fork, all of it seen, the player High enough to head for the stairs; an idle Hunger on the rock."""
    game = arena(FORK)
    set_player(game, state_of_mind=70)
    game.state.floor.explored[:] = True
    if monster:
        add_monster(game, "hunger", 5, 1)
    return game


@pytest.mark.parametrize("monster", [False, True])
def test_the_climber_takes_the_dry_way_whoever_watches(monster: bool) -> None:
    # Onto the sand: no wade. Wading into cover near an idle monster cost more than it saved (epoch 15).
    assert ClimberBot().choose(forked(monster)) == Move(1, 1)


ICE = [
    "##########",
    "#@_____..#",
    "#........#",
    "##########",
]


def test_the_climber_does_not_step_onto_ice_that_slides_it_beside_a_depression() -> None:
    game = arena(ICE)
    add_monster(game, "depression", 8, 1, hunting=True)
    assert landing(game.state.floor, (1, 1), (1, 0), game.taken_tiles()) == ((7, 1), 0)
    command = ClimberBot().fight(game, Move(1, 0))
    assert command != Move(1, 0)


def test_the_climber_does_not_wade_where_a_hunter_catches_it_in_the_extra_turn() -> None:
    # One step into water is out of a Depression's reach for one turn, not for the two it takes.
    rows = ["#########", '#@"""...#', "#########"]
    game = arena(rows)
    add_monster(game, "depression", 5, 1, hunting=True)
    assert ClimberBot().fight(game, Move(1, 0)) != Move(1, 0)


def test_doubting_the_climber_strikes_rather_than_steps_away() -> None:
    game = arena()
    add_monster(game, "voices", 9, 4, hunting=True)
    add_monster(game, "depression", 10, 4, hunting=True)
    give(game, Doubting(4))
    assert ClimberBot().choose(game) == Move(1, 0)


def test_ashamed_the_climber_does_not_head_for_a_dose_it_would_reach_before_the_shame_lifts() -> None:
    rows = ["#########", "#@.i....#", "#########"]
    bot = ClimberBot()
    game = arena(rows)
    set_player(game, state_of_mind=30)
    game.state.floor.explored[:] = True
    assert bot.choose(game) == Move(1, 0)  # the dose, two steps off, is safe: it goes for it
    give(game, Ashamed(5))
    assert bot.choose(game) != Move(1, 0)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_climber_never_picks_up_a_dose(seed: int) -> None:
    game, bot = Game.new(seed, "Bot"), make_bot("climber")
    while not game.state.game_over and game.state.turn < 250:
        command = bot.choose(game)
        assert not isinstance(command, PickUp)
        game.apply(command)
        assert not carried_figures(game)
    game.close()


def give(game: Game, status: object) -> None:
    """Put a timed status on the player."""
    game.activate()
    esper.add_component(game.state.player, status)
