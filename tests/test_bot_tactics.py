"""The bots' fighting sense: strike first, but never stay in a Depression's reach to do it."""

from __future__ import annotations

from bestiary_helpers import add_monster, arena
from roguelike.bots import tactics
from roguelike.core.commands import Move, Wait


def test_the_bot_strikes_a_monster_beside_it() -> None:
    game = arena()
    add_monster(game, "anxiety", 9, 4, hunting=True)
    assert tactics.adjust(game, Wait(), wary=True) == Move(1, 0)


def test_the_bot_steps_out_of_a_depressions_reach_rather_than_strike_a_lesser_monster() -> None:
    # Voices beside it, a Depression two steps off: striking the Voices leaves the player where
    # the Depression steps and strikes; stepping away from it costs a stun at worst.
    game = arena()
    add_monster(game, "voices", 9, 4, hunting=True)
    add_monster(game, "depression", 10, 4, hunting=True)
    command = tactics.adjust(game, Wait(), wary=True)
    assert isinstance(command, Move) and command.dx == -1


def test_cornered_the_bot_still_strikes() -> None:
    # Walls behind it and a Depression two steps off: no step gets out of reach, so it hits the Voices.
    rows = ["#####", "#@..#", "#####"]
    game = arena(rows)
    add_monster(game, "voices", 2, 1, hunting=True)
    add_monster(game, "depression", 3, 1, hunting=True)
    assert tactics.adjust(game, Wait(), wary=True) == Move(1, 0)
