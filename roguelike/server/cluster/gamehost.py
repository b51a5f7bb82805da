"""``hedonic serve host``: a host of several, running the games it claims and taking over those of a dead host.

A :class:`GameHost` reads the claims stream as one consumer of the ``hosts`` group. For each game
claimed it checks no live host runs it (``hedonic:owner:{game}``), takes the game's advisory lock
in its :class:`~roguelike.server.cluster.ownership.OwnerSession`, bumps the game's fencing token,
and starts its process (a :class:`~roguelike.server.cluster.hostgame.ClusterGame`). While it runs a
game it keeps the claim pending and touches it every tick, and renews its name on the game; a
claim that falls idle (its host dead or cut off) is taken by another host's ``XAUTOCLAIM``, which
tries the lock until PostgreSQL has let the old session go. A host whose own session is lost (cut
off) kills every game process it has at once and forgets them: it writes nothing more.

Three loops: :meth:`GameHost.claims` (new claims), :meth:`GameHost.ticks` (touch, renew, take
stale claims, retry locks, stop idle games), :meth:`GameHost.inputs` (browser messages from the
games' in-streams to their processes); an :class:`~roguelike.server.cluster.outbox.Outbox` writes
what they show.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import time
from typing import Any

from sqlalchemy import Engine

from roguelike.server.cluster import streams
from roguelike.server.cluster.hostgame import ClusterGame
from roguelike.server.cluster.outbox import Outbox
from roguelike.server.cluster.ownership import OwnerSession
from roguelike.server.hosted import log, owners
from roguelike.server.hosted.committer import Committer
from roguelike.server.hosted.host import Ended, HostedGame, PlayOptions

logger = logging.getLogger(__name__)
FORGET = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def host_name() -> str:
    """A name for this host's run: its machine, and a random part (a restarted host is another consumer)."""
    return f"{socket.gethostname()}-{secrets.token_hex(3)}"


