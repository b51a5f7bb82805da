"""Reading a save or a record file whole: a regular file no larger than a save can be.

The one reader of save files, below both the save file (:mod:`roguelike.saves.savefile`)
and its slots (:mod:`roguelike.saves.slots`), so neither imports the other to read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from roguelike.saves.container import MAX_FILE_SIZE
from roguelike.storage.errors import SaveError, describe_os_error

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def read_file(path: Path, what: str) -> bytes:
    """The bytes of a regular file no larger than a save can be."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except FileNotFoundError as error:
        raise SaveError(path, f"the {what} no longer exists") from error
    except OSError as error:
        raise SaveError(path, describe_os_error(error)) from error
    try:
        return read_regular(fd, path)
    finally:
        os.close(fd)


def read_regular(fd: int, path: Path) -> bytes:
    """Read an open file whole, refusing what is not a regular file or is too large."""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SaveError(path, "it is not a regular file")
        if info.st_size > MAX_FILE_SIZE:
            raise SaveError(path, f"the file is too large ({info.st_size} bytes)")
        chunks, left = [], MAX_FILE_SIZE + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as error:
        raise SaveError(path, describe_os_error(error)) from error
    if left <= 0:
        raise SaveError(path, "the file is too large")
    return b"".join(chunks)
