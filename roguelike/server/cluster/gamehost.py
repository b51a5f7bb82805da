"""``hedonic serve host``: a host of several, running the games it claims and taking over those of a dead host.

A :class:`GameHost` reads the claims stream as one consumer of the ``hosts`` group
(:class:`~roguelike.server.cluster.claims.Claims`). For each game claimed it checks no live host
runs it (``hedonic:owner:{game}``), takes the game's advisory lock in its
:class:`~roguelike.server.cluster.ownership.OwnerSession`, bumps the game's fencing token, and
starts its process (a :class:`~roguelike.server.cluster.hostgame.ClusterGame`). While it runs a
game it keeps the claim pending and touches it every tick, and renews its name on the game; a
claim that falls idle (its host dead or cut off) is taken by another host's ``XAUTOCLAIM``, which
tries the lock until PostgreSQL has let the old session go. A host whose own session is lost (cut
off) kills every game process it has at once and forgets them: it writes nothing more.

Three loops: :meth:`GameHost.claims` (new claims), :meth:`GameHost.ticks` (touch, renew, take
stale claims, retry locks, stop idle games, add a keyframe where frames were lost),
:meth:`GameHost.inputs` (browser messages from the games' in-streams to their processes); an
:class:`~roguelike.server.cluster.outbox.Outbox` writes what they show. None of them ends on an error
of Redis or PostgreSQL: each waits and goes on.
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
from roguelike.server.cluster.claims import Claims
from roguelike.server.cluster.hostgame import ClusterGame
from roguelike.server.cluster.outbox import Outbox
from roguelike.server.cluster.ownership import OwnerSession
from roguelike.server.cluster.readmarks import ReadMarks
from roguelike.server.hosted import log, owners
from roguelike.server.hosted.committer import Committer
from roguelike.server.hosted.host import Ended, HostedGame, PlayOptions

logger = logging.getLogger(__name__)
FORGET = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
KEEPS_STOPPING = "This game's process keeps stopping: its log keeps it; reload the page to try again."


def host_name() -> str:
    """A name for this host's run: its machine, and a random part (a restarted host is another consumer)."""
    return f"{socket.gethostname()}-{secrets.token_hex(3)}"


