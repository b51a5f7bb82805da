"""The input log: a hosted game is its seed and the commands the server accepted, in order.

Three tables on the store's metadata (``store.open_engine`` makes them): ``hosted_games`` (one
row a game: its account, seed, rules epoch, mode, daily date, times, status and, once ended,
its replay's hash), ``hosted_inputs`` (one row a command, keyed by (game, seq), so a sequence
number can be taken once) and ``hosted_snapshots`` (the game's save every few commands, so a
long game is rebuilt from its newest save and the commands after it).

A command is accepted when :func:`accept` has committed its row: only then does the game apply
it. SQLite commits with the store's WAL and ``synchronous=FULL``; PostgreSQL with
``synchronous_commit`` on, set for each command's transaction. One live game per account: ``live_account`` holds the account while the game is live and is
unique (NULLs never clash, on SQLite and PostgreSQL alike), so two tabs, two web processes or a
laggy "continue" can only ever find the same game, never start a second one.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Integer,
    LargeBinary,
    String,
    Table,
    func,
    select,
    text,
    update,
)

from roguelike.ground.dailyseed import daily_seed_of
from roguelike.server.hosted import owners
from roguelike.server.store import GROWN, insert_new, insert_skipping, metadata

LIVE, ENDED = "live", "ended"
PLAYED, DAILY = "played", "daily"
hosted_games = Table(
    "hosted_games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("account", String(64), nullable=False, index=True),
    Column("live_account", String(64), unique=True),  # the account while the game is live, else NULL
    Column("seed", BigInteger, nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("mode", String(8), nullable=False),
    Column("day", String(10)),
    Column("started_at", String(32), nullable=False),
    Column("ended_at", String(32)),
    Column("status", String(8), nullable=False, index=True),
    Column("replay_hash", String(64)),
)
hosted_inputs = Table(
    "hosted_inputs",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("command", LargeBinary, nullable=False),
    Column("received_at", String(32), nullable=False),
    Column("token", BigInteger),  # the owner's fencing token that wrote it (games run by hosts: server/cluster)
)
GROWN.append(hosted_inputs)  # ``token`` came with hosts on several machines: older databases are given it
KEY = (hosted_inputs.c.game, hosted_inputs.c.seq)
DURABLE = "hedonic_synchronous_commit"  # a PostgreSQL connection's info: its session commits durably
# A host's keys (:func:`accept_fenced`): the owners' rows read FOR SHARE, so a takeover's token bump waits for this
# statement's commit and every write after the bump sees the new token; a number taken already is skipped.
FENCED_INSERT = text(
    """
WITH live AS (
    SELECT o.game, o.token FROM hosted_owners AS o JOIN hosted_games AS g ON g.id = o.game
    WHERE o.game = ANY(CAST(:games AS VARCHAR[])) AND g.status = :live
    FOR SHARE OF o
)
INSERT INTO hosted_inputs (game, seq, command, received_at, token)
SELECT k.game, k.seq, k.command, k.received_at, k.token
FROM unnest(
    CAST(:key_games AS VARCHAR[]), CAST(:seqs AS INTEGER[]), CAST(:commands AS BYTEA[]),
    CAST(:received AS VARCHAR[]), CAST(:tokens AS BIGINT[])
) AS k(game, seq, command, received_at, token)
JOIN live ON live.game = k.game AND live.token = k.token
ON CONFLICT DO NOTHING
RETURNING game, seq, token
"""
)
hosted_snapshots = Table(
    "hosted_snapshots",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("data", LargeBinary, nullable=False),
)


@dataclass(frozen=True)
class HostedRow:
    """One hosted game as the log has it."""

    id: str
    account: str
    seed: int
    epoch: int
    mode: str
    day: str | None
    started_at: str
    ended_at: str | None
    status: str
    replay_hash: str | None

    @classmethod
    def of(cls, row: Any) -> HostedRow:
        """From a row of ``hosted_games``."""
        return cls(
            row.id,
            row.account,
            int(row.seed),
            int(row.epoch),
            row.mode,
            row.day,
            row.started_at,
            row.ended_at,
            row.status,
            row.replay_hash,
        )


def stamp() -> str:
    """The time now, UTC, to the microsecond (when a key was accepted)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def live_game_of(connection: Connection, account: str) -> HostedRow | None:
    """The account's live game, if it has one."""
    row = connection.execute(select(hosted_games).where(hosted_games.c.live_account == account)).first()
    return None if row is None else HostedRow.of(row)


