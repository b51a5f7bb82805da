"""The score server with a real redis-server (unix socket, temporary folder) and RQ workers as processes."""

from __future__ import annotations

import shlex
import sys
import time

from redis import Redis
from rq import Worker

from roguelike.core.epoch import RULES_EPOCH
from server_helpers import CORPUS, ServerProcess, get, post, wait_http
from server_services import redis_server, wait_for

SPINNER = f"{shlex.quote(sys.executable)} -c 'while True: pass'"


def workers_up(url: str, number: int) -> None:
    """Wait until ``number`` workers listen on the queue."""
    connection = Redis.from_url(url)
    wait_for(lambda: len(Worker.all(connection=connection)) >= number, 60, "the workers did not start")


def test_two_workers_verify_the_corpus_through_the_queue(tmp_path: object) -> None:
    with redis_server() as url:
        workers = [ServerProcess("worker", "--queue", url, "--epoch", str(RULES_EPOCH)) for _ in range(2)]
        server = ServerProcess("--queue", url, "--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0")
        try:
            workers_up(url, 2)
            digests = [post(server.base, path.read_bytes())["hash"] for path in CORPUS]
            runs = wait_http(server.base, digests, 180)
            board = get(server.base, "/board.json")
        finally:
            for process in (server, *workers):
                process.stop()
    assert [runs[digest]["status"] for digest in digests] == ["verified"] * len(CORPUS)
    ranked = [entry["score"] for entry in board["ranked"]]
    assert ranked == sorted(ranked, reverse=True) and len(ranked) == sum(run["ranked"] for run in runs.values())


def test_a_runaway_verification_is_killed_within_its_limit_and_the_worker_goes_on(tmp_path: object) -> None:
    limit = 2.0
    with redis_server() as url:
        worker = ServerProcess("worker", "--queue", url, "--epoch", str(RULES_EPOCH), "--verifier", SPINNER)
        server = ServerProcess("--queue", url, "--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0",
                               "--time-limit", str(limit))
        try:
            workers_up(url, 1)
            started = time.monotonic()
            first = post(server.base, CORPUS[0].read_bytes())["hash"]
            run = wait_http(server.base, [first], 60)[first]
            took = time.monotonic() - started
            second = post(server.base, CORPUS[1].read_bytes())["hash"]
            after = wait_http(server.base, [second], 60)[second]
        finally:
            server.stop()
            worker.stop()
    assert run["status"] == "killed" and "limit" in run["detail"] and took < limit + 2
    assert after["status"] == "killed"  # the same worker took the next job: it was not stuck


def test_a_work_horse_over_its_memory_limit_is_a_killed_verdict_and_the_worker_goes_on(tmp_path: object) -> None:
    with redis_server() as url:
        worker = ServerProcess("worker", "--queue", url, "--epoch", str(RULES_EPOCH))
        server = ServerProcess("--queue", url, "--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0",
                               "--memory-limit", "64")
        try:
            workers_up(url, 1)
            digests = [post(server.base, data)["hash"] for data in (CORPUS[0].read_bytes(), CORPUS[1].read_bytes())]
            runs = wait_http(server.base, digests, 120)
        finally:
            server.stop()
            worker.stop()
    assert [runs[digest]["status"] for digest in digests] == ["killed", "killed"] and runs[digests[0]]["score"] is None
