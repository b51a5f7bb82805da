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

With the verdict go the fields the board ranks by (score, turns, the recorded start, the
character's name, the daily date) and the run's standing (``roguelike.server.standing``),
decided then for the run and re-decided for the other runs of its game and of its character's
daily date: a board request reads one page of one index (``runs_board``) and parses the
verdicts of that page only. The ranked runs are of two tiers, witnessed and uploads
(``roguelike.server.witnessed``): the index orders by the tier after the standing. On
PostgreSQL verdicts are written one at a time (a transaction advisory lock), so two runs of
one group decided at once each see the other. A database from before these columns gets them
at start-up, its decided runs' standings worked out from their verdicts, its runs uploads.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url

from roguelike.ground.ranking import Placing
from roguelike.server.envelope import Envelope
from roguelike.server.standing import CONTENDING, Contender, first_standing, group_keys, placing_columns, standings

PENDING = "pending"
UNVERIFIABLE = "unverifiable here"  # no runtime or worker for the run's epoch where it was tried: tried again
UNREADABLE = "unreadable"  # the game's reader refused the file: its bytes are not kept
VERIFIED = "verified"
OPEN = (PENDING, UNVERIFIABLE)  # the statuses that still take a verdict
UPLOAD, WITNESSED = "upload", "witnessed"  # a run's tier
metadata = MetaData()
runs = Table(
    "runs",
    metadata,
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
    # What the board ranks by and where the run stands, decided with its verdict (standing.py). The start sorts
    # as Python sorts text: byte order ("C"), never PostgreSQL's locale order.
    Column("turns", Integer),
    Column("started", Text().with_variant(Text(collation="C"), "postgresql")),
    Column("player", Text),  # the name whole (``name`` keeps 200 characters): a daily's attempts are by it
    Column("standing", String(16)),
    # The witnessed tier (server/witnessed.py): the certificate's file form, the raw public key that signed it (hex),
    # and the tier: "witnessed" (signed by a key trusted here) or "upload".
    Column("certificate", Text),
    Column("signer", String(64), index=True),
    Column("tier", String(16), default=UPLOAD),
    Index("runs_game", "game"),
)
Index(
    "runs_board",
    runs.c.epoch,
    runs.c.standing,
    runs.c.tier,
    runs.c.score.desc(),
    runs.c.turns,
    runs.c.started,
    runs.c.hash,
)
Index("runs_apart", runs.c.epoch, runs.c.standing, runs.c.hash)
Index("runs_epochs", runs.c.status, runs.c.epoch)
# Narrow, so counting a board's lists reads few pages.
Index("runs_standing", runs.c.epoch, runs.c.standing, runs.c.tier)
GROWN: list[Table] = [runs]  # tables given columns after they were first made (another module's join on import)
VERDICT_LOCK = 47_0001  # PostgreSQL's advisory lock key: verdicts are written one at a time
replays = Table(
    "replays",
    metadata,
    Column("hash", String(64), primary_key=True),
    Column("data", LargeBinary, nullable=False),
)
# A third table, ``pars``: a daily's par by date and rules epoch, as a worker worked it out (server/daypar.py).
# create_all makes it in a database from before it, like any missing table.
pars = Table(
    "pars",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("epoch", Integer, primary_key=True),
    Column("par", Text, nullable=False),  # the worker's JSON, whole
    Column("made", String(32), nullable=False),
)


def default_url(folder: str) -> str:
    """The SQLite file of a data folder."""
    return f"sqlite:///{folder}/scores.sqlite"


def open_engine(url: str, connect_args: dict[str, Any] | None = None) -> Engine:
    """An engine on the database at ``url``, its tables made if missing (``connect_args``: PostgreSQL's extra
    connection parameters, such as a host's keepalives)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True, connect_args=connect_args or {})
    metadata.create_all(engine)
    add_columns(engine)
    backfill(engine)
    return engine


def add_columns(engine: Engine) -> None:
    """Give a database made before some of the runs table's columns those columns and their indexes (a run from
    before games keeps none: each is its own game; its standing is worked out by ``backfill``), and every other
    table that grew a column since (``GROWN``) its new, empty, columns."""
    missing = missing_columns(engine, runs)
    with engine.begin() as connection:
        for table in GROWN:
            for column in missing if table is runs else missing_columns(engine, table):
                kind = column.type.compile(dialect=connection.dialect)
                connection.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"))
        if "tier" in {column.name for column in missing}:  # every run before tiers was an upload
            connection.execute(update(runs).values(tier=UPLOAD))
            for name in ("runs_board", "runs_standing"):  # made again below, with the tier
                connection.execute(text(f"DROP INDEX IF EXISTS {name}"))
        for index in runs.indexes:
            index.create(connection, checkfirst=True)


def missing_columns(engine: Engine, table: Table) -> list[Column[Any]]:
    """The columns of ``table`` its database does not have yet."""
    have = {column["name"] for column in inspect(engine).get_columns(table.name)}
    return [column for column in table.columns if column.name not in have]


def backfill(engine: Engine) -> None:
    """Work out from their verdicts the placing fields and standing of decided runs that have none (runs decided
    before the database had the columns), then the standings of their epochs' contenders taken whole."""
    with engine.begin() as connection:
        one_at_a_time(connection)
        rows = connection.execute(
            select(runs.c.hash, runs.c.status, runs.c.verdict, runs.c.epoch).where(
                runs.c.status != PENDING, runs.c.standing.is_(None)
            )
        ).all()
        if not rows:
            return
        decided = [(row, json.loads(row.verdict) if row.verdict else {}) for row in rows]
        connection.execute(
            update(runs)
            .where(runs.c.hash == bindparam("key"))
            .values(
                standing=bindparam("now"),
                turns=bindparam("turns"),
                started=bindparam("started"),
                player=bindparam("player"),
            ),
            [
                {"key": row.hash, "now": first_standing(row.status, verdict), **placing_columns(verdict)}
                for row, verdict in decided
            ],
        )
        for epoch in sorted({row.epoch for row in rows}):
            decide(connection, connection.execute(contenders_of(epoch)).all())


