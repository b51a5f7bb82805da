"""A host's hold on its games: one PostgreSQL session holding an advisory lock per game it runs.

Why a session of its own, connected to PostgreSQL directly: an advisory lock belongs to the
session that took it, and lives exactly as long as it (a transaction-mode pooler would hand the
session to someone else). When the host dies its kernel closes the connection and PostgreSQL lets
its locks go at once; when the host is cut off nothing closes it, so both ends are told to give up
on a silent peer within seconds (``SERVER_SETTINGS`` for PostgreSQL's end, ``CLIENT_SETTINGS`` for
libpq's), not after Linux's two hours of default keepalive. docs/server.md ("Hosts on several
machines") gives the values and why.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from sqlalchemy.engine import make_url

from roguelike.server.hosted.owners import lock_key

# PostgreSQL's end of every host connection: probe an idle peer after 2 s, every 1 s, give up after 2 missed
# probes (about 4 s); give up on data left unacknowledged for 4 s. A cut-off host's locks go in about 4-5 s.
SERVER_SETTINGS = {
    "tcp_keepalives_idle": 2,
    "tcp_keepalives_interval": 1,
    "tcp_keepalives_count": 2,
    "tcp_user_timeout": 4000,
}
# libpq's end: the same, so the host learns as soon as PostgreSQL that its session (and every lock) is gone.
CLIENT_SETTINGS: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": 2,
    "keepalives_interval": 1,
    "keepalives_count": 2,
    "tcp_user_timeout": 4000,
    "connect_timeout": 3,
}
ALIVE_SECONDS = 3.0  # a session that does not answer ``SELECT 1`` this fast is taken for lost


def server_options() -> str:
    """The ``options`` connection parameter that sets ``SERVER_SETTINGS`` for the session."""
    return " ".join(f"-c {name}={value}" for name, value in SERVER_SETTINGS.items())


def connect_args() -> dict[str, Any]:
    """Connection arguments (for psycopg, through SQLAlchemy or not) of every connection a host makes."""
    return {**CLIENT_SETTINGS, "options": server_options()}


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as libpq takes it."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise ValueError("hosts on several machines meet in PostgreSQL: give --db postgresql+psycopg://...")
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


class OwnerSession:
    """The host's one session that holds the advisory lock of every game it runs."""

    def __init__(self, url: str) -> None:
        self.conninfo = libpq_url(url)
        self.connection: Any = None

    async def open(self) -> None:
        """Connect (again, after a lost session: it holds no lock)."""
        import psycopg

        await self.close()
        self.connection = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True, **connect_args())

    async def close(self) -> None:
        """Let the session and every lock it holds go (at once: a cut-off server is not waited for)."""
        if self.connection is not None:
            connection, self.connection = self.connection, None
            with contextlib.suppress(Exception):  # a session that cannot even be closed is gone anyway
                connection.pgconn.finish()

    async def value(self, query: str, *arguments: object) -> Any:
        """The one value a query returns, within ``ALIVE_SECONDS`` (else the session is dropped: ConnectionError).

        Not ``asyncio.wait_for``: cancelling psycopg's query sends PostgreSQL a cancel request and
        waits for it, seconds more on a cut cable; the session is closed instead, unwaited."""
        if self.connection is None:
            raise ConnectionError("the host's owner session is closed")
        asked = asyncio.ensure_future(self.fetch(self.connection, query, arguments))
        done, _ = await asyncio.wait({asked}, timeout=ALIVE_SECONDS)
        if not done:
            asked.add_done_callback(lambda task: task.cancelled() or task.exception())
            await self.close()
            asked.cancel()
            raise ConnectionError(f"PostgreSQL did not answer in {ALIVE_SECONDS:g} s")
        return asked.result()

    @staticmethod
    async def fetch(connection: Any, query: str, arguments: tuple[object, ...]) -> Any:
        """Run a query; the first column of its first row."""
        cursor = await connection.execute(query, arguments)
        row = await cursor.fetchone()
        return None if row is None else row[0]

    async def alive(self) -> bool:
        """Whether the session (and so every lock it holds) is still there."""
        try:
            return bool(await self.value("SELECT 1"))
        except Exception:  # noqa: BLE001 (whatever broke, the locks cannot be counted on)
            return False

    async def lock(self, game: str) -> bool:
        """Take the game's advisory lock if nobody holds it; whether this session holds it now."""
        return bool(await self.value("SELECT pg_try_advisory_lock(%s)", lock_key(game)))

    async def unlock(self, game: str) -> None:
        """Let the game's lock go."""
        await self.value("SELECT pg_advisory_unlock(%s)", lock_key(game))