def game_of(connection: Connection, game: str) -> HostedRow | None:
    """A hosted game by its id."""
    row = connection.execute(select(hosted_games).where(hosted_games.c.id == game)).first()
    return None if row is None else HostedRow.of(row)


def live_games(connection: Connection) -> list[HostedRow]:
    """Every live game, oldest first."""
    found = connection.execute(
        select(hosted_games).where(hosted_games.c.status == LIVE).order_by(hosted_games.c.started_at)
    )
    return [HostedRow.of(row) for row in found]


def start_or_resume(engine: Engine, account: str, epoch: int, mode: str = PLAYED, day: date | None = None) -> HostedRow:
    """The account's live game, or a new one if it has none (however many ask at once: one game)."""
    with engine.begin() as connection:
        found = live_game_of(connection, account)
        if found is not None:
            return found
        seed = daily_seed_of(day, epoch) if mode == DAILY and day is not None else secrets.randbits(63)
        row = {
            "id": secrets.token_hex(8),
            "account": account,
            "live_account": account,
            "seed": seed,
            "epoch": epoch,
            "mode": mode,
            "day": day.isoformat() if mode == DAILY and day is not None else None,
            "started_at": stamp(),
            "status": LIVE,
        }
        insert_new(connection, hosted_games, row)  # another request's game may have won the unique account
    with engine.begin() as connection:
        found = live_game_of(connection, account)
    if found is None:
        raise RuntimeError(f"no live game for {account!r} after starting one")
    return found


@dataclass(frozen=True)
class Key:
    """A command to accept: its game, its sequence number, its bytes, and when the server received it."""

    game: str
    seq: int
    command: bytes
    received: str
    token: int | None = None  # the writer's fencing token (a host of several): refused unless it is the game's now


def accept(engine: Engine, game: str, seq: int, command: bytes) -> str | None:
    """Commit one command at its sequence number; when it was received, or None if that number is taken
    (or the game is not live): a command is accepted only when this returns."""
    key = Key(game, seq, command, stamp())
    return key.received if accept_all(engine, [key])[0] else None


def skipping_insert(connection: Connection) -> Any:
    """The insert of keys (their rows given at execution: one statement, compiled once, however many rows),
    each skipped if its number is taken, returning the keys written."""
    return insert_skipping(connection, hosted_inputs, []).returning(*KEY)


def accept_all(engine: Engine, keys: Sequence[Key]) -> list[bool]:
    """Commit commands of any games in one transaction (one flush to disk); whether each was accepted (its
    game live and its number free: a number taken already, or taken twice in ``keys``, refuses that key
    alone). If the database refuses the transaction this raises and none is accepted."""
    if keys and engine.dialect.name == "postgresql" and all(key.token is not None for key in keys):
        return accept_fenced(engine, keys)
    with engine.begin() as connection:
        durable(connection)
        live = writable(connection, keys)
        first: dict[tuple[str, int], Key] = {}
        for key in keys:
            if (key.game, key.token) in live:
                first.setdefault((key.game, key.seq), key)
        rows = [
            {"game": key.game, "seq": key.seq, "command": key.command, "received_at": key.received, "token": key.token}
            for key in first.values()
        ]
        added = (
            {(row.game, row.seq) for row in connection.execute(skipping_insert(connection), rows)} if rows else set()
        )
    return [(key.game, key.seq) in added and first[(key.game, key.seq)] is key for key in keys]


def accept_fenced(engine: Engine, keys: Sequence[Key]) -> list[bool]:
    """:func:`accept_all` for a host's keys on PostgreSQL, in one round trip: one statement, its own transaction,
    that locks the owners' rows ``FOR SHARE``, keeps the keys whose token is still their live game's, and
    inserts them (the session made durable once: a connection's first use sets ``synchronous_commit``)."""
    first: dict[tuple[str, int, int | None], Key] = {}
    for key in keys:
        first.setdefault((key.game, key.seq, key.token), key)
    unique = list(first.values())
    with engine.connect() as connection:
        own = connection.execution_options(isolation_level="AUTOCOMMIT")
        if not own.connection.info.get(DURABLE):
            own.exec_driver_sql("SET synchronous_commit TO on")  # whatever the server's default, as ``durable``
            own.connection.info[DURABLE] = True
        values = {
            "games": sorted({key.game for key in unique}),
            "live": LIVE,
            "key_games": [key.game for key in unique],
            "seqs": [key.seq for key in unique],
            "commands": [key.command for key in unique],
            "received": [key.received for key in unique],
            "tokens": [key.token for key in unique],
        }
        added = {(row.game, row.seq, row.token) for row in own.execute(FENCED_INSERT, values)}
    return [(key.game, key.seq, key.token) in added and first[(key.game, key.seq, key.token)] is key for key in keys]