class GameHost:
    """The games one host runs, its claims, and its hold on them."""

    def __init__(
        self, engine: Engine, redis: Any, session: OwnerSession, options: PlayOptions, ended: Ended, name: str
    ) -> None:
        self.engine, self.redis, self.session, self.options, self.ended = engine, redis, session, options, ended
        self.name = name
        self.committer = Committer(engine)
        self.outbox = Outbox(redis)
        self.games: dict[str, ClusterGame] = {}
        self.held: dict[str, bytes] = {}  # game -> the claim this host keeps pending while it runs it
        self.wanted: dict[str, bytes] = {}  # game -> a claim taken whose game is not won yet (its lock busy)
        self.reading: dict[str, bytes] = {}  # game -> the id of the last browser message handed on
        self.taking: set[str] = set()  # games whose lock is being tried now
        self.waking = streams.wake_stream(name)

    async def run(self) -> None:
        """Serve until cancelled; on the way out end every game's process (their claims fall to other hosts)."""
        await self.session.open()
        with contextlib.suppress(Exception):
            await self.redis.xgroup_create(streams.CLAIMS, streams.GROUP, id="0", mkstream=True)
        loops = [self.claims(), self.ticks(), self.inputs(), self.outbox.run()]
        try:
            await asyncio.gather(*loops)
        finally:
            for game in list(self.games.values()):
                game.kill()
            pumps = [game.pump for game in self.games.values() if game.pump is not None]
            await asyncio.gather(*pumps, return_exceptions=True)
            self.committer.close()
            await self.session.close()

    async def claims(self) -> None:
        """Take new claims as they come."""
        while True:
            try:
                found = await self.redis.xreadgroup(
                    streams.GROUP, self.name, {streams.CLAIMS: ">"}, count=16, block=1000
                )
            except Exception as error:  # noqa: BLE001 (Redis away: wait and read again)
                logger.warning("claims: %s", error)
                await asyncio.sleep(streams.TICK)
                continue
            for _, entries in found or []:
                for entry_id, fields in entries:
                    try:
                        await self.consider(streams.text_of(fields.get(b"game", b"")), entry_id)
                    except Exception as error:  # noqa: BLE001 (this claim waits for the next tick's round)
                        logger.warning("claim: %s", error)

    async def consider(self, game: str, entry_id: bytes) -> None:
        """A claim of a game: kept if this host may run it, else handed on or let go."""
        if game in self.games or game in self.wanted or not game:
            if entry_id not in (self.held.get(game), self.wanted.get(game)):
                await self.redis.xack(streams.CLAIMS, streams.GROUP, entry_id)  # one claim per game is enough
            return
        self.wanted[game] = entry_id
        await self.try_take(game)

    async def try_take(self, game: str) -> None:
        """Run a wanted game if no live host does and its lock can be had (else try again next tick)."""
        if game in self.taking or game not in self.wanted:
            return  # being tried already (the claims loop and the ticks both try)
        self.taking.add(game)
        try:
            await self.take_if_free(game)
        finally:
            self.taking.discard(game)

    async def take_if_free(self, game: str) -> None:
        """Take a wanted game: handed to its live owner, let go if over, or run here once its lock is had."""
        entry_id = self.wanted[game]
        owner = await self.redis.get(streams.owner_key(game))
        if owner is not None and streams.text_of(owner) != self.name:  # alive elsewhere: the claim is its
            del self.wanted[game]
            await self.redis.xclaim(streams.CLAIMS, streams.GROUP, streams.text_of(owner), 0, [entry_id], justid=True)
            return
        row = await asyncio.to_thread(self.row_of, game)
        if row is None or row.status != log.LIVE:
            del self.wanted[game]
            if row is not None:  # its host may have died between ending it and telling the gateways
                self.outbox.send(game, streams.CLOSED, b"The game is over.")
            await self.redis.xack(streams.CLAIMS, streams.GROUP, entry_id)
            return
        if not await self.session.lock(game):
            return
        token = await asyncio.to_thread(self.take_over, game)
        await self.redis.set(streams.owner_key(game), self.name, px=streams.OWNER_TTL_MS)
        self.held[game] = self.wanted.pop(game)
        await self.start(row, token)

    async def start(self, row: log.HostedRow, token: int) -> None:
        """Start running a game this host has won."""
        read = await self.redis.get(streams.read_key(row.id))
        if read is None:  # a game no host ran yet: its messages start now
            newest = await self.redis.xrevrange(streams.in_stream(row.id), count=1)
            read = newest[0][0] if newest else b"0-0"
        game = ClusterGame(row, self.engine, self.committer, self.options, self.ended, token, self)
        game.on_gone = self.forget
        self.games[row.id] = game
        self.reading[row.id] = bytes(read)
        if not await game.ensure_running():
            game.finish("This game's process keeps stopping: its log keeps it; reload the page to try again.")
            await self.let_go(game)

    def row_of(self, game: str) -> log.HostedRow | None:
        """A hosted game's row."""
        with self.engine.connect() as connection:
            return log.game_of(connection, game)

    def take_over(self, game: str) -> int:
        """Bump the game's fencing token to this host's."""
        with self.engine.begin() as connection:
            return owners.take_over(connection, game, self.name)

    async def ticks(self) -> None:
        """Every tick: check the hold, touch claims, renew names, take stale claims, retry wanted games."""
        while True:
            await asyncio.sleep(streams.TICK)
            try:
                await self.tick()
            except Exception as error:  # noqa: BLE001 (Redis or PostgreSQL away for a moment: next tick)
                logger.warning("tick: %s", error)

    async def tick(self) -> None:
        """One round of the host's upkeep."""
        if not await self.session.alive():
            await self.lose_everything()
            await self.session.open()
            return
        await self.touch()
        _, stale, _ = await self.redis.xautoclaim(
            streams.CLAIMS, streams.GROUP, self.name, streams.CLAIM_IDLE_MS, "0-0", count=32
        )
        for entry_id, fields in stale:
            await self.consider(streams.text_of((fields or {}).get(b"game", b"")), entry_id)
        for game in list(self.wanted):
            await self.try_take(game)
        now = time.monotonic()
        for running in list(self.games.values()):
            if running.idle(now):
                running.stop()

    async def touch(self) -> None:
        """Keep this host's claims from falling idle and its name on its games from expiring."""
        pending = [*self.held.values(), *self.wanted.values()]
        pipe = self.redis.pipeline(transaction=False)
        if pending:
            pipe.xclaim(streams.CLAIMS, streams.GROUP, self.name, 0, pending, justid=True)
        for game in self.games:
            pipe.set(streams.owner_key(game), self.name, px=streams.OWNER_TTL_MS)
        await pipe.execute()

    async def lose_everything(self) -> None:
        """The hold is gone (the session lost): kill every process at once and forget every game, writing nothing."""
        logger.warning("host %s lost its PostgreSQL session: letting its %d games go", self.name, len(self.games))
        for game in list(self.games.values()):
            self.lost(game)
        self.held.clear()
        self.wanted.clear()

    def lost(self, game: ClusterGame) -> None:
        """Another host has (or may have) the game: end its process now, clean nothing up."""
        game.lost = True
        game.kill()
        self.drop(game)

    def drop(self, game: HostedGame) -> None:
        """Forget a game here."""
        if self.games.get(game.row.id) is game:
            del self.games[game.row.id]
            self.reading.pop(game.row.id, None)
            self.held.pop(game.row.id, None)

    def forget(self, game: HostedGame) -> None:
        """A game's process ended for good here (stopped idle, over, closed): let the game go for others."""
        if isinstance(game, ClusterGame) and not game.lost and self.games.get(game.row.id) is game:
            asyncio.get_running_loop().create_task(self.let_go(game))

    async def let_go(self, game: ClusterGame) -> None:
        """Release a game: its claim acknowledged, its name and lock given up; an ended game's streams expire."""
        held = self.held.get(game.row.id)
        self.drop(game)
        with contextlib.suppress(Exception):
            await self.outbox.flushed()
            if held is not None:
                await self.redis.xack(streams.CLAIMS, streams.GROUP, held)
            await self.redis.eval(FORGET, 1, streams.owner_key(game.row.id), self.name)
            if game.over:
                for key in streams.game_keys(game.row.id):
                    await self.redis.expire(key, 60)
            await self.session.unlock(game.row.id)

    def send(self, game: str, kind: bytes, payload: bytes) -> None:
        """Queue an entry of a game's out-stream."""
        self.outbox.send(game, kind, payload)

    def ready(self, game: ClusterGame) -> None:
        """A process showed its first frame: its in-stream joins what the input loop reads."""
        self.outbox.wake(self.waking)

    async def inputs(self) -> None:
        """Hand each running game's browser messages to its process, noting the last handed on first."""
        newest = await self.redis.xrevrange(self.waking, count=1)
        woken = newest[0][0] if newest else b"0-0"
        while True:
            wanted = {self.waking: woken}
            wanted.update({streams.in_stream(game): read for game, read in self.reading.items() if self.is_ready(game)})
            try:
                found = await self.redis.xread(wanted, count=64, block=1000)
            except Exception as error:  # noqa: BLE001 (Redis away: wait and read again)
                logger.warning("inputs: %s", error)
                await asyncio.sleep(streams.TICK)
                continue
            for stream, entries in found or []:
                if streams.text_of(stream) == self.waking and entries:
                    woken = entries[-1][0]
            await self.hand_on(found or [])

    def is_ready(self, game: str) -> bool:
        """Whether a game's process has shown its first frame (its input is read only then)."""
        running = self.games.get(game)
        return running is not None and running.ready_told

    async def hand_on(self, found: list[Any]) -> None:
        """Note the last message read of each game, then give each to its game."""
        given: list[tuple[ClusterGame, dict[bytes, bytes]]] = []
        pipe = self.redis.pipeline(transaction=False)
        for stream, entries in found:
            game = self.games.get(streams.text_of(stream).removeprefix("hedonic:in:"))
            if game is None or not entries:
                continue
            last = bytes(entries[-1][0])
            self.reading[game.row.id] = last
            pipe.set(streams.read_key(game.row.id), last)
            given += [(game, fields) for _, fields in entries]
        if not given:
            return
        await pipe.execute()
        for game, fields in given:
            kind, payload = streams.entry(fields)
            if kind == streams.EVENT:
                game.forward(payload)
            elif kind == streams.SYNC:
                game.send_keyframe()
