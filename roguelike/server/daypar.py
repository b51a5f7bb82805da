"""A daily's par on the score server: worked out once per date and rules epoch by a worker, kept in the store.

The web process never loads the game: it enqueues ``roguelike.server.job.daily_par`` by name
on the queue of the board's rules epoch (its workers play that epoch's rules), with an id
made of the date and the epoch, so a date's par is asked for once however often its board
is read. When the job has finished, its JSON is checked for the shape the page shows and
kept (``store.pars``); a par of another epoch is never shown beside this one's. Without a
queue (this machine's children verify the runs) no par is worked out here: a par kept
already is still shown. A par job that fails (its worker killed, its time run out) is put
back on the queue at once, ``PAR_RETRIES`` times (at once, because a delayed retry needs a
worker started with RQ's scheduler); one that failed every time stays failed until its
record expires, and the board then asks again.
"""

from __future__ import annotations

from typing import Any

from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer
from sqlalchemy import Engine

from roguelike.server import store
from roguelike.server.queue import KEEP_RESULTS, queue_name

PAR_JOB = "roguelike.server.job.daily_par"
PAR_SECONDS = 900  # a par is a few planner games to their end: generous, it runs once a day
PAR_RETRIES = 2  # a failed par job goes back on the queue this many times


def par_job_id(day: str, epoch: int) -> str:
    """The id of a date's par job under an epoch (asked for twice, it is one job)."""
    return f"hedonic-par-{epoch}-{day}"


def daily_par(engine: Engine, redis: Any, day: str, epoch: int) -> dict[str, Any] | None:
    """A date's par under ``epoch``: the kept one, else the finished job's (then kept), else None (the job is
    queued if it was not; ``redis`` None: no queue, nothing is asked for)."""
    with engine.connect() as connection:
        found = store.par_of(connection, day, epoch)
    if found is not None or redis is None:
        return found
    made = finished_par(redis, day, epoch)
    if made is not None:
        with engine.begin() as connection:
            store.keep_par(connection, day, epoch, made)
    return made


def finished_par(redis: Any, day: str, epoch: int) -> dict[str, Any] | None:
    """The par job's result once it has finished; None before (the job put on the queue if it is not there)."""
    try:
        job = Job.fetch(par_job_id(day, epoch), connection=redis, serializer=JSONSerializer)
    except NoSuchJobError:
        Queue(queue_name(epoch), connection=redis, serializer=JSONSerializer).enqueue(
            PAR_JOB,
            day,
            epoch,
            job_id=par_job_id(day, epoch),
            job_timeout=PAR_SECONDS,
            result_ttl=KEEP_RESULTS,
            failure_ttl=KEEP_RESULTS,
            retry=Retry(max=PAR_RETRIES),
            description=f"par for the {day} daily (rules epoch {epoch})",
        )
        return None
    if job.get_status(refresh=False) != JobStatus.FINISHED:
        return None  # queued, under way, or failed every time: that stays failed until its record expires
    found = job.return_value()
    return found if is_par(found, day, epoch) else None


def is_par(found: Any, day: str, epoch: int) -> bool:
    """Whether a job's result is a par of that date and epoch, as the page reads it."""
    if not isinstance(found, dict) or found.get("day") != day or found.get("epoch") != epoch:
        return False
    bands = [found.get("score"), found.get("turns")]
    return isinstance(found.get("runs"), int) and all(
        isinstance(band, dict) and all(isinstance(band.get(key), int) for key in ("median", "low", "high"))
        for band in bands
    )
