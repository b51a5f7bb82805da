"""The score server with a real redis-server (unix socket, temporary folder) and RQ workers as processes."""

from __future__ import annotations

import hashlib
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from redis import Redis
from rq import Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from roguelike.core.epoch import RULES_EPOCH
from roguelike.server.queue import LOST_AFTER, job_id
from server_helpers import CORPUS, ServerProcess, get, played_bytes, post, wait_http
from server_services import redis_program, redis_server, wait_for

# Real workers and limits of up to 30 s: each test is mostly waiting (started first: see tests/conftest.py).
pytestmark = pytest.mark.long(40)

SPINNER = f"{shlex.quote(sys.executable)} -c 'while True: pass'"


def workers_up(url: str, number: int) -> None:
    """Wait until ``number`` workers listen on the queue."""
    connection = Redis.from_url(url)
    wait_for(lambda: len(Worker.all(connection=connection)) >= number, 60, "the workers did not start")


def runaway_worker(url: str, data: bytes) -> ServerProcess:
    """A real worker whose prover spins for ever on ``data`` and proves anything else (tests/runaway_worker.py)."""
    digest = hashlib.sha256(data).hexdigest()
    return ServerProcess(command=[sys.executable, "-m", "tests.runaway_worker", url, str(RULES_EPOCH), digest])


def gone(pid: int) -> bool:
    """Whether a process has ended (reaped, or a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def started(url: str, digest: str) -> bool:
    """Whether a run's job is under way on a worker."""
    try:
        job = Job.fetch(job_id(digest), connection=Redis.from_url(url), serializer=JSONSerializer)
    except NoSuchJobError:
        return False
    return job.get_status() == JobStatus.STARTED


def test_two_workers_verify_the_corpus_through_the_queue(tmp_path: object) -> None:
    with redis_server() as url:
        workers = [ServerProcess("worker", "--queue", url, "--epoch", str(RULES_EPOCH)) for _ in range(2)]
        server = ServerProcess("--queue", url, "--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0")
        try:
            workers_up(url, 2)
            digests = [post(server.base, played_bytes(path))["hash"] for path in CORPUS]
            runs = wait_http(server.base, digests, 180)
            board = get(server.base, "/board.json")
        finally:
            for process in (server, *workers):
                process.stop()
    assert [runs[digest]["status"] for digest in digests] == ["verified"] * len(CORPUS)
    ranked = [entry["score"] for entry in board["ranked"]]
    assert ranked == sorted(ranked, reverse=True) and len(ranked) == sum(run["ranked"] for run in runs.values())


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_idle_worker_told_to_stop_stops(sent: signal.Signals) -> None:
    with redis_server() as url:
        worker = ServerProcess("worker", "--queue", url, "--epoch", str(RULES_EPOCH))
        try:
            connection = Redis.from_url(url)
            # idle: waiting on the queue, its signal handlers in place (RQ installs them before it waits)
            wait_for(
                lambda: [w.get_state() for w in Worker.all(connection=connection)] == ["idle"], 60, "no idle worker"
            )
            worker.process.send_signal(sent)
            status = worker.process.wait(timeout=60)  # far above the work: it stops at once, or never did
        finally:
            if worker.process.poll() is None:
                worker.kill()
    assert status == 0
    assert "starting again" not in (worker.process.stderr.read() if worker.process.stderr else "")


# What a test may wait past a limit before a verdict shows: queueing, a fork, reaping and a poll, on a machine
# at load 10. The runaway is still told apart from no limit at all (the default is 60 s, RQ's own a minute more).
LATE = 20.0
# A limit honest work always meets, however busy the machine: the smallest corpus replay verifies in well
# under a second of CPU, and a limit counts wall-clock seconds too.
HONEST_LIMIT = 30.0
SMALLEST = min(CORPUS, key=lambda path: path.stat().st_size)


def test_a_runaway_verification_is_killed_within_its_limit_and_the_worker_goes_on(tmp_path: object) -> None:
    limit = 2.0  # both jobs spin (the verifier is a spinner), so no honest work has to fit in it
    with redis_server() as url:
        worker = ServerProcess("worker", "--queue", url, "--epoch", str(RULES_EPOCH), "--verifier", SPINNER)
        server = ServerProcess(
            "--queue", url, "--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0", "--time-limit", str(limit)
        )
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
    assert run["status"] == "killed" and "limit" in run["detail"] and limit <= took < limit + LATE
    assert after["status"] == "killed"  # the same worker took the next job: it was not stuck


def test_a_work_horse_over_its_memory_limit_is_a_killed_verdict_and_the_worker_goes_on(tmp_path: object) -> None:
    with redis_server() as url:
        worker = ServerProcess("worker", "--queue", url, "--epoch", str(RULES_EPOCH))
        server = ServerProcess(
            "--queue", url, "--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0", "--memory-limit", "64"
        )
        try:
            workers_up(url, 1)
            digests = [post(server.base, data)["hash"] for data in (CORPUS[0].read_bytes(), CORPUS[1].read_bytes())]
            runs = wait_http(server.base, digests, 120)
        finally:
            server.stop()
            worker.stop()
    assert [runs[digest]["status"] for digest in digests] == ["killed", "killed"] and runs[digests[0]]["score"] is None


