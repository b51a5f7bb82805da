"""One running game per save: an OS lock on a small file beside the save.

The lock is ``flock`` on Linux and macOS (``msvcrt.locking`` on Windows); the operating
system drops it when the process ends however it ends, so a crash never leaves a save
locked. The lock file is separate from the save because a save written whole (new,
outgrown, or of an older format) replaces the save file itself.
"""

from __future__ import annotations

import errno
import os
import sys
import time
from pathlib import Path

from roguelike.storage.errors import SaveError, describe_os_error

LOCK_SUFFIX = ".lock"
ALREADY_OPEN = "this save is already open in another running game"
_ATTEMPTS = 5  # a lock file removed under us (its save was retired) is recreated and retried
# A listing probes a lock for a few microseconds: a busy lock is tried again over ~0.1 s
# before it is taken to mean another running game.
_BUSY_WAITS = (0.001, 0.004, 0.015, 0.03, 0.05)
READ_ONLY = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})


class CannotLock(SaveError):
    """The lock file cannot be made at all (a read-only folder): nothing here can be saved either."""


def lock_path(save: Path) -> Path:
    """The lock file of a save."""
    return save.with_suffix(LOCK_SUFFIX)


def try_lock(fd: int) -> bool:
    """Take the lock of an open file without waiting; False if someone holds it."""
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (BlockingIOError, PermissionError):
        return False
    return True


class SaveLock:
    """Held while a game plays a save; ``release`` (or the process ending) frees it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd: int | None = fd

    @classmethod
    def acquire(cls, save: Path) -> SaveLock:
        """Lock a save; SaveError if another game has it open or the lock cannot be made."""
        path = lock_path(save)
        for _ in range(_ATTEMPTS):
            fd = open_lock_file(path, save)
            if not try_lock_patiently(fd):
                os.close(fd)
                raise SaveError(save, ALREADY_OPEN)
            if still_there(fd, path):
                return cls(path, fd)
            os.close(fd)
        raise SaveError(save, "its lock file keeps disappearing")

    def release(self, *, remove: bool = False) -> None:
        """Free the lock; ``remove`` deletes the lock file first (the save is gone)."""
        if self.fd is None:
            return
        if remove:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        os.close(self.fd)
        self.fd = None


def try_lock_patiently(fd: int) -> bool:
    """Take the lock, waiting out a listing's brief probe; False if a game holds it."""
    for wait in _BUSY_WAITS:
        if try_lock(fd):
            return True
        time.sleep(wait)
    return try_lock(fd)


def open_lock_file(path: Path, save: Path) -> int:
    """Open (creating if needed) a lock file; CannotLock if the folder refuses.

    In a read-only folder an existing lock file is still opened for reading and locked
    (``flock`` needs no write access), so two games never share a save there either.
    """
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        if error.errno in READ_ONLY:
            try:
                return os.open(path, os.O_RDONLY)
            except OSError:
                pass
        raise CannotLock(save, f"it cannot be locked ({describe_os_error(error)})", doing="open") from error


def still_there(fd: int, path: Path) -> bool:
    """Whether the locked file is still the one at ``path`` (not removed meanwhile)."""
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def is_locked(save: Path) -> bool:
    """Whether another running game holds a save (without creating anything)."""
    try:
        fd = os.open(lock_path(save), os.O_RDONLY)
    except OSError:
        return False
    try:
        if not try_lock(fd):
            return True
        return False
    finally:
        os.close(fd)  # closing drops the lock we may just have taken
