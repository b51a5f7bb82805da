"""A host's out-streams when Redis fails a write: the games that lost frames get a keyframe at the next tick,
so a gateway's screen that missed a change is put right at once (not 100 frames later)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

from roguelike.ground.frames import KEYFRAME, Cells, blank, deflated, inflated, keyframe
from roguelike.server.cluster import streams
from roguelike.server.cluster.gamehost import GameHost
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


def test_the_next_tick_adds_a_keyframe_of_each_game_here_that_lost_frames() -> None:
    redis = FlakyRedis()
    host = GameHost(cast(Any, None), redis, cast(Any, None), PlayOptions(16), ended, "h1")  # its outbox alone
    game = running_game(host, "g1")
    game.send_message(keyframe(screen()), screen())
    host.games["g1"], host.games["g2"] = game, running_game(host, "g2")  # g2 lost nothing

    async def play() -> None:
        await written_while(redis, host.outbox, True, lambda: game.send_message(b"a change", screen("#")))
        await written_while(redis, host.outbox, False, host.mend_screens)

    asyncio.run(play())
    [(stream, fields)] = redis.written
    assert stream == streams.out_stream("g1") and streams.token_of(fields) == 7
    kind, payload = streams.entry(fields)
    assert kind == streams.KEYFRAME and inflated(payload)[0] == KEYFRAME
    assert payload == deflated(keyframe(screen("#")))  # the screen as it is now, the lost change in it
    assert game.frames_since_keyframe == 0


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
