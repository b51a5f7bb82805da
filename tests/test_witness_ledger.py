"""The recorder's ledger finds exactly the changes that comparing two whole witnesses finds."""

from __future__ import annotations

import esper

from components import Confused, StateOfMind
from roguelike.bots.bot import Bot
from roguelike.core.commands import Wait
from roguelike.core.game import Game
from roguelike.replay.fileformat import Witness, step_bytes
from roguelike.replay.witness import Ledger, changes, witness


def plain_and_ledger(game: Game, ledger: Ledger, previous: Witness) -> tuple[Witness, Witness, Witness]:
    """The changes found the plain way and by the ledger, and the new whole witness."""
    current = witness(game)
    return changes(previous, current), ledger.record(game), current


def test_the_records_of_a_bot_game_are_the_same_bytes_either_way() -> None:
    game, bot = Game.new(5, "Bot"), Bot()
    ledger = Ledger({})
    previous: Witness = {}
    for index in range(1, 400):
        command = bot.choose(game)
        game.apply(command)
        plain, found, previous = plain_and_ledger(game, ledger, previous)
        assert step_bytes(index, command, game.state.turn, "00" * 8, found) == step_bytes(
            index, command, game.state.turn, "00" * 8, plain
        )
        assert ledger.facts == previous
    game.close()


def test_a_resumed_ledger_compares_with_the_facts_it_was_given() -> None:
    game = Game.new(6, "Bot")
    game.apply(Wait())
    given = witness(game)
    game.apply(Wait())
    ledger = Ledger(given)
    plain, found, _ = plain_and_ledger(game, ledger, given)
    # A wait drains the mind (and its colours); the floor stays: only what changed is a fact.
    assert found == plain and "@state_of_mind" in found and "depth" not in found
    game.close()


def test_equal_values_of_other_bytes_are_no_change_and_a_lost_component_is_none() -> None:
    game = Game.new(7, "Bot")
    game.apply(Wait())
    ledger = Ledger({})
    previous: Witness = {}
    _, _, previous = plain_and_ledger(game, ledger, previous)
    som = game.player_component(StateOfMind)
    som.value = float(som.value)  # type: ignore[assignment]  # packs as a float, but equals the int recorded
    plain, found, previous = plain_and_ledger(game, ledger, previous)
    assert found == plain == {}
    game.activate()
    esper.add_component(game.state.player, Confused(3))
    plain, found, previous = plain_and_ledger(game, ledger, previous)
    assert found == plain == {"@confused": [3]}
    esper.remove_component(game.state.player, Confused)
    plain, found, previous = plain_and_ledger(game, ledger, previous)
    assert found == plain == {"@confused": None}
    som.value = int(som.value) + 1
    plain, found, previous = plain_and_ledger(game, ledger, previous)
    assert found == plain == {"@state_of_mind": [som.value]}
    game.close()
