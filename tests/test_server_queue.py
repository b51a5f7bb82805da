"""The score server's queue (RQ) with fakeredis: jobs by name on their epoch's queue, as JSON, each run decided once."""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import fakeredis
import pytest
from redis import Redis
from rq import Queue, SimpleWorker
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer
from sqlalchemy import Engine

from roguelike.core.epoch import RULES_EPOCH
from roguelike.scores.proof import prove_file
from roguelike.server import store
from roguelike.server.child import ChildLimits
from roguelike.server.envelope import Envelope, Limits, open_upload
from roguelike.server.queue import (
    JOB,
    LOST_AFTER,
    RETRIES,
    Heartbeats,
    QueueVerifier,
    failure_verdict,
    job_id,
    queue_name,
)
from server_helpers import CORPUS, database, postgres  # noqa: F401

SHORT = next(path for path in CORPUS if path.name == "death-exhaustion.replay")


@pytest.fixture
def engine(database: str) -> Iterator[Engine]:
    """The server's database (SQLite, then PostgreSQL)."""
    made = store.open_engine(database)
    yield made
    made.dispose()


def kept(engine: Engine, data: bytes) -> Envelope:
    """An upload kept as a pending run."""
    envelope = open_upload(data, Limits())
    with engine.begin() as connection:
        store.add_run(connection, envelope)
    return envelope


def work(redis: fakeredis.FakeRedis, epoch: int = RULES_EPOCH) -> None:
    """Run an epoch's queue dry in this process."""
    queue = Queue(queue_name(epoch), connection=redis, serializer=JSONSerializer)
    SimpleWorker([queue], connection=redis, serializer=JSONSerializer).work(burst=True, logging_level="ERROR")


def status(engine: Engine, digest: str) -> store.Run:
    """A run as the database has it."""
    with engine.connect() as connection:
        run = store.run_of(connection, digest)
    assert run is not None
    return run


def test_a_run_goes_on_its_epochs_queue_by_name_as_json_never_a_pickle(engine: Engine) -> None:
    redis = fakeredis.FakeRedis()
    envelope = kept(engine, SHORT.read_bytes())
    QueueVerifier(engine, ChildLimits(), redis).submit(envelope.digest, envelope.epoch)
    queue = Queue(queue_name(RULES_EPOCH), connection=redis, serializer=JSONSerializer)
    assert envelope.epoch == RULES_EPOCH and queue.job_ids == [job_id(envelope.digest)]
    job = Job.fetch(job_id(envelope.digest), connection=redis, serializer=JSONSerializer)
    assert job.func_name == JOB and job.timeout is not None and job.timeout > ChildLimits().seconds
    raw = redis.hget(job.key, "data")
    assert isinstance(raw, bytes)
    name, _, args, _ = json.loads(zlib.decompress(raw))
    assert name == JOB and len(args) == 2


def test_a_worker_verifies_and_the_collector_writes_the_recomputed_score_once(engine: Engine) -> None:
    redis = fakeredis.FakeRedis()
    envelope = kept(engine, SHORT.read_bytes())
    verifier = QueueVerifier(engine, ChildLimits(), redis)
    verifier.submit(envelope.digest, envelope.epoch)
    work(redis)
    verifier.collect_once()
    verifier.collect_once()  # nothing left to collect: the verdict is not written again
    run = status(engine, envelope.digest)
    assert run.status == "verified" and run.verdict["score"] == prove_file(SHORT).score
    assert verifier.waiting == set()


def test_a_job_the_queue_lost_is_enqueued_again_and_a_queued_one_is_not_doubled(engine: Engine) -> None:
    redis = fakeredis.FakeRedis()
    envelope = kept(engine, SHORT.read_bytes())
    verifier = QueueVerifier(engine, ChildLimits(), redis)
    verifier.submit(envelope.digest, envelope.epoch)
    restarted = QueueVerifier(engine, ChildLimits(), redis)
    asyncio.run(start_and_stop(restarted))
    queue = Queue(queue_name(RULES_EPOCH), connection=redis, serializer=JSONSerializer)
    assert queue.job_ids == [job_id(envelope.digest)]  # the pending run's job was there: not enqueued twice
    redis.flushall()  # Redis restarted without its data
    restarted.collect_once()
    assert queue.job_ids == [job_id(envelope.digest)]
    work(redis)
    restarted.collect_once()
    assert status(engine, envelope.digest).status == "verified"


async def start_and_stop(verifier: QueueVerifier) -> None:
    """Start a verifier (taking up the pending runs) and stop its collector."""
    await verifier.start()
    await verifier.stop()


