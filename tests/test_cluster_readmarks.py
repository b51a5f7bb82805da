"""A host's read marks in a real Redis: a mark only moves forward, so a late write cannot hand a message on twice."""

from __future__ import annotations

import asyncio

from roguelike.server.cluster import streams
from roguelike.server.cluster.readmarks import ReadMarks
from server_services import redis_server


async def marks_written(url: str, batches: list[dict[str, bytes]]) -> tuple[list[bool], object]:
    """Write the batches in turn; what each write said, and game g1's mark after them."""
    redis = streams.cluster_redis(url)
    try:
        marks = ReadMarks(redis)
        said = [await marks.write(batch) for batch in batches]
        return said, await redis.get(streams.read_key("g1"))
    finally:
        await redis.aclose()


def test_a_read_mark_only_moves_forward() -> None:
    with redis_server() as url:
        said, mark = asyncio.run(marks_written(url, [{"g1": b"5-2", "g2": b"1-0"}, {"g1": b"5-1"}, {"g1": b"4-9"}]))
    assert said == [True, True, True]
    assert mark == b"5-2"  # a late write of an older mark (a cut-off host's, delivered after the mend) moves nothing