def writable(connection: Connection, keys: Sequence[Key]) -> set[tuple[str, int | None]]:
    """The (game, token) pairs of ``keys`` that may be written: the game live and, for a key with a token, that
    token still the game's owner's. The owners' rows read are locked against a takeover's token bump until this
    transaction ends (PostgreSQL), so a host that lost a game cannot write past the moment it was taken. One
    query either way: a host's keys all have tokens, the one-machine server's none."""
    plain = sorted({key.game for key in keys if key.token is None})
    fenced = sorted({key.game for key in keys if key.token is not None})
    live: set[str] = set()
    if plain:
        found = select(hosted_games.c.id).where(hosted_games.c.id.in_(plain), hosted_games.c.status == LIVE)
        live = set(connection.execute(found).scalars())
    tokens = live_tokens_of(connection, fenced) if fenced else {}
    return {
        (key.game, key.token)
        for key in keys
        if (key.game in live if key.token is None else tokens.get(key.game) == key.token)
    }


def live_tokens_of(connection: Connection, games: Sequence[str]) -> dict[str, int]:
    """The current token of each live game that has one, its owner's row locked against a bump until the
    transaction ends."""
    found = connection.execute(
        select(owners.hosted_owners.c.game, owners.hosted_owners.c.token)
        .join(hosted_games, hosted_games.c.id == owners.hosted_owners.c.game)
        .where(owners.hosted_owners.c.game.in_(games), hosted_games.c.status == LIVE)
        .with_for_update(read=True, of=owners.hosted_owners)
    )
    return {row.game: int(row.token) for row in found}


def durable(connection: Connection) -> None:
    """On PostgreSQL, have this transaction's commit return only once its WAL is flushed to disk."""
    if connection.dialect.name == "postgresql":
        # Whatever the server's default (docs/server.md, "Hosted play", says what this keeps and what it can lose).
        connection.execute(text("SET LOCAL synchronous_commit TO on"))


def commands_of(connection: Connection, game: str) -> list[bytes]:
    """Every accepted command of a game, in order."""
    found = connection.execute(
        select(hosted_inputs.c.command).where(hosted_inputs.c.game == game).order_by(hosted_inputs.c.seq)
    )
    return [bytes(row.command) for row in found]


def key_times(connection: Connection, game: str) -> list[str]:
    """When each accepted command of a game was received, in order."""
    found = connection.execute(
        select(hosted_inputs.c.received_at).where(hosted_inputs.c.game == game).order_by(hosted_inputs.c.seq)
    )
    return [row.received_at for row in found]


def command_count(connection: Connection, game: str) -> int:
    """How many commands a game has accepted."""
    return int(connection.execute(select(func.count()).where(hosted_inputs.c.game == game)).scalar_one())


def keep_snapshot(engine: Engine, game: str, seq: int, data: bytes) -> None:
    """Keep the game's save after command ``seq`` (and let go of the older ones)."""
    with engine.begin() as connection:
        insert_new(connection, hosted_snapshots, {"game": game, "seq": seq, "data": data})
        connection.execute(
            hosted_snapshots.delete().where(hosted_snapshots.c.game == game, hosted_snapshots.c.seq < seq)
        )


def newest_snapshot(connection: Connection, game: str) -> tuple[int, bytes] | None:
    """The newest save of a game and the command it follows."""
    row = connection.execute(
        select(hosted_snapshots.c.seq, hosted_snapshots.c.data)
        .where(hosted_snapshots.c.game == game)
        .order_by(hosted_snapshots.c.seq.desc())
        .limit(1)
    ).first()
    return None if row is None else (int(row.seq), bytes(row.data))


def end(engine: Engine, game: str, replay_hash: str) -> str | None:
    """Mark a live game ended with its replay's hash; when it ended (None if it was not live)."""
    ended = stamp()
    with engine.begin() as connection:
        changed = connection.execute(
            update(hosted_games)
            .where(hosted_games.c.id == game, hosted_games.c.status == LIVE)
            .values(status=ENDED, live_account=None, ended_at=ended, replay_hash=replay_hash)
        ).rowcount
        connection.execute(hosted_snapshots.delete().where(hosted_snapshots.c.game == game))
    return ended if changed else None
