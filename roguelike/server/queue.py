"""Verification on RQ workers (``hedonic serve --queue redis://...``): one queue per rules epoch.

The web process enqueues ``roguelike.server.job.verify_upload`` by name (it never imports
it, nor the game), one job per run with the run's hash as the job's id, on the queue of the
replay's rules epoch; workers on any machine take them (``hedonic serve worker``). Jobs and
their results are JSON, never pickles. A collector polls the jobs of the pending runs and
writes each verdict once; a pending run whose job the queue has lost (Redis restarted
without its data) is enqueued again, so no run is lost and none is decided twice.

A worker heartbeats every second while its work-horse works (and the horse dies with its
worker): a started job whose heartbeat has not moved for ``LOST_AFTER`` seconds of this
process's own clock was lost with its worker (``kill -9``, a lost machine) and is run again at
once, instead of waiting for RQ's own abandoned-job sweep (a minute past the last heartbeat,
and only when some worker runs its maintenance, every 10 minutes). So is a job a worker took
off the queue and never started (killed in between: it stays in RQ's intermediate list).

A run uploaded while Redis is away is still waited for: the collector enqueues it when Redis
answers again, and the sweep (:mod:`roguelike.server.sweep`) takes up any pending run it is not
waiting for. A run a worker found "unverifiable here" is enqueued again when a new worker
listens on its epoch's queue, or every ``RETRY_UNVERIFIABLE`` seconds.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import re
import signal
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from redis import Redis
from redis.exceptions import RedisError
from rq import Queue, Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer
from sqlalchemy import Engine

from roguelike.server import store
from roguelike.server.child import FAILED, KILLED, ChildLimits
from roguelike.server.sweep import RETRY_UNVERIFIABLE, Cadence, sweeping

JOB = "roguelike.server.job.verify_upload"
JOB_MARGIN = 10  # seconds RQ grants a job past the child's own limit before it kills the work-horse
KEEP_RESULTS = 7 * 24 * 3600
RETRIES = 2  # a job lost with its worker (kill -9, a lost machine) is enqueued again at most twice
ABANDONED = "AbandonedJobError"  # what RQ's maintenance says of a job whose worker vanished (not the file's doing)
POLL_SECONDS = 0.1
MOST_BACK_OFF = 5.0  # seconds between the collector's tries while Redis or the database is away
HEARTBEAT = 1  # seconds between a worker's heartbeats while its horse works (RQ's job_monitoring_interval)
LOST_AFTER = 5.0  # seconds a started job's heartbeat may stand still before its worker counts as gone
HORSE_KILLED = ("JobTimeoutException", "terminated unexpectedly", "killed", "MemoryError")  # a horse over its limits
TAKEN = "taken off the queue, not started"  # the heartbeat of a job in RQ's intermediate list (it never moves)
HORSE_SIGNAL = re.compile(r"\(signal (\d+)\)")  # how RQ's worker says what killed the horse
LIMIT_SIGNALS = {int(signal.SIGALRM): "time", int(signal.SIGXCPU): "CPU"}  # the horse's own limits (job.py)
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
    return queue.enqueue(
        JOB,
        base64.b64encode(data).decode("ascii"),
        limits.to_plain(),
        job_id=job_id(digest),
        job_timeout=int(limits.seconds) + JOB_MARGIN,
        result_ttl=KEEP_RESULTS,
        failure_ttl=KEEP_RESULTS,
        description=f"verify run {digest[:16]} (rules epoch {epoch})",
    )


def verdict_of(job: Job, limits: ChildLimits) -> dict[str, Any] | None:
    """A finished job's verdict; a failed one's (the work-horse killed, or the job raised); None while under way."""
    status = job.get_status(refresh=False)
    if status == JobStatus.FINISHED:
        found = job.return_value()
        return found if isinstance(found, dict) else {"verdict": FAILED, "detail": "the job returned no verdict"}
    if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
        result = job.latest_result()
        return failure_verdict(((result.exc_string if result else None) or str(status)).strip(), limits)
    return None


def failure_verdict(told: str, limits: ChildLimits) -> dict[str, Any]:
    """The verdict of a job that failed, from what the worker wrote of it."""
    found = HORSE_SIGNAL.search(told)
    limit = LIMIT_SIGNALS.get(int(found.group(1))) if found else None
    if limit is not None:
        return {"verdict": KILLED, "detail": f"over its {limit} limit ({limits.seconds:g} s): killed"}
    killed = any(sign in told for sign in HORSE_KILLED)
    last = "".join(told.splitlines()[-1:])[:300]
    return {"verdict": KILLED if killed else FAILED, "detail": f"the worker gave up on it: {last}"}


def glance(connection: Redis, digests: list[str]) -> dict[str, tuple[str, str]]:
    """Each run's job's status and queue, read in one round trip without loading the jobs (a
    waiting job holds its replay: fetching every one each poll made the collector's work grow
    with the backlog); a run whose job is gone is left out."""
    pipe = connection.pipeline(transaction=False)
    for digest in digests:
        pipe.hmget(Job.key_for(job_id(digest)), "status", "origin")
    found: dict[str, tuple[str, str]] = {}
    for digest, (status, origin) in zip(digests, pipe.execute(), strict=True):
        if status is not None:
            found[digest] = (status.decode(), (origin or b"").decode())
    return found


class Heartbeats:
    """When each started job's heartbeat last moved, by this process's clock (no worker's clock is trusted)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seen: dict[str, tuple[datetime | str | None, float]] = {}

    def silent(self, digest: str, beat: datetime | str | None) -> bool:
        """Whether a started job's heartbeat has stood still for ``LOST_AFTER`` seconds."""
        now = self.clock()
        last = self.seen.get(digest)
        if last is None or last[0] != beat:
            self.seen[digest] = (beat, now)
            return False
        return now - last[1] >= LOST_AFTER

    def forget(self, digest: str) -> None:
        """Stop timing a job (done, or enqueued again)."""
        self.seen.pop(digest, None)


class QueueVerifier:
    """RQ workers verify the runs; this process enqueues them and collects the verdicts."""

    def __init__(
        self, engine: Engine, limits: ChildLimits, redis: Redis, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.engine = engine
        self.limits = limits
        self.redis = redis
        self.waiting: set[str] = set()
        self.retried: dict[str, int] = {}
        self.beats = Heartbeats(clock)
        self.unverifiable = Cadence(RETRY_UNVERIFIABLE, clock)
        self.workers_seen: dict[int, set[str]] = {}
        self.lock = threading.Lock()  # uploads add to waiting from their threads while the collector reads it
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Enqueue what is pending and has no job (already queued runs keep theirs), then collect and sweep."""
        try:
            await asyncio.to_thread(self.sweep_once)
        except (RedisError, OSError):
            log.warning("Redis does not answer: the pending runs are enqueued when it does")
        self.tasks = [asyncio.create_task(self.collect()), asyncio.create_task(sweeping(self.sweep_once))]

    def sweep_once(self) -> None:
        """Wait for every pending run (enqueuing those without a job); enqueue again the unverifiable runs when
        it is time, or when a new worker listens on their epoch's queue."""
        with self.engine.connect() as connection:
            left, stuck = store.pending(connection), store.unverifiable(connection)
        with self.lock:
            waiting = set(self.waiting)
        for digest, epoch in left:
            if digest not in waiting:
                self.submit(digest, epoch)
        due = self.unverifiable.due() if stuck else False
        fresh = self.new_workers({epoch for _, epoch in stuck})
        for digest, epoch in stuck:
            if digest not in waiting and (due or epoch in fresh):
                self.again(digest, epoch)

    def new_workers(self, epochs: set[int]) -> set[int]:
        """The epochs among these whose queue has a worker listening that was not there at the last look."""
        fresh = set()
        for epoch in sorted(epochs):
            queue = Queue(queue_name(epoch), connection=self.redis, serializer=JSONSerializer)
            names = {worker.name for worker in Worker.all(connection=self.redis, queue=queue)}
            if names - self.workers_seen.get(epoch, set()):
                fresh.add(epoch)
            self.workers_seen[epoch] = names
        return fresh

    def again(self, digest: str, epoch: int) -> None:
        """Enqueue anew a run that was unverifiable where it was tried (its old job and result go)."""
        try:
            Job.fetch(job_id(digest), connection=self.redis, serializer=JSONSerializer).delete()
        except NoSuchJobError:
            pass
        self.put(digest, epoch)
        with self.lock:
            self.waiting.add(digest)

    def submit(self, digest: str, epoch: int) -> None:
        """Enqueue a run unless its job is there already (from the upload's thread); with Redis away, the
        collector enqueues it when Redis answers again."""
        try:
            if not Job.exists(job_id(digest), self.redis):
                self.put(digest, epoch)
        except (RedisError, OSError) as error:
            log.warning("run %s waits for Redis: %s", digest[:16], error)
        with self.lock:
            self.waiting.add(digest)

    def put(self, digest: str, epoch: int) -> None:
        """Enqueue a run's job with its bytes."""
        with self.engine.connect() as connection:
            data = store.replay_of(connection, digest)
        if data is not None:
            enqueue(self.redis, digest, epoch, data, self.limits)

    async def stop(self) -> None:
        """Stop collecting and sweeping (the jobs stay queued)."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def collect(self) -> None:
        """Write the verdicts of finished jobs, again and again (less often while Redis or the database is away)."""
        pause = POLL_SECONDS
        while True:
            try:
                await asyncio.to_thread(self.collect_once)
                pause = POLL_SECONDS
            except Exception:  # Redis or the database away for a moment: try again
                log.exception("collecting verdicts failed")
                pause = min(MOST_BACK_OFF, pause * 2)
            await asyncio.sleep(pause)

    def collect_once(self) -> None:
        """One look at the jobs of the runs waiting: a glance at each, the whole job only where it moved."""
        with self.lock:
            digests = sorted(self.waiting)
        glances = glance(self.redis, digests)
        taken = self.taken({origin for status, origin in glances.values() if status == JobStatus.QUEUED})
        moving = []
        for digest in digests:
            found = glances.get(digest)
            if found is None or found[0] != JobStatus.QUEUED or job_id(digest) in taken:
                moving.append(digest)
            else:
                self.beats.forget(digest)  # still waiting its turn on the queue: nothing to settle
        jobs = Job.fetch_many([job_id(digest) for digest in moving], self.redis, serializer=JSONSerializer)
        for digest, job in zip(moving, jobs, strict=True):
            if job is None:
                self.requeue(digest)
            else:
                self.settle(digest, job, job.id in taken)

    def taken(self, origins: set[str]) -> set[str]:
        """The ids of the jobs that a worker has taken off these queues (not started yet)."""
        found: set[str] = set()
        for origin in sorted(origins):
            found.update(Queue(origin, connection=self.redis).intermediate_queue.get_job_ids())
        return found

    def settle(self, digest: str, job: Job, taken: bool = False) -> None:
        """Write a run's verdict once its job is done; enqueue it again if its worker vanished."""
        under_way = job.get_status(refresh=False) == JobStatus.STARTED
        if under_way or taken:
            if self.beats.silent(digest, job.last_heartbeat if under_way else TAKEN):
                self.retry(digest, job, {"verdict": FAILED, "detail": f"lost with its worker {RETRIES + 1} times"})
            return
        self.beats.forget(digest)
        verdict = verdict_of(job, self.limits)
        if verdict is None:
            return
        if ABANDONED in verdict["detail"]:
            self.retry(digest, job, verdict)
            return
        self.record(digest, verdict)

    def retry(self, digest: str, job: Job, last_word: dict[str, Any]) -> None:
        """Run a job lost with its worker again; after ``RETRIES`` times, ``last_word`` is its verdict."""
        self.beats.forget(digest)
        if self.retried.get(digest, 0) >= RETRIES:
            self.record(digest, last_word)
            return
        self.retried[digest] = self.retried.get(digest, 0) + 1
        log.warning("run %s: its worker was lost with it; enqueued again", digest[:16])
        job.delete()
        Queue(job.origin, connection=self.redis).intermediate_queue.remove(job.id)  # else RQ would fail the new one
        self.requeue(digest)

    def record(self, digest: str, verdict: dict[str, Any]) -> None:
        """Write a run's verdict (only a pending run takes one) and stop waiting for it."""
        with self.engine.begin() as connection:
            store.record_verdict(connection, digest, verdict)
        self.forget(digest)

    def requeue(self, digest: str) -> None:
        """Enqueue again a run whose job is gone (unless it got its verdict meanwhile)."""
        with self.engine.connect() as connection:
            run = store.run_of(connection, digest)
        if run is not None and run.status in store.OPEN:
            self.put(digest, run.epoch)
        else:
            self.forget(digest)

    def forget(self, digest: str) -> None:
        """Stop waiting for a run's verdict."""
        with self.lock:
            self.waiting.discard(digest)
        self.beats.forget(digest)
        self.retried.pop(digest, None)
