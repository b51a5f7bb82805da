"""Bot players of hosted play on several machines, for the cluster test and bench: they ride out lost hosts.

A :class:`Gateways` is the players' view of the site: its gateways (any may be dead for a while:
a player whose gateway fails goes on through the next) and its PostgreSQL, where the log is
read. A :class:`ClusterPlayer` plays as :class:`bench.hosted_players.Player` does, except that a
key whose frame does not come within ``patience`` (its game's host was killed or cut off, or its
gateway) is *pending*: the player never saw it accepted. The player reopens its game (through the
next gateway when one fails), takes the log as it is then for its copy of the game, and plays on.
A pending key may still be applied later, or never (it died in a process's hands, or with its
gateway before reaching Redis); no clock decides which. The next key whose frame *does* come
settles every pending key before it: a game's keys are applied in the order they reach it, so
once a later key is applied, what the log holds before it is final. The log holds commands, not
keys, so while keys are pending the player presses a command none of them is: the log can then
tell that key from theirs. Then the log must be the
commands known before, some of the pending keys in the order pressed (each at most once), and
that key. A key's frame is one that shows the player's ``@`` where its command left it and nowhere
else (a stray ``@`` is no proof); a key that shows nothing is taken when the log holds it at its place,
not when it holds as many commands. A copy rebuilt from a log that ends in a death presses nothing:
its death screens are left. A player told to stop with keys still pending presses on until one is
confirmed. A :class:`Spectator` watches a game through one gateway while its player plays through another.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from redis import Redis
from sqlalchemy import Engine
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from bench.hosted_players import PlayedGame, Player, Served, Tally, player_shown, turn_shown
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game
from roguelike.ground.frames import Cells, apply, text_rows
from roguelike.server.cluster import streams
from roguelike.server.hosted import owners
from roguelike.server.hosted.playing import command_bytes

PATIENCE = 4.0  # seconds a key's frame is waited for before the player reconnects (an outcome waits on no clock)
SETTLE_TRIES = 50  # keys a stopped player presses to see one confirmed and its pending ones settled
REOPEN_SECONDS = 240.0  # a bound far above the work: a game is back within seconds of a takeover


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

    def use(self, index: int) -> None:
        """Talk to the gateway at ``index`` (of the list) from now on."""
        self.at = index % len(self.gateways)
        self.address, self.port = self.gateways[self.at]

    def next_gateway(self) -> None:
        """Move on to the next gateway (the last one failed)."""
        self.use(self.at + 1)


class LogBroken(Exception):
    """A log that is not what its player pressed: a key lost after it was seen, applied twice or out of order."""


class Resync(Exception):
    """The log took pending keys before the one just confirmed: the game's copy must be rebuilt from it."""


def step_bytes(step: tuple[int, int] | None) -> bytes:
    """The logged command of a step (None: a wait)."""
    return command_bytes(Wait() if step is None else Move(*step))


