"""What a host's games show, written to their out-streams in order, many entries to a round trip.

Frames come one at a time from many games; each waits in one queue, and the writer sends all that
wait in one pipeline (one round trip to Redis, the entries in the order they came), so a busy
host sends more per round trip rather than queueing round trips behind each other.
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
        self.queue: asyncio.Queue[tuple[str, dict[bytes, bytes], int]] = asyncio.Queue()
        self.idle = asyncio.Event()
        self.idle.set()

    def send(self, game: str, kind: bytes, payload: bytes, token: int) -> None:
        """Queue one entry of a game's out-stream, stamped with its writer's token (0: any owner's)."""
        self.put(streams.out_stream(game), {kind: payload, streams.TOKEN: str(token).encode()}, streams.OUT_LENGTH)

    def wake(self, stream: str) -> None:
        """Queue an entry on a wake stream (its reader reads again, with what changed)."""
        self.put(stream, {b"w": b""}, 16)

    def put(self, stream: str, fields: dict[bytes, bytes], length: int) -> None:
        """Queue an entry."""
        self.idle.clear()
        self.queue.put_nowait((stream, fields, length))

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
            for stream, fields, length in batch:
                pipe.xadd(stream, fields, maxlen=length, approximate=True)
            try:
                await pipe.execute()
            except Exception as error:  # noqa: BLE001 (Redis away: these entries are lost, the game goes on)
                logger.warning("out-streams: %d entries lost: %s", len(batch), error)
            if self.queue.empty():
                self.idle.set()
