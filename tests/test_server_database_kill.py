"""PostgreSQL killed with kill -9 while runs are verified (issue 46): no run lost, none decided twice, and the board
never shows a score that was not recomputed, in-process on a private cluster of its own (killing it harms no other
test)."""

from __future__ import annotations

import functools
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import fakeredis
import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from roguelike.replay.fileformat import parse_replay
from roguelike.scores.proof import Proof, prove, prove_file
from roguelike.server import local, store
from roguelike.server.app import ScoreServer, ServerConfig
from roguelike.server.child import ChildLimits
from roguelike.server.local import LocalVerifier
from roguelike.server.queue import QueueVerifier
from roguelike.server.sweep import sweeping
from server_helpers import CORPUS, distinct_files, played_bytes, upload
from server_services import Postgres, postgres_cluster, start_postgres, wait_for
from test_server_attacks import claiming
from test_server_queue import kept, work

CLAIMED = 987_654_321  # what every file's header claims: never to be seen on the board
LIMIT = 180  # seconds to wait for anything: generous, for a busy machine


def postmaster_and_children(cluster: Postgres) -> tuple[int, list[int]]:
    """The cluster's postmaster (from its lock file) and the processes it started (its backends and helpers)."""
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == postmaster:
            children.append(int(stat.parent.name))
    return postmaster, children


def kill_postgres(cluster: Postgres) -> None:
    """kill -9 the postmaster alone, then wait until its backends noticed and died, and all were reaped (a new
    postmaster refuses to start while the old one's process id exists, even as a zombie)."""
    postmaster, children = postmaster_and_children(cluster)
    assert children, "the postmaster has no backends and helpers to leave behind"
    os.kill(postmaster, signal.SIGKILL)
    gone = [Path(f"/proc/{pid}") for pid in (postmaster, *children)]
    wait_for(lambda: not [path for path in gone if path.exists()], LIMIT, "postgres did not die")


def held_verdicts(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event, list[str]]:
    """Hold every verdict worked out while ``holding`` is set, until ``released`` is: the verifications are in flight
    when the database dies. The two events, and the verdicts held so far (each one's character name)."""
    holding, released, held = threading.Event(), threading.Event(), []
    work_out = LocalVerifier.verdict

    def hold(verifier: LocalVerifier, data: bytes) -> dict[str, Any]:
        found = work_out(verifier, data)
        if holding.is_set():
            held.append(str(found.get("name")))
            released.wait(LIMIT)
        return found

    monkeypatch.setattr(LocalVerifier, "verdict", hold)
    return holding, released, held


@contextmanager
def let_go(released: threading.Event) -> Iterator[None]:
    """Release the held verdicts on the way out, whatever happened (else the server's stop waits for them)."""
    try:
        yield
    finally:
        released.set()


