"""Bot players of hosted play on several machines, for the cluster test and bench: they ride out lost hosts.

A :class:`Gateways` is the players' view of the site: its gateways (any may be dead for a while:
a player whose gateway fails goes on through the next) and its PostgreSQL, where the log is
read. A :class:`ClusterPlayer` plays as :class:`bench.hosted_players.Player` does, except that a
key whose frame does not come within ``patience`` (its game's host was killed or cut off) is
settled by the log: accepted (the log holds it: the player reconnects and sees it), or lost
(every browser message of the game has been handed to a process, under one owner, for
``STABLE_SECONDS``, and the log still lacks it: it was in the hands of a process that died, and
was never accepted: the player's copy of the game is rebuilt from the log and it plays on). The
player asks for its game every ``ASK_SECONDS`` meanwhile, as a reconnecting browser does. A
command the log holds that the player did not press, or holds twice, is an error. A
:class:`Spectator` watches a game through one gateway while its player plays through another.
"""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path
from typing import Any

from redis import Redis
from sqlalchemy import Engine
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from bench.hosted_players import PlayedGame, Player, Served, Tally, turn_shown
from roguelike.core.game import Game
from roguelike.ground.frames import Cells, apply, text_rows
from roguelike.server.cluster import streams
from roguelike.server.hosted import owners

PATIENCE = 4.0  # seconds a key's frame is waited for before its host is taken for lost
STABLE_SECONDS = 10.0  # a key all handed on, under one owner this long, and not in the log, was lost
SETTLE_SECONDS = 240.0  # a bound far above the work: a key is accepted or lost within seconds of a takeover
REOPEN_SECONDS = 60.0
ASK_SECONDS = 2.0  # how often a player waiting for the log asks for its game (a browser reconnecting)


class Gateways(Served):
    """The site as players reach it: its gateways (tried in turn) and its database."""

    def __init__(self, gateways: list[tuple[str, int]], engine: Engine, redis_url: str) -> None:
        super().__init__(Path())  # no folder: the site's players keep nothing on this side
        self.gateways, self.engine, self.redis_url = gateways, engine, redis_url
        self.redis = Redis.from_url(redis_url, socket_timeout=10)
        self.at = 0
        self.use(0)

    def state_of(self, game: str) -> str:
        """What the site says of a game (for a failure's message): its owner, its name, its input read and not."""
        assert self.engine is not None
        with self.engine.connect() as connection:
            owner = owners.owner_of(connection, game)
        read = self.redis.get(streams.read_key(game))
        newest = self.redis.xrevrange(streams.in_stream(game), count=1)
        claims: list[Any] = list(self.redis.xrange(streams.CLAIMS) or [])
        pending = [entry for entry in claims if (entry[1] or {}).get(b"game") == game.encode()]
        return (
            f"owner {owner}, named {self.redis.get(streams.owner_key(game))!r}, read {read!r}, "
            f"newest {newest[0][0] if newest else None!r}, claims {[entry[0] for entry in pending]}"
        )

    def handing(self, game: str) -> tuple[int, bytes] | None:
        """The game's owner (its token) while every browser message of the game has been handed to a process
        (the in-stream read to its end) and a host has its name on it; None otherwise."""
        assert self.engine is not None
        with self.engine.connect() as connection:
            owner = owners.owner_of(connection, game)
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(streams.read_key(game))
        pipe.xrevrange(streams.in_stream(game), count=1)
        pipe.get(streams.owner_key(game))
        read, newest, named = pipe.execute()
        if owner is None or named is None or (newest and (read is None or bytes(read) != bytes(newest[0][0]))):
            return None
        return owner[1], bytes(read or b"")

    def use(self, index: int) -> None:
        """Talk to the gateway at ``index`` (of the list) from now on."""
        self.at = index % len(self.gateways)
        self.address, self.port = self.gateways[self.at]

    def next_gateway(self) -> None:
        """Move on to the next gateway (the last one failed)."""
        self.use(self.at + 1)


class Stable:
    """How long a value has stayed the same (None never counts as stable)."""

    def __init__(self) -> None:
        self.value: object = None
        self.at = time.monotonic()

    def since(self, value: object) -> float:
        """Seconds ``value`` has been what it is now (0 when it just changed, or is None)."""
        if value is None or value != self.value:
            self.value, self.at = value, time.monotonic()
            return 0.0
        return time.monotonic() - self.at


