"""Developer sub-commands: ``simulate`` (a headless bot game) and ``screenshot``."""

from __future__ import annotations

import argparse
from pathlib import Path

from roguelike.subcommand import Subcommand


def configure_simulate(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic simulate``."""
    parser.add_argument("--seed", type=int, required=True, help="seed of the game")
    parser.add_argument("--turns", type=int, default=1000, help="stop after this many turns")
    parser.add_argument("--name", default="Bot", help="name of the character")


def simulate(args: argparse.Namespace) -> int:
    """Play a headless game with the bot and print its summary."""
    from roguelike.datadir import data_dir
    from roguelike.game import Game
    from roguelike.headless import play_bot, summarise
    from roguelike.replay.recorder import recording_observers
    from roguelike.session import Session

    game = Game.new(args.seed, args.name)
    session = Session(game, recording_observers(data_dir(args.data_dir), game))
    play_bot(session, args.turns)
    session.close()
    print("\n".join(summarise(session.game).lines()))
    return 0


def configure_screenshot(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic screenshot``."""
    parser.add_argument("--seed", type=int, required=True, help="seed of the game")
    parser.add_argument("--turns", type=int, default=0, help="turns the bot plays first")
    parser.add_argument("--out", type=Path, required=True, help="PNG file to write")


def screenshot(args: argparse.Namespace) -> int:
    """Render the in-game screen after ``--turns`` bot turns to a PNG file."""
    from roguelike.game import Game
    from roguelike.headless import play_bot
    from roguelike.screenshot import save_screenshot
    from roguelike.session import Session

    session = Session(Game.new(args.seed, "Bot"))
    play_bot(session, args.turns)
    save_screenshot(session.game, args.out)
    print(f"wrote {args.out}")
    return 0


SIMULATE = Subcommand("simulate", "let the built-in bot play a headless game", configure_simulate, simulate)
SCREENSHOT = Subcommand("screenshot", "write the in-game screen as PNG, no display needed", configure_screenshot, screenshot)
