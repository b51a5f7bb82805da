"""Nothing waits for a restart (issue 47: R7, R20): a run uploaded while Redis is away, a verdict that met a
database outage, a run "unverifiable here" when a worker that can verify it comes."""

from __future__ import annotations

import time
from typing import Any

import fakeredis
import pytest
from redis.exceptions import ConnectionError as RedisAway
from rq import Queue, Worker
from rq.serializers import JSONSerializer
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from roguelike.core.epoch import RULES_EPOCH
from roguelike.server import store
from roguelike.server.app import ScoreServer, ServerConfig
from roguelike.server.child import ChildLimits
from roguelike.server.local import LocalVerifier
from roguelike.server.queue import QueueVerifier, job_id, queue_name
from roguelike.server.sweep import RETRY_UNVERIFIABLE
from server_helpers import CORPUS, database, distinct_files, postgres, upload, verdict  # noqa: F401
from test_server_queue import Clock, engine, kept, status, work  # noqa: F401

SHORT = next(path for path in CORPUS if path.name == "death-exhaustion.replay")


def test_a_run_uploaded_while_redis_is_away_is_enqueued_when_it_answers(engine: Engine) -> None:
    server = fakeredis.FakeServer()
    redis = fakeredis.FakeRedis(server=server)
    envelope = kept(engine, SHORT.read_bytes())
    verifier = QueueVerifier(engine, ChildLimits(), redis)
    server.connected = False
    verifier.submit(envelope.digest, envelope.epoch)  # the upload is answered: its run is kept, pending
    with pytest.raises(RedisAway):  # the collector says so, and tries again later
        verifier.collect_once()
    server.connected = True
    verifier.collect_once()
    assert Queue(queue_name(RULES_EPOCH), connection=redis, serializer=JSONSerializer).job_ids == [
        job_id(envelope.digest)
    ]
    work(redis)
    verifier.collect_once()
    assert status(engine, envelope.digest).status == "verified"


def test_the_sweep_enqueues_a_pending_run_the_collector_was_not_waiting_for(engine: Engine) -> None:
    redis = fakeredis.FakeRedis()
    verifier = QueueVerifier(engine, ChildLimits(), redis)
    envelope = kept(engine, SHORT.read_bytes())  # kept, and its upload's thread never got to submit it
    verifier.sweep_once()
    verifier.sweep_once()  # its job is there: not enqueued twice
    assert Queue(queue_name(RULES_EPOCH), connection=redis, serializer=JSONSerializer).job_ids == [
        job_id(envelope.digest)
    ]
    work(redis)
    verifier.collect_once()
    assert status(engine, envelope.digest).status == "verified"


def test_an_unverifiable_run_is_enqueued_again_when_a_new_worker_listens_or_after_a_while(engine: Engine) -> None:
    redis, clock = fakeredis.FakeRedis(), Clock()
    queue = Queue(queue_name(RULES_EPOCH), connection=redis, serializer=JSONSerializer)
    verifier = QueueVerifier(engine, ChildLimits(), redis, clock=clock)
    files = distinct_files(3)
    first = kept(engine, files[0])
    unverifiable = {"verdict": "unverifiable here", "detail": "no runtime for that epoch on this worker"}
    with engine.begin() as connection:
        store.record_verdict(connection, first.digest, unverifiable)
    verifier.sweep_once()  # the first sweep (a server starting) tries it again
    assert queue.job_ids == [job_id(first.digest)]
    work(redis)
    verifier.collect_once()
    assert status(engine, first.digest).status == "verified"
    second = kept(engine, files[1])
    with engine.begin() as connection:
        store.record_verdict(connection, second.digest, unverifiable)
    clock.now += 1
    verifier.sweep_once()
    assert queue.job_ids == []  # nothing new: not tried again at every sweep
    Worker([queue], connection=redis, serializer=JSONSerializer).register_birth()  # a worker comes
    verifier.sweep_once()
    assert queue.job_ids == [job_id(second.digest)]
    work(redis)
    verifier.collect_once()
    third = kept(engine, files[2])
    with engine.begin() as connection:
        store.record_verdict(connection, third.digest, unverifiable)
    clock.now += 1
    verifier.sweep_once()
    assert queue.job_ids == []  # the same workers as before
    clock.now += RETRY_UNVERIFIABLE
    verifier.sweep_once()
    assert queue.job_ids == [job_id(third.digest)]


def flaky_verdicts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make the database refuse the first verdict written (an outage at that moment); the runs it met."""
    met: list[str] = []
    record = store.record_verdict

    def once(connection: Connection, digest: str, verdict: dict[str, Any]) -> bool:
        if not met:
            met.append(digest)
            raise OperationalError("UPDATE runs", {}, Exception("the database went away"))
        return record(connection, digest, verdict)

    monkeypatch.setattr(store, "record_verdict", once)
    return met


def left_pending(client: TestClient, verifier: LocalVerifier, met: list[str], digest: str) -> None:
    """Wait until the run's verdict met the outage and its verification is over."""
    deadline = time.monotonic() + 120
    while not met or digest in verifier.scheduled:
        assert time.monotonic() < deadline, "the verification never ended"
        time.sleep(0.05)
    assert client.get(f"/runs/{digest}").json()["status"] == "pending"


def test_a_verdict_that_met_a_database_outage_is_found_by_the_sweep(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    met = flaky_verdicts(monkeypatch)
    server = ScoreServer(ServerConfig(database))
    with TestClient(server.app) as client:
        digest = upload(client, SHORT.read_bytes())
        assert isinstance(server.verifier, LocalVerifier)
        left_pending(client, server.verifier, met, digest)
        server.verifier.sweep_once()
        assert verdict(client, digest, 120)["status"] == "verified"


def test_uploading_again_a_run_left_pending_verifies_it(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    met = flaky_verdicts(monkeypatch)
    server = ScoreServer(ServerConfig(database))
    with TestClient(server.app) as client:
        digest = upload(client, SHORT.read_bytes())
        assert isinstance(server.verifier, LocalVerifier)
        left_pending(client, server.verifier, met, digest)
        assert upload(client, SHORT.read_bytes()) == digest
        assert verdict(client, digest, 120)["status"] == "verified"
