"""``hedonic serve gateway``: the pages and sockets of hosted play, holding no game, for games run by hosts.

A gateway serves what ``hedonic serve --play`` serves (``/play``, ``/lobby``, ``/watch``, the
accounts' pages, the board) with the same routes (:class:`~roguelike.server.hosted.routes.HostedPlay`),
but its games are :class:`RemoteGame`\\ s: a player's messages go to the game's in-stream, and what
the game shows comes from its out-stream, read by one :class:`Follower` for every game followed
here and fanned out to this gateway's viewers with the rules of
:class:`~roguelike.ground.fanout.Fanout`. A game starting to be followed reads its out-stream back
to the newest keyframe, so a late joiner or a reconnect through another gateway sees the screen
at once. Whenever a game is opened or played and no host has its name on it, the gateway asks for
it to be run (the claims stream). A gateway that dies loses nothing: its sockets drop, and the
browser reconnects through another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from roguelike.ground.fanout import Fanout
from roguelike.ground.frames import KEYFRAME, FrameError, apply, inflated
from roguelike.server.cluster import streams
from roguelike.server.hosted import log
from roguelike.server.hosted.host import COLUMNS, ROWS
from roguelike.server.hosted.routes import HostedPlay

logger = logging.getLogger(__name__)
# seconds: a game's owner is looked for at most this often for its keys, and not while it adds to the game's
# out-stream (a dead host's games are taken over from its claims, not from these asks)
ASK_EVERY = 0.5
SWEEP_SECONDS = 5.0


def is_keyframe(packed: bytes) -> bool:
    """Whether a frame message (compressed or not) holds the whole screen."""
    try:
        return inflated(packed)[0] == KEYFRAME
    except (FrameError, IndexError):
        return False


class RemoteGame(Fanout):
    """A game run by some host, as this gateway's viewers see it."""

    def __init__(self, row: log.HostedRow, gateway: Follower) -> None:
        super().__init__(COLUMNS, ROWS)
        self.row, self.gateway = row, gateway
        self.failed_starts = 0
        self.running = False  # no process here, ever: a game with no viewers is let go
        self.synced = False  # whether the screen here is the game's (a keyframe read)
        self.last_id = b"0-0"  # the out-stream entry read last
        self.token = 0  # the newest owner's token seen: entries of an older one are dropped
        self.shown = row.account
        self.asked_at = -ASK_EVERY
        self.heard_at = -ASK_EVERY  # when its owner last added to its out-stream (a host that runs it)
        self.watched_at = time.monotonic()  # when it was made, or last had a viewer here at a sweep
        self.on_gone: Callable[[Any], None] = lambda game: None

    @property
    def title(self) -> str:
        """What spectators see the game called: the account, and what its screen says."""
        return f"{self.row.account}: {self.shown}" if self.shown != self.row.account else self.row.account

    async def ensure_running(self) -> bool:
        """Follow the game here and have a host run it if none does."""
        await self.gateway.follow(self)
        await self.ask_for_host()
        return not self.finished

    async def ask_for_host(self) -> None:
        """Ask for the game to be run if no host has its name on it."""
        self.asked_at = time.monotonic()
        await self.gateway.ask_for_host(self.row.id)

    def forward(self, message: bytes) -> None:
        """Hand the player's message to whichever host runs the game (asked for if none was heard from lately)."""
        self.gateway.send(self.row.id, streams.EVENT, message)
        now = time.monotonic()
        if now - max(self.asked_at, self.heard_at) >= ASK_EVERY:
            self.asked_at = now
            asyncio.get_running_loop().create_task(self.ask_for_host())

    def take(self, entry_id: bytes, fields: dict[bytes, bytes], backlog: bool = False) -> None:
        """One entry of the out-stream (an older owner's dropped; a close in the backlog is an old one's)."""
        self.last_id = entry_id
        token = streams.token_of(fields)
        if token and token < self.token:
            return  # a host that lost the game, still sending what it had
        self.token = max(self.token, token)
        if not backlog:
            self.heard_at = time.monotonic()
        kind, payload = streams.entry(fields)
        try:
            if kind == streams.FRAME and (self.synced or is_keyframe(payload)):
                self.show(payload)
            elif kind == streams.KEYFRAME:
                self.mend(payload)
        except FrameError as error:  # a frame that does not fit the screen here: wait for the next keyframe
            logger.warning("game %s: %s", self.row.id, error)
            self.synced = False
        if kind == streams.TITLE:
            self.shown = payload.decode("utf-8", "replace")[:200]
            self.tell_count()
        elif kind == streams.CLOSED and not backlog:
            self.finish(payload.decode("utf-8", "replace")[:200])

    def show(self, packed: bytes) -> None:
        """A frame to the viewers (the screen here brought to it)."""
        after = apply(self.screenful.cells if self.synced else None, packed)
        self.synced = True
        self.send_message(packed, after)

    def mend(self, packed: bytes) -> None:
        """A keyframe the host adds now and then: the screen here brought to it if it fell out of step."""
        whole = apply(None, packed)
        if not self.synced:
            self.synced = True
            self.send_message(packed, whole)
        elif not (whole == self.screenful.cells).all():
            self.send_cells(whole)


