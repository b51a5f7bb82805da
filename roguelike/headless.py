"""Headless play with the built-in bot, for `hedonic simulate`, screenshots and benches."""

from __future__ import annotations

from dataclasses import dataclass

from components import Record
from roguelike.bot import Bot
from roguelike.game import Game
from roguelike.session import Session
from roguelike.snapshot import checksum

# A bot bumping into something that takes no time could loop; this bounds the actions.
ACTIONS_PER_TURN_LIMIT = 8


@dataclass(frozen=True)
class Summary:
    """What a headless game ended with."""

    seed: int
    turns: int
    floor: int
    cause: str
    doses: int
    checksum: str

    def lines(self) -> list[str]:
        """The summary as ``key: value`` lines."""
        return [
            f"seed: {self.seed}",
            f"turns: {self.turns}",
            f"floor: {self.floor}",
            f"cause: {self.cause}",
            f"doses: {self.doses}",
            f"checksum: {self.checksum}",
        ]


def play_bot(session: Session, turns: int) -> None:
    """Let the bot play until the game ends or the turn counter reaches ``turns``."""
    bot, game = Bot(), session.game
    budget = turns * ACTIONS_PER_TURN_LIMIT
    while not game.state.game_over and game.state.turn < turns and budget > 0:
        session.apply(bot.choose(game))
        budget -= 1


def summarise(game: Game) -> Summary:
    """The summary of a game as it stands."""
    record = game.player_component(Record)
    return Summary(
        seed=game.state.seed,
        turns=game.state.turn,
        floor=game.state.depth,
        cause=game.state.cause_of_death or "alive",
        doses=record.doses_used,
        checksum=checksum(game),
    )
