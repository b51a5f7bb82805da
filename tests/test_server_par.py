"""The score server's daily par: asked of an epoch's workers once per date (an RQ job by name, JSON), kept in the
store, shown on that date's board of that epoch only (fakeredis; the worker's par made small: two short games)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import fakeredis
import pytest
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer
from sqlalchemy import Engine
from starlette.testclient import TestClient

from roguelike.coach.par import Par, par
from roguelike.core.epoch import RULES_EPOCH
from roguelike.scores.daily import daily_seed
from roguelike.server import store
from roguelike.server.daypar import PAR_JOB, daily_par, par_job_id
from roguelike.server.queue import queue_name
from server_helpers import database, postgres, served  # noqa: F401

DAY = "2026-03-14"


@pytest.fixture
def engine(database: str) -> Iterator[Engine]:
    """The server's database (SQLite, then PostgreSQL)."""
    made = store.open_engine(database)
    yield made
    made.dispose()


def small_par(seed: int, method: str = "fork") -> Par:
    """The worker's par made small: two planner games of at most 40 turns."""
    return par(seed, runs=2, jobs=1, method=method, limit=40)


def test_a_dailys_par_is_asked_of_its_epochs_workers_once_then_kept(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis = fakeredis.FakeRedis()
    queue = Queue(queue_name(RULES_EPOCH), connection=redis, serializer=JSONSerializer)
    assert daily_par(engine, redis, DAY, RULES_EPOCH) is None
    assert daily_par(engine, redis, DAY, RULES_EPOCH) is None  # the board read again: still the one job
    (job,) = queue.get_jobs()
    assert job.id == par_job_id(DAY, RULES_EPOCH) and job.func_name == PAR_JOB and job.args == [DAY, RULES_EPOCH]
    monkeypatch.setattr("roguelike.coach.par.par", lambda seed, method="fork": small_par(seed, method))
    SimpleWorker([queue], connection=redis, serializer=JSONSerializer).work(burst=True, logging_level="ERROR")
    made = daily_par(engine, redis, DAY, RULES_EPOCH)
    expected = small_par(daily_seed(date.fromisoformat(DAY)))
    assert made == {"day": DAY, **expected.to_plain()}
    with engine.connect() as connection:
        assert store.par_of(connection, DAY, RULES_EPOCH) == made
        assert store.par_of(connection, DAY, RULES_EPOCH - 1) is None
    assert daily_par(engine, None, DAY, RULES_EPOCH) == made  # kept: no queue needed to show it


def test_a_failed_par_job_goes_back_on_the_queue(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    redis = fakeredis.FakeRedis()
    queue = Queue(queue_name(RULES_EPOCH), connection=redis, serializer=JSONSerializer)
    assert daily_par(engine, redis, DAY, RULES_EPOCH) is None
    tries: list[int] = []

    def fails_once(seed: int, method: str = "fork") -> Par:
        tries.append(seed)
        if len(tries) == 1:
            raise MemoryError("the worker ran out of memory")  # as a killed or starved worker's job fails
        return small_par(seed, method)

    monkeypatch.setattr("roguelike.coach.par.par", fails_once)
    SimpleWorker([queue], connection=redis, serializer=JSONSerializer).work(burst=True, logging_level="CRITICAL")
    assert len(tries) == 2
    made = daily_par(engine, redis, DAY, RULES_EPOCH)
    assert made == {"day": DAY, **small_par(daily_seed(date.fromisoformat(DAY))).to_plain()}


def test_a_worker_of_another_epoch_refuses_the_par_job() -> None:
    from roguelike.server.job import daily_par as job

    with pytest.raises(ValueError, match=f"plays rules epoch {RULES_EPOCH}"):
        job(DAY, RULES_EPOCH + 1)


def kept_par(epoch: int) -> dict[str, object]:
    """A par as a worker returns it."""
    made = Par(
        daily_seed(date.fromisoformat(DAY), epoch), epoch, (100, 500, 900, 900, 1500), (50,) * 5, ("overdose",) * 5
    )
    return {"day": DAY, **made.to_plain()}


def test_the_daily_board_shows_its_epochs_par_and_never_another_epochs(served: TestClient, database: str) -> None:
    assert served.get(f"/board.json?epoch={RULES_EPOCH}&daily={DAY}").json()["par"] is None
    assert "Par for this daily: not worked out yet." in served.get(f"/board?epoch={RULES_EPOCH}&daily={DAY}").text
    engine = store.open_engine(database)
    with engine.begin() as connection:
        store.keep_par(connection, DAY, RULES_EPOCH - 1, kept_par(RULES_EPOCH - 1))
    assert served.get(f"/board.json?epoch={RULES_EPOCH}&daily={DAY}").json()["par"] is None
    with engine.begin() as connection:
        store.keep_par(connection, DAY, RULES_EPOCH, kept_par(RULES_EPOCH))
    engine.dispose()
    shown = served.get(f"/board.json?epoch={RULES_EPOCH}&daily={DAY}").json()["par"]
    assert shown["epoch"] == RULES_EPOCH and shown["score"] == {"median": 900, "low": 100, "high": 1500}
    page = served.get(f"/board?epoch={RULES_EPOCH}&daily={DAY}").text
    assert "<strong>Par 900 (100-1,500)</strong> points, 50 (50-50) turns" in page
    assert "par" not in served.get(f"/board.json?epoch={RULES_EPOCH}").json()  # the board of every day has none
