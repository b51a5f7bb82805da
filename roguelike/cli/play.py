"""``hedonic play``: open the game in the window, or say why it cannot."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from roguelike.cli.looks import add_look_options
from roguelike.cli.subcommand import Subcommand
from roguelike.cli.web import add_web_options, web_frontend

if TYPE_CHECKING:
    from roguelike.screens.base import App

NO_DISPLAY = "hedonic: no display found (set DISPLAY or WAYLAND_DISPLAY) and no terminal to play in."

Frontend = Callable[["App"], int]


def add_play_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic play`` (also accepted with no sub-command)."""
    parser.add_argument("--seed", type=int, default=argparse.SUPPRESS, help="seed of new games (random by default)")
    parser.add_argument(
        "--wizard",
        action="store_true",
        default=argparse.SUPPRESS,
        help="wizard mode for developers: & opens a prompt to change the game; such games are marked and never count",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--window", action="store_true", default=argparse.SUPPRESS, help="play in the window")
    where.add_argument("--terminal", action="store_true", default=argparse.SUPPRESS, help="play in this terminal")
    add_web_options(parser, where)
    add_look_options(parser)
    parser.add_argument(
        "--mute",
        action="store_true",
        default=argparse.SUPPRESS,
        help="no sound for this run (the volume setting is kept for the next)",
    )
    parser.add_argument(
        "--screen-reader",
        action="store_true",
        default=argparse.SUPPRESS,
        help="play in this terminal for a screen reader: new messages as plain lines, "
        "the cursor on @, v and c read out the surroundings and the condition",
    )


def play(args: argparse.Namespace) -> int:
    """Build the screens and run them in the chosen frontend."""
    from roguelike.cli.looks import use_player_settings
    from roguelike.cli.saves import games_for
    from roguelike.core.names import shown
    from roguelike.frontend.speaker import speaking
    from roguelike.screens import ambient, bindings
    from roguelike.screens.base import App
    from roguelike.screens.title import TitleScreen

    prefs = use_player_settings(args)
    problem = prefs.problem_text()
    if problem is not None:
        print(shown(f"hedonic: {problem}"), file=sys.stderr)
    games = games_for(args)
    keys = bindings.load(games.root)
    bindings.use(keys)
    title = TitleScreen(games)
    # A damaged settings or keymap file is named on the first screen.
    title.status = " ".join(text for text in (prefs.problem_brief(), keys.notice()) if text)
    frontend, app = choose_frontend(args), App(title)
    if getattr(args, "web", False):  # the player is at a browser, maybe on another machine: no speaker here
        return frontend(app)
    with speaking(ambient.audio(), ambient.chosen()):
        return frontend(app)


def has_display() -> bool:
    """Whether a window can be shown (or SDL was told to draw off-screen)."""
    env = os.environ
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("SDL_VIDEODRIVER"))


def choose_frontend(args: argparse.Namespace) -> Frontend:
    """The function that runs the app: as asked, else the window where a display exists."""
    if getattr(args, "screen_reader", False):
        return screen_reader_terminal
    if getattr(args, "web", False):
        return web_frontend(args)
    if getattr(args, "terminal", False):
        return terminal
    if getattr(args, "window", False):
        return window
    return window_or_terminal if has_display() else terminal


def window_or_terminal(app: App) -> int:
    """The window, or the terminal (quietly) when the window cannot open."""
    from roguelike.frontend.quiet import quiet_c_output
    from roguelike.frontend.window import open_window, run_window
    from roguelike.screens import ambient

    try:
        with quiet_c_output():
            context = open_window(ambient.chosen())
    except RuntimeError:
        return terminal(app)
    run_window(app, context)
    return 0


def screen_reader_terminal(app: App) -> int:
    """Run in this terminal, in screen-reader mode."""
    return terminal(app, screen_reader=True)


def terminal(app: App, screen_reader: bool = False) -> int:
    """Run in the terminal this was started from."""
    from roguelike.frontend.terminal import run_terminal
    from roguelike.frontend.termsession import NoTerminal

    try:
        return run_terminal(app, screen_reader)
    except NoTerminal as error:
        if not has_display():
            return unavailable(app)
        print(f"hedonic: cannot play in this terminal: {error}.", file=sys.stderr)
        return 1


def window(app: App) -> int:
    """Run in the game window."""
    from roguelike.frontend.window import run_window

    run_window(app)
    return 0


def unavailable(app: App) -> int:
    """No frontend can run here: say so in one sentence."""
    print(NO_DISPLAY, file=sys.stderr)
    return 1


PLAY = Subcommand("play", "play the game (the default)", add_play_options, play)
