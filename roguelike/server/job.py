"""The RQ job a worker runs by name (``roguelike.server.job.verify_upload``), in RQ's forked work-horse.

Its arguments are JSON (the queue's serializer is RQ's JSON one: nothing on the queue is
unpickled): the replay's bytes in base64 and the limits. The work-horse is forked for this
job alone from a worker that has the game loaded already, so the job verifies in the horse
itself, under the limits set on the horse (CPU seconds, address space, file size, and its
wall clock: SIGALRM at the time limit, left to kill it), no interpreter to start: a runaway is
one killed horse, and RQ's job timeout (later) is only the last resort. The horse dies with
its worker, so a job is under way exactly while its worker heartbeats (the server runs again
a job whose worker fell silent). With ``hedonic serve worker --verifier COMMAND`` it verifies
in a child instead.

A worker also works out a daily's par (:func:`daily_par`, ``roguelike.server.daypar`` enqueues it
once per date and rules epoch on that epoch's queue): the planner plays the date's seed in
processes forked from the horse, and the par comes back as JSON.

Without a queue the server's fork server runs :func:`verify_and_send` the same way, in a process
forked for one run. The web process imports this module only to name that function: it never
runs it, and it never imports the game.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from roguelike.server.child import ChildLimits, die_with_parent, limit_self, memory_verdict, verify_bytes

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

VERIFIER: list[str] | None = None  # set by ``hedonic serve worker --verifier`` before the worker starts
WORKER_PID: int | None = None  # set by ``hedonic serve worker``: a job in another process runs in a forked horse


def in_work_horse() -> bool:
    """Whether this job runs in a work-horse forked for it by ``hedonic serve worker`` (where limits may be set
    on the process itself); elsewhere (RQ's SimpleWorker, another worker command) it verifies in a child."""
    return WORKER_PID is not None and os.getpid() != WORKER_PID


def verify_upload(data: str, limits: dict[str, Any]) -> dict[str, Any]:
    """Verify one uploaded replay; its verdict."""
    replay, bounds = base64.b64decode(data, validate=True), ChildLimits.from_plain(limits)
    if VERIFIER is not None or not in_work_horse():
        return verify_bytes(replay, bounds, VERIFIER)
    bind_to_worker(bounds)
    return verify_here(replay, bounds)


def bind_to_worker(limits: ChildLimits) -> None:
    """In a work-horse: die with the worker (a job lives while its worker heartbeats), and at the time limit."""
    die_with_parent()
    if os.getppid() != WORKER_PID:  # the worker died before we asked to die with it
        os._exit(1)
    alarm_at_limit(limits)


def alarm_at_limit(limits: ChildLimits) -> None:
    """Die at the time limit: the alarm also bounds a runtime's child (``runtimes.launch`` kills its group)."""
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # RQ's own alarm (the job timeout, later) raises in Python
    signal.setitimer(signal.ITIMER_REAL, limits.seconds)  # what catches C code too, and a process that sleeps


def verify_here(replay: bytes, limits: ChildLimits) -> dict[str, Any]:
    """Prove the replay in this process (a work-horse forked for this job), under the limits."""
    from roguelike.scores.proof import prove_file

    limit_self(limits)
    with tempfile.TemporaryDirectory(prefix="hedonic-job-") as scratch:
        path = Path(scratch) / "upload.replay"
        path.write_bytes(replay)
        found: dict[str, Any] = json.loads(prove_file(path).to_json())
    return found


def verify_and_send(data: bytes, limits: dict[str, Any], writer: Connection) -> None:
    """In a process forked from the server's fork server for one run: prove it, send the verdict as JSON."""
    die_with_parent()
    bounds = ChildLimits.from_plain(limits)
    alarm_at_limit(bounds)
    try:
        verdict = verify_here(data, bounds)
    except MemoryError:
        verdict = memory_verdict(bounds)
    writer.send_bytes(json.dumps(verdict).encode("utf-8"))


def daily_par(day: str, epoch: int) -> dict[str, Any]:
    """In a worker of rules epoch ``epoch``: par for the daily seed of ``day`` (YYYY-MM-DD), as JSON."""
    from datetime import date

    from roguelike.coach.par import par
    from roguelike.core.epoch import RULES_EPOCH
    from roguelike.scores.daily import daily_seed

    if epoch != RULES_EPOCH:
        raise ValueError(f"this worker plays rules epoch {RULES_EPOCH}, not {epoch}")
    made = par(daily_seed(date.fromisoformat(day), epoch), method="fork")
    return {"day": day, **made.to_plain()}


def preload() -> None:
    """Load the game in the worker before it forks its work-horses (each job then starts at once)."""
    import roguelike.scores.proof  # noqa: F401
