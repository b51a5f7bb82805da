"""``hedonic --web``: serve the app on a port and open the browser on it.

The server listens on 127.0.0.1 unless told otherwise; on any other address it requires a
token (one is made up when none is given) and prints the address with it. Ctrl-C, or the
player quitting, stops the server; the screens save on the way out, as in the window.
"""

from __future__ import annotations

import secrets
import socket
import sys
import webbrowser
from dataclasses import dataclass

import uvicorn

from roguelike.frontend.web.guard import MAX_MESSAGE_BYTES, Guard, is_loopback
from roguelike.frontend.web.live import LiveGame
from roguelike.frontend.web.site import WebServer
from roguelike.screens.base import App

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8026


@dataclass(frozen=True)
class WebOptions:
    """Where to serve and whether to open a browser."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    token: str | None = None
    open_browser: bool = True

    def guard(self) -> Guard:
        """The rules for this address: loopback only, or a token."""
        loopback = is_loopback(self.host)
        token = self.token if self.token is not None or loopback else secrets.token_urlsafe(18)
        return Guard(loopback, token)


def address(host: str, port: int, path: str, token: str | None) -> str:
    """The address a browser opens."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}" + (f"?token={token}" if token else "")


def run_web(app: App, options: WebOptions) -> int:
    """Serve the app until the player quits or Ctrl-C; 1 if the port cannot be had."""
    guard = options.guard()
    try:
        listening = socket.create_server((options.host, options.port), reuse_port=False)
    except OSError as error:
        print(f"hedonic: cannot serve on {options.host}:{options.port}: {error.strerror or error}", file=sys.stderr)
        app.close_all()
        return 1
    port = listening.getsockname()[1]
    live = LiveGame(app, secrets.token_hex(4))
    server = WebServer({live.id: live}, guard)
    # Frames come compressed once for all (frames.deflated): a per-connection permessage-deflate
    # would only compress each of them again for every spectator.
    config = uvicorn.Config(server.app, log_level="warning", ws_max_size=MAX_MESSAGE_BYTES * 16, lifespan="on",
                            ws_per_message_deflate=False)
    running = uvicorn.Server(config)
    live.on_finish = lambda: setattr(running, "should_exit", True)
    play = address(options.host, port, "/play", guard.token)
    print(f"Hedonic Hypothesis is served at {play}\n"
          f"Spectators: {address(options.host, port, f'/watch/{live.id}', guard.token)}\n"
          "Ctrl-C here saves and stops the game.", flush=True)
    if options.open_browser:
        webbrowser.open(play)
    running.run(sockets=[listening])
    if live.crash is not None:
        raise live.crash  # already reported: the command ends as after any crash
    return 0