def one_at_a_time(connection: Connection) -> None:
    """On PostgreSQL, wait for any other verdict being written (until this transaction ends)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": VERDICT_LOCK})


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
    key = next(iter(table.primary_key.columns))
    statement = insert_skipping(connection, table, [row]).returning(key)
    return connection.execute(statement).first() is not None  # rowcount is not told on every driver


def insert_skipping(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> Any:
    """The statement inserting rows, each skipped if its key is there already (ON CONFLICT DO NOTHING)."""
    dialect = connection.dialect.name
    # No rows: they are given at execution instead (an executemany, its statement compiled once).
    if dialect == "postgresql":
        on_postgres = postgresql.insert(table)
        return (on_postgres.values(rows) if rows else on_postgres).on_conflict_do_nothing()
    if dialect == "sqlite":
        on_sqlite = sqlite.insert(table)
        return (on_sqlite.values(rows) if rows else on_sqlite).on_conflict_do_nothing()
    raise ValueError(f"the score server runs on SQLite or PostgreSQL, not {dialect}")


def add_run(connection: Connection, envelope: Envelope) -> bool:
    """Keep an upload as a pending run (its bytes too); False if the same file is already a run."""
    new = insert_new(
        connection,
        runs,
        {
            "hash": envelope.digest,
            "received": now(),
            "epoch": envelope.epoch,
            "commands": envelope.commands,
            "size": len(envelope.data),
            "status": PENDING,
            "ranked": False,
            "game": envelope.game,
        },
    )
    if new:
        insert_new(connection, replays, {"hash": envelope.digest, "data": envelope.data})
    return new


def record_verdict(connection: Connection, digest: str, verdict: dict[str, Any]) -> bool:
    """Write a pending run's verdict (what the child proved) and where it stands; False if it had one already."""
    one_at_a_time(connection)
    score = verdict.get("score") if verdict.get("verdict") == "verified" else None
    status = str(verdict.get("verdict"))
    values = {
        "status": status,
        "verdict": json.dumps(verdict, sort_keys=True),
        "score": score if isinstance(score, int) else None,
        "ranked": verdict.get("ranked") is True and score is not None,
        "name": text_or_none(verdict.get("name")),
        "origin": text_or_none(verdict.get("origin")),
        "daily": text_or_none(verdict.get("daily")),
        "decided": now(),
        "standing": first_standing(status, verdict),
        **placing_columns(verdict),
    }
    done = connection.execute(update(runs).where(runs.c.hash == digest, runs.c.status.in_(OPEN)).values(values))
    if done.rowcount == 1 and values["status"] == UNREADABLE:
        connection.execute(delete(replays).where(replays.c.hash == digest))  # garbage is not kept
    if done.rowcount == 1 and values["standing"] in CONTENDING:
        settle(connection, digest)
    return done.rowcount == 1


def contenders_of(epoch: int) -> Any:
    """The query of an epoch's contenders, with what their standing is decided by."""
    return select(
        runs.c.hash,
        runs.c.game,
        runs.c.score,
        runs.c.turns,
        runs.c.started,
        runs.c.player,
        runs.c.daily,
        runs.c.standing,
        runs.c.tier,
    ).where(runs.c.epoch == epoch, runs.c.standing.in_(CONTENDING))


