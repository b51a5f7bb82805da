"""Run the score server on uvicorn, or an RQ worker for one rules epoch's queue.

The server closes requests that do not arrive in time and caps its connections
(:mod:`roguelike.server.guard`), and writes a few lines of each repeated error, not thousands
(:class:`roguelike.server.quota.Hush`). A worker whose Redis goes away (with a job in flight or
not) kills its work-horse, waits for Redis and goes on: the server runs the lost job again.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import uvicorn

from roguelike.server.app import ScoreServer, ServerConfig
from roguelike.server.guard import guarded, room_for
from roguelike.server.quota import Hush

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from roguelike.server.hosted.routes import Identity

MOST_WAIT = 5.0  # seconds at most between a worker's tries to reach Redis again


@dataclass(frozen=True)
class Door:
    """How long a request may take to arrive, and how many connections are taken (in all, and from one address)."""

    request_seconds: float = 60.0
    most: int = 512
    per_client: int = 32


def run_server(
    config: ServerConfig,
    host: str,
    port: int,
    door: Door = Door(),
    identity: Callable[[Engine], Identity] | None = None,
) -> int:
    """Serve until Ctrl-C (or SIGTERM); 1 if the address cannot be had."""
    try:
        listening = socket.create_server((host, port), reuse_port=False)
    except OSError as error:
        print(f"hedonic serve: cannot serve on {host}:{port}: {error.strerror or error}", file=sys.stderr)
        return 1
    trouble = queue_trouble(config.queue_url) if config.queue_url else None
    if trouble is not None:
        print(f"hedonic serve: cannot reach the queue {config.queue_url}: {trouble}", file=sys.stderr)
        return 1
    hushed_logging()
    room_for(door.most)
    server = ScoreServer(config, identity=identity)
    shown = f"[{host}]" if ":" in host else host
    where = config.queue_url or f"{config.workers} local verifier(s)"
    print(
        f"The score server is at http://{shown}:{listening.getsockname()[1]}/board "
        f"(runs in {server.engine.url.render_as_string(hide_password=True)}; verified by {where})",
        flush=True,
    )
    if server.hosted is not None:
        print(f"Hosted play: the lobby is at http://{shown}:{listening.getsockname()[1]}/lobby", flush=True)
    protocol = guarded(door.request_seconds, door.most, door.per_client)
    # Frames come compressed once for all (ground.frames.deflated): no per-connection deflate on top.
    running = uvicorn.Server(
        uvicorn.Config(
            server.app,
            log_level="warning",
            log_config=None,
            lifespan="on",
            http=protocol,
            timeout_keep_alive=5,
            ws_per_message_deflate=False,
        )
    )
    running.run(sockets=[listening])
    return 0


def hushed_logging() -> None:
    """Warnings and errors to stderr, a few of each kind a minute (the rest counted, not written)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(Hush())
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)


def queue_trouble(url: str) -> str | None:
    """Why the queue's Redis cannot be used (None when it answers)."""
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        Redis.from_url(url, socket_connect_timeout=5).ping()
    except (RedisError, ValueError, OSError) as error:
        return str(error) or type(error).__name__
    return None


def run_worker(queue_url: str, epoch: int, verifier: list[str] | None, burst: bool) -> int:
    """Work the queue of one rules epoch: each job in RQ's forked work-horse, killed on timeout; when Redis
    goes away, wait for it and go on."""
    from roguelike.server import job

    trouble = queue_trouble(queue_url)
    if trouble is not None:
        print(f"hedonic serve worker: cannot reach the queue {queue_url}: {trouble}", file=sys.stderr)
        return 1
    job.VERIFIER = verifier
    job.WORKER_PID = os.getpid()
    if verifier is None:
        job.preload()
    hushed_logging()
    from roguelike.server.queue import queue_name

    print(f"hedonic serve worker: verifying the runs of rules epoch {epoch} from {queue_name(epoch)}", flush=True)
    while not work_once(queue_url, epoch, burst):
        wait_for_queue(queue_url)
    return 0


def work_once(queue_url: str, epoch: int, burst: bool) -> bool:
    """Work until told to stop (True), or until Redis goes away (False, its horse killed)."""
    from redis.exceptions import RedisError

    worker = queue_worker(queue_url, epoch)
    try:
        worker.work(burst=burst, logging_level="WARNING")
    except (RedisError, OSError) as error:  # RQ's own loop lets these out when Redis goes at the wrong moment
        print(f"hedonic serve worker: lost the queue ({error}); waiting for it", file=sys.stderr, flush=True)
    else:
        if burst or worker.told_to_stop:
            return True
        print("hedonic serve worker: its loop broke off (RQ logged why); starting again", file=sys.stderr, flush=True)
    end_horse(worker)
    return False


def queue_worker(queue_url: str, epoch: int) -> Any:
    """An RQ worker of the epoch's queue that remembers whether it was told to stop (``told_to_stop``)."""
    from redis import Redis
    from rq import Queue, Worker
    from rq.serializers import JSONSerializer

    from roguelike.server.queue import HEARTBEAT, queue_name

    class TellingWorker(Worker):
        told_to_stop = False

        def handle_warm_shutdown_request(self) -> None:
            # An idle worker told to stop (Ctrl-C, SIGTERM) leaves its loop as a broken one does, saying
            # nothing of it (RQ marks only a busy worker's stop): it was started again, and ran on.
            self.told_to_stop = True
            super().handle_warm_shutdown_request()  # type: ignore[no-untyped-call]

    connection = Redis.from_url(queue_url)
    queue = Queue(queue_name(epoch), connection=connection, serializer=JSONSerializer)
    return TellingWorker([queue], connection=connection, serializer=JSONSerializer, job_monitoring_interval=HEARTBEAT)


def end_horse(worker: object) -> None:
    """Kill the work-horse of a job that was under way when Redis went (the server runs the job again)."""
    pid = getattr(worker, "horse_pid", 0)
    if pid:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def wait_for_queue(queue_url: str) -> None:
    """Sleep a second, then until Redis answers again, trying less and less often (up to every ``MOST_WAIT`` s)."""
    pause = 1.0
    time.sleep(pause)
    while queue_trouble(queue_url) is not None:
        time.sleep(pause)
        pause = min(MOST_WAIT, pause * 2)
