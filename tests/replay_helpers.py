"""Helpers for the replay and crash tests: record bot games into a data directory."""

from __future__ import annotations

from pathlib import Path

from roguelike.bots.bot import Bot
from roguelike.core.commands import Command
from roguelike.core.game import Game
from roguelike.core.session import Session, Step
from roguelike.replay.recorder import recording_observers


def record_bot_game(data_dir: Path, seed: int = 7, turns: int = 60, name: str = "Bot") -> tuple[Path, list[Step]]:
    """Play a bot game through a recording session; the replay's path and the steps."""
    game = Game.new(seed, name)
    session = Session(game, recording_observers(data_dir, game))
    steps = play(session, turns)
    session.close()
    game.close()
    return only_replay(data_dir), steps


def play(session: Session, turns: int) -> list[Step]:
    """Let the bot play until the game ends or ``turns`` commands were given."""
    bot = Bot()
    steps: list[Step] = []
    while not session.game.state.game_over and len(steps) < turns:
        steps.append(session.apply(bot.choose(session.game)))
    return steps


def only_replay(data_dir: Path) -> Path:
    """The one replay in a data directory."""
    (path,) = sorted((data_dir / "replays").glob("*.replay"))
    return path


def bot_commands(seed: int, turns: int) -> list[Command]:
    """The commands the bot gives in a game, without recording it."""
    session = Session(Game.new(seed, "Bot"))
    commands = [step.command for step in play(session, turns)]
    session.game.close()
    return commands
