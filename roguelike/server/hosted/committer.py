"""Group commit of hosted games' keys: the keys that come while one commit is under way go in the next.

Why: a key is accepted only once its row has committed (``log.py``), and a commit returns only
once it is on disk (SQLite's WAL with ``synchronous=FULL``, PostgreSQL's ``synchronous_commit``
on): an fsync, a few milliseconds. Committed one transaction a key, the keys of 50 games queued
behind each other's fsyncs (and, on SQLite, behind its write lock's waits), so a key's wait grew
with the number of games played at once. A :class:`Committer` writes from one thread of its own:
the first key commits at once, alone; every key of any game that comes while it commits waits
for the next transaction, which writes them all with one fsync. No key waits for a timer, and a
busy server makes larger batches, not longer queues.

A key's sender is woken only after the transaction holding its row has committed, never before:
:meth:`Committer.accept` returns then (or raises what the database raised). A number already
taken (a stale owner's key) or a game no longer live never fails a batch: the insert skips that
row and that key alone is refused. A batch the database refuses whole (an error of the database
or of one row) is tried again key by key, each in a transaction of its own, so only the
offending keys fail; a game's keys after its failed one in that batch fail with it, so a game's
log never has a gap. Keys are written in the order they came, so each game's in its order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import Engine

from roguelike.server.hosted import log

MOST_KEYS = 500  # keys in one transaction at most (4 values a key: well under SQLite's 32,766 parameters)
Outcome = bool | Exception  # a key accepted or refused, or what failed it

logger = logging.getLogger(__name__)


class Committer:
    """The one writer of a web process's keys: each transaction takes every key waiting."""

    def __init__(self, engine: Engine, most: int = MOST_KEYS) -> None:
        self.engine, self.most = engine, most
        self.waiting: list[tuple[log.Key, asyncio.Future[str | None]]] = []
        self.writer: asyncio.Task[None] | None = None
        self.thread: ThreadPoolExecutor | None = None  # its own, so a commit never waits for a free worker

    async def accept(self, game: str, seq: int, command: bytes) -> str | None:
        """Commit a command at its sequence number with the keys waiting; when the server received it, once
        its row has committed, or None if refused (its number taken, or the game not live)."""
        received: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self.waiting.append((log.Key(game, seq, command, log.stamp()), received))
        if self.writer is None:
            self.writer = asyncio.create_task(self.write_all())
        return await received

    async def write_all(self) -> None:
        """Commit the waiting keys a batch at a time until none waits, waking each key's sender after."""
        batch: list[tuple[log.Key, asyncio.Future[str | None]]] = []
        try:
            while self.waiting:
                batch, self.waiting = self.waiting[: self.most], self.waiting[self.most :]
                keys = [key for key, _ in batch]
                if self.thread is None:
                    self.thread = ThreadPoolExecutor(1, thread_name_prefix="hosted-commit")
                outcomes = await asyncio.get_running_loop().run_in_executor(self.thread, commit, self.engine, keys)
                for (key, received), outcome in zip(batch, outcomes, strict=True):
                    tell(received, key, outcome)
                batch = []
        finally:
            self.writer = None
            for _, received in batch + self.waiting:  # only when the writer itself was cancelled: no ack
                received.cancel()
            self.waiting = []

    def close(self) -> None:
        """Let the commit thread go (a key that comes later starts another)."""
        if self.thread is not None:
            self.thread.shutdown(wait=False)
            self.thread = None


def tell(received: asyncio.Future[str | None], key: log.Key, outcome: Outcome) -> None:
    """Wake a key's sender with how its commit went (unless it stopped waiting)."""
    if received.done():
        return
    if isinstance(outcome, Exception):
        received.set_exception(outcome)
    else:
        received.set_result(key.received if outcome else None)


def commit(engine: Engine, keys: Sequence[log.Key]) -> list[Outcome]:
    """Commit keys in one transaction; if it fails, each again alone, so only the offending keys fail."""
    try:
        return list(log.accept_all(engine, keys))
    except Exception as error:
        if len(keys) == 1:
            return [error]
        logger.warning("a batch of %d keys failed to commit (%s): each is tried alone", len(keys), error)
        return one_by_one(engine, keys)


def one_by_one(engine: Engine, keys: Sequence[log.Key]) -> list[Outcome]:
    """Commit each key in a transaction of its own; a game's keys after one that failed fail with it."""
    failed: dict[str, Exception] = {}
    outcomes: list[Outcome] = []
    for key in keys:
        if key.game in failed:
            outcomes.append(failed[key.game])
            continue
        try:
            outcomes.append(log.accept_all(engine, [key])[0])
        except Exception as error:
            failed[key.game] = error
            outcomes.append(error)
    return outcomes
