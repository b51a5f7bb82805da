"""Gateways' screens in step with their games: a host whose write of frames failed adds a keyframe of each game
that lost one at its next tick (never once its hold is lost), and a gateway that starts following a game
starts from its newest owner's screen, not from a cut-off host's late keyframe."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

from roguelike.ground.frames import KEYFRAME, Cells, blank, deflated, inflated, keyframe
from roguelike.server.cluster import streams
from roguelike.server.cluster.gamehost import GameHost
from roguelike.server.cluster.gateway import newest_screen
from roguelike.server.cluster.hostgame import ClusterGame
from roguelike.server.cluster.outbox import Outbox
from roguelike.server.hosted import log
from roguelike.server.hosted.committer import Committer
from roguelike.server.hosted.host import COLUMNS, ROWS, PlayOptions

Entry = tuple[str, dict[bytes, bytes]]


class Pipe:
    """A Redis pipeline that records what it was given and fails while its Redis is away."""

    def __init__(self, redis: FlakyRedis) -> None:
        self.redis = redis
        self.entries: list[Entry] = []

    def xadd(self, stream: str, fields: dict[bytes, bytes], **_: Any) -> None:
        self.entries.append((stream, fields))

    def set(self, *_: Any, **__: Any) -> None:
        """A host's name on its game (not what these tests look at)."""

    async def execute(self) -> None:
        if self.redis.away:
            raise ConnectionError("Redis is away")
        self.redis.written += self.entries


class FlakyRedis:
    """Just enough of redis-py's client for an :class:`Outbox`: pipelines that fail while ``away``."""

    def __init__(self) -> None:
        self.away = False
        self.written: list[Entry] = []

    def pipeline(self, transaction: bool = False) -> Pipe:
        return Pipe(self)


async def written_while(redis: FlakyRedis, outbox: Outbox, away: bool, send: Callable[[], None]) -> None:
    """Queue what ``send`` queues and let the outbox write it, with Redis away or not."""
    redis.away = away
    writer = asyncio.create_task(outbox.run())
    send()
    await outbox.flushed()
    writer.cancel()


def test_a_failed_write_names_the_games_that_lost_frames_until_asked_once() -> None:
    redis = FlakyRedis()
    outbox = Outbox(redis)

    def lose() -> None:
        outbox.send("g1", streams.FRAME, b"x", 1)
        outbox.wake("w")

    async def play() -> None:
        await written_while(redis, outbox, True, lose)
        await written_while(redis, outbox, False, lambda: outbox.send("g2", streams.FRAME, b"y", 1))

    asyncio.run(play())
    assert [stream for stream, _ in redis.written] == [streams.out_stream("g2")]
    assert outbox.take_unsynced() == {"g1"}  # a wake stream's entry names no game
    assert outbox.take_unsynced() == set()


class Hold:
    """A host's PostgreSQL session, alive or lost as the test says."""

    def __init__(self, alive: bool) -> None:
        self.is_alive = alive

    async def alive(self) -> bool:
        return self.is_alive

    async def open(self) -> None:
        """A new session: nothing to open here."""


class NoClaims:
    """A host's claims with none stale and none wanted."""

    def __init__(self) -> None:
        self.held: dict[str, bytes] = {}
        self.wanted: dict[str, bytes] = {}

    async def touch(self) -> None:
        """Nothing to touch."""

    async def stale(self) -> list[tuple[str, bytes]]:
        return []

    def forget(self) -> None:
        """Nothing to forget."""


async def lost_then_ticked(alive: bool) -> tuple[FlakyRedis, GameHost, ClusterGame]:
    """A host running g1 and g2 whose write of g1's last frame failed (its session ``alive`` or lost); then one
    tick of it with Redis back, and what that tick queued written."""
    redis = FlakyRedis()
    host = GameHost(cast(Any, None), redis, cast(Any, Hold(alive)), PlayOptions(16), ended, "h1")
    host.claims = cast(Any, NoClaims())
    game = running_game(host, "g1")
    game.send_message(keyframe(screen()), screen())
    host.games["g1"], host.games["g2"] = game, running_game(host, "g2")  # g2 lost nothing
    await written_while(redis, host.outbox, True, lambda: game.send_message(b"a change", screen("#")))
    redis.away = False
    writer = asyncio.create_task(host.outbox.run())
    await host.tick()
    await host.outbox.flushed()
    writer.cancel()
    return redis, host, game


def test_the_next_tick_adds_a_keyframe_of_each_game_here_that_lost_frames() -> None:
    redis, host, game = asyncio.run(lost_then_ticked(alive=True))
    [(stream, fields)] = redis.written
    assert stream == streams.out_stream("g1") and streams.token_of(fields) == 7
    kind, payload = streams.entry(fields)
    assert kind == streams.KEYFRAME and inflated(payload)[0] == KEYFRAME
    assert payload == deflated(keyframe(screen("#")))  # the screen as it is now, the lost change in it
    assert game.frames_since_keyframe == 0


def test_a_host_that_finds_its_session_lost_adds_no_keyframe() -> None:
    redis, host, _ = asyncio.run(lost_then_ticked(alive=False))
    assert redis.written == [] and host.games == {}


async def ended(*_: Any) -> None:
    """Nothing to keep."""


def running_game(host: GameHost, game: str) -> ClusterGame:
    """A game this host runs under token 7, with no process."""
    row = log.HostedRow(game, "ann", 1, 16, "normal", None, "2026-11-29", None, log.LIVE, None)
    return ClusterGame(row, cast(Any, None), cast(Committer, None), PlayOptions(16), ended, 7, host)


def screen(glyph: str = "@") -> Cells:
    """A whole screen of one glyph."""
    cells = blank(COLUMNS, ROWS)
    cells["ch"] = ord(glyph)
    return cells


def entry_of(kind: bytes, payload: bytes, token: int) -> tuple[bytes, dict[bytes, bytes]]:
    """An out-stream entry as a gateway reads it back (its id, its fields)."""
    return b"0-0", {kind: payload, streams.TOKEN: str(token).encode()}


def test_a_gateway_starts_following_from_the_newest_owners_screen_not_a_cut_off_hosts_late_one() -> None:
    whole, change = deflated(keyframe(screen())), b"a change"
    backlog = [  # newest first: a cut-off host (token 6) still wrote a keyframe after the new owner's (7)
        entry_of(streams.KEYFRAME, whole, 6),
        entry_of(streams.FRAME, change, 7),
        entry_of(streams.KEYFRAME, whole, 7),
        entry_of(streams.KEYFRAME, whole, 6),
    ]
    assert newest_screen(backlog) == 2
    assert newest_screen(backlog[:2]) is None  # the new owner's screen not in the backlog: the gateway asks for one
    assert newest_screen([entry_of(streams.FRAME, whole, 7), entry_of(streams.FRAME, change, 7)]) == 0