class ClusterPlayer(Player):
    """A player that rides out killed and cut-off hosts and gateways."""

    def __init__(self, site: Gateways, account: str, think: tuple[float, float], tally: Tally, first: int) -> None:
        assert site.engine is not None
        own = Gateways(site.gateways, site.engine, site.redis_url)  # each player picks and changes its own gateway
        own.use(first)
        super().__init__(own, account, think, 0.0, tally)
        self.site = own
        self.patience = PATIENCE
        self.lost_keys = 0
        self.settled = 0
        self.stop = threading.Event()  # set: stop after the key under way
        self.history: list[tuple[str, float, int]] = []

    def run(self, until: float) -> None:
        """Play games until ``until`` (a monotonic time) or until stopped; what went wrong goes to the tally."""
        try:
            while time.monotonic() < until and not self.stop.is_set():
                self.play_game(until)
        except Exception as error:  # every player's problem is reported, the others go on
            self.tally.errors.append(f"{self.account}: {type(error).__name__}: {error}")
        finally:
            self.hang_up()

    def play_game(self, until: float) -> None:
        """Start or resume the account's game and play it until it ends, the time is up or it is stopped."""
        row, game = self.reopen()
        played = PlayedGame(row.id, self.account, self.site.commands(row.id))
        self.tally.games.append(played)
        while time.monotonic() < until and not self.stop.is_set():
            try:
                self.press_one(game, played)
            except (AssertionError, ConnectionClosed, OSError, TimeoutError):
                row, game = self.settle(played)
                if row.id != played.id:  # its last key ended it while its host was away: /play started another
                    played.ended = True
                    played = PlayedGame(row.id, self.account, self.site.commands(row.id))
                    self.tally.games.append(played)
                continue
            if game.state.game_over:
                self.leave_death_anywhere()
                played.ended = True
                return
            time.sleep(self.rng.uniform(*self.think))

    def settle(self, played: PlayedGame) -> tuple[Any, Game]:
        """A key's frame did not come: the log says whether it was accepted; the game reopened from the log."""
        self.settled += 1
        self.hang_up()
        held = self.wait_for_log(played)
        if held > len(played.commands):
            raise AssertionError(f"{played.id}: the log holds {held} commands, {len(played.commands)} were pressed")
        if held < len(played.commands):  # in a dying process's hands: never accepted
            played.commands.pop()
            self.lost_keys += 1
        logged = self.site.commands(played.id)
        if logged != played.commands:
            raise AssertionError(f"{played.id}: the log is not the commands pressed (a key applied twice or lost)")
        return self.reopen()

    def wait_for_log(self, played: PlayedGame) -> int:
        """How many commands the log holds once it holds the last key, or the key is surely lost: every browser
        message of the game handed to a process, under one owner, for ``STABLE_SECONDS`` without the log taking
        it (a key handed to a process that died is never handed again). The game is asked for meanwhile."""
        deadline, asked, stable = time.monotonic() + SETTLE_SECONDS, 0.0, Stable()
        while (held := self.site.command_count(played.id)) < len(played.commands):
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{played.id}: the last key was neither accepted nor lost in {SETTLE_SECONDS:g} s "
                    f"({self.site.state_of(played.id)})"
                )
            if stable.since(self.site.handing(played.id)) >= STABLE_SECONDS:
                return held
            if time.monotonic() - asked >= ASK_SECONDS:  # as a browser reconnecting does, the game is asked for
                asked = time.monotonic()
                self.ask_for_game()
            time.sleep(0.05)
        return held

    def ask_for_game(self) -> None:
        """Open ``/play`` (so the game is claimed if no host runs it), through the next gateway if this one fails."""
        try:
            self.site.get("/play", self.account)
        except OSError:
            self.site.next_gateway()

    def reopen(self) -> tuple[Any, Game]:
        """``/play`` and the socket, through the next gateway whenever one fails."""
        deadline = time.monotonic() + REOPEN_SECONDS
        while True:
            try:
                self.patience = REOPEN_SECONDS / 4
                return self.open_game()
            except (AssertionError, ConnectionClosed, OSError, TimeoutError):
                self.hang_up()
                if time.monotonic() > deadline:
                    raise
                self.site.next_gateway()
                time.sleep(0.2)
            finally:
                self.patience = PATIENCE

    def leave_death_anywhere(self) -> None:
        """Leave the death's screens; a gateway lost meanwhile is no matter (the game is over in the log)."""
        try:
            self.leave_death()
        except (ConnectionClosed, OSError, TimeoutError):
            self.hang_up()


class Spectator:
    """Someone watching a game through one gateway: the screen as they see it."""

    def __init__(self, address: str, port: int, game: str) -> None:
        origin = Origin(f"http://{address}:{port}")
        self.open = contextlib.ExitStack()
        url = f"ws://{address}:{port}/ws/watch/{game}"
        self.socket: ClientConnection = self.open.enter_context(connect(url, origin=origin, max_size=None))
        self.cells: Cells | None = None

    def turn(self, seconds: float) -> int | None:
        """Take what comes for ``seconds``; the turn the screen shows then."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = self.socket.recv(timeout=left)
            except TimeoutError:
                break
            if isinstance(message, bytes):
                self.cells = apply(self.cells, message)
        return None if self.cells is None else turn_shown(text_rows(self.cells))

    def close(self) -> None:
        """Stop watching."""
        with contextlib.suppress(Exception):
            self.open.close()
