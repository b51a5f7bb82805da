"""Small files a player edits by hand (settings, keys), read so that no file can stop the game.

As the save reader does: open without blocking (a FIFO would wait for a writer for ever),
refuse anything but a regular file (``/dev/zero`` would be read until memory runs out),
and read at most the cap. A missing file is ``FileNotFoundError``, for the caller's
default; anything else wrong is :class:`Unreadable` with a short reason for the player.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from roguelike.storage.errors import describe_os_error

READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class Unreadable(Exception):
    """A player's file that cannot be read; ``reason`` is a phrase like "it is a folder, not a file"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def read_player_file(path: Path, limit: int) -> bytes:
    """A regular file's bytes, at most ``limit``; FileNotFoundError if there is none."""
    try:
        fd = os.open(path, READ_FLAGS)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise Unreadable(f"it cannot be read: {describe_os_error(error)}") from None
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise Unreadable("it is a folder, not a file")
        if not stat.S_ISREG(kind):
            raise Unreadable("it is not a regular file (a pipe or a device)")
        data = read_up_to(fd, limit + 1)
    except OSError as error:
        raise Unreadable(f"it cannot be read: {describe_os_error(error)}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise Unreadable(f"it is larger than {limit // 1024} KB, too large to be read")
    return data


def read_up_to(fd: int, size: int) -> bytes:
    """At most ``size`` bytes from an open file (a read may return fewer than asked)."""
    chunks: list[bytes] = []
    while size > 0 and (chunk := os.read(fd, size)):
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)
