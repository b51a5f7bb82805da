"""Who runs a hosted game, when hosts on several machines run them: a fencing token per game.

A host takes a game by holding its PostgreSQL advisory lock (``roguelike.server.cluster.ownership``)
and then bumping the game's token in ``hosted_owners``; every command it writes carries that
token, and :func:`roguelike.server.hosted.log.accept_all` writes it only while it is still the
game's (the row is read ``FOR SHARE``, so a takeover's bump waits for a write under way and every
write after the bump sees the new token). A host cut off from the others that comes back still
holding a game in memory therefore writes nothing: its token is old. The ``(game, seq)`` key
fences it too, and each written row keeps the token that wrote it, so a log shows who wrote what.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Connection, String, Table, select, update

from roguelike.server.store import insert_new, metadata, now

hosted_owners = Table(
    "hosted_owners",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("token", BigInteger, nullable=False),
    Column("host", String(128), nullable=False),
    Column("since", String(32), nullable=False),
)
SIGN = 1 << 63  # a game id is 16 hex digits: its advisory lock key is that number read as a signed 64-bit one


def lock_key(game: str) -> int:
    """The PostgreSQL advisory lock key of a game (its id read as a signed 64-bit number)."""
    value = int(game, 16)
    return value - 2 * SIGN if value >= SIGN else value


def take_over(connection: Connection, game: str, host: str) -> int:
    """Make ``host`` the game's owner with a token higher than any before; the new token."""
    if insert_new(connection, hosted_owners, {"game": game, "token": 1, "host": host, "since": now()}):
        return 1
    connection.execute(
        update(hosted_owners)
        .where(hosted_owners.c.game == game)
        .values(token=hosted_owners.c.token + 1, host=host, since=now())
    )
    return int(connection.execute(select(hosted_owners.c.token).where(hosted_owners.c.game == game)).scalar_one())


def owner_of(connection: Connection, game: str) -> tuple[str, int] | None:
    """The host that last took a game, and its token (None: no host ever did)."""
    row = connection.execute(
        select(hosted_owners.c.host, hosted_owners.c.token).where(hosted_owners.c.game == game)
    ).first()
    return None if row is None else (row.host, int(row.token))
