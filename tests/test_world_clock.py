"""The world's clock counts from the player's arrival on a floor (rules epoch 12).

A floor reached a few turns later plays out as it would have: its monsters amble and
grow on the same draws, so one extra wait on floor 1 does not reshuffle every floor after.
"""

from __future__ import annotations

import esper

from components import Monster, Position, StateOfMind
from roguelike.core.commands import Wait
from roguelike.core.game import Game
from roguelike.core.rng import WorldClock
from test_stairs import walk_onto

SEED = 12


def arrive_on_floor_two(waits_first: int) -> Game:
    """A game that waits ``waits_first`` turns on floor 1, then takes the stairs at State of Mind 60."""
    game = Game.new(SEED, "Clock")
    for _ in range(waits_first):
        game.apply(Wait())
    game.player_component(StateOfMind).value = 60  # the same mind on arrival: the same floor made
    walk_onto(game, game.state.floor.down_stairs)
    assert game.state.depth == 2
    return game


def monsters(game: Game) -> list[tuple[str, int, int]]:
    """Every monster of the floor, kind and place, in a fixed order."""
    return sorted((m.kind, p.x, p.y) for _, (m, p) in esper.get_components(Monster, Position))


def test_the_clock_on_a_floor_starts_at_the_players_arrival() -> None:
    game = arrive_on_floor_two(3)
    arrived = game.state.turn
    assert game.state.turns_here == 0 and game.state.chart.floors[-1] == (arrived, 2)
    game.apply(Wait())
    assert game.state.turns_here == 1
    assert game.state.clock().base == WorldClock(SEED, 2, 1).base != WorldClock(SEED, 2, arrived + 1).base


def test_a_floor_reached_later_plays_out_the_same_from_the_arrival() -> None:
    early, late = arrive_on_floor_two(0), arrive_on_floor_two(5)
    assert late.state.turn == early.state.turn + 5
    start = monsters(early)
    assert start == monsters(late)
    for _ in range(40):  # long enough for the ambles and a reinforcement's turn
        for game in (early, late):
            game.activate()
            game.apply(Wait())
        early.activate()
        seen = monsters(early)
        late.activate()
        assert seen == monsters(late)
    assert seen != start, "the monsters never moved: the test would hold whatever the clock"
