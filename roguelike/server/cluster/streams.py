"""Where gateways and hosts meet in Redis: the claims stream, each game's streams, and who runs a game now.

- ``hedonic:claims``: a stream of games to run, read by the consumer group ``hosts``. A gateway
  adds a game when someone opens it and no host runs it; a host that runs a game keeps its claim
  pending (unacknowledged) while it does, and touches it every ``TICK``, so when the host dies its
  claims fall idle and another host takes them with ``XAUTOCLAIM`` after ``CLAIM_IDLE_MS``.
- ``hedonic:in:{game}``: the player's browser messages, as they came (``e``), added by gateways,
  and a gateway's ask for a keyframe (``s``) when it follows a game whose out-stream has none.
- ``hedonic:out:{game}``: what the game shows: its frames (``f``), a keyframe of the screen now
  and then for gateways that start following or fell out of step (``k``), what the lobby calls it
  (``t``) and, when it closes, why (``x``), each with its writer's fencing token (``o``): a
  gateway drops the entries of an owner older than one it has seen. Capped at ``OUT_LENGTH`` entries: a gateway that starts following reads back
  to the newest keyframe.
- ``hedonic:owner:{game}``: the host running the game, set with an expiry of ``OWNER_TTL_MS`` and
  renewed every tick: a gateway that finds none asks for the game to be run.
- ``hedonic:read:{game}``: the last browser message handed to the game's process, so a host taking
  the game over goes on from the next (none is handed to two processes; one in a dying process's
  hands is lost, never accepted: only commands in the log are); a game none was handed on for yet
  starts from its first.
"""

from __future__ import annotations

from typing import Any

CLAIMS, GROUP = "hedonic:claims", "hosts"
TICK = 0.25  # seconds between a host's rounds: claims touched, owners renewed, stale claims taken
CLAIM_IDLE_MS = 1000  # a claim untouched this long belongs to a dead (or cut-off) host
OWNER_TTL_MS = 1500
OUT_LENGTH = 400  # entries kept in a game's out-stream (approximately: trimmed with ``~``)
IN_LENGTH = 2000
REDIS_SECONDS = 5.0  # a Redis call that has not answered in this long has failed (its loop reads again)
KEYFRAME_EVERY = 100  # frames between the keyframes a host adds for gateways that start following
FRAME, KEYFRAME, TITLE, CLOSED = b"f", b"k", b"t", b"x"  # out-stream entries
TOKEN = b"o"  # an out-stream entry's field: the writer's fencing token (gateways drop an older owner's entries)
EVENT, SYNC = b"e", b"s"
# A browser message's first byte when it is a key's text or release (roguelike/frontend/web/keycodes.py's TEXT
# and KEY_UP): one whose press went to a process that died is dropped, or one key would make two commands.
KEY_DOWN, KEY_ORPHANS = 0x10, (0x11, 0x14)  # in-stream entries: a browser message; a gateway asking for a keyframe


def in_stream(game: str) -> str:
    """The stream of a game's browser messages."""
    return f"hedonic:in:{game}"


def out_stream(game: str) -> str:
    """The stream of what a game shows."""
    return f"hedonic:out:{game}"


def owner_key(game: str) -> str:
    """The key naming the host that runs a game now."""
    return f"hedonic:owner:{game}"


def read_key(game: str) -> str:
    """The key holding the id of the last browser message handed to the game's process."""
    return f"hedonic:read:{game}"


def wake_stream(name: str) -> str:
    """A gateway's or host's own stream, written to wake its reader when what it reads changes."""
    return f"hedonic:wake:{name}"


def game_keys(game: str) -> list[str]:
    """Every Redis key of a game (removed when it ends)."""
    return [in_stream(game), out_stream(game), owner_key(game), read_key(game)]


def entry(fields: dict[Any, Any]) -> tuple[bytes, bytes]:
    """The (kind, payload) pair of a stream entry's fields (beside its token, if it has one)."""
    kind, payload = next((key, value) for key, value in fields.items() if bytes(key) != TOKEN)
    return bytes(kind), bytes(payload)


def token_of(fields: dict[Any, Any]) -> int:
    """The token of the owner that wrote an out-stream entry (0: any owner's)."""
    return int(fields.get(TOKEN, 0) or 0)


def text_of(value: Any) -> str:
    """A Redis reply (bytes or str) as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


def cluster_redis(url: str) -> Any:
    """An asyncio Redis client for the streams of gateways and hosts."""
    from redis.asyncio import Redis

    return Redis.from_url(url, socket_timeout=REDIS_SECONDS, socket_connect_timeout=3, health_check_interval=10)
