"""Developer sub-commands: ``simulate`` (a headless bot game) and ``screenshot``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from roguelike.cli.looks import add_look_options
from roguelike.cli.subcommand import Subcommand

if TYPE_CHECKING:
    import tcod.console

    from roguelike.core.session import Session
    from roguelike.saves import Games


def configure_simulate(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic simulate``."""
    parser.add_argument(
        "--seed", type=int, default=argparse.SUPPRESS, help="seed of the game (required unless --systems)"
    )
    parser.add_argument("--turns", type=int, default=1000, help="stop after this many turns")
    add_bot_option(parser)
    parser.add_argument(
        "--name",
        default=None,
        help="name of the character; with a name the game autosaves in the data directory and "
        "continues that character's save when there is one (default: Bot, not saved)",
    )
    parser.add_argument("--systems", action="store_true", help="print the turn order (phases and systems) and exit")


def simulate(args: argparse.Namespace) -> int:
    """Play a headless game with the bot and print its summary."""
    if args.systems:
        return print_systems()
    if args.seed is None:
        print("hedonic simulate: --seed is required", file=sys.stderr)
        return 2
    from roguelike.bots.headless import play_bot, summarise
    from roguelike.bots.registry import make_bot
    from roguelike.bots.watch import Watch
    from roguelike.core.names import shown
    from roguelike.storage.errors import SaveError

    try:
        session = simulated_session(args)
    except SaveError as error:
        print(shown(f"hedonic simulate: {error}"), file=sys.stderr)
        return 1
    watch = Watch()
    play_bot(session, args.turns, make_bot(args.bot), watch)
    session.close()
    for notice in session.notices.lines():  # they may name files
        print(shown(f"hedonic simulate: {notice}"), file=sys.stderr)
    print("\n".join(summarise(session.game, watch).lines()))
    return 0


def print_systems() -> int:
    """Print the one schedule of a turn, phase by phase, as the runner runs it."""
    from roguelike.core.ecs import listing
    from systems import TURN

    print("\n".join(listing(TURN)))
    return 0


def add_bot_option(parser: argparse.ArgumentParser) -> None:
    """``--bot NAME``: which built-in bot plays."""
    from roguelike.bots.names import BOT_NAMES, DEFAULT_BOT

    parser.add_argument(
        "--bot",
        choices=BOT_NAMES,
        default=DEFAULT_BOT,
        help=f"which bot plays (default: {DEFAULT_BOT}); see docs/development.md",
    )


def simulated_session(args: argparse.Namespace) -> Session:
    """A named character's saved game (continued if it exists), or an unsaved game of Bot."""
    from roguelike.cli.saves import games_for
    from roguelike.core.game import Game
    from roguelike.core.session import Session
    from roguelike.replay.recorder import recording_observers
    from roguelike.storage.datadir import data_dir

    if args.name is not None:
        games = games_for(args)
        games.origin = "bot"  # a bot's game never ranks, nor does a character's once a bot has played it
        found = games.find(args.name)
        if found is None:
            refuse_damaged(games, args.name)
        return games.resume(found.path) if found is not None else games.new(args.name)
    from roguelike.saves.games import mark

    game = Game.new(args.seed, "Bot")
    session = Session(game, recording_observers(data_dir(args.data_dir), game, saved=False))
    mark(session, "bot")
    return session


def refuse_damaged(games: Games, name: str) -> None:
    """SaveError when the character's save is damaged (named in it, or in its replay): a second
    character of that name would hide it."""
    from roguelike.core.names import DEFAULT_NAME, clean_name
    from roguelike.saves.games import playable
    from roguelike.storage.errors import SaveError

    wanted = clean_name(name) or DEFAULT_NAME
    for info in map(playable, games.living()):
        if not info.ok and wanted in (info.name, replay_name(games.root, info.path.stem)):
            raise SaveError(
                info.path,
                f"{wanted}'s save is damaged ({info.problem}). Rebuild it from its replay "
                f"with `hedonic replay --rebuild {info.path}`, or choose another name",
                doing="continue",
            )


def replay_name(root: Path, game_id: str) -> str | None:
    """The character's name in a game's replay, if it can be read."""
    from roguelike.replay.fileformat import ReplayError, read_replay
    from roguelike.storage.datadir import DataDir

    try:
        return read_replay(DataDir(root).replay(game_id)).header.name
    except ReplayError:
        return None


SCREEN_NAMES = ("game", "help", "look", "death", "stats", "title")


def configure_screenshot(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic screenshot``."""
    parser.add_argument("--seed", type=int, default=argparse.SUPPRESS, help="seed of the game (required)")
    parser.add_argument(
        "--turns",
        type=int,
        default=0,
        help="turns the bot plays first (for --screen death: at most this many, until it dies)",
    )
    parser.add_argument("--screen", choices=SCREEN_NAMES, default="game", help="which screen to draw (default: game)")
    parser.add_argument("--page", default="", help="help: the page to show (Rules, Bestiary...); stats: overall")
    parser.add_argument("--text", action="store_true", help="write the screen's characters as plain text, not a PNG")
    parser.add_argument("--out", type=Path, default=None, help="file to write (PNG; with --text, default stdout)")
    add_look_options(parser)


def screenshot(args: argparse.Namespace) -> int:
    """Render a screen after ``--turns`` bot turns to a PNG (or text) file."""
    import tempfile

    from roguelike.bots.headless import play_bot
    from roguelike.cli.looks import use_default_settings
    from roguelike.core.game import Game
    from roguelike.core.session import Session
    from roguelike.screens.shots import SCREENS, drawn

    if args.seed is None:
        print("hedonic screenshot: --seed is required", file=sys.stderr)
        return 2
    if args.out is None and not args.text:
        print("hedonic screenshot: --out FILE.png is needed (or --text)", file=sys.stderr)
        return 2
    use_default_settings(args)
    session = Session(Game.new(args.seed, "Bot"))
    play_bot(session, args.turns)
    if args.screen == "death" and not session.game.state.game_over:
        print(
            f"hedonic screenshot: the bot was still alive after {args.turns} turns; "
            "give more --turns or another --seed",
            file=sys.stderr,
        )
        return 1
    with tempfile.TemporaryDirectory(prefix="hedonic-screenshot-") as root:
        console = drawn(SCREENS[args.screen](session.game, Path(root), args.page))
    return write_screenshot(console, args)


def write_screenshot(console: tcod.console.Console, args: argparse.Namespace) -> int:
    """Write the drawn console where the options say."""
    from roguelike.render.png import write_png
    from roguelike.render.screenshot import render_pixels
    from roguelike.screens import ambient
    from roguelike.screens.shots import console_text
    from roguelike.storage.errors import describe_os_error

    if args.text and args.out is None:
        sys.stdout.write(console_text(console))
        return 0
    try:
        if args.text:
            args.out.write_text(console_text(console), encoding="utf-8")
        else:
            write_png(args.out, render_pixels(console, ambient.chosen().tiles))
    except OSError as error:
        print(f"hedonic screenshot: cannot write {args.out}: {describe_os_error(error)}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}")
    return 0


SIMULATE = Subcommand(
    "simulate",
    "let the built-in bot play a headless game (its replay goes in the data directory)",
    configure_simulate,
    simulate,
)
SCREENSHOT = Subcommand(
    "screenshot",
    "draw a screen (game, help, look, death, stats, title) as PNG or text, no display needed",
    configure_screenshot,
    screenshot,
)
