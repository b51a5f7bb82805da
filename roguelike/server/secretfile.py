"""A secret file of the server's data folder (the session key, the witness key), made once and never overwritten."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def create_once(path: Path, data: bytes) -> None:
    """Write a new file of mode 0600 whole and durably, never over an existing one (another process that made it
    first wins: its file is kept)."""
    temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temp)  # a crash's leftover of this process id: never written through
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        with contextlib.suppress(FileExistsError):
            os.link(temp, path)
    finally:
        os.unlink(temp)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
