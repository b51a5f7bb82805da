"""The ``hedonic`` command: a table of sub-commands, each defined in its own module.

``hedonic`` alone (or ``hedonic play``) plays; the rest are for developers and tests.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from roguelike import APP_ID, __version__
from roguelike.cli.balance import BALANCE
from roguelike.cli.coach import PAR, REVIEW
from roguelike.cli.play import PLAY, add_play_options
from roguelike.cli.replay import REPLAY
from roguelike.cli.replays import REPLAYS
from roguelike.cli.runtimes import RUNTIMES
from roguelike.cli.saves import SAVES
from roguelike.cli.scores import DAILY, EXPORT, HALL, IMPORT
from roguelike.cli.serve import SERVE
from roguelike.cli.subcommand import Subcommand
from roguelike.cli.tools import SCREENSHOT, SIMULATE
from roguelike.cli.witness import WITNESS
from roguelike.core.epoch import RULES_EPOCH
from roguelike.saves.crash import guarded

# numpy's OpenBLAS starts a thread per core when numpy loads, and they spin for a while; the
# game's few small products never need them (one thread saves ~90 ms of CPU a start-up).
# Set on import (the imports above load no numpy, tests/test_startup.py checks), before
# anything of the game can load it; a player's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

SUBCOMMANDS: tuple[Subcommand, ...] = (
    PLAY,
    DAILY,
    SIMULATE,
    SCREENSHOT,
    REPLAY,
    REPLAYS,
    SAVES,
    HALL,
    EXPORT,
    IMPORT,
    BALANCE,
    REVIEW,
    PAR,
    RUNTIMES,
    SERVE,
    WITNESS,
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(prog="hedonic", description="Hedonic Hypothesis, a roguelike about addiction.")
    parser.add_argument("--version", action="version", version=f"hedonic {__version__} (rules epoch {RULES_EPOCH})")
    parser.add_argument(
        "--reset-terminal",
        action="store_true",
        default=argparse.SUPPRESS,
        help="give this terminal back its usual modes (after a game killed with kill -9)",
    )
    add_common_options(parser)
    add_play_options(parser)
    commands = parser.add_subparsers(dest="command")
    for sub in SUBCOMMANDS:
        sub_parser = commands.add_parser(sub.name, help=sub.help)
        add_common_options(sub_parser)
        sub.configure(sub_parser)
    return parser


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """Options every sub-command accepts."""
    parser.add_argument("--data-dir", default=argparse.SUPPRESS, help="where saves, history and replays live")
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="open the debugger on a crash")


def keep_own_runtime() -> None:
    """Keep this version's code for the replays it records, the first time it runs (never in the way)."""
    from roguelike.runtimes.dispatch import in_runtime_child

    if in_runtime_child():
        return
    from roguelike.runtimes.keep import keep_own_runtime as keep
    from roguelike.runtimes.store import RuntimeTrouble

    try:
        keep()
    except (OSError, RuntimeTrouble):
        pass  # a cache folder that cannot be written costs only the runtime; the game plays on


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    # SDL reads the app id (X11's window class, Wayland's app id: what task bars show) once,
    # when it first starts, which can be before the window opens: name it before anything.
    os.environ.setdefault("SDL_APP_ID", APP_ID)
    args = build_parser().parse_args(argv)
    if getattr(args, "reset_terminal", False):
        return reset_terminal_command()
    args.argv = list(sys.argv[1:] if argv is None else argv)  # handed whole to another epoch's runtime
    keep_own_runtime()
    if not hasattr(args, "data_dir"):
        args.data_dir = None
    if not hasattr(args, "seed"):  # given before the sub-command or not at all (a sub-command's default would hide it)
        args.seed = None
    chosen = {sub.name: sub for sub in SUBCOMMANDS}.get(args.command or "play", PLAY)
    return guarded(chosen.run, args)


def reset_terminal_command() -> int:
    """``hedonic --reset-terminal``: the terminal's usual modes back, or why not."""
    from roguelike.frontend.termsession import reset_terminal

    if reset_terminal():
        return 0
    print("hedonic: --reset-terminal: standard output is not a terminal", file=sys.stderr)
    return 1
