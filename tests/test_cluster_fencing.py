"""What keeps one game on one host of several: its advisory lock, its fencing token, and the log's key.

On a private PostgreSQL cluster (and SQLite, for what does not need PostgreSQL): a host that lost a
game (its token bumped by another) has every key refused, written by no one; a takeover waits for a
write under way and then reads it; only one session holds a game's lock, and a closed session (a
dead host) lets it go at once; a database from before hosts gets the log's new column.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine, inspect, select, text

from roguelike.core.epoch import RULES_EPOCH
from roguelike.server import store
from roguelike.server.cluster.ownership import OwnerSession
from roguelike.server.hosted import log, owners
from server_helpers import database, postgres  # noqa: F401
from server_services import Postgres


@pytest.fixture
def engine(database: str) -> Iterator[Engine]:
    """A fresh store with the hosted tables (on SQLite, then on PostgreSQL)."""
    engine = store.open_engine(database)
    yield engine
    engine.dispose()


@pytest.fixture
def pg_engine(postgres: Postgres) -> Iterator[Engine]:
    """A fresh store with the hosted tables on PostgreSQL only (row locks that SQLite does not have)."""
    engine = store.open_engine(postgres.new_database())
    yield engine
    engine.dispose()


def take(engine: Engine, game: str, host: str) -> int:
    """A host takes the game over: its new token."""
    with engine.begin() as connection:
        return owners.take_over(connection, game, host)


def key(game: str, seq: int, token: int | None, command: bytes = b"c") -> log.Key:
    """A key to commit."""
    return log.Key(game, seq, command, log.stamp(), token)


def test_a_host_whose_game_was_taken_over_writes_nothing(engine: Engine) -> None:
    game = log.start_or_resume(engine, "ann", RULES_EPOCH).id
    first = take(engine, game, "h1")
    assert log.accept_all(engine, [key(game, 1, first)]) == [True]
    second = take(engine, game, "h2")
    assert second > first
    # h1 comes back and writes its next key, and one at a number h2 has not reached: both refused
    assert log.accept_all(engine, [key(game, 2, first), key(game, 5, first)]) == [False, False]
    assert log.accept_all(engine, [key(game, 2, second, b"h2")]) == [True]
    with engine.connect() as connection:
        rows = connection.execute(select(log.hosted_inputs.c.seq, log.hosted_inputs.c.token)).all()
        assert log.commands_of(connection, game) == [b"c", b"h2"]
    assert sorted(rows) == [(1, first), (2, second)]  # each row keeps the token that wrote it


def test_keys_without_a_token_are_the_one_machine_server_s_and_are_not_fenced(engine: Engine) -> None:
    game = log.start_or_resume(engine, "bob", RULES_EPOCH).id
    take(engine, game, "h1")
    assert log.accept_all(engine, [key(game, 1, None)]) == [True]
    assert log.accept_all(engine, [key(game, 1, None)]) == [False]  # the (game, seq) key still fences


def test_a_token_for_another_game_does_not_open_this_one(engine: Engine) -> None:
    one, two = (log.start_or_resume(engine, name, RULES_EPOCH).id for name in ("cy", "di"))
    token_one = take(engine, one, "h1")
    take(engine, two, "h2")
    take(engine, two, "h2")
    assert log.accept_all(engine, [key(two, 1, token_one + 5), key(one, 1, token_one)]) == [False, True]


def test_a_takeover_waits_for_a_write_under_way_and_then_reads_it(pg_engine: Engine) -> None:
    engine = pg_engine
    game = log.start_or_resume(engine, "eve", RULES_EPOCH).id
    old = take(engine, game, "h1")
    with engine.connect() as writing:
        transaction = writing.begin()
        rows = [{"game": game, "seq": 1, "command": b"old", "received_at": log.stamp(), "token": old}]
        assert (game, old) in log.writable(writing, [key(game, 1, old)])  # the owners row is read FOR SHARE now
        writing.execute(log.hosted_inputs.insert().values(rows))
        taken: list[int] = []
        taker = threading.Thread(target=lambda: taken.append(take(engine, game, "h2")))
        taker.start()
        taker.join(1.0)
        assert taker.is_alive(), "the takeover did not wait for the old owner's write under way"
        transaction.commit()
    taker.join(60)
    assert taken == [old + 1]
    with engine.connect() as connection:
        assert log.commands_of(connection, game) == [b"old"]  # the new owner's plan, read after its bump, has it


def test_a_host_s_key_waits_for_a_takeover_under_way_and_is_then_refused(pg_engine: Engine) -> None:
    engine = pg_engine
    game = log.start_or_resume(engine, "fay", RULES_EPOCH).id
    old = take(engine, game, "h1")
    with engine.connect() as taking:
        transaction = taking.begin()
        new = owners.take_over(taking, game, "h2")  # the owners row is locked by the bump now
        outcome: list[list[bool]] = []
        writer = threading.Thread(target=lambda: outcome.append(log.accept_all(engine, [key(game, 1, old)])))
        writer.start()
        writer.join(1.0)
        assert writer.is_alive(), "the old owner's key did not wait for the takeover under way"
        transaction.commit()
    writer.join(60)
    assert outcome == [[False]]  # read after the bump: the old token is no longer the game's
    assert log.accept_all(engine, [key(game, 1, new, b"a"), key(game, 1, new, b"b"), key(game, 2, new)]) == [
        True,
        False,  # the same number twice in one batch: the first is taken
        True,
    ]
    with engine.connect() as connection:
        assert log.commands_of(connection, game) == [b"a", b"c"]


def test_one_session_holds_a_game_and_a_closed_session_lets_it_go(postgres: Postgres) -> None:
    url = postgres.new_database()
    game = "00ff00ff00ff00ff"

    async def scenario() -> list[bool]:
        first, second = OwnerSession(url), OwnerSession(url)
        await first.open()
        await second.open()
        seen = [await first.lock(game), await second.lock(game), await first.alive()]
        await first.close()  # a dead host's connection, closed by its kernel
        seen.append(await first.alive())
        deadline = asyncio.get_running_loop().time() + 60  # its server process ends a moment after: far above
        while not (taken := await second.lock(game)) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        seen.append(taken)
        await second.unlock(game)
        await second.close()
        return seen

    assert asyncio.run(scenario()) == [True, False, True, False, True]


def test_the_lock_keys_of_two_games_differ_and_fit_postgres_bigint() -> None:
    games = ("0" * 16, "f" * 16, "7fffffffffffffff", "8000000000000000", "0000000000000001")
    keys = {owners.lock_key(game) for game in games}
    assert len(keys) == len(games)
    assert all(-(2**63) <= value < 2**63 for value in keys)


def test_a_database_from_before_hosts_is_given_the_token_column(tmp_path: object) -> None:
    url = f"sqlite:///{tmp_path}/old.sqlite"
    old = create_engine(url)
    with old.begin() as connection:
        connection.execute(
            text("CREATE TABLE hosted_inputs (game VARCHAR(32), seq INTEGER, command BLOB, received_at VARCHAR(32))")
        )
        connection.execute(text("INSERT INTO hosted_inputs VALUES ('g', 1, x'00', 'then')"))
    old.dispose()
    engine = store.open_engine(url)
    assert "token" in {column["name"] for column in inspect(engine).get_columns("hosted_inputs")}
    with engine.connect() as connection:
        assert connection.execute(select(log.hosted_inputs.c.token)).all() == [(None,)]
    engine.dispose()