class ClusterPlayer(Player):
    """A player that rides out killed and cut-off hosts and gateways."""

    def __init__(self, site: Gateways, account: str, think: tuple[float, float], tally: Tally, first: int) -> None:
        assert site.engine is not None
        own = Gateways(site.gateways, site.engine, site.redis_url)  # each player picks and changes its own gateway
        own.use(first)
        super().__init__(own, account, think, 0.0, tally)
        self.site = own
        self.patience = PATIENCE
        self.lost_keys = 0  # pending keys that turned out never applied
        self.settled = 0  # reconnections after a key's frame did not come
        self.confirmed = 0  # keys whose frame came
        self.pending: list[bytes] = []  # keys pressed since the last confirmed one whose frame never came
        self.sure = 0  # how many commands of the game's log are final (up to the last confirmed key)
        self.by_log = False  # whether the last key showed nothing: only the log can tell it was taken
        self.events: list[str] = []  # what happened to the last keys, for a failure's message

    def play_game(self, until: float) -> None:
        """Start or resume the account's game; play it until it ends, or the time is up or it is stopped and no
        key is pending."""
        row, game = self.reopen()
        played = PlayedGame(row.id, self.account, list(self.opened_with))
        self.tally.games.append(played)
        self.pending, self.sure = [], len(played.commands)
        tries = 0  # keys pressed, once stopped, to settle the pending ones
        while self.pending or (time.monotonic() < until and not self.stop.is_set()):
            if game.state.game_over:  # its log ends in a death (a pending key's, or one its host had not ended yet)
                self.leave_death_anywhere()
                played.ended = True
                return
            if self.stop.is_set() or time.monotonic() >= until:
                tries += 1
                if tries > SETTLE_TRIES:
                    raise AssertionError(f"{played.id}: {SETTLE_TRIES} keys pressed and none confirmed once stopped")
            try:
                self.press_one(game, played)
                self.confirm(played)
            except (Resync, AssertionError, ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                if not isinstance(error, Resync):  # its frame never came: pending
                    self.events.append(f"{played.commands[-1]!r} pending ({len(played.commands)}): {error}")
                    self.pending.append(played.commands.pop())
                row, game = self.settle(played)
                if row.id != played.id:  # a key ended it while its copy was stale: /play started another
                    played.ended, self.pending = True, []
                    played = PlayedGame(row.id, self.account, list(self.opened_with))
                    self.tally.games.append(played)
                    self.sure = len(played.commands)
                continue
            if game.state.game_over:
                self.leave_death_anywhere()
                played.ended = True
                return
            time.sleep(self.rng.uniform(*self.think))

    def choose_step(self, steps: list[tuple[int, int]], points: int) -> tuple[int, int] | None:
        """With keys pending, a command none of them is (the log can then tell this key from theirs)."""
        if not self.pending:
            return super().choose_step(steps, points)
        unlike = [step for step in [None, *steps] if step_bytes(step) not in self.pending]
        return self.rng.choice(unlike) if unlike else super().choose_step(steps, points)

    def confirm(self, played: PlayedGame) -> None:
        """The last key's frame came. With keys pending, the log decides: it must be the known commands, some
        pending keys in the order pressed, then this key, a command none of them is (else AssertionError: not
        yet told apart; the key is pending too). Pending keys applied meanwhile make the game's copy stale:
        Resync has it rebuilt. A log that cannot be what was pressed is LogBroken."""
        key = played.commands[-1]
        unshown, self.by_log = self.by_log, False
        if not self.pending:
            if unshown:
                self.check_logged(played)
            self.count_confirmed(played)
            return
        logged = self.site.commands(played.id)
        self.events.append(f"{key!r} shown with {self.pending} pending: the log holds {len(logged)}")
        if key in self.pending or not logged or logged[-1] != key or len(logged) <= self.sure:
            raise AssertionError(f"{played.id}: the log does not yet tell this key from the pending ones")
        self.check_log(played, logged[:-1])
        applied = len(logged) - 1 - self.sure
        self.lost_keys += len(self.pending) - applied
        stale = logged != played.commands
        played.commands[:] = logged
        self.pending = []
        self.count_confirmed(played)
        if stale:
            raise Resync(f"{played.id}: {applied} pending keys were applied before this one")

    def placed(self, rows: list[str], where: tuple[int, int], stepped: bool, over: bool) -> bool:
        """The map shows the player where the command left it and nowhere else, after a wait as after a step: an
        ``@`` left on a screen out of step, or a command this copy does not know of, is not this key's frame."""
        return over or player_shown(rows) == {where}

    def until_logged(self, played: PlayedGame) -> None:
        """Wait until the log holds as many commands as were pressed; :meth:`confirm` then reads what it holds."""
        super().until_logged(played)
        self.by_log = True

    def check_logged(self, played: PlayedGame) -> None:
        """A key that showed nothing, with none pending: the log must hold it at its place, not merely as many
        commands (AssertionError if it does not: the key is pending, and the log then decides)."""
        logged = self.site.commands(played.id)[: len(played.commands)]
        if logged != played.commands:
            raise AssertionError(f"{played.id}: the log holds {len(logged)} commands, not those pressed")

    def count_confirmed(self, played: PlayedGame) -> None:
        """The last key is in the log, and everything before it is final."""
        self.confirmed += 1
        self.sure = len(played.commands)
        self.events.append(f"{played.commands[-1]!r} confirmed ({len(played.commands)})")

    def check_log(self, played: PlayedGame, logged: list[bytes]) -> None:
        """The log (up to the key being confirmed) is the final commands and some pending ones, in order."""
        if logged[: self.sure] != played.commands[: self.sure]:
            raise LogBroken(
                f"{played.id}: the log lost or changed commands whose frames were seen: {self.parted(played, logged)}"
            )
        rest = iter(self.pending)
        if not all(any(command == pressed for pressed in rest) for command in logged[self.sure :]):
            raise LogBroken(
                f"{played.id}: the log holds a command not pressed, twice, or out of order: "
                f"{logged[self.sure :]} after pending {self.pending} ({self.site.state_of(played.id)}); "
                f"the last keys: {self.events[-12:]}"
            )

    def parted(self, played: PlayedGame, logged: list[bytes]) -> str:
        """Where the log and the commands known part, for a failure's message."""
        known = played.commands
        at = next(
            (i for i, (a, b) in enumerate(zip(logged, known, strict=False)) if a != b), min(len(logged), len(known))
        )
        return (
            f"they part at {at} (the log {logged[at : at + 3]}, known {known[at : at + 3]}), the log holds "
            f"{len(logged)}, {len(known)} known, {self.sure} sure, pending {self.pending} "
            f"({self.site.state_of(played.id)}); the last keys: {self.events[-12:]}"
        )

    def settle(self, played: PlayedGame) -> tuple[Any, Game]:
        """A key's frame did not come: reconnect, and take the log as it is now for the game's copy."""
        self.settled += 1
        self.hang_up()
        row, game = self.reopen()
        logged = self.opened_with if row.id == played.id else self.site.commands(played.id)
        self.events.append(f"reopened: the log holds {len(logged)}, {len(played.commands)} known")
        self.check_log(played, logged)
        played.commands[:] = logged
        return row, game

    def reopen(self) -> tuple[Any, Game]:
        """``/play`` and the socket, through the next gateway whenever one fails."""
        deadline = time.monotonic() + REOPEN_SECONDS
        while True:
            try:
                self.patience = REOPEN_SECONDS / 16
                return self.open_game()
            except (AssertionError, ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                self.hang_up()
                if time.monotonic() > deadline:
                    raise AssertionError(
                        f"{self.account}: no gateway gave the game back in {REOPEN_SECONDS:g} s: {error}"
                    ) from error
                self.site.next_gateway()
                time.sleep(0.2)
            finally:
                self.patience = PATIENCE

    def leave_death_anywhere(self) -> None:
        """Leave the death's screens; a gateway or host lost meanwhile (the socket closed without the game's
        reason) is no matter: the game is over in the log, which the test checks."""
        try:
            self.leave_death()
        except (AssertionError, ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
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
