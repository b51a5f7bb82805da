"""Verification on RQ workers (``hedonic serve --queue redis://...``): one queue per rules epoch.

The web process enqueues ``roguelike.server.job.verify_upload`` by name (it never imports
it, nor the game), one job per run with the run's hash as the job's id, on the queue of the
replay's rules epoch; workers on any machine take them (``hedonic serve worker``). Jobs and
their results are JSON, never pickles. A collector polls the jobs of the pending runs and
writes each verdict once; a pending run whose job the queue has lost (Redis restarted
without its data) is enqueued again, so no run is lost and none is decided twice.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import threading
from typing import Any

from redis import Redis
from rq import Queue
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer
from sqlalchemy import Engine

from roguelike.server import store
from roguelike.server.child import FAILED, KILLED, ChildLimits

JOB = "roguelike.server.job.verify_upload"
JOB_MARGIN = 10  # seconds RQ grants a job past the child's own limit before it kills the work-horse
KEEP_RESULTS = 7 * 24 * 3600
RETRIES = 2  # a job whose worker died (kill -9, a lost machine) is enqueued again when RQ finds it abandoned
ABANDONED = "AbandonedJobError"  # what RQ's maintenance says of a job whose worker vanished (not the file's doing)
POLL_SECONDS = 0.1
HORSE_KILLED = ("JobTimeoutException", "terminated unexpectedly", "killed", "MemoryError")  # a horse over its limits
log = logging.getLogger("hedonic.serve")


def queue_name(epoch: int) -> str:
    """The queue of a rules epoch's runs."""
    return f"hedonic-epoch-{epoch}"


def job_id(digest: str) -> str:
    """A run's job id (enqueuing the same run twice is one job)."""
    return f"hedonic-run-{digest}"


def enqueue(connection: Redis, digest: str, epoch: int, data: bytes, limits: ChildLimits) -> Job:
    """Put a run's verification on its epoch's queue, by the job's name."""
    queue = Queue(queue_name(epoch), connection=connection, serializer=JSONSerializer)
    return queue.enqueue(JOB, base64.b64encode(data).decode("ascii"), limits.to_plain(), job_id=job_id(digest),
                         job_timeout=int(limits.seconds) + JOB_MARGIN, result_ttl=KEEP_RESULTS,
                         failure_ttl=KEEP_RESULTS, description=f"verify run {digest[:16]} (rules epoch {epoch})")


def verdict_of(job: Job) -> dict[str, Any] | None:
    """A finished job's verdict; a failed one's (the work-horse killed, or the job raised); None while under way."""
    status = job.get_status(refresh=False)
    if status == JobStatus.FINISHED:
        found = job.return_value()
        return found if isinstance(found, dict) else {"verdict": FAILED, "detail": "the job returned no verdict"}
    if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
        result = job.latest_result()
        told = ((result.exc_string if result else None) or str(status)).strip()
        killed = any(sign in told for sign in HORSE_KILLED)
        last = "".join(told.splitlines()[-1:])[:300]
        return {"verdict": KILLED if killed else FAILED, "detail": f"the worker gave up on it: {last}"}
    return None


class QueueVerifier:
    """RQ workers verify the runs; this process enqueues them and collects the verdicts."""

    def __init__(self, engine: Engine, limits: ChildLimits, redis: Redis) -> None:
        self.engine = engine
        self.limits = limits
        self.redis = redis
        self.waiting: set[str] = set()
        self.retried: dict[str, int] = {}
        self.lock = threading.Lock()  # uploads add to waiting from their threads while the collector reads it
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Enqueue what is pending and has no job (already queued runs keep theirs), then collect."""
        with self.engine.connect() as connection:
            left = store.pending(connection)
        for digest, epoch in left:
            if not await asyncio.to_thread(Job.exists, job_id(digest), self.redis):
                await asyncio.to_thread(self.put, digest, epoch)
            with self.lock:
                self.waiting.add(digest)
        self.task = asyncio.create_task(self.collect())

    def submit(self, digest: str, epoch: int) -> None:
        """Enqueue a new run (from the upload's thread)."""
        self.put(digest, epoch)
        with self.lock:
            self.waiting.add(digest)

    def put(self, digest: str, epoch: int) -> None:
        """Enqueue a run's job with its bytes."""
        with self.engine.connect() as connection:
            data = store.replay_of(connection, digest)
        if data is not None:
            enqueue(self.redis, digest, epoch, data, self.limits)

    async def stop(self) -> None:
        """Stop collecting (the jobs stay queued)."""
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def collect(self) -> None:
        """Write the verdicts of finished jobs, again and again."""
        while True:
            try:
                await asyncio.to_thread(self.collect_once)
            except Exception:  # Redis or the database away for a moment: try again
                log.exception("collecting verdicts failed")
            await asyncio.sleep(POLL_SECONDS)

    def collect_once(self) -> None:
        """One look at the jobs of the runs waiting."""
        with self.lock:
            digests = sorted(self.waiting)
        jobs = Job.fetch_many([job_id(digest) for digest in digests], self.redis, serializer=JSONSerializer)
        for digest, job in zip(digests, jobs, strict=True):
            if job is None:
                self.requeue(digest)
            else:
                self.settle(digest, job)

    def settle(self, digest: str, job: Job) -> None:
        """Write a run's verdict once its job is done; enqueue it again if its worker vanished."""
        verdict = verdict_of(job)
        if verdict is None:
            return
        if ABANDONED in verdict["detail"] and self.retried.get(digest, 0) < RETRIES:
            self.retried[digest] = self.retried.get(digest, 0) + 1
            job.delete()
            self.requeue(digest)
            return
        with self.engine.begin() as connection:
            store.record_verdict(connection, digest, verdict)
        self.forget(digest)

    def requeue(self, digest: str) -> None:
        """Enqueue again a run whose job is gone (unless it got its verdict meanwhile)."""
        with self.engine.connect() as connection:
            run = store.run_of(connection, digest)
        if run is not None and run.status == store.PENDING:
            self.put(digest, run.epoch)
        else:
            self.forget(digest)

    def forget(self, digest: str) -> None:
        """Stop waiting for a run's verdict."""
        with self.lock:
            self.waiting.discard(digest)
