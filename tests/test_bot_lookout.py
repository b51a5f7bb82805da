"""The bots' memory of killers: a Depression that a wall now hides is still feared where it was seen."""

from __future__ import annotations

import esper

from bestiary_helpers import add_monster, arena
from components import Position
from roguelike.bots import tactics
from roguelike.bots.lookout import MEMORY_TURNS, Lookout
from roguelike.core.commands import Move
from roguelike.core.game import Game

# A corridor above and a sealed pocket below it: a monster moved into the pocket is out of sight.
ROWS = ["##########", "#..@.....#", "##########", "#........#", "##########"]


def seen_then_hidden() -> tuple[Game, Lookout, int]:
    """The player sees a Depression three steps off, then it stands where the player cannot see it."""
    game = arena(ROWS)
    depression = add_monster(game, "depression", 6, 1)
    lookout = Lookout()
    assert lookout.out_of_sight(game) == []  # in sight: tactics sees it without the lookout
    game.activate()
    esper.component_for_entity(depression, Position).y = 3
    game.refresh_visible()
    assert not game.view.visible[3, 6]
    return game, lookout, depression


def test_a_hidden_killer_is_feared_where_it_was_last_seen() -> None:
    game, lookout, _ = seen_then_hidden()
    [threat] = lookout.out_of_sight(game)
    assert (threat.x, threat.y, threat.reach, threat.hunting) == (6, 1, 2, True)


def test_the_bot_does_not_step_into_the_reach_of_a_killer_it_just_lost_sight_of() -> None:
    game, lookout, _ = seen_then_hidden()
    step = Move(1, 0)  # to (4, 1): two steps from where the Depression was seen
    assert tactics.adjust(game, step, wary=True) == step  # forgetful, it walks in
    assert tactics.adjust(game, step, wary=True, remembered=lookout.out_of_sight(game)) != step


def test_the_feared_reach_grows_each_turn_and_the_memory_fades() -> None:
    game, lookout, _ = seen_then_hidden()
    game.state.turn += 1
    assert [threat.reach for threat in lookout.out_of_sight(game)] == [4]
    game.state.turn += MEMORY_TURNS
    assert lookout.out_of_sight(game) == []


def test_a_slain_killer_and_a_new_floor_are_forgotten() -> None:
    game, lookout, depression = seen_then_hidden()
    game.state.depth += 1
    assert lookout.out_of_sight(game) == []
    game.state.depth -= 1
    lookout = Lookout()
    game.activate()
    esper.component_for_entity(depression, Position).y = 1
    game.refresh_visible()
    lookout.out_of_sight(game)
    esper.delete_entity(depression, immediate=True)
    assert lookout.out_of_sight(game) == []
