"""Verification in this machine's processes: a few at a time, each run once.

Each run is verified in a process forked for it from a fork server that has the game loaded
(:mod:`roguelike.server.forked`), or with ``--verifier COMMAND`` in a child running that
command (:mod:`roguelike.server.child`); either way under the limits, never in the web process.

The web process keeps a set of the runs it has scheduled, so a run found pending at start-up
and uploaded again meanwhile is verified once. Pending runs are read from the database at
start-up: a server killed with runs pending verifies them when it comes back (their children
died with it); and every ``SWEEP_SECONDS`` (:mod:`roguelike.server.sweep`): a verdict that met a
database outage is not lost, its run is verified again. A run "unverifiable here" is tried
again every ``RETRY_UNVERIFIABLE`` seconds (a runtime for its epoch may have been installed).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Engine

from roguelike.server import store
from roguelike.server.child import FAILED, ChildLimits, end_all, verify_bytes
from roguelike.server.forked import end_forked, start_fork_server, verify_forked
from roguelike.server.sweep import RETRY_UNVERIFIABLE, Cadence, sweeping

log = logging.getLogger("hedonic.serve")


class LocalVerifier:
    """Children of this process verify the runs, ``workers`` at once."""

    def __init__(
        self,
        engine: Engine,
        limits: ChildLimits,
        workers: int,
        verifier: Sequence[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = engine
        self.unverifiable = Cadence(RETRY_UNVERIFIABLE, clock)
        self.limits = limits
        self.workers = max(1, workers)
        self.verifier = list(verifier) if verifier else None
        self.todo: asyncio.Queue[str] = asyncio.Queue()
        self.scheduled: set[str] = set()
        self.tasks: list[asyncio.Task[None]] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = threading.Event()  # set from the event loop, read by the verifying threads

    async def start(self) -> None:
        """Start the workers and schedule every run left pending."""
        self.loop = asyncio.get_running_loop()
        if self.verifier is None:
            await asyncio.to_thread(start_fork_server)
        self.tasks = [asyncio.create_task(self.work()) for _ in range(self.workers)]
        for digest, _ in await asyncio.to_thread(self.pending):
            self.schedule(digest)
        self.tasks.append(asyncio.create_task(sweeping(self.sweep_once)))

    def pending(self) -> list[tuple[str, int]]:
        """The runs waiting for a verdict."""
        with self.engine.connect() as connection:
            return store.pending(connection)

    def sweep_once(self) -> None:
        """Schedule every pending run not under way (from any thread), and the unverifiable ones when it is time."""
        with self.engine.connect() as connection:
            left = store.pending(connection)
            stuck = store.unverifiable(connection) if self.unverifiable.due() else []
        for digest, epoch in left + stuck:
            self.submit(digest, epoch)

    def submit(self, digest: str, epoch: int) -> None:
        """Schedule a run (once), from any thread: an upload is kept in a thread of its own."""
        if self.loop is None:
            raise RuntimeError("a run submitted before the verifier started")
        self.loop.call_soon_threadsafe(self.schedule, digest)

    def schedule(self, digest: str) -> None:
        """Queue a run for the workers (in the event loop's thread), unless it is queued already."""
        if digest not in self.scheduled:
            self.scheduled.add(digest)
            self.todo.put_nowait(digest)

    async def stop(self) -> None:
        """Stop the workers and kill the children under way: their runs stay pending for the next start."""
        self.stopping.set()
        end_all()
        end_forked()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def work(self) -> None:
        """Verify runs one after another."""
        while True:
            digest = await self.todo.get()
            try:
                await asyncio.to_thread(self.verify, digest)
            except Exception:  # a database gone for a moment: the run stays pending for the next start
                log.exception("verifying %s failed", digest)
            self.scheduled.discard(digest)

    def verify(self, digest: str) -> None:
        """Verify one run in a child and write its verdict."""
        if self.stopping.is_set():
            return
        with self.engine.connect() as connection:
            run = store.run_of(connection, digest)
            if run is None or run.status not in store.OPEN:
                return  # decided since it was scheduled (a sweep and a verdict crossed)
            data = store.replay_of(connection, digest)
        verdict = (
            self.verdict(data)
            if data is not None
            else {"verdict": FAILED, "detail": "the run's replay is missing from the database"}
        )
        if self.stopping.is_set():
            return  # its child was killed by the stop, not by its file
        with self.engine.begin() as connection:
            store.record_verdict(connection, digest, verdict)

    def verdict(self, data: bytes) -> dict[str, Any]:
        """A replay's verdict, from a forked process or the verifier command."""
        if self.verifier is None:
            return verify_forked(data, self.limits)
        return verify_bytes(data, self.limits, self.verifier)