def test_a_runaway_in_the_work_horse_itself_is_killed_within_its_limit_and_its_worker_verifies_the_next(
    tmp_path: object,
) -> None:
    limit, hostile = HONEST_LIMIT, CORPUS[0].read_bytes()
    honest = SMALLEST.read_bytes() if SMALLEST != CORPUS[0] else CORPUS[1].read_bytes()
    with redis_server() as url:
        worker = runaway_worker(url, hostile)
        server = ServerProcess(
            "--queue", url, "--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0", "--time-limit", str(limit)
        )
        try:
            workers_up(url, 1)
            began = time.monotonic()
            first = post(server.base, hostile)["hash"]
            run = wait_http(server.base, [first], 60)[first]
            took = time.monotonic() - began
            second = post(server.base, honest)["hash"]
            after = wait_http(server.base, [second], 120)[second]
            alive = worker.process.poll() is None
        finally:
            server.stop()
            worker.stop()
    assert run["status"] == "killed" and f"limit ({limit:g} s): killed" in run["detail"], run
    assert limit <= took < limit + LATE and run["score"] is None
    assert after["status"] == "verified" and alive  # the one worker went on, with an honest verdict


def test_a_job_lost_with_its_worker_killed_with_kill_9_is_run_again_within_seconds(tmp_path: object) -> None:
    data = CORPUS[0].read_bytes()
    with redis_server() as url:
        doomed = runaway_worker(url, data)  # it will be mid-job for as long as it lives
        server = ServerProcess("--queue", url, "--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0")
        rescuer = None
        try:
            workers_up(url, 1)
            digest = post(server.base, data)["hash"]
            wait_for(lambda: started(url, digest) and doomed.children(), 60, "the job did not start")
            horses = doomed.children()
            rescuer = ServerProcess("worker", "--queue", url, "--epoch", str(RULES_EPOCH))
            workers_up(url, 2)
            doomed.process.kill()  # kill -9 of the worker alone (its horse, if it lived on, would hold the pipes)
            doomed.process.wait()
            killed_at = time.monotonic()
            wait_for(lambda: all(gone(pid) for pid in horses), 10, "the work-horse outlived its worker")
            run = wait_http(server.base, [digest], 120)[digest]
            took = time.monotonic() - killed_at
        finally:
            for process in (server, doomed, rescuer):
                if process is not None:
                    process.stop()
    assert run["status"] == "verified" and run["score"] is not None
    assert took < LOST_AFTER + 2 * LATE  # RQ alone would wait a minute past the last heartbeat, then for a sweep


class RestartableRedis:
    """A private redis-server on a unix socket that the test kills and starts again (nothing saved)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.socket = folder / "redis.sock"
        self.url = f"unix://{self.socket}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait for its socket."""
        self.socket.unlink(missing_ok=True)
        self.process = subprocess.Popen(
            [
                redis_program(),
                "--port",
                "0",
                "--unixsocket",
                str(self.socket),
                "--unixsocketperm",
                "700",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(lambda: self.socket.exists(), 60, "redis-server did not open its socket")

    def kill(self) -> None:
        """kill -9, and reap."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()


def test_a_worker_whose_redis_dies_with_a_job_in_flight_waits_for_it_and_goes_on(tmp_path: Path) -> None:
    hostile = CORPUS[0].read_bytes()
    honest = SMALLEST.read_bytes() if SMALLEST != CORPUS[0] else CORPUS[1].read_bytes()
    redis = RestartableRedis(tmp_path)
    redis.start()
    worker = runaway_worker(redis.url, hostile)  # mid-job for as long as the job lives
    server = ServerProcess(
        "--queue",
        redis.url,
        "--db",
        f"sqlite:///{tmp_path}/runs.sqlite",
        "--port",
        "0",
        "--time-limit",
        str(HONEST_LIMIT),
    )
    try:
        workers_up(redis.url, 1)
        digest = post(server.base, hostile)["hash"]
        wait_for(lambda: started(redis.url, digest) and worker.children(), 60, "the job did not start")
        horses = worker.children()
        redis.kill()  # Redis dies, and comes back with nothing (the job's run is still pending on the server)
        wait_for(lambda: all(gone(pid) for pid in horses), 60, "the worker never noticed")
        through = worker.process.poll() is None
        redis.start()
        second = post(server.base, honest)["hash"]
        runs = wait_http(server.base, [digest, second], 240)
        alive = worker.process.poll() is None
    finally:
        for process in (server, worker):
            process.stop()
        redis.kill()
    assert through and alive, "the worker exited when Redis went away"
    assert runs[second]["status"] == "verified" and runs[digest]["status"] == "killed"
