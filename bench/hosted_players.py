"""Bot-driven players of a hosted server, shared by the load bench and the load test: what each pressed, what came back.

A :class:`Served` is ``python -m bench.bench_hosted serve``: the score server with hosted play, in a
process of its own on a free loopback port, its accounts named by a header. A :class:`Player` is one
account in one browser (a WebSocket client). It keeps its own copy of its game (the seed from the
server's log, then its own commands), so it knows which command each key makes and what the screen
must show after it; it presses the next key only once the last one is answered by a frame showing
its effect (the turn on the panel, and the ``@`` where a step took it). No key is typed ahead (the
game drops keys typed ahead of something that matters, as a window does), so every key it pressed
can be matched to one row of the log. A wait ends the turn (the panel's turn changes) unless the
player has a second action left (Will 10): then it steps onto a free floor tile beside it (no dose
to ask about, no one to hit), as it does now and then anyway. The rare command that shows nothing
(a steered wait with an action left) is answered by the log: the next key waits until it holds it.
A game that ends is left through its death screens and the next ``/play`` starts another; now and
then the socket is dropped and the game resumed, as a flaky network does.
"""

from __future__ import annotations

import contextlib
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from bench.game_copies import REPLICAS, LoggedCopy
from components import ActionPoints, Position
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.frontend.web.keycodes import KEY_DOWN, KEY_UP, TEXT
from roguelike.ground.frames import Cells, apply, text_rows
from roguelike.server import store
from roguelike.server.hosted import log
from roguelike.server.hosted.playing import command_bytes

ACCOUNT_HEADER = "x-bench-account"
MAP_ROWS = 21  # the map's rows on the 80x25 screen (formulas.MAP_HEIGHT); the panel is below
TURN = re.compile(r"Turn (\d+)")
STEP_KEYS = {
    (0, -1): "ArrowUp",
    (0, 1): "ArrowDown",
    (-1, 0): "ArrowLeft",
    (1, 0): "ArrowRight",
    (-1, -1): "Numpad7",
    (1, -1): "Numpad9",
    (-1, 1): "Numpad1",
    (1, 1): "Numpad3",
}
ANSWER_SECONDS = 90.0  # a bound far above the work (a key is answered in milliseconds on a quiet machine)
START_SECONDS = 120.0
LEAVE_PRESSES = 400  # Escapes to leave a death's two screens (the first ignores keys for a moment)
GAME_OVER = "The game is over."  # what the server says as it closes an ended game's socket


@dataclass
class PlayedGame:
    """One game a player played: its id, and the command each of its keys made, in order."""

    id: str
    account: str
    commands: list[bytes] = field(default_factory=list)
    ended: bool = False


@dataclass
class Tally:
    """What every player saw, gathered across their threads."""

    latencies: list[float] = field(default_factory=list)  # key to the frame showing its effect, seconds
    errors: list[str] = field(default_factory=list)
    games: list[PlayedGame] = field(default_factory=list)
    keys: int = 0
    unshown: int = 0  # keys whose command showed nothing (a steered wait with an action left): the log answered
    drops: int = 0


class Served:
    """The hosted server (``bench.bench_hosted serve``) in its own process on a free loopback port over ``folder``."""

    def __init__(self, folder: Path, idle_seconds: float = 600.0, snapshot_every: int = 500) -> None:
        self.folder, self.idle_seconds, self.snapshot_every = folder, idle_seconds, snapshot_every
        self.address, self.port = "127.0.0.1", 0
        self.process: subprocess.Popen[bytes] | None = None
        self.engine: Engine | None = None

    def __enter__(self) -> Served:
        from bench.common import ROOT  # the game's checkout, which ``bench.versus`` may point elsewhere

        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        command = [sys.executable, "-m", "bench.bench_hosted", "serve", str(self.port), str(self.folder)]
        command += [str(self.idle_seconds), "--snapshot-every", str(self.snapshot_every)]
        self.process = subprocess.Popen(command, cwd=ROOT)
        deadline = time.monotonic() + START_SECONDS
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the hosted server did not start (exit status {self.process.poll()})")
            time.sleep(0.1)
        self.engine = store.open_engine(store.default_url(str(self.folder)))
        return self

    def __exit__(self, *exc: object) -> None:
        if self.engine is not None:
            self.engine.dispose()
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def url(self, path: str) -> str:
        """An address on the server."""
        return f"http://{self.address}:{self.port}{path}"

    def get(self, path: str, account: str | None = None) -> tuple[int, bytes]:
        """A page of the server (as ``account``): its status and body."""
        headers = {} if account is None else {ACCOUNT_HEADER: account}
        try:
            with urllib.request.urlopen(urllib.request.Request(self.url(path), headers=headers), timeout=60) as reply:
                return int(reply.status), bytes(reply.read())
        except urllib.error.HTTPError as error:
            return int(error.code), bytes(error.read())

    def answers(self) -> bool:
        """Whether the server answers its lobby."""
        try:
            return self.get("/lobby")[0] == 200
        except OSError:
            return False

    def live_game(self, account: str) -> log.HostedRow:
        """The account's live game, as the log has it."""
        assert self.engine is not None
        with self.engine.connect() as connection:
            found = log.live_game_of(connection, account)
        if found is None:
            raise AssertionError(f"{account} has no live game after /play")
        return found

    def commands(self, game: str) -> list[bytes]:
        """A game's log."""
        assert self.engine is not None
        with self.engine.connect() as connection:
            return log.commands_of(connection, game)

    def command_count(self, game: str) -> int:
        """How many commands a game's log holds."""
        assert self.engine is not None
        with self.engine.connect() as connection:
            return log.command_count(connection, game)

    def game_row(self, game: str) -> log.HostedRow | None:
        """A game's row."""
        assert self.engine is not None
        with self.engine.connect() as connection:
            return log.game_of(connection, game)


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def turn_shown(rows: list[str]) -> int | None:
    """The turn the panel shows, if it shows one."""
    for row in rows[MAP_ROWS:]:
        found = TURN.search(row)
        if found is not None:
            return int(found.group(1))
    return None


