"""The server's database on SQLite and PostgreSQL: one run per file, one verdict per run, nothing lost."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError, InternalError

from roguelike.server import store
from roguelike.server.envelope import Envelope
from server_helpers import database, postgres  # noqa: F401


def envelope(text: str) -> Envelope:
    """An upload's envelope made up for the database (the database never reads the bytes)."""
    data = text.encode()
    return Envelope(data, hashlib.sha256(data).hexdigest(), 2, 10)


def test_a_duplicate_upload_inside_a_transaction_keeps_the_transactions_other_work(database: str) -> None:
    engine = store.open_engine(database)
    first, second = envelope("first"), envelope("second")
    with engine.begin() as connection:
        assert store.add_run(connection, first) is True
        assert store.add_run(connection, first) is False  # ON CONFLICT DO NOTHING: no error, no rollback
        assert store.add_run(connection, second) is True
    with engine.connect() as connection:
        assert sorted(digest for digest, _ in store.pending(connection)) == sorted([first.digest, second.digest])
        assert store.replay_of(connection, first.digest) == b"first"
    engine.dispose()


def test_a_caught_duplicate_key_error_aborts_a_postgresql_transaction_which_is_why_the_server_never_relies_on_one(
    database: str,
) -> None:
    engine = store.open_engine(database)
    row = {"hash": "a" * 64, "data": b"x"}
    with engine.connect() as connection:
        connection.execute(insert(store.replays).values(row))
        with pytest.raises(IntegrityError):
            connection.execute(insert(store.replays).values(row))
        other = {"hash": "b" * 64, "data": b"y"}
        if connection.dialect.name == "postgresql":
            with pytest.raises(InternalError, match="current transaction is aborted"):
                connection.execute(insert(store.replays).values(other))
        else:  # SQLite undoes the failed statement only
            connection.execute(insert(store.replays).values(other))
        connection.rollback()
    engine.dispose()


def test_a_verdict_is_written_once_and_only_on_a_pending_run(database: str) -> None:
    engine = store.open_engine(database)
    run = envelope("run")
    with engine.begin() as connection:
        store.add_run(connection, run)
        assert store.record_verdict(connection, run.digest, {"verdict": "verified", "score": 7, "ranked": True})
        assert not store.record_verdict(connection, run.digest, {"verdict": "diverged"})
    with engine.connect() as connection:
        found = store.run_of(connection, run.digest)
        assert found is not None and found.status == "verified" and found.verdict["score"] == 7
        assert connection.execute(select(store.runs.c.score, store.runs.c.ranked)).one() == (7, True)
        assert store.pending(connection) == []
    engine.dispose()


def test_a_score_comes_only_with_a_verified_verdict(database: str) -> None:
    engine = store.open_engine(database)
    run = envelope("claims")
    with engine.begin() as connection:
        store.add_run(connection, run)
        store.record_verdict(connection, run.digest, {"verdict": "diverged", "score": 10**6, "ranked": True})
    with engine.connect() as connection:
        assert connection.execute(select(store.runs.c.score, store.runs.c.ranked)).one() == (None, False)
    engine.dispose()


def test_a_database_made_before_runs_had_a_game_gets_the_column_and_keeps_its_runs(database: str) -> None:
    from sqlalchemy import Column, MetaData, Table, create_engine

    old = MetaData()
    for table in (store.runs, store.replays):
        Table(
            table.name,
            old,
            *[
                Column(column.name, column.type, primary_key=column.primary_key)
                for column in table.columns
                if column.name != "game"
            ],
        )
    made = create_engine(database)
    old.create_all(made)
    with made.begin() as connection:
        connection.execute(
            old.tables["runs"]
            .insert()
            .values(hash="c" * 64, received="then", epoch=2, commands=1, size=1, status="pending", ranked=False)
        )
    made.dispose()
    engine = store.open_engine(database)
    with engine.begin() as connection:
        assert store.add_run(connection, envelope("a new run"))
    with engine.connect() as connection:
        assert "c" * 64 in {digest for digest, _ in store.pending(connection)}
        kept = store.run_of(connection, "c" * 64)
        assert kept is not None and kept.game is None
    engine.dispose()
