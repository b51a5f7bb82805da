"""Group commit of hosted games' keys: the keys that come while one commit is under way go in the next.

Why: a key is accepted only once its row has committed (``log.py``), and a commit returns only
once it is on disk (SQLite's WAL with ``synchronous=FULL``, PostgreSQL's ``synchronous_commit``
on): an fsync, a few milliseconds. Committed one transaction a key, the keys of 50 games queued
behind each other's fsyncs (and, on SQLite, behind its write lock's waits), so a key's wait grew
with the number of games played at once: about 200 commits a second is all the project's machine
makes, and 50 games pressing keys ask as many. A :class:`Committer` writes from one thread of
its own: the first key commits at once, alone; every key of any game that comes while it commits
waits for the next transaction, which writes them all with one fsync and which the thread starts
as soon as the last has committed (no hop through the event loop between them). No key waits
for a timer, and a busy server makes larger batches, not longer queues.

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
import contextlib
import logging
import queue
import threading
from collections.abc import Sequence

from sqlalchemy import Engine

from roguelike.server.hosted import log

MOST_KEYS = 500  # keys in one transaction at most (4 values a key: well under SQLite's 32,766 parameters)
Outcome = bool | Exception  # a key accepted or refused, or what failed it
Waiting = tuple[log.Key, "asyncio.Future[str | None]", asyncio.AbstractEventLoop]  # a key, its sender, its loop

logger = logging.getLogger(__name__)


class Committer:
    """The one writer of a web process's keys: each transaction takes every key waiting."""

    def __init__(self, engine: Engine, most: int = MOST_KEYS) -> None:
        self.engine, self.most = engine, most
        self.keys: queue.SimpleQueue[Waiting | None] | None = None  # the writing thread's, while it runs

    async def accept(self, game: str, seq: int, command: bytes, token: int | None = None) -> str | None:
        """Commit a command at its sequence number with the keys waiting; when the server received it, once
        its row has committed, or None if refused (its number taken, the game not live, or ``token`` no longer
        its owner's)."""
        loop = asyncio.get_running_loop()
        received: asyncio.Future[str | None] = loop.create_future()
        keys = self.keys
        if keys is None:
            keys = self.keys = queue.SimpleQueue()
            threading.Thread(target=self.write_all, args=(keys,), name="hosted-commit", daemon=True).start()
        keys.put((log.Key(game, seq, command, log.stamp(), token), received, loop))
        return await received

    def write_all(self, keys: queue.SimpleQueue[Waiting | None]) -> None:
        """The writing thread: commit every key waiting, in one transaction, until told to stop; each batch is
        taken as soon as the one before has committed (no hop through the event loop between them)."""
        try:
            while (batch := self.next_batch(keys)) is not None:
                outcomes = commit(self.engine, [key for key, _, _ in batch])
                told: dict[asyncio.AbstractEventLoop, list[tuple[Waiting, Outcome]]] = {}
                for waiting, outcome in zip(batch, outcomes, strict=True):
                    told.setdefault(waiting[2], []).append((waiting, outcome))
                for loop, outcomes_of_loop in told.items():
                    with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits there
                        loop.call_soon_threadsafe(tell_all, outcomes_of_loop)
        finally:
            if self.keys is keys:  # a thread that died unasked is replaced at the next key
                self.keys = None

    def next_batch(self, keys: queue.SimpleQueue[Waiting | None]) -> list[Waiting] | None:
        """Every key waiting (at least one: waits for it), up to the most a transaction takes; None to stop."""
        first = keys.get()
        if first is None:
            return None
        batch = [first]
        while len(batch) < self.most:
            try:
                found = keys.get_nowait()
            except queue.Empty:
                break
            if found is None:
                keys.put(None)  # stop after this batch
                break
            batch.append(found)
        return batch

    def close(self) -> None:
        """Let the writing thread go once the keys given it are committed (a key that comes later starts
        another)."""
        if self.keys is not None:
            self.keys.put(None)
            self.keys = None


def tell_all(outcomes: list[tuple[Waiting, Outcome]]) -> None:
    """Wake the senders of a batch's keys (on their event loop)."""
    for (key, received, _), outcome in outcomes:
        tell(received, key, outcome)


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