def player_shown(rows: list[str]) -> set[tuple[int, int]]:
    """Where the map shows an ``@``."""
    return {(x, y) for y, row in enumerate(rows[:MAP_ROWS]) for x, char in enumerate(row) if char == "@"}


def free_steps(game: Game) -> list[tuple[int, int]]:
    """The steps onto plain floor beside the player where nothing stands (no dose to ask about, no one to hit)."""
    here = game.player_component(Position)
    taken, tiles = game.taken_tiles(), game.state.floor.tiles
    height, width = tiles.shape
    found = []
    for dx, dy in STEP_KEYS:
        x, y = here.x + dx, here.y + dy
        if 0 <= x < width and 0 <= y < height and tiles[y, x] == Tile.FLOOR and (x, y) not in taken:
            found.append((dx, dy))
    return found


class Player:
    """One account in one browser, pressing keys a bot chooses and checking each is answered."""

    def __init__(
        self, served: Served, account: str, think: tuple[float, float], drop_chance: float, tally: Tally
    ) -> None:
        self.served, self.account, self.think, self.drop_chance, self.tally = served, account, think, drop_chance, tally
        self.rng = random.Random(account)
        self.cells: Cells | None = None
        self.socket: ClientConnection | None = None
        self.open = contextlib.ExitStack()  # the socket while it is open
        self.patience = ANSWER_SECONDS  # how long a key's frame is waited for before the player gives up
        self.stop = threading.Event()  # set: stop after the key under way
        self.opened_with: list[bytes] = []
        self.copies = LoggedCopy()
        self.done = threading.Event()  # set once it has stopped playing, for whatever reason

    def run(self, until: float) -> None:
        """Play games until ``until`` (a monotonic time) or until stopped; what went wrong goes to the tally."""
        try:
            while time.monotonic() < until and not self.stop.is_set():
                self.play_game(until)
        except Exception as error:  # every player's problem is reported, the others go on
            self.tally.errors.append(f"{self.account}: {type(error).__name__}: {error}")
        finally:
            self.hang_up()
            with REPLICAS:
                self.copies.close()
            self.done.set()

    def play_game(self, until: float) -> None:
        """Start or resume the account's game and play it until it ends or the time is up."""
        row, game = self.open_game()
        played = PlayedGame(row.id, self.account, self.served.commands(row.id))
        self.tally.games.append(played)
        while time.monotonic() < until:
            self.press_one(game, played)
            if game.state.game_over:
                self.leave_death()
                played.ended = True
                return
            if self.rng.random() < self.drop_chance:
                self.hang_up()
                self.tally.drops += 1
                row, game = self.open_game()
                assert row.id == played.id, "a dropped socket started another game"
            time.sleep(self.rng.uniform(*self.think))

    def open_game(self) -> tuple[log.HostedRow, Game]:
        """``/play``, the account's game rebuilt from its log, the socket opened and its keyframe checked."""
        status, _ = self.served.get("/play", self.account)
        if status != 200:
            raise AssertionError(f"/play answered {status}")
        row = self.served.live_game(self.account)
        self.opened_with = self.served.commands(row.id)  # the log the game was rebuilt from
        game = self.copies.rebuilt(row, self.opened_with)
        origin = Origin(f"http://{self.served.address}:{self.served.port}")
        url = f"ws://{self.served.address}:{self.served.port}/ws/play"
        headers = {ACCOUNT_HEADER: self.account}
        opened = connect(url, origin=origin, additional_headers=headers, max_size=None, open_timeout=self.patience)
        self.socket = self.open.enter_context(opened)
        self.cells = None
        self.until_shown(lambda rows: turn_shown(rows) == game.state.turn, "the resumed game's turn")
        return row, game

    def press_one(self, game: Game, played: PlayedGame) -> None:
        """Choose a command, press its key, and wait for the frame that shows it (unless it shows nothing)."""
        with REPLICAS:
            points = game.player_component(ActionPoints).remaining
            steps = free_steps(game) if game.steering() is None else []
            step = self.choose_step(steps, points)
            command: Command = Wait() if step is None else Move(*step)
            here = game.player_component(Position)
            before = (game.state.turn, here.x, here.y)
            game.apply(command)
            turn, here = game.state.turn, game.player_component(Position)
            where = (here.x, here.y)
            shows = before != (turn, here.x, here.y) or game.state.game_over
        played.commands.append(command_bytes(command))
        sent = time.perf_counter()
        if step is None:
            self.press("Period", ".")
        else:
            self.press(STEP_KEYS[step])
        self.tally.keys += 1
        if not shows:  # rare: the log says when it was taken (the next key must not be typed ahead of it)
            self.tally.unshown += 1
            self.until_logged(played)
            return
        over = game.state.game_over
        self.until_shown(
            lambda rows: turn_shown(rows) == turn and self.placed(rows, where, step is not None, over),
            f"turn {turn} with the player at {where}",
        )
        self.tally.latencies.append(time.perf_counter() - sent)

    def placed(self, rows: list[str], where: tuple[int, int], stepped: bool, over: bool) -> bool:
        """Whether the map shows the player where the command left it (looked at after a step)."""
        return over or not stepped or where in player_shown(rows)

    def choose_step(self, steps: list[tuple[int, int]], points: int) -> tuple[int, int] | None:
        """A step among the free ones, or None to wait (mostly when the player has one action left)."""
        return self.rng.choice(steps) if steps and (points > 1 or self.rng.random() < 0.3) else None

    def until_logged(self, played: PlayedGame) -> None:
        """Wait until the log holds every command pressed in this game."""
        deadline = time.monotonic() + ANSWER_SECONDS
        while self.served.command_count(played.id) < len(played.commands):
            if time.monotonic() > deadline:
                raise AssertionError(f"the log never took command {len(played.commands)} in {ANSWER_SECONDS:g} s")
            time.sleep(0.01)

    def press(self, code: str, text: str | None = None) -> None:
        """A key pressed and released in the browser (with the character it types, if any)."""
        assert self.socket is not None
        self.socket.send(bytes([KEY_DOWN, 0]) + code.encode())
        if text is not None:
            self.socket.send(bytes([TEXT]) + text.encode())
        self.socket.send(bytes([KEY_UP, 0]) + code.encode())

    def until_shown(self, done: Callable[[list[str]], bool], what: str) -> None:
        """Take frames until the screen shows what ``done`` looks for; AssertionError if none does in time."""
        deadline = time.monotonic() + self.patience
        while self.cells is None or not done(text_rows(self.cells)):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no frame showed {what} in {self.patience:g} s")
            self.take(left)

    def take(self, timeout: float) -> None:
        """The next message from the server (a frame is applied to the screen; a note is let be)."""
        assert self.socket is not None
        try:
            message = self.socket.recv(timeout=timeout)
        except TimeoutError:
            return
        if isinstance(message, bytes):
            self.cells = apply(self.cells, message)

    def leave_death(self) -> None:
        """Press Escape through the death's screens until the server closes the game's socket."""
        for _ in range(LEAVE_PRESSES):
            try:
                self.press("Escape")
                deadline = time.monotonic() + 0.25
                while (left := deadline - time.monotonic()) > 0:
                    self.take(left)
            except ConnectionClosed as closed:
                self.hang_up()
                reason = closed.rcvd.reason if closed.rcvd is not None else None
                if reason != GAME_OVER:
                    raise AssertionError(f"the ended game's socket closed saying {reason!r}") from None
                return
        raise AssertionError(f"the socket stayed open after {LEAVE_PRESSES} Escapes on the death's screens")

    def hang_up(self) -> None:
        """Close the socket, if open."""
        self.open.close()
        self.socket = None


def play_all(served: Served, clients: int, seconds: float, think: tuple[float, float], drop_chance: float) -> Tally:
    """``clients`` players at once for ``seconds``, each its own account; their tally."""
    tally = Tally()
    until = time.monotonic() + seconds
    players = [Player(served, f"bot{index}", think, drop_chance, tally) for index in range(clients)]
    threads = [threading.Thread(target=player.run, args=(until,)) for player in players]
    for thread in threads:
        thread.start()
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    return tally
