"""The input log of hosted games: one live game per account, a sequence number taken once, ended games let go.

Each test runs on SQLite and on a private PostgreSQL cluster (``server_helpers.database``)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import date

from sqlalchemy import Engine

from roguelike.core.epoch import RULES_EPOCH
from roguelike.scores.daily import daily_seed
from roguelike.server import store
from roguelike.server.hosted import log
from server_helpers import database, postgres  # noqa: F401


def engine_in(url: str) -> Engine:
    """A fresh store with the hosted tables (on SQLite, then on PostgreSQL)."""
    return store.open_engine(url)


def test_many_starts_at_once_make_one_live_game_per_account(database: str) -> None:
    engine = engine_in(database)
    with ThreadPoolExecutor(8) as pool:
        rows = list(pool.map(lambda _: log.start_or_resume(engine, "ann", RULES_EPOCH), range(16)))
    assert len({row.id for row in rows}) == 1
    assert log.start_or_resume(engine, "bob", RULES_EPOCH).id != rows[0].id
    with engine.connect() as connection:
        assert sorted(row.account for row in log.live_games(connection)) == ["ann", "bob"]


def test_a_sequence_number_is_accepted_once_and_only_while_the_game_is_live(database: str) -> None:
    engine = engine_in(database)
    game = log.start_or_resume(engine, "ann", RULES_EPOCH).id
    assert log.accept(engine, game, 1, b"first") is not None
    assert log.accept(engine, game, 1, b"again") is None
    assert log.accept(engine, game, 2, b"second") is not None
    with engine.connect() as connection:
        assert log.commands_of(connection, game) == [b"first", b"second"]
        assert len(log.key_times(connection, game)) == 2
    assert log.end(engine, game, "ab" * 32) is not None
    assert log.end(engine, game, "ab" * 32) is None  # ended once
    assert log.accept(engine, game, 3, b"late") is None
    fresh = log.start_or_resume(engine, "ann", RULES_EPOCH)
    assert fresh.id != game and fresh.status == log.LIVE  # the account may start its next game


def test_a_daily_game_has_the_dates_seed_and_snapshots_keep_only_the_newest(database: str) -> None:
    engine = engine_in(database)
    day = date(2026, 11, 28)
    row = log.start_or_resume(engine, "ann", RULES_EPOCH, log.DAILY, day)
    assert (row.seed, row.day, row.mode) == (daily_seed(day), "2026-11-28", log.DAILY)
    log.keep_snapshot(engine, row.id, 500, b"five hundred")
    log.keep_snapshot(engine, row.id, 1000, b"a thousand")
    with engine.connect() as connection:
        assert log.newest_snapshot(connection, row.id) == (1000, b"a thousand")
        assert connection.execute(log.hosted_snapshots.select()).all() == [(row.id, 1000, b"a thousand")]