def test_a_job_that_fails_gives_its_run_a_verdict_saying_so_never_a_score(engine: Engine) -> None:
    redis = fakeredis.FakeRedis()
    envelope = kept(engine, SHORT.read_bytes())
    queue = Queue(queue_name(RULES_EPOCH), connection=redis, serializer=JSONSerializer)
    queue.enqueue(JOB, "not base64 at all!", ChildLimits().to_plain(), job_id=job_id(envelope.digest))
    work(redis)
    verifier = QueueVerifier(engine, ChildLimits(), redis)
    verifier.waiting.add(envelope.digest)
    verifier.collect_once()
    run = status(engine, envelope.digest)
    assert (
        run.status == "failed"
        and "the worker gave up on it" in run.verdict["detail"]
        and run.verdict.get("score") is None
    )


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def under_way(redis: fakeredis.FakeRedis, digest: str) -> Job:
    """A run's job as a worker holds it: started, with a heartbeat."""
    job = Job.fetch(job_id(digest), connection=redis, serializer=JSONSerializer)
    job.set_status(JobStatus.STARTED)
    job.heartbeat(datetime.now(UTC), 60)
    return job


def submitted(engine: Engine) -> tuple[fakeredis.FakeRedis, Clock, Envelope, QueueVerifier, Queue]:
    """A short run submitted to a queue verifier whose heartbeat watch reads a hand-moved clock."""
    redis, clock = fakeredis.FakeRedis(), Clock()
    envelope = kept(engine, SHORT.read_bytes())
    verifier = QueueVerifier(engine, ChildLimits(), redis)
    verifier.beats = Heartbeats(clock)
    verifier.submit(envelope.digest, envelope.epoch)
    return redis, clock, envelope, verifier, Queue(queue_name(RULES_EPOCH), connection=redis, serializer=JSONSerializer)


def test_a_started_job_whose_heartbeat_stands_still_is_run_again_and_one_that_beats_is_left_alone(
    engine: Engine,
) -> None:
    redis, clock, envelope, verifier, queue = submitted(engine)
    queue.pop_job_id()  # a worker took it
    job = under_way(redis, envelope.digest)
    for _ in range(3):  # a worker alive: its heartbeat moves every second
        verifier.collect_once()
        clock.now += LOST_AFTER - 1
        job.heartbeat(datetime.now(UTC) + timedelta(seconds=clock.now), 60)
    assert queue.job_ids == [] and job.get_status() == JobStatus.STARTED
    verifier.collect_once()
    clock.now += LOST_AFTER  # then it falls silent
    verifier.collect_once()
    assert queue.job_ids == [job_id(envelope.digest)]
    work(redis)
    verifier.collect_once()
    assert status(engine, envelope.digest).status == "verified"


def test_a_run_lost_with_its_worker_again_and_again_gets_a_verdict_saying_so(engine: Engine) -> None:
    redis, clock, envelope, verifier, queue = submitted(engine)
    for _ in range(RETRIES + 1):
        queue.pop_job_id()
        under_way(redis, envelope.digest)
        verifier.collect_once()
        clock.now += LOST_AFTER
        verifier.collect_once()
    run = status(engine, envelope.digest)
    assert run.status == "failed" and run.verdict["detail"] == f"lost with its worker {RETRIES + 1} times"
    assert queue.job_ids == [] and verifier.waiting == set()


def test_a_horse_killed_by_its_own_limits_says_which() -> None:
    limits = ChildLimits(seconds=2.0)
    told = "Work-horse terminated unexpectedly; waitpid returned {0} (signal {0}); "
    assert failure_verdict(told.format(14), limits) == {
        "verdict": "killed",
        "detail": "over its time limit (2 s): killed",
    }
    assert failure_verdict(told.format(24), limits) == {
        "verdict": "killed",
        "detail": "over its CPU limit (2 s): killed",
    }
    other = failure_verdict(told.format(11), limits)
    assert other["verdict"] == "killed" and other["detail"].startswith("the worker gave up on it: Work-horse")


def test_a_job_a_worker_took_off_the_queue_and_never_started_is_run_again(engine: Engine) -> None:
    redis, clock, envelope, verifier, queue = submitted(engine)
    redis.lmove(queue.key, queue.intermediate_queue_key)  # what a worker's dequeue does; then it was killed
    verifier.collect_once()
    clock.now += LOST_AFTER - 1
    verifier.collect_once()
    assert queue.job_ids == []  # a worker has seconds to start what it took
    clock.now += 1
    verifier.collect_once()
    assert queue.job_ids == [job_id(envelope.digest)] and queue.intermediate_queue.get_job_ids() == []
    work(redis)
    verifier.collect_once()
    assert status(engine, envelope.digest).status == "verified"


def test_the_collector_fetches_whole_only_the_jobs_that_moved(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    redis, _, envelope, verifier, queue = submitted(engine)
    waiting = kept(engine, (CORPUS[0] if CORPUS[0] != SHORT else CORPUS[1]).read_bytes())
    verifier.submit(waiting.digest, waiting.epoch)
    fetched: list[str] = []
    fetch_many = Job.fetch_many

    def fetching(ids: list[str], connection: Redis, serializer: type[JSONSerializer]) -> list[Job | None]:
        fetched.extend(ids)
        return fetch_many(ids, connection, serializer=serializer)

    monkeypatch.setattr(Job, "fetch_many", fetching)
    verifier.collect_once()
    assert fetched == []  # both wait their turn on the queue: a glance at each, no replay read
    queue.remove(job_id(envelope.digest))
    under_way(redis, envelope.digest)
    verifier.collect_once()
    assert fetched == [job_id(envelope.digest)]  # the started one is fetched; the queued one still not
