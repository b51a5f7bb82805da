"""Bot players of hosted play on several machines, for the cluster test and bench: they ride out lost hosts.

A :class:`Gateways` is the players' view of the site: its gateways (any may be dead for a while:
a player whose gateway fails goes on through the next) and its PostgreSQL, where the log is
read. A :class:`ClusterPlayer` plays as :class:`bench.hosted_players.Player` does, except that a
key whose frame does not come within ``patience`` (its game's host was killed or cut off) is
settled by the log: accepted (the log holds it: the player reconnects and sees it), or lost (the
log never takes it within ``LOST_SECONDS``: it was in the hands of a process that died, and was
never accepted: the player's copy of the game is rebuilt from the log and it plays on). A
command the log holds that the player did not press, or holds twice, is an error. A
:class:`Spectator` watches a game through one gateway while its player plays through another.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from bench.hosted_players import PlayedGame, Player, Served, Tally, turn_shown
from roguelike.core.game import Game
from roguelike.ground.frames import Cells, apply, text_rows

PATIENCE = 4.0  # seconds a key's frame is waited for before its host is taken for lost
LOST_SECONDS = 30.0  # a key the log has not taken this long after its host went was never accepted
REOPEN_SECONDS = 60.0


class Gateways(Served):
    """The site as players reach it: its gateways (tried in turn) and its database."""

    def __init__(self, gateways: list[tuple[str, int]], engine: Engine) -> None:
        super().__init__(Path())  # no folder: the site's players keep nothing on this side
        self.gateways, self.engine = gateways, engine
        self.at = 0
        self.use(0)

    def use(self, index: int) -> None:
        """Talk to the gateway at ``index`` (of the list) from now on."""
        self.at = index % len(self.gateways)
        self.address, self.port = self.gateways[self.at]

    def next_gateway(self) -> None:
        """Move on to the next gateway (the last one failed)."""
        self.use(self.at + 1)


class ClusterPlayer(Player):
    """A player that rides out killed and cut-off hosts and gateways."""

    def __init__(self, site: Gateways, account: str, think: tuple[float, float], tally: Tally, first: int) -> None:
        assert site.engine is not None
        own = Gateways(site.gateways, site.engine)  # each player picks and changes its own gateway
        own.use(first)
        super().__init__(own, account, think, 0.0, tally)
        self.site = own
        self.patience = PATIENCE
        self.lost_keys = 0
        self.settled = 0

    def play_game(self, until: float) -> None:
        """Start or resume the account's game and play it until it ends or the time is up."""
        row, game = self.reopen()
        played = PlayedGame(row.id, self.account, self.site.commands(row.id))
        self.tally.games.append(played)
        while time.monotonic() < until:
            try:
                self.press_one(game, played)
            except (AssertionError, ConnectionClosed, OSError, TimeoutError):
                game = self.settle(played)
                continue
            if game.state.game_over:
                self.leave_death_anywhere()
                played.ended = True
                return
            time.sleep(self.rng.uniform(*self.think))

    def settle(self, played: PlayedGame) -> Game:
        """A key's frame did not come: the log says whether it was accepted; the game reopened from the log."""
        self.settled += 1
        self.hang_up()
        deadline = time.monotonic() + LOST_SECONDS
        while (held := self.site.command_count(played.id)) < len(played.commands) and time.monotonic() < deadline:
            time.sleep(0.05)
        if held > len(played.commands):
            raise AssertionError(f"{played.id}: the log holds {held} commands, {len(played.commands)} were pressed")
        if held < len(played.commands):  # in a dying process's hands: never accepted
            played.commands.pop()
            self.lost_keys += 1
        logged = self.site.commands(played.id)
        if logged != played.commands:
            raise AssertionError(f"{played.id}: the log is not the commands pressed (a key applied twice or lost)")
        return self.reopen()[1]

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
        self.socket: ClientConnection = connect(f"ws://{address}:{port}/ws/watch/{game}", origin=origin, max_size=None)
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
            self.socket.close()