def settle(connection: Connection, digest: str) -> None:
    """Decide again the standings of a new contender's groups: its game's files and its character's attempts at
    its daily date, and the groups those runs belong to in turn, until none is added (a game's files are of one
    daily date and character unless a header was altered)."""
    epoch = connection.execute(select(runs.c.epoch).where(runs.c.hash == digest)).scalar_one()
    found = {row.hash: row for row in connection.execute(contenders_of(epoch).where(runs.c.hash == digest))}
    asked: tuple[set[str], set[tuple[str, str]]] = (set(), set())
    while True:
        games, dailies = group_keys(contender(row) for row in found.values())
        games, dailies = games - asked[0], dailies - asked[1]
        if not games and not dailies:
            break
        asked[0].update(games)
        asked[1].update(dailies)
        groups = [
            runs.c.game.in_(sorted(games)),
            *[and_(runs.c.daily == daily, runs.c.player == name) for daily, name in sorted(dailies)],
        ]
        found.update((row.hash, row) for row in connection.execute(contenders_of(epoch).where(or_(*groups))))
    decide(connection, list(found.values()))


def settle_again(connection: Connection, digests: Sequence[str]) -> None:
    """Decide again the groups of runs whose tier changed, those that contend (a witnessed file ranks first)."""
    query = select(runs.c.hash).where(runs.c.hash.in_(sorted(digests)), runs.c.standing.in_(CONTENDING))
    for digest in connection.execute(query).scalars().all():
        settle(connection, digest)


def decide(connection: Connection, rows: Sequence[Any]) -> None:
    """Write the standings of contenders (their groups whole) where they changed."""
    decided = standings({row.hash: contender(row) for row in rows})
    changed = [{"key": row.hash, "now": decided[row.hash]} for row in rows if decided[row.hash] != row.standing]
    if changed:
        connection.execute(
            update(runs).where(runs.c.hash == bindparam("key")).values(standing=bindparam("now")), changed
        )


def contender(row: Any) -> Contender:
    """A contender from its row's columns."""
    placing = Placing(row.score, row.turns or 0, row.started or "", row.hash, row.player or "", row.daily)
    return Contender(row.game, placing, row.tier == WITNESSED)


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
    certificate: str | None = None  # the file form of the certificate it was uploaded with (server/witness.py)
    tier: str = UPLOAD

    @classmethod
    def from_row(cls, row: Any) -> Run:
        """A run from a ``runs`` row."""
        verdict = json.loads(row.verdict) if row.verdict else {}
        first = (row.hash, row.received, row.epoch, row.commands, row.status, verdict, row.decided, row.game)
        return cls(*first, row.certificate, row.tier or UPLOAD)


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
    rows = connection.execute(
        select(runs.c.hash, runs.c.epoch).where(runs.c.status == PENDING).order_by(runs.c.received, runs.c.hash)
    )
    return [(row.hash, row.epoch) for row in rows]


def unverifiable(connection: Connection) -> list[tuple[str, int]]:
    """Every run that was unverifiable where it was tried (hash and epoch), oldest first."""
    rows = connection.execute(
        select(runs.c.hash, runs.c.epoch).where(runs.c.status == UNVERIFIABLE).order_by(runs.c.received, runs.c.hash)
    )
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
    """The rules epochs with a verified run, newest first: an upload naming an epoch proves nothing until verified.
    Each is the largest below the one before, an index search each (``runs_epochs``): never a scan of the runs."""
    found: list[int] = []
    while True:
        query = select(func.max(runs.c.epoch)).where(runs.c.status == VERIFIED)
        below = connection.execute(query.where(runs.c.epoch < found[-1]) if found else query).scalar()
        if below is None:
            return found
        found.append(below)


def waiting(connection: Connection) -> int:
    """How many runs wait for a verdict."""
    return connection.execute(select(func.count()).where(runs.c.status == PENDING)).scalar_one()


def keep_par(connection: Connection, day: str, epoch: int, par: dict[str, Any]) -> bool:
    """Keep a daily's par under its rules epoch (the first kept stays); whether it was new."""
    return insert_new(
        connection, pars, {"day": day, "epoch": epoch, "par": json.dumps(par, sort_keys=True), "made": now()}
    )


def par_of(connection: Connection, day: str, epoch: int) -> dict[str, Any] | None:
    """A daily's par under a rules epoch, if kept (never another epoch's)."""
    found = connection.execute(select(pars.c.par).where(pars.c.day == day, pars.c.epoch == epoch)).scalar()
    return None if found is None else dict(json.loads(found))
