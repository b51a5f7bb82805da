"""A real server on a loopback port and a real browser on it, for the web bench and the browser test.

The server runs in a thread of this process (so the caller can read the game's console);
the browser is Debian's ``chromium`` driven by Playwright (never ``playwright install``:
it downloads a browser of its own, which cannot work here).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

from roguelike.cli.saves import games_for
from roguelike.frontend import frames
from roguelike.frontend.web.guard import MAX_MESSAGE_BYTES, Guard
from roguelike.frontend.web.live import LiveGame
from roguelike.frontend.web.site import WebServer
from roguelike.screens.base import App
from roguelike.screens.title import TitleScreen

CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 760}


class ServerThread:
    """The web server for one live game, serving from a thread until stopped."""

    def __init__(self, live: LiveGame) -> None:
        self.live = live
        self.listening = socket.create_server(("127.0.0.1", 0))
        self.port = self.listening.getsockname()[1]
        self.guard = Guard.made(loopback=True)
        config = uvicorn.Config(
            WebServer({live.id: live}, self.guard).app,
            log_level="warning",
            ws_max_size=MAX_MESSAGE_BYTES * 16,
            lifespan="on",
            ws_per_message_deflate=False,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.listening]}, daemon=True)

    def url(self, path: str) -> str:
        """An address on this server, with the token its page needs (the player's to play, else the watch token)."""
        token = self.guard.play_token if path.startswith("/play") else self.guard.watch_token
        return f"http://127.0.0.1:{self.port}{path}?token={token}"

    def server_rows(self) -> list[str]:
        """The screen the server last sent, as text."""
        return frames.text_rows(self.live.screenful.cells)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        until(lambda: self.server.started, 20.0)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(20.0)


def until(done: Callable[[], bool], seconds: float) -> None:
    """Wait (polling) until ``done()``; TimeoutError after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("waited too long")
        time.sleep(0.01)


@contextmanager
def served_game(root: Path, seed: int) -> Iterator[ServerThread]:
    """A live game at the title screen over ``root`` (saved and recorded as ``hedonic`` does),
    served on a free loopback port."""
    games = games_for(argparse.Namespace(data_dir=str(root), seed=seed))
    with ServerThread(LiveGame(App(TitleScreen(games)), "live")) as server:
        yield server


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright (the browser object)."""
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        raise RuntimeError("no chromium on PATH: apt-get install chromium")
    with sync_playwright() as playwright:
        # Chromium's singleton socket lives in TMPDIR and a unix socket's path has 108 bytes.
        env: dict[str, str | float | bool] = {**os.environ, "TMPDIR": "/tmp"}
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, env=env)
        try:
            yield browser
        finally:
            browser.close()


def open_page(browser: Any, url: str) -> Any:
    """A page on ``url`` once the client has drawn its first frame."""
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(url)
    page.wait_for_function("() => window.hedonic && window.hedonic.state.frames > 0")
    return page


def page_rows(page: Any) -> list[str]:
    """The client's screen as text."""
    rows: list[str] = page.evaluate("() => hedonic.text()")
    return rows


def same_screen(page: Any, server: ServerThread, seconds: float = 10.0) -> list[str]:
    """Wait until the page shows what the server last sent; that screen."""
    until(lambda: page_rows(page) == server.server_rows(), seconds)
    return page_rows(page)


def start_new_game(page: Any, server: ServerThread, name: str) -> None:
    """From the title screen, a new game of a character ``name`` (typed as a player types)."""
    page.keyboard.press("n")
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    until(lambda: "@" in "".join(page_rows(page)[:21]), 20.0)
    same_screen(page, server)


class HostedServer:
    """``hedonic serve --play`` itself, in a process of its own on a free loopback port over ``folder``
    (or on ``port``: a server started again where a killed one listened)."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        if port is None:
            with socket.create_server(("127.0.0.1", 0)) as probe:
                port = int(probe.getsockname()[1])
        self.port = port
        self.base = f"http://127.0.0.1:{self.port}"
        self.command = [sys.executable, "-m", "roguelike", "--data-dir", str(folder), "serve", "--play"]
        self.command += ["--port", str(self.port)]
        self.process: subprocess.Popen[bytes] | None = None

    def json(self, path: str) -> Any:
        """The JSON the server answers at ``path``, or None while it does not answer."""
        try:
            with urllib.request.urlopen(self.base + path, timeout=5) as answer:  # noqa: S310 (our own loopback server)
                return json.load(answer)
        except OSError:
            return None

    def __enter__(self) -> HostedServer:
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL)
        until(lambda: self.json("/board.json") is not None, 120.0)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)


def sign_up(page: Any, base: str, name: str, password: str = "a long enough password") -> None:
    """Sign a player up through the page's own form, as a person does (the browser's headers and all)."""
    page.goto(f"{base}/signup")
    page.fill("#name", name)
    page.fill("#password", password)
    page.fill("#again", password)
    page.click("button[type=submit]")
    page.wait_for_load_state()
