"""The group commit of hosted games' keys: many games' keys share a transaction, each is acked only once its row
has committed, and a key the database will not take fails alone.

Each test runs on SQLite and on a private PostgreSQL cluster (``server_helpers.database``)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Iterator, Sequence
from typing import Any, cast

import pytest
from sqlalchemy import Engine, event, select
from sqlalchemy.exc import IntegrityError

from roguelike.core.epoch import RULES_EPOCH
from roguelike.server import store
from roguelike.server.hosted import log
from roguelike.server.hosted.committer import Committer
from server_helpers import database, postgres  # noqa: F401

GAMES, KEYS = 20, 8


class DiskGone(Exception):
    """The failure a test makes every commit end in."""


@pytest.fixture
def engine(database: str) -> Iterator[Engine]:
    """A fresh store with the hosted tables (on SQLite, then on PostgreSQL)."""
    engine = store.open_engine(database)
    yield engine
    engine.dispose()


def games_of(engine: Engine, count: int) -> list[str]:
    """``count`` live games, one an account."""
    return [log.start_or_resume(engine, f"player{index}", RULES_EPOCH).id for index in range(count)]


def committed(engine: Engine, game: str, seq: int) -> bytes | None:
    """A key's command as another connection sees it: only once its transaction has committed."""
    with engine.connect() as connection:
        found = connection.execute(
            select(log.hosted_inputs.c.command).where(log.hosted_inputs.c.game == game, log.hosted_inputs.c.seq == seq)
        ).scalar()
    return None if found is None else bytes(found)


def count_commits(engine: Engine, seconds: float = 0.0) -> list[int]:
    """A list that grows by one at every commit on the engine (each taking ``seconds`` more, as a slow disk's)."""
    commits: list[int] = []

    def counted(connection: Any) -> None:
        commits.append(1)
        time.sleep(seconds)

    event.listen(engine, "commit", counted)
    return commits


def test_keys_of_many_games_at_once_are_committed_together_in_order_and_acked_after_their_commit(
    engine: Engine,
) -> None:
    games = games_of(engine, GAMES)
    commits = count_commits(engine, 0.05)  # every game's next key comes while a commit is under way

    async def play(committer: Committer, game: str) -> list[bool]:
        seen = []
        for seq in range(1, KEYS + 1):  # as a game process does: the next key only once this one is accepted
            command = f"{game}:{seq}".encode()
            assert await committer.accept(game, seq, command) is not None
            seen.append(committed(engine, game, seq) == command)
        return seen

    async def everyone() -> list[list[bool]]:
        committer = Committer(engine)
        try:
            return await asyncio.gather(*(play(committer, game) for game in games))
        finally:
            committer.close()

    seen = asyncio.run(everyone())
    assert seen == [[True] * KEYS] * GAMES  # every ack found its row committed already
    with engine.connect() as connection:
        for game in games:
            assert log.commands_of(connection, game) == [f"{game}:{seq}".encode() for seq in range(1, KEYS + 1)]
            times = log.key_times(connection, game)
            assert times == sorted(times)
    assert len(commits) < GAMES * KEYS / 4  # the keys that came together shared a transaction


def test_a_commit_that_fails_acks_no_key_and_keeps_none(engine: Engine) -> None:
    games = games_of(engine, 5)

    def fail(connection: Any) -> None:
        raise DiskGone("the disk is gone")

    async def everyone() -> list[str | None | BaseException]:
        committer = Committer(engine)
        try:
            event.listen(engine, "commit", fail)
            keys = [committer.accept(game, 1, b"lost") for game in games]
            failed = await asyncio.gather(*keys, return_exceptions=True)
            event.remove(engine, "commit", fail)
            return [*failed, await committer.accept(games[0], 1, b"kept")]  # the committer goes on after
        finally:
            committer.close()

    *failed, after = asyncio.run(everyone())
    assert all(isinstance(outcome, DiskGone) for outcome in failed)
    assert isinstance(after, str)
    with engine.connect() as connection:
        assert [log.commands_of(connection, game) for game in games] == [[b"kept"], [], [], [], []]


class Held:
    """Holds the engine's first commit until let go: every key that comes meanwhile waits for the next one."""

    def __init__(self, engine: Engine) -> None:
        self.inside, self.free, self.commits = threading.Event(), threading.Event(), 0
        event.listen(engine, "commit", self.commit)

    def commit(self, connection: Any) -> None:
        self.commits += 1
        self.inside.set()
        self.free.wait(30)

    async def together(self, committer: Committer, holder: str, keys: Sequence[Awaitable[str | None]]) -> list[Any]:
        """The outcomes of ``keys``, all sent while ``holder``'s first key is being committed."""
        first = asyncio.ensure_future(committer.accept(holder, 1, b"holder"))
        await asyncio.to_thread(self.inside.wait, 30)
        sent = [asyncio.ensure_future(key) for key in keys]
        await asyncio.sleep(0)  # each has handed its key to the committer
        self.free.set()
        assert isinstance(await first, str)
        return await asyncio.gather(*sent, return_exceptions=True)


def test_a_key_whose_number_is_taken_is_refused_alone_and_its_neighbours_commit_with_it(engine: Engine) -> None:
    holder, stale, *others = games_of(engine, 5)
    assert log.accept(engine, stale, 1, b"first") is not None
    held = Held(engine)

    async def together() -> list[Any]:
        committer = Committer(engine)
        try:
            keys = [committer.accept(stale, 1, b"stale owner's")]
            keys += [committer.accept(game, 1, f"{game}".encode()) for game in others]
            keys += [committer.accept(others[0], 1, b"twice in one batch")]
            return await held.together(committer, holder, keys)
        finally:
            committer.close()

    refused, *accepted, twice = asyncio.run(together())
    assert refused is None and twice is None
    assert all(isinstance(received, str) for received in accepted)
    assert held.commits == 2  # the holder's, then one transaction for all the others
    with engine.connect() as connection:
        assert log.commands_of(connection, stale) == [b"first"]
        assert [log.commands_of(connection, game) for game in others] == [[game.encode()] for game in others]


def test_a_key_the_database_refuses_fails_alone_and_its_batch_neighbours_are_accepted(engine: Engine) -> None:
    holder, broken, *others = games_of(engine, 5)
    held = Held(engine)

    async def together() -> list[Any]:
        committer = Committer(engine)
        try:
            keys = [committer.accept(game, 1, b"fine") for game in others]
            keys.insert(1, committer.accept(broken, 1, cast(bytes, None)))  # a row the database will not take
            keys.append(committer.accept(broken, 2, b"after the broken one"))
            return await held.together(committer, holder, keys)
        finally:
            committer.close()

    first, refused, *accepted, after = asyncio.run(together())
    assert isinstance(refused, IntegrityError)
    assert isinstance(after, IntegrityError)  # a game's later key fails with it: its log keeps no gap
    assert all(isinstance(received, str) for received in [first, *accepted])
    assert held.commits == 4  # the holder's, then the three good keys alone once their batch failed
    with engine.connect() as connection:
        assert log.commands_of(connection, broken) == []
        assert [log.commands_of(connection, game) for game in others] == [[b"fine"]] * 3
