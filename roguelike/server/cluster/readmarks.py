"""A host's read marks: the last browser message handed to each game's process, written beside the handing on.

A host taking a game over goes on from the game's mark (``hedonic:read:{game}``), so no message is
handed to two processes. What must hold is that a message whose command is *accepted* is never
handed on again: so the mark need not be written before the message is handed on, only before a
command the message may have made commits. A host hands each message on as soon as it is read,
queues its game's mark here, and :meth:`ReadMarks.covered` makes each command wait, before its
commit, for the write carrying its game's newest mark (it has landed long before, as a rule: the
command comes after the game's turn). One writer sends every mark waiting in one pipeline, one at
a time; a mark only moves forward (``FORWARD``), so the newest write covers every message before
it. A message handed on whose mark never lands (the host dies first) was never accepted: the next
owner hands it on again, as it does every message past the mark.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from roguelike.server.cluster import streams

logger = logging.getLogger(__name__)
# The read mark only moves forward: a host cut off mid-write whose SET arrives after the cable is mended (TCP
# delivers it late) must not move it back, or the next owner would hand a message on a second time.
FORWARD = """
local old = redis.call('get', KEYS[1])
if old then
  local oms, oseq = string.match(old, '(%d+)-(%d+)')
  local nms, nseq = string.match(ARGV[1], '(%d+)-(%d+)')
  oms, oseq, nms, nseq = tonumber(oms), tonumber(oseq), tonumber(nms), tonumber(nseq)
  if oms > nms or (oms == nms and oseq >= nseq) then return 0 end
end
redis.call('set', KEYS[1], ARGV[1])
return 1
"""


class MarkLost(ConnectionError):
    """A game's read mark could not be written: a command of its game is not committed (its process is rebuilt)."""


class ReadMarks:
    """A host's one writer of its games' read marks."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self.queued: dict[str, bytes] = {}  # game -> its newest mark, not sent yet
        self.newest: dict[str, asyncio.Future[bool]] = {}  # game -> the write carrying its newest mark
        self.next: asyncio.Future[bool] | None = None  # the write the queued marks go in
        self.waiting = asyncio.Event()

    def note(self, game: str, mark: bytes) -> None:
        """Queue a game's newest mark (the id of the last message handed to its process)."""
        if self.next is None:
            self.next = asyncio.get_running_loop().create_future()
        self.queued[game] = mark
        self.newest[game] = self.next
        self.waiting.set()

    async def covered(self, game: str) -> None:
        """Wait until the game's newest mark noted so far is written; :class:`MarkLost` if it was not."""
        write = self.newest.get(game)
        if write is None:
            return  # nothing handed on here: nothing to cover
        try:
            landed = await asyncio.wait_for(asyncio.shield(write), streams.REDIS_SECONDS)
        except TimeoutError as error:
            raise MarkLost(f"game {game}: its read mark was not written in time") from error
        if not landed:
            raise MarkLost(f"game {game}: its read mark could not be written")

    def forget(self, game: str) -> None:
        """A game let go here: nothing waits on its marks any more (one queued is still written)."""
        self.newest.pop(game, None)

    async def run(self) -> None:
        """Write the queued marks, a pipeline at a time, until cancelled."""
        while True:
            await self.waiting.wait()
            self.waiting.clear()
            batch, write = self.queued, self.next
            self.queued, self.next = {}, None
            if write is None or not batch:
                continue
            write.set_result(await self.write(batch))

    async def write(self, batch: dict[str, bytes]) -> bool:
        """Move each game's mark forward in one round trip; whether it went through."""
        pipe = self.redis.pipeline(transaction=False)
        for game, mark in batch.items():
            pipe.eval(FORWARD, 1, streams.read_key(game), mark)
        try:
            await pipe.execute()
        except Exception as error:  # noqa: BLE001 (Redis away: their games' commands are refused, not lost)
            logger.warning("read marks of %d games not written: %s", len(batch), error)
            return False
        return True