class Follower:
    """A gateway's one reader of the out-streams of every game it follows, and its writer of their keys."""

    def __init__(self, redis: Any, name: str) -> None:
        self.redis, self.name = redis, name
        self.games: dict[str, RemoteGame] = {}
        self.waking = streams.wake_stream(name)
        self.keys: asyncio.Queue[tuple[str, bytes, bytes]] = asyncio.Queue()

    async def follow(self, game: RemoteGame) -> None:
        """Start reading a game's out-stream: its backlog from the newest keyframe, then as it comes."""
        if self.games.get(game.row.id) is game:
            return
        backlog = await self.redis.xrevrange(streams.out_stream(game.row.id), count=streams.OUT_LENGTH)
        if self.games.get(game.row.id) is game:
            return  # followed meanwhile (two viewers at once)
        start = newest_screen(backlog)
        game.last_id = bytes(backlog[0][0]) if backlog else b"0-0"
        self.games[game.row.id] = game  # no await from here on: the reader goes on after the backlog
        for entry_id, fields in reversed(backlog[: start + 1] if start is not None else []):
            game.take(bytes(entry_id), fields, backlog=True)
        if start is None:
            self.send(game.row.id, streams.SYNC, b"")
        self.wake()

    def wake(self) -> None:
        """Have the reader read again, with the games followed now."""
        self.keys.put_nowait(("", b"", b""))

    def unfollow(self, game: RemoteGame) -> None:
        """Stop reading a game's out-stream."""
        if self.games.get(game.row.id) is game:
            del self.games[game.row.id]

    async def ask_for_host(self, game: str) -> None:
        """Add the game to the claims stream unless a host has its name on it."""
        if await self.redis.get(streams.owner_key(game)) is None:
            await self.redis.xadd(streams.CLAIMS, {b"game": game.encode()})

    def send(self, game: str, kind: bytes, payload: bytes) -> None:
        """Queue an entry of a game's in-stream (written in order by :meth:`write_keys`)."""
        self.keys.put_nowait((game, kind, payload))

    async def write_keys(self) -> None:
        """Write the queued in-stream entries, all that wait in one round trip."""
        while True:
            batch = [await self.keys.get()]
            while not self.keys.empty():
                batch.append(self.keys.get_nowait())
            pipe = self.redis.pipeline(transaction=False)
            for game, kind, payload in batch:
                if not game:  # a wake for the reader
                    pipe.xadd(self.waking, {b"w": b""}, maxlen=16, approximate=True)
                else:
                    pipe.xadd(streams.in_stream(game), {kind: payload}, maxlen=streams.IN_LENGTH, approximate=True)
            try:
                await pipe.execute()
            except Exception as error:  # noqa: BLE001 (Redis away: these keys are lost, as a dropped socket's are)
                logger.warning("in-streams: %d entries lost: %s", len(batch), error)

    async def read(self) -> None:
        """Read every followed game's out-stream as entries come, until cancelled."""
        woken = b"0-0"
        while True:
            try:
                woken = await self.read_once(woken)
            except Exception as error:  # noqa: BLE001 (Redis away: wait and read again)
                logger.warning("out-streams: %s", error)
                await asyncio.sleep(0.25)

    async def read_once(self, woken: bytes) -> bytes:
        """One read of the wake stream and every followed game's out-stream; where the wake stream was read to."""
        if woken == b"0-0":
            newest = await self.redis.xrevrange(self.waking, count=1)
            woken = bytes(newest[0][0]) if newest else b"$"
        wanted = {self.waking: woken, **{streams.out_stream(g): game.last_id for g, game in self.games.items()}}
        found = await self.redis.xread(wanted, count=256, block=1000)
        for stream, entries in found or []:
            name = streams.text_of(stream)
            if name == self.waking:
                woken = bytes(entries[-1][0])
                continue
            game = self.games.get(name.removeprefix("hedonic:out:"))
            for entry_id, fields in entries:
                if game is not None and self.games.get(game.row.id) is game:
                    game.take(bytes(entry_id), fields)
        return woken


def newest_screen(backlog: list[Any]) -> int | None:
    """Where in an out-stream's backlog (newest first) the newest owner's newest whole screen is (None: none).

    An older owner's late keyframe (a host cut off, still writing) is no place to start: the newest owner's
    frames that follow would be applied to a screen that is not theirs."""
    newest = max((streams.token_of(fields) for _, fields in backlog), default=0)
    for at, (_, fields) in enumerate(backlog):
        if starts_screen(fields) and streams.token_of(fields) in (0, newest):
            return at
    return None


def starts_screen(fields: dict[bytes, bytes]) -> bool:
    """Whether an out-stream entry holds a whole screen (a keyframe, or a process's first frame)."""
    kind, payload = streams.entry(fields)
    return kind == streams.KEYFRAME or (kind == streams.FRAME and is_keyframe(payload))


class GatewayPlay(HostedPlay):
    """Hosted play's routes on a gateway: every game run by hosts elsewhere."""

    def __init__(self, *arguments: Any, redis: Any, name: str, **options: Any) -> None:
        self.follower = Follower(redis, name)
        super().__init__(*arguments, **options)

    def prepare(self) -> None:
        """Nothing to ready: a gateway runs no game."""

    def new_game(self, row: log.HostedRow) -> RemoteGame:
        """A game to follow here."""
        game = RemoteGame(row, self.follower)
        game.on_gone = self.forget
        game.on_finish = lambda: self.let_go(game)
        return game

    def let_go(self, game: RemoteGame) -> None:
        """Stop following a game (closed, or nobody here watches it)."""
        self.follower.unfollow(game)
        if self.games.get(game.row.id) is game:
            del self.games[game.row.id]

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Read the out-streams and write the keys while serving."""
        loops = [asyncio.create_task(loop) for loop in (self.follower.read(), self.follower.write_keys(), self.sweep())]
        try:
            yield
        finally:
            for loop in loops:
                loop.cancel()
            await asyncio.gather(*loops, return_exceptions=True)

    async def sweep(self) -> None:
        """Stop following the games nobody here watches."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            now = time.monotonic()
            for game in list(self.games.values()):
                if isinstance(game, RemoteGame) and game.viewers():
                    game.watched_at = now
                elif isinstance(game, RemoteGame) and now - game.watched_at >= SWEEP_SECONDS:
                    self.let_go(game)
