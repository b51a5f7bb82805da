"""What a host's games show, written to their out-streams in order, many entries to a round trip.

Frames come one at a time from many games; each waits in one queue, and the writer sends all that
wait in one pipeline (one round trip to Redis, the entries in the order they came), so a busy
host sends more per round trip rather than queueing round trips behind each other.

A pipeline that fails loses its entries, and a gateway would go on applying the next frames (each
the change from the one before) to a screen that missed some: the games whose entries were lost are
kept in :attr:`Outbox.unsynced` until their host adds a keyframe of each (its next tick), which brings
every gateway's screen back in step.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from roguelike.server.cluster import streams

logger = logging.getLogger(__name__)
MOST_ENTRIES = 256  # entries in one pipeline at most


class Outbox:
    """A host's one writer of out-stream entries."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self.queue: asyncio.Queue[tuple[str, dict[bytes, bytes], int, str]] = asyncio.Queue()
        self.idle = asyncio.Event()
        self.idle.set()
        self.unsynced: set[str] = set()  # games whose out-stream lost entries since their last keyframe

    def send(self, game: str, kind: bytes, payload: bytes, token: int) -> None:
        """Queue one entry of a game's out-stream, stamped with its writer's token (0: any owner's)."""
        fields = {kind: payload, streams.TOKEN: str(token).encode()}
        self.put(streams.out_stream(game), fields, streams.OUT_LENGTH, game)

    def wake(self, stream: str) -> None:
        """Queue an entry on a wake stream (its reader reads again, with what changed)."""
        self.put(stream, {b"w": b""}, 16)

    def put(self, stream: str, fields: dict[bytes, bytes], length: int, game: str = "") -> None:
        """Queue an entry (of ``game``'s out-stream, if named)."""
        self.idle.clear()
        self.queue.put_nowait((stream, fields, length, game))

    def take_unsynced(self) -> set[str]:
        """The games that lost out-stream entries since asked last (each needs a keyframe now)."""
        games, self.unsynced = self.unsynced, set()
        return games

    async def flushed(self) -> None:
        """Wait until every entry queued so far is written."""
        await self.idle.wait()

    async def run(self) -> None:
        """Write what is queued, a pipeline at a time, until cancelled."""
        while True:
            batch = [await self.queue.get()]
            while len(batch) < MOST_ENTRIES and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            pipe = self.redis.pipeline(transaction=False)
            for stream, fields, length, _ in batch:
                pipe.xadd(stream, fields, maxlen=length, approximate=True)
            try:
                await pipe.execute()
            except Exception as error:  # noqa: BLE001 (Redis away: these entries are lost, the game goes on)
                logger.warning("out-streams: %d entries lost: %s", len(batch), error)
                self.unsynced.update(game for _, _, _, game in batch if game)
            if self.queue.empty():
                self.idle.set()
