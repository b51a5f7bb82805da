"""What the web process and a game process say to each other over their socket, and its framing.

Each message is a 4-byte big-endian length, a kind byte and its payload. Parent to game: the
plan the game is rebuilt from (``PLAN``, msgpack), the player's browser messages (``EVENT``, as
they came), a command's acceptance (``ACCEPTED``, its sequence number) or refusal (``REFUSED``:
the game ends its process). Game to parent: a frame (``FRAME``: a keyframe or diff of
:mod:`roguelike.ground.frames`), a command it is about to apply (``COMMAND``: sequence number
and encoded command), a save of the game (``SNAPSHOT``: the command it follows and the bytes),
what the lobby calls the game (``TITLE``) and, once the game is over, its replay (``ENDED``).
Nothing sent is unpickled; the web process never decodes a command.
"""

from __future__ import annotations

import socket
import struct

import msgpack

PLAN, EVENT, ACCEPTED, REFUSED = b"P", b"E", b"A", b"R"
FRAME, COMMAND, SNAPSHOT, TITLE, ENDED = b"F", b"C", b"S", b"T", b"D"
HEAD = struct.Struct("!Ic")
SEQ = struct.Struct("!I")
MAX_MESSAGE = 64 * 1024 * 1024  # the largest message either side takes (a replay, a save)


class WireError(Exception):
    """A message that breaks the framing: the other side is not what it should be."""


def packed(kind: bytes, payload: bytes = b"") -> bytes:
    """One message, framed."""
    return HEAD.pack(len(payload), kind) + payload


def with_seq(seq: int, data: bytes = b"") -> bytes:
    """A payload that starts with a sequence number."""
    return SEQ.pack(seq) + data


def split_seq(payload: bytes) -> tuple[int, bytes]:
    """The sequence number a payload starts with, and the rest."""
    if len(payload) < SEQ.size:
        raise WireError("a message too short for its sequence number")
    return SEQ.unpack_from(payload)[0], payload[SEQ.size :]


def plan_bytes(plan: dict[str, object]) -> bytes:
    """A plan as the ``PLAN`` payload."""
    return bytes(msgpack.packb(plan, use_bin_type=True))


def plan_of(payload: bytes) -> dict[str, object]:
    """The plan a ``PLAN`` payload holds."""
    found = msgpack.unpackb(payload, raw=False, strict_map_key=True)
    if not isinstance(found, dict):
        raise WireError("a plan that is no map")
    return found


def head_of(data: bytes) -> tuple[int, bytes]:
    """The payload length and kind a message's head gives."""
    size, kind = HEAD.unpack(data)
    if size > MAX_MESSAGE:
        raise WireError(f"a message of {size} bytes")
    return size, kind


class Channel:
    """The game process's end of the socket: blocking reads and writes of whole messages."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()

    def send(self, kind: bytes, payload: bytes = b"") -> None:
        """Send one message (whole)."""
        self.sock.sendall(packed(kind, payload))

    def receive(self, timeout: float | None) -> tuple[bytes, bytes] | None:
        """The next message within ``timeout`` seconds (None: wait for it); None if none came.
        EOFError when the parent is gone."""
        while True:
            found = self.take()
            if found is not None:
                return found
            self.sock.settimeout(timeout)
            try:
                chunk = self.sock.recv(1 << 16)
            except (TimeoutError, BlockingIOError):
                return None
            if not chunk:
                raise EOFError("the web process closed the game's socket")
            self.buffer += chunk

    def take(self) -> tuple[bytes, bytes] | None:
        """A whole message already read, taken off the buffer."""
        if len(self.buffer) < HEAD.size:
            return None
        size, kind = head_of(bytes(self.buffer[: HEAD.size]))
        if len(self.buffer) < HEAD.size + size:
            return None
        payload = bytes(self.buffer[HEAD.size : HEAD.size + size])
        del self.buffer[: HEAD.size + size]
        return kind, payload