class GameHost:
    """The games one host runs, its claims, and its hold on them."""

    def __init__(
        self,
        engine: Engine,
        redis: Any,
        session: OwnerSession,
        options: PlayOptions,
        ended: Ended,
        name: str,
        keys: Engine | None = None,
    ) -> None:
        self.engine, self.redis, self.session, self.options, self.ended = engine, redis, session, options, ended
        self.name = name
        self.committer = Committer(keys or engine)  # ``keys``: the engine the games' commands are written with
        self.outbox = Outbox(redis)
        self.marks = ReadMarks(redis)
        self.claims = Claims(redis, name)
        self.games: dict[str, ClusterGame] = {}
        self.locked: set[str] = set()  # games whose advisory lock this session holds (once each: locks count)
        self.reading: dict[str, bytes] = {}  # game -> the id of the last browser message handed on
        self.taking: set[str] = set()  # games whose lock is being tried now
        self.waking = streams.wake_stream(name)
        self.leaving = False  # the host is stopping: its games' claims are left to fall to the others

    async def run(self) -> None:
        """Serve until cancelled; on the way out end every game's process (their claims fall to other hosts)."""
        await self.session.open()
        await self.claims.ensure_group()
        loops = [self.take_claims(), self.ticks(), self.inputs(), self.outbox.run(), self.marks.run()]
        try:
            await asyncio.gather(*loops)
        finally:
            self.leaving = True
            for game in list(self.games.values()):
                game.kill()
            pumps = [game.pump for game in self.games.values() if game.pump is not None]
            await asyncio.gather(*pumps, return_exceptions=True)
            self.committer.close()
            await self.session.close()

    async def take_claims(self) -> None:
        """Take new claims as they come."""
        while True:
            try:
                found = await self.claims.new()
            except Exception as error:  # noqa: BLE001 (Redis away: wait and read again)
                logger.warning("claims: %s", error)
                await asyncio.sleep(streams.TICK)
                continue
            for game, entry_id in found:
                await self.consider(game, entry_id)

    async def consider(self, game: str, entry_id: bytes) -> None:
        """A claim of a game: kept if this host may run it, else handed on or let go (an error: the next tick)."""
        try:
            if game in self.games or game in self.claims.wanted or not game:
                if entry_id not in (self.claims.held.get(game), self.claims.wanted.get(game)):
                    await self.claims.done(entry_id)  # one claim per game is enough
                return
            self.claims.wanted[game] = entry_id
            await self.try_take(game)
        except Exception as error:  # noqa: BLE001 (the claim stays pending: some host's tick takes it up)
            logger.warning("claim of %s: %s", game, error)

    async def try_take(self, game: str) -> None:
        """Run a wanted game if no live host does and its lock can be had (else try again next tick)."""
        if game in self.taking or game not in self.claims.wanted:
            return  # being tried already (the claims loop and the ticks both try)
        self.taking.add(game)
        try:
            await self.take_if_free(game)
        finally:
            self.taking.discard(game)

    async def take_if_free(self, game: str) -> None:
        """Take a wanted game: handed to its live owner, let go if over, or run here once its lock is had."""
        entry_id = self.claims.wanted[game]
        owner = await self.redis.get(streams.owner_key(game))
        if owner is not None and streams.text_of(owner) != self.name:  # alive elsewhere: the claim is its
            self.claims.wanted.pop(game, None)
            await self.claims.hand_to(streams.text_of(owner), entry_id)
            return
        row = await asyncio.to_thread(self.row_of, game)
        if row is None or row.status != log.LIVE:
            self.claims.wanted.pop(game, None)
            if row is not None:  # its host may have died between ending it and telling the gateways
                self.outbox.send(game, streams.CLOSED, b"The game is over.", 0)
            await self.claims.done(entry_id)
            return
        if not await self.lock(game):
            return
        try:
            await self.win(row)
        except Exception:
            await self.unlock(game)
            raise

    async def win(self, row: log.HostedRow) -> None:
        """The lock is had: bump the token, put this host's name on the game, and start it."""
        token = await asyncio.to_thread(self.take_over, row.id)
        await self.redis.set(streams.owner_key(row.id), self.name, px=streams.OWNER_TTL_MS)
        entry_id = self.claims.wanted.pop(row.id, None)
        if entry_id is None:  # the hold was lost meanwhile (a new session holds no lock)
            raise ConnectionError("the owner session was lost while the game was being taken")
        self.claims.held[row.id] = entry_id
        await self.start(row, token)

    async def lock(self, game: str) -> bool:
        """Take a game's advisory lock once (a second take would need a second release)."""
        if game not in self.locked and await self.session.lock(game):
            self.locked.add(game)
        return game in self.locked

    async def unlock(self, game: str) -> None:
        """Let a game's advisory lock go."""
        if game in self.locked:
            self.locked.discard(game)
            with contextlib.suppress(Exception):
                await self.session.unlock(game)

    async def start(self, row: log.HostedRow, token: int) -> None:
        """Start running a game this host has won (given up, its claim left to fall idle, if it cannot start)."""
        read = await self.redis.get(streams.read_key(row.id)) or b"0-0"  # none handed on yet: from the first
        game = ClusterGame(row, self.engine, self.committer, self.options, self.ended, token, self)
        game.on_gone = self.forget
        self.games[row.id] = game
        self.reading[row.id] = bytes(read)
        try:
            started = await game.ensure_running()
        except Exception as error:  # noqa: BLE001 (no plan or no fork now: another host, or this one later)
            logger.warning("game %s could not start here: %s", row.id, error)
            self.lost(game)
            await self.unlock(row.id)
            return
        if not started:
            game.finish(KEEPS_STOPPING)
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
            self.lose_everything()
            await self.session.open()
            return
        self.mend_screens()  # only once the hold is known: a host cut off writes nothing more
        await self.touch()
        for game, entry_id in await self.claims.stale():
            await self.consider(game, entry_id)
        for game in list(self.claims.wanted):
            await self.try_take(game)
        now = time.monotonic()
        for running in list(self.games.values()):
            if running.idle(now):
                running.stop()

    def mend_screens(self) -> None:
        """A keyframe of each game here whose out-stream lost entries (written with the next entries)."""
        for game in self.outbox.take_unsynced():
            running = self.games.get(game)
            if running is not None and not running.lost:
                running.send_keyframe()

    async def touch(self) -> None:
        """Keep this host's claims from falling idle and its name on its games from expiring."""
        pipe = self.redis.pipeline(transaction=False)
        for game in self.games:
            pipe.set(streams.owner_key(game), self.name, px=streams.OWNER_TTL_MS)
        await pipe.execute()
        try:
            await self.claims.touch()
        except Exception as error:
            if "NOGROUP" in str(error):  # Redis lost its data: the group again (the gateways claim again)
                await self.claims.ensure_group()
            raise

    def lose_everything(self) -> None:
        """The hold is gone (the session lost): kill every process at once and forget every game, writing nothing."""
        logger.warning("host %s lost its PostgreSQL session: letting its %d games go", self.name, len(self.games))
        for game in list(self.games.values()):
            self.lost(game)
        self.claims.forget()
        self.locked.clear()

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
            self.marks.forget(game.row.id)
            self.claims.held.pop(game.row.id, None)

    def forget(self, game: HostedGame) -> None:
        """A game's process ended for good here (stopped idle, over, closed): let the game go for others."""
        if isinstance(game, ClusterGame) and not game.lost and not self.leaving and self.games.get(game.row.id) is game:
            asyncio.get_running_loop().create_task(self.let_go(game))

    async def let_go(self, game: ClusterGame) -> None:
        """Release a game: its claim done, its name and lock given up; an ended game's streams expire."""
        held = self.claims.held.get(game.row.id)
        self.drop(game)
        with contextlib.suppress(Exception):
            await self.outbox.flushed()
            if held is not None:
                await self.claims.done(held)
            await self.redis.eval(FORGET, 1, streams.owner_key(game.row.id), self.name)
            if game.over:
                for key in streams.game_keys(game.row.id):
                    await self.redis.expire(key, 60)
        await self.unlock(game.row.id)

    def send(self, game: str, kind: bytes, payload: bytes, token: int) -> None:
        """Queue an entry of a game's out-stream, stamped with its owner's token."""
        self.outbox.send(game, kind, payload, token)

    def ready(self, game: ClusterGame) -> None:
        """A process showed its first frame: its in-stream joins what the input loop reads."""
        self.outbox.wake(self.waking)

    async def inputs(self) -> None:
        """Hand each running game's browser messages to its process, its read mark written meanwhile."""
        woken = b"0-0"
        while True:
            try:
                woken = await self.read_inputs(woken)
            except Exception as error:  # noqa: BLE001 (Redis away: wait and read again)
                logger.warning("inputs: %s", error)
                await asyncio.sleep(streams.TICK)

    async def read_inputs(self, woken: bytes) -> bytes:
        """One read of every ready game's in-stream (and the wake stream); where the wake stream was read to."""
        if woken == b"0-0":
            newest = await self.redis.xrevrange(self.waking, count=1)
            woken = newest[0][0] if newest else b"$"
        wanted = {self.waking: woken}
        wanted.update({streams.in_stream(game): read for game, read in self.reading.items() if self.is_ready(game)})
        found = await self.redis.xread(wanted, count=64, block=1000)
        for stream, entries in found or []:
            if streams.text_of(stream) == self.waking and entries:
                woken = entries[-1][0]
        self.hand_on(found or [])
        return woken

    def is_ready(self, game: str) -> bool:
        """Whether a game's process has shown its first frame (its input is read only then)."""
        running = self.games.get(game)
        return running is not None and running.ready_told

    def hand_on(self, found: list[Any]) -> None:
        """Give each game its messages at once, its read mark queued to be written meanwhile (its commands wait
        for it: :meth:`marked`)."""
        for stream, entries in found:
            game = self.games.get(streams.text_of(stream).removeprefix("hedonic:in:"))
            if game is None or not entries:
                continue
            last = bytes(entries[-1][0])
            self.reading[game.row.id] = last
            self.marks.note(game.row.id, last)
            for _, fields in entries:
                kind, payload = streams.entry(fields)
                if kind == streams.EVENT:
                    game.forward(payload)
                elif kind == streams.SYNC:
                    game.send_keyframe()

    async def marked(self, game: str) -> None:
        """Wait until the read mark of every message handed to the game's process so far is written."""
        await self.marks.covered(game)
