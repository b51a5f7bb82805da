"""The server's database, through SQLAlchemy Core: a SQLite file by default, PostgreSQL by URL.

Two tables: ``runs`` (one row per distinct replay, keyed by the SHA-256 of its bytes: its
status, its game (the SHA-256 of its epoch, seed, name and commands) and, once verified, what
the re-simulation proved) and ``replays`` (the bytes, apart, so listing a board never reads
them). An upload is added with the dialect's ``INSERT ... ON CONFLICT DO NOTHING``: the same
file twice is one run, and a duplicate never raises (on PostgreSQL a caught duplicate-key
error would have aborted the whole transaction).

A verdict is written once: only a pending run takes one, or a run that was "unverifiable here"
(a worker or runtime that can verify it may come). The bytes of a run the game's reader
refused (``unreadable``: garbage in a replay's framing) are dropped with its verdict.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (Boolean, Column, Connection, Engine, Index, Integer, LargeBinary, MetaData, String, Table, Text,
                        create_engine, delete, event, func, inspect, select, text, update)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url

from roguelike.server.envelope import Envelope

PENDING = "pending"
UNVERIFIABLE = "unverifiable here"  # no runtime or worker for the run's epoch where it was tried: tried again
UNREADABLE = "unreadable"  # the game's reader refused the file: its bytes are not kept
VERIFIED = "verified"
OPEN = (PENDING, UNVERIFIABLE)  # the statuses that still take a verdict
metadata = MetaData()
runs = Table(
    "runs", metadata,
    Column("hash", String(64), primary_key=True),
    Column("received", String(32), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("commands", Integer, nullable=False),
    Column("size", Integer, nullable=False),
    Column("status", String(32), nullable=False, index=True),
    Column("verdict", Text),  # the verifier's JSON, whole
    Column("score", Integer),
    Column("ranked", Boolean, nullable=False, default=False),
    Column("name", String(200)),
    Column("origin", String(32)),
    Column("daily", String(10), index=True),
    Column("decided", String(32)),
    Column("game", String(64)),  # the SHA-256 of the game's epoch, seed, name and commands (envelope.py)
    Index("runs_game", "game"),
)
replays = Table(
    "replays", metadata,
    Column("hash", String(64), primary_key=True),
    Column("data", LargeBinary, nullable=False),
)
# A third table, ``pars``: a daily's par by date and rules epoch, as a worker worked it out (server/daypar.py).
# create_all makes it in a database from before it, like any missing table.
pars = Table(
    "pars", metadata,
    Column("day", String(10), primary_key=True),
    Column("epoch", Integer, primary_key=True),
    Column("par", Text, nullable=False),  # the worker's JSON, whole
    Column("made", String(32), nullable=False),
)


def default_url(folder: str) -> str:
    """The SQLite file of a data folder."""
    return f"sqlite:///{folder}/scores.sqlite"


def open_engine(url: str) -> Engine:
    """An engine on the database at ``url``, its tables made if missing."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    metadata.create_all(engine)
    add_game_column(engine)
    return engine


def add_game_column(engine: Engine) -> None:
    """Give a database made before runs had a game its column (its old runs keep none: each is its own game)."""
    if "game" in {column["name"] for column in inspect(engine).get_columns("runs")}:
        return
    with engine.begin() as connection:
        connection.execute(text("ALTER TABLE runs ADD COLUMN game VARCHAR(64)"))
        connection.execute(text("CREATE INDEX IF NOT EXISTS runs_game ON runs (game)"))


def sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL, so the board reads while a verdict is written; and a verdict on disk when told."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def now() -> str:
    """The time, UTC, to the second."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def insert_new(connection: Connection, table: Table, row: dict[str, Any]) -> bool:
    """Insert a row unless its key is there already (the dialect's ON CONFLICT DO NOTHING); whether it was new."""
    dialect = connection.dialect.name
    if dialect == "postgresql":
        statement: Any = postgresql.insert(table).values(row).on_conflict_do_nothing()
    elif dialect == "sqlite":
        statement = sqlite.insert(table).values(row).on_conflict_do_nothing()
    else:
        raise ValueError(f"the score server runs on SQLite or PostgreSQL, not {dialect}")
    key = next(iter(table.primary_key.columns))
    return connection.execute(statement.returning(key)).first() is not None  # rowcount is not told on every driver


def add_run(connection: Connection, envelope: Envelope) -> bool:
    """Keep an upload as a pending run (its bytes too); False if the same file is already a run."""
    new = insert_new(connection, runs, {
        "hash": envelope.digest, "received": now(), "epoch": envelope.epoch, "commands": envelope.commands,
        "size": len(envelope.data), "status": PENDING, "ranked": False, "game": envelope.game})
    if new:
        insert_new(connection, replays, {"hash": envelope.digest, "data": envelope.data})
    return new


def record_verdict(connection: Connection, digest: str, verdict: dict[str, Any]) -> bool:
    """Write a pending run's verdict (what the child proved); False if it had one already."""
    score = verdict.get("score") if verdict.get("verdict") == "verified" else None
    values = {
        "status": str(verdict.get("verdict")), "verdict": json.dumps(verdict, sort_keys=True),
        "score": score if isinstance(score, int) else None, "ranked": verdict.get("ranked") is True and score is not None,
        "name": text_or_none(verdict.get("name")), "origin": text_or_none(verdict.get("origin")),
        "daily": text_or_none(verdict.get("daily")), "decided": now()}
    done = connection.execute(update(runs).where(runs.c.hash == digest, runs.c.status.in_(OPEN)).values(values))
    if done.rowcount == 1 and values["status"] == UNREADABLE:
        connection.execute(delete(replays).where(replays.c.hash == digest))  # garbage is not kept
    return done.rowcount == 1


def text_or_none(value: Any) -> str | None:
    """A short text from the verdict, or None."""
    return value[:200] if isinstance(value, str) else None


@dataclass(frozen=True)
class Run:
    """One run as the server knows it."""

    hash: str
    received: str
    epoch: int
    commands: int
    status: str
    verdict: dict[str, Any]
    decided: str | None
    game: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> Run:
        """A run from a ``runs`` row."""
        verdict = json.loads(row.verdict) if row.verdict else {}
        return cls(row.hash, row.received, row.epoch, row.commands, row.status, verdict, row.decided, row.game)


def run_of(connection: Connection, digest: str) -> Run | None:
    """The run of a hash, if there is one."""
    row = connection.execute(select(runs).where(runs.c.hash == digest)).first()
    return None if row is None else Run.from_row(row)


def run_of_game(connection: Connection, game: str | None) -> Run | None:
    """The run that stands for a game already: verified, else still waiting for its verdict (None if neither:
    a game whose every file diverged or was refused may be uploaded again, so no one can block it first)."""
    if game is None:
        return None
    rows = connection.execute(select(runs).where(runs.c.game == game, runs.c.status.in_((VERIFIED, *OPEN)))).all()
    found = sorted(rows, key=lambda row: (row.status != VERIFIED, row.received, row.hash))
    return Run.from_row(found[0]) if found else None


def replay_of(connection: Connection, digest: str) -> bytes | None:
    """A run's replay bytes."""
    return connection.execute(select(replays.c.data).where(replays.c.hash == digest)).scalar()


def pending(connection: Connection) -> list[tuple[str, int]]:
    """Every run still waiting for a verdict (hash and epoch), oldest first."""
    rows = connection.execute(select(runs.c.hash, runs.c.epoch).where(runs.c.status == PENDING)
                              .order_by(runs.c.received, runs.c.hash))
    return [(row.hash, row.epoch) for row in rows]


def unverifiable(connection: Connection) -> list[tuple[str, int]]:
    """Every run that was unverifiable where it was tried (hash and epoch), oldest first."""
    rows = connection.execute(select(runs.c.hash, runs.c.epoch).where(runs.c.status == UNVERIFIABLE)
                              .order_by(runs.c.received, runs.c.hash))
    return [(row.hash, row.epoch) for row in rows]


def decided_runs(connection: Connection, epoch: int | None, daily: str | None) -> Iterator[Run]:
    """The runs with a verdict, of an epoch and a daily date when given."""
    query = select(runs).where(runs.c.status != PENDING)
    if epoch is not None:
        query = query.where(runs.c.epoch == epoch)
    if daily is not None:
        query = query.where(runs.c.daily == daily)
    for row in connection.execute(query.order_by(runs.c.hash)):
        yield Run.from_row(row)


def epochs(connection: Connection) -> list[int]:
    """The rules epochs with a verified run, newest first: an upload naming an epoch proves nothing until verified."""
    found = connection.execute(select(runs.c.epoch).where(runs.c.status == VERIFIED).distinct()).scalars()
    return sorted(found, reverse=True)


def counts(connection: Connection) -> dict[str, int]:
    """How many runs are in each status."""
    rows = connection.execute(select(runs.c.status, func.count()).group_by(runs.c.status))
    return {row[0]: row[1] for row in rows}


def keep_par(connection: Connection, day: str, epoch: int, par: dict[str, Any]) -> bool:
    """Keep a daily's par under its rules epoch (the first kept stays); whether it was new."""
    return insert_new(connection, pars, {"day": day, "epoch": epoch, "par": json.dumps(par, sort_keys=True),
                                         "made": now()})


def par_of(connection: Connection, day: str, epoch: int) -> dict[str, Any] | None:
    """A daily's par under a rules epoch, if kept (never another epoch's)."""
    found = connection.execute(select(pars.c.par).where(pars.c.day == day, pars.c.epoch == epoch)).scalar()
    return None if found is None else dict(json.loads(found))
