"""Helpers for the web frontend's tests: a live game served in-process, and a client that rebuilds its screen."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.types import Message

from roguelike.frontend import frames
from roguelike.frontend.web.guard import Guard
from roguelike.frontend.web.keycodes import KEY_DOWN, KEY_UP, TEXT
from roguelike.frontend.web.live import LiveGame
from roguelike.frontend.web.site import WebServer
from roguelike.saves import Games
from roguelike.screens.base import App
from roguelike.screens.title import TitleScreen

BASE = "http://127.0.0.1:8026"
SOCKET = "ws://127.0.0.1:8026"
ORIGIN = {"origin": BASE}
SEED = 7
PLAY_TOKEN, WATCH_TOKEN = "play-sesame", "watch-sesame"
RECEIVE_BOUND = 120.0  # seconds a client waits for the server's next message before failing


def live_game(root: Path, seed: int = SEED, game_id: str = "g1") -> LiveGame:
    """A live game at the title screen over a data directory."""
    return LiveGame(App(TitleScreen(Games(root, seed=seed))), game_id)


@contextmanager
def served(live: LiveGame, guard: Guard | None = None) -> Iterator[TestClient]:
    """The server running ``live``, with a client on the loopback address."""
    server = WebServer({live.id: live}, guard or Guard(True, PLAY_TOKEN, WATCH_TOKEN))
    with TestClient(server.app, base_url=BASE) as client:
        yield client


class Client:
    """One WebSocket connection: the screen it has rebuilt from the frames, and the notes it got."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.cells: frames.Cells | None = None
        self.messages: list[bytes] = []  # each frame as the protocol's keyframe or diff
        self.wire: list[bytes] = []  # each frame as it came (deflated when that was smaller)
        self.notes: list[dict[str, object]] = []

    def receive(self) -> Message:
        """The next message from the server; AssertionError if none comes in ``RECEIVE_BOUND`` seconds (a
        bound far above the work: a server that sends nothing more fails the test instead of hanging it)."""
        socket = self.socket

        async def bounded() -> Message:
            with anyio.fail_after(RECEIVE_BOUND):
                message: Message = await socket._send_rx.receive()  # what WebSocketTestSession.receive awaits
                return message

        try:
            return socket.portal.call(bounded)
        except TimeoutError:
            raise AssertionError(f"the server sent nothing in {RECEIVE_BOUND:g} s") from None

    def frame(self) -> bytes:
        """Wait for the next frame (taking the notes that come before it) and apply it."""
        while True:
            message = self.receive()
            if message.get("text") is not None:
                self.notes.append(json.loads(message["text"]))
                continue
            if "bytes" not in message:
                raise AssertionError(f"the server ended the connection: {message}")
            data: bytes = message["bytes"]
            self.cells = frames.apply(self.cells, data)
            self.wire.append(data)
            self.messages.append(frames.inflated(data))
            return self.messages[-1]

    def until(self, done: Callable[[list[str]], bool], most: int = 200) -> list[str]:
        """Take frames until the screen shows what ``done`` looks for."""
        for _ in range(most):
            if self.cells is not None and done(self.rows()):
                return self.rows()
            self.frame()
        raise AssertionError("the screen never showed it:\n" + "\n".join(self.rows()))

    def ended(self, most: int = 1000) -> tuple[int, str]:
        """Read until the server closes the connection: its code and reason."""
        for _ in range(most):
            message = self.receive()
            if message["type"] == "websocket.close":
                return int(message.get("code", 1000)), str(message.get("reason", ""))
            if message.get("text") is not None:
                self.notes.append(json.loads(message["text"]))
        raise AssertionError("the server kept the connection open")

    def rows(self) -> list[str]:
        """The rebuilt screen as text."""
        assert self.cells is not None
        return frames.text_rows(self.cells)

    def press(self, code: str, bits: int = 0, text: str | None = None) -> None:
        """A key pressed and released in the browser (with the character it types, if any)."""
        self.socket.send_bytes(bytes([KEY_DOWN, bits]) + code.encode())
        if text is not None:
            self.socket.send_bytes(bytes([TEXT]) + text.encode())
        self.socket.send_bytes(bytes([KEY_UP, bits]) + code.encode())

    def type(self, text: str) -> None:
        """Characters typed (as text only: what name entry reads)."""
        for char in text:
            self.socket.send_bytes(bytes([TEXT]) + char.encode())


def with_token(path: str) -> str:
    """The path with the token its page would carry (the player's to play, the watch token to watch), unless it has one."""
    if "token=" in path:
        return path
    return f"{path}?token={PLAY_TOKEN if path.startswith(('/play', '/ws/play')) else WATCH_TOKEN}"


@contextmanager
def connect(client: TestClient, path: str = "/ws/play") -> Iterator[Client]:
    """A connection from the game's own page (the player's unless ``path`` says), with its first frame taken."""
    with client.websocket_connect(f"{SOCKET}{with_token(path)}", headers=dict(ORIGIN)) as socket:
        connection = Client(socket)
        connection.frame()
        yield connection


def new_game(player: Client, name: str = "Ann") -> None:
    """From the title screen, start a new game of a character ``name``."""
    player.press("KeyN", text="n")
    player.type(name)
    player.press("Enter")
    player.until(lambda rows: "@" in "".join(rows[:21]))
