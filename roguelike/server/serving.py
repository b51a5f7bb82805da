"""Run the score server on uvicorn, or an RQ worker for one rules epoch's queue."""

from __future__ import annotations

import os
import socket
import sys

import uvicorn

from roguelike.server.app import ScoreServer, ServerConfig


def run_server(config: ServerConfig, host: str, port: int) -> int:
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
    server = ScoreServer(config)
    shown = f"[{host}]" if ":" in host else host
    where = config.queue_url or f"{config.workers} local verifier(s)"
    print(f"The score server is at http://{shown}:{listening.getsockname()[1]}/board "
          f"(runs in {server.engine.url.render_as_string(hide_password=True)}; verified by {where})", flush=True)
    running = uvicorn.Server(uvicorn.Config(server.app, log_level="warning", lifespan="on"))
    running.run(sockets=[listening])
    return 0


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
    """Work the queue of one rules epoch: each job in RQ's forked work-horse, killed on timeout."""
    from redis import Redis
    from rq import Queue, Worker
    from rq.serializers import JSONSerializer

    from roguelike.server import job
    from roguelike.server.queue import HEARTBEAT, queue_name

    trouble = queue_trouble(queue_url)
    if trouble is not None:
        print(f"hedonic serve worker: cannot reach the queue {queue_url}: {trouble}", file=sys.stderr)
        return 1
    job.VERIFIER = verifier
    job.WORKER_PID = os.getpid()
    if verifier is None:
        job.preload()
    connection = Redis.from_url(queue_url)
    queue = Queue(queue_name(epoch), connection=connection, serializer=JSONSerializer)
    print(f"hedonic serve worker: verifying the runs of rules epoch {epoch} from {queue.name}", flush=True)
    worker = Worker([queue], connection=connection, serializer=JSONSerializer, job_monitoring_interval=HEARTBEAT)
    worker.work(burst=burst, logging_level="WARNING")
    return 0
