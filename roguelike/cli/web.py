"""The command-line options of the web frontend, shared by ``hedonic play`` and ``hedonic replay``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from roguelike.screens.base import App

NO_WEB = "hedonic: the web frontend needs its extra: pip install 'hedonic-hypothesis[web]'"


def add_web_options(parser: argparse.ArgumentParser, where: argparse._MutuallyExclusiveGroup) -> None:
    """``--web`` beside ``--window`` and ``--terminal``, and where to serve."""
    where.add_argument(
        "--web",
        action="store_true",
        default=argparse.SUPPRESS,
        help="play in a web browser: serve the game on --host and --port and open the browser",
    )
    parser.add_argument(
        "--host",
        default=argparse.SUPPRESS,
        help="with --web: the address to serve on (default 127.0.0.1; any other needs a token)",
    )
    parser.add_argument(
        "--port", type=int, default=argparse.SUPPRESS, help="with --web: the port (default 8026; 0: any)"
    )
    parser.add_argument(
        "--token",
        default=argparse.SUPPRESS,
        help="with --web: the token browsers must give (made up when serving beyond this machine)",
    )
    parser.add_argument(
        "--no-browser",
        action="store_true",
        default=argparse.SUPPRESS,
        help="with --web: only print the address, open no browser",
    )


def web_frontend(args: argparse.Namespace) -> Callable[[App], int]:
    """The function that serves an app to the browser with the options given."""

    def serve(app: App) -> int:
        try:
            from roguelike.frontend.web.run import DEFAULT_HOST, DEFAULT_PORT, WebOptions, run_web
        except ImportError:
            print(NO_WEB, file=sys.stderr)
            app.close_all()
            return 1
        options = WebOptions(
            getattr(args, "host", DEFAULT_HOST),
            getattr(args, "port", DEFAULT_PORT),
            getattr(args, "token", None),
            not getattr(args, "no_browser", False),
        )
        return run_web(app, options)

    return serve
