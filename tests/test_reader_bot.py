"""The reader bot plays by the panel's figures alone, and plays as well as the careful bot.

If the panel told the truth only on floor 1 (as it once did), the reader would judge deep
doses wrong and take ones the careful bot refuses: the second test shows the reader
depends on the panel and nothing else.
"""

from __future__ import annotations

import pytest

import roguelike.bots.reader
from components import StateOfMind, Tolerance
from roguelike.assist.readout import shown_odds
from roguelike.bots.careful import CarefulBot
from roguelike.bots.reader import ReaderBot, shown_doses
from roguelike.bots.sense import known_doses
from roguelike.content.doses import DOSE_KINDS, DoseOdds, dose_odds
from roguelike.core.game import Game

SEEDS = (4, 28)  # games the careful bot takes past floor 1 (which ones changes with the rules)
TURNS = 1200


def play(bot: CarefulBot, seed: int, turns: int = TURNS) -> Game:
    """A game the bot played for ``turns`` turns (or to its end)."""
    game = Game.new(seed, "Reader")
    while not game.state.game_over and game.state.turn < turns:
        game.apply(bot.choose(game))
    return game


@pytest.mark.parametrize("seed", SEEDS)
def test_the_reader_knows_what_the_careful_bot_knows_and_plays_the_same_game(seed: int) -> None:
    reader, careful = ReaderBot(), CarefulBot()
    game, twin = Game.new(seed, "Reader"), Game.new(seed, "Reader")
    while not game.state.game_over and game.state.turn < TURNS:
        assert shown_doses(game) == known_doses(game)  # the panel's figures are the rules' own
        command = reader.choose(game)
        assert command == careful.choose(twin)
        game.apply(command)
        twin.apply(command)
    assert game.state.depth > 1  # deep enough that the depth bonus was in play
    game.close()
    twin.close()


def test_a_panel_that_forgot_the_depth_would_lead_the_reader_astray(monkeypatch: pytest.MonkeyPatch) -> None:
    def floor_one_odds(game: Game, kind: str, floor: int | None = None) -> DoseOdds:
        """The figures as the panel once showed them: as if every dose lay on floor 1."""
        som, tolerance = game.player_component(StateOfMind).value, game.player_component(Tolerance).value
        return dose_odds(DOSE_KINDS[kind], 1, som, tolerance)

    honest = {seed: play(ReaderBot(), seed) for seed in SEEDS}
    monkeypatch.setattr(roguelike.bots.reader, "shown_odds", floor_one_odds)
    misled = {seed: play(ReaderBot(), seed) for seed in SEEDS}
    overdosed = [
        seed
        for seed, game in misled.items()
        if game.state.cause_of_death == "overdose" and game.state.turn < honest[seed].state.turn
    ]
    assert overdosed, "a reader misled about deep doses overdoses sooner than one told the truth"
    assert shown_odds is not floor_one_odds  # the game's own panel was never touched
