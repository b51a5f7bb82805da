"""A host's side of the claims stream: the claims it holds, those it waits on, and those it takes from the dead.

A claim is an entry of ``hedonic:claims`` pending in the ``hosts`` group. A host holds one claim
per game it runs (touched every tick so it never falls idle), waits on the claims of games it
wants but cannot run yet (their lock still held by a session PostgreSQL has not dropped), and
takes claims idle past ``CLAIM_IDLE_MS`` from any host (``XAUTOCLAIM``, its cursor kept from one
tick to the next so every pending claim is reached however many there are). A claim done with
is acknowledged and deleted, so the stream holds only the games someone wants now.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from roguelike.server.cluster import streams

logger = logging.getLogger(__name__)


class Claims:
    """The claims one host holds and waits on."""

    def __init__(self, redis: Any, name: str) -> None:
        self.redis, self.name = redis, name
        self.held: dict[str, bytes] = {}  # game -> the claim kept pending while this host runs the game
        self.wanted: dict[str, bytes] = {}  # game -> a claim whose game is not won yet
        self.cursor = b"0-0"  # where the next XAUTOCLAIM goes on from

    async def ensure_group(self) -> None:
        """Make the stream and its group if they are missing (a Redis that lost its data has neither)."""
        with contextlib.suppress(Exception):  # BUSYGROUP: there already
            await self.redis.xgroup_create(streams.CLAIMS, streams.GROUP, id="0", mkstream=True)

    async def new(self) -> list[tuple[str, bytes]]:
        """Claims added since this host last read, as (game, claim)."""
        try:
            found = await self.redis.xreadgroup(streams.GROUP, self.name, {streams.CLAIMS: ">"}, count=16, block=1000)
        except Exception as error:
            if "NOGROUP" in str(error):
                await self.ensure_group()
            raise
        return [(game_of(fields), entry_id) for _, entries in found or [] for entry_id, fields in entries]

    async def stale(self) -> list[tuple[str, bytes]]:
        """Claims idle past ``CLAIM_IDLE_MS`` (their host dead or cut off), now this host's to consider."""
        reply = await self.redis.xautoclaim(
            streams.CLAIMS, streams.GROUP, self.name, streams.CLAIM_IDLE_MS, self.cursor, count=64
        )
        self.cursor = bytes(reply[0])
        return [(game_of(fields), entry_id) for entry_id, fields in reply[1] if fields is not None]

    async def touch(self) -> None:
        """Keep every claim held or waited on from falling idle."""
        pending = [*self.held.values(), *self.wanted.values()]
        if pending:
            await self.redis.xclaim(streams.CLAIMS, streams.GROUP, self.name, 0, pending, justid=True)

    async def hand_to(self, owner: str, entry_id: bytes) -> None:
        """Give a claim to the host that runs its game, leaving it idle: if that host is dead, it is taken at once."""
        await self.redis.xclaim(
            streams.CLAIMS, streams.GROUP, owner, 0, [entry_id], idle=streams.CLAIM_IDLE_MS, justid=True
        )

    async def done(self, entry_id: bytes) -> None:
        """A claim nobody needs any more: acknowledged and removed from the stream."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xack(streams.CLAIMS, streams.GROUP, entry_id)
        pipe.xdel(streams.CLAIMS, entry_id)
        await pipe.execute()

    def forget(self) -> None:
        """Let every claim go without a word (this host lost its hold: other hosts take them when idle)."""
        self.held.clear()
        self.wanted.clear()


def game_of(fields: Any) -> str:
    """The game a claim names."""
    return streams.text_of((fields or {}).get(b"game", b""))
