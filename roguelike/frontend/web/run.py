"""``hedonic --web``: serve the app on a port and open the browser on it.

The server listens on 127.0.0.1 unless told otherwise. Playing needs the play token (made up
unless ``--token`` gives it) and watching the watch token, on loopback too: the addresses
printed carry them, and the browser is opened on the player's through a file only this user
can read (a browser's command line is there for every user of the machine to see). Ctrl-C,
or the player quitting, stops the server; the screens save on the way out, as in the window.
"""

from __future__ import annotations

import html
import os
import secrets
import shutil
import socket
import sys
import tempfile
import webbrowser
from dataclasses import dataclass
from pathlib import Path

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
        """The rules for this address (loopback only or not), with the play and watch tokens."""
        return Guard.made(is_loopback(self.host), self.token)


def address(host: str, port: int, path: str, token: str) -> str:
    """The address a browser opens."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}?token={token}"


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
    config = uvicorn.Config(
        server.app, log_level="warning", ws_max_size=MAX_MESSAGE_BYTES * 16, lifespan="on", ws_per_message_deflate=False
    )
    running = uvicorn.Server(config)
    live.on_finish = lambda: setattr(running, "should_exit", True)
    play = address(options.host, port, "/play", guard.play_token)
    print(
        f"Hedonic Hypothesis is served at {play}\n"
        f"Spectators (they can only watch): {address(options.host, port, f'/watch/{live.id}', guard.watch_token)}\n"
        "Ctrl-C here saves and stops the game.",
        flush=True,
    )
    page = launch_page(play) if options.open_browser else None
    if page is not None:
        webbrowser.open(page.as_uri())
    try:
        running.run(sockets=[listening])
    finally:
        if page is not None:
            shutil.rmtree(page.parent, ignore_errors=True)
    if live.crash is not None:
        raise live.crash  # already reported: the command ends as after any crash
    return 0


def launch_page(url: str) -> Path:
    """A page, readable by this user only, that sends the browser on to ``url`` (its token stays off command lines)."""
    folder = Path(tempfile.mkdtemp(prefix="hedonic-web-"))  # made 0700
    page = folder / "play.html"
    fd = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(
            f'<!doctype html><meta charset=utf-8><meta http-equiv="refresh" content="0;url={html.escape(url)}">'
            f'<title>Hedonic Hypothesis</title><a href="{html.escape(url)}">Play</a>'
        )
    return page