def counted_verdicts(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many verdicts each run had written (only a write that took counts)."""
    written: Counter[str] = Counter()
    record = store.record_verdict

    def count(connection: Any, digest: str, verdict: dict[str, Any]) -> bool:
        took = record(connection, digest, verdict)
        written[digest] += took
        return took

    monkeypatch.setattr(store, "record_verdict", count)
    return written


def board_holds(client: TestClient, scores: dict[str, int]) -> dict[str, Any]:
    """The board, asserted to show verified runs only, each with the score its replay proves (or an error, the
    database being away); its JSON, or {} for an error."""
    answer = client.get("/board.json")
    page = client.get("/board")
    if answer.status_code != 200 or page.status_code != 200:
        assert answer.status_code == 500 and page.status_code == 500 and str(CLAIMED) not in answer.text + page.text
        return {}
    board: dict[str, Any] = answer.json()
    listed = board["ranked"] + board["unranked"]
    assert [entry["status"] for entry in listed] == ["verified"] * len(listed)
    assert {entry["hash"]: entry["score"] for entry in listed} == {
        entry["hash"]: scores[entry["hash"]] for entry in listed
    }
    assert board["unverified"] == [] and "987654321" not in page.text and "987,654,321" not in page.text
    return board


def score_of(proof: Proof) -> int:
    """The score a finished game's replay proves (every one here has one)."""
    assert proof.score is not None, proof
    return proof.score


def statuses(client: TestClient, digests: list[str]) -> list[str]:
    """Each run's status, as the server tells it."""
    return [client.get(f"/runs/{digest}").json()["status"] for digest in digests]


def wait_checking(client: TestClient, done: Callable[[], bool], scores: dict[str, int], why: str) -> None:
    """Wait until ``done()``, checking the board all the while."""
    deadline = time.monotonic() + LIMIT
    while not done():
        board_holds(client, scores)
        assert time.monotonic() < deadline, why
        time.sleep(0.05)


def test_postgres_killed_mid_verification_loses_no_run_decides_none_twice_and_shows_no_unverified_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = ["death-exhaustion", "death-overdose", "death-depression", "floors"]  # four played games, over: all rank
    paths = [next(path for path in CORPUS if path.stem == name) for name in names]
    files = [claiming(played_bytes(path), CLAIMED) for path in paths]
    late = distinct_files(1)[0]  # a bot's game (unranked), uploaded while the database is away
    holding, released, held = held_verdicts(monkeypatch)
    written = counted_verdicts(monkeypatch)
    monkeypatch.setattr(local, "sweeping", functools.partial(sweeping, seconds=0.2))  # the 30 s sweep, made quick
    with postgres_cluster() as cluster:
        server = ScoreServer(ServerConfig(cluster.new_database(), workers=2))
        with TestClient(server.app, raise_server_exceptions=False) as client, let_go(released):
            verifier = server.verifier
            assert isinstance(verifier, LocalVerifier)
            first = upload(client, files[0])
            digests = [first]
            proved = {first: score_of(prove_file(paths[0]))}
            wait_checking(client, lambda: statuses(client, [first]) == ["verified"], proved, "the first run")
            old = board_holds(client, proved)
            assert [entry["hash"] for entry in old["ranked"]] == [first]
            holding.set()
            digests += [upload(client, data) for data in files[1:]]
            proved.update((digest, score_of(prove_file(path))) for digest, path in zip(digests[1:], paths[1:]))
            wait_for(lambda: len(held) == 2, LIMIT, "two verdicts under way (two workers)")
            assert statuses(client, digests) == ["verified", "pending", "pending", "pending"]

            kill_postgres(cluster)
            assert board_holds(client, proved) == {}  # an error, never a page from nowhere
            assert client.post("/runs", content=late).status_code == 500  # not kept, and not said to be
            released.set()  # the held verdicts meet the dead database; the third run's verification too
            wait_for(lambda: not verifier.scheduled, LIMIT, "the verifications never ended")
            assert board_holds(client, proved) == {} and sum(written.values()) == 1

            start_postgres(cluster)  # on the same data folder: it recovers from the kill first
            assert first in [entry["hash"] for entry in board_holds(client, proved)["ranked"]]  # right after
            late_answer = client.post("/runs", content=late)
            assert late_answer.status_code == 202 and late_answer.json()["new"] is True
            digests.append(late_answer.json()["hash"])
            proved[digests[-1]] = score_of(prove(parse_replay(late), "late"))
            wait_checking(client, lambda: "pending" not in statuses(client, digests), proved, "runs still pending")

            assert statuses(client, digests) == ["verified"] * 5
            board = board_holds(client, proved)
            ranked = sorted(digests[:4], key=lambda digest: -proved[digest])
            assert [entry["hash"] for entry in board["ranked"]] == ranked
            assert [entry["hash"] for entry in board["unranked"]] == digests[4:]
            verifier.sweep_once()  # another sweep, and every file uploaded again: still one verdict each
            assert [upload(client, data) for data in [*files, late]] == digests
            wait_for(lambda: not verifier.scheduled, LIMIT, "the last sweep never ended")
            assert board_holds(client, proved) == board and written == Counter(dict.fromkeys(digests, 1))
            with server.engine.connect() as connection:
                for table in (store.runs, store.replays):
                    assert connection.execute(select(func.count()).select_from(table)).scalar() == 5


def test_postgres_killed_with_verdicts_waiting_on_the_queue_writes_each_once_when_it_is_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    redis = fakeredis.FakeRedis()
    files = distinct_files(2)
    written = counted_verdicts(monkeypatch)
    with postgres_cluster() as cluster:
        engine = store.open_engine(cluster.new_database())
        verifier = QueueVerifier(engine, ChildLimits(), redis)
        envelopes = [kept(engine, data) for data in files]
        for envelope in envelopes:
            verifier.submit(envelope.digest, envelope.epoch)
        work(redis)  # the workers are done: the verdicts wait in Redis for the collector
        kill_postgres(cluster)
        for _ in range(3):  # the collector and the sweep meet the dead database, and say so
            with pytest.raises(OperationalError):
                verifier.collect_once()
            with pytest.raises(OperationalError):
                verifier.sweep_once()
        assert sum(written.values()) == 0
        start_postgres(cluster)
        for _ in range(3):  # the sweep finds nothing lost; the collector writes each verdict, once
            verifier.sweep_once()
            verifier.collect_once()
        assert verifier.waiting == set()
        with engine.connect() as connection:
            runs = connection.execute(select(store.runs.c.hash, store.runs.c.status)).all()
        engine.dispose()
    digests = [envelope.digest for envelope in envelopes]
    assert sorted((run.hash, run.status) for run in runs) == sorted((digest, "verified") for digest in digests)
    assert written == Counter(dict.fromkeys(digests, 1))
