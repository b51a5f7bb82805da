"""Folders a killed process would leave in the temp folder: each is locked while its process lives, and swept.

A hosted game's process plays in a scratch folder of its own (its data folder: the save it writes before
sending it, a crash report). It removes the folder when it ends, but a process killed with SIGKILL (its
host died and took it along, ``kill -9``, the kernel's out-of-memory killer) runs no ``finally``. So the
scratch folders live under one parent, ``hedonic-hosted.UID`` in the system's temp folder (made 0700), and
each process holds an exclusive ``flock`` on its folder for its life: the kernel lets the lock go at any
death, and no process number is involved, so a number given again to a later process can neither keep nor
lose a folder. Whoever starts games sweeps that parent when it starts its fork server (and a host sweeps the
folder of a game process of its own that was killed): a folder whose lock it can take at once has no living
holder and is removed; a folder whose lock is held is never touched.

The fork server's socket lives in the folder ``multiprocessing.util.get_temp_dir`` makes for the process
that starts it (``pymp-*`` in the temp folder), removed only when that process exits normally. The server
puts a file in its own, :data:`MARK`, locked for the server's life; the sweep removes a ``pymp-*`` folder
only if it holds that file and nobody holds its lock: other programs' ``pymp-*`` folders are never touched.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import multiprocessing.util
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

MARK = "hedonic-server.lock"  # in a server's multiprocessing temp folder: held while the server lives
MP_PREFIX = "pymp-"  # multiprocessing.util.get_temp_dir's folders
TRIES = 10
HELD: dict[str, int] = {}  # this process's marked multiprocessing temp folder -> its mark's open descriptor
log = logging.getLogger("hedonic.serve")


def scratch_parent(tempdir: str | None = None) -> Path:
    """The folder hosted games' scratch folders are made in (made 0700); OSError if it is not this user's."""
    parent = Path(tempdir or tempfile.gettempdir(), f"hedonic-hosted.{os.getuid()}")
    with contextlib.suppress(FileExistsError):
        parent.mkdir(mode=0o700)
    found = os.lstat(parent)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
        raise PermissionError(f"{parent} is not a folder of this user's")
    return parent


def opened(path: Path) -> int | None:
    """A read-only descriptor of ``path`` (a folder or a file, never through a link); None if it cannot be had."""
    try:
        return os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None


def locked(fd: int) -> bool:
    """Take the exclusive lock of ``fd`` if no one holds it; whether it was taken."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def names(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd`` (it was not removed, nor made again)."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (found.st_dev, found.st_ino) == (held.st_dev, held.st_ino)


def held_folder(parent: Path, prefix: str) -> tuple[Path, int]:
    """A new folder in ``parent`` and a descriptor holding its lock until it is closed or this process dies."""
    for _ in range(TRIES):
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        fd = opened(path)
        if fd is None:
            continue  # a sweep took it between its making and its lock, and removed it
        if locked(fd) and names(fd, path):
            return path, fd
        os.close(fd)  # a sweep holds it (and removes it) or has removed it: make another
    raise OSError(f"no scratch folder of {parent} could be held in {TRIES} tries")


def game_prefix(pid: int) -> str:
    """How the scratch folders of the game process ``pid`` are named."""
    return f"game-{pid}-"


@contextlib.contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A folder this process holds while it uses it, removed after (swept if the process is killed first)."""
    try:
        path, fd = held_folder(scratch_parent(), prefix)
    except OSError as error:  # the parent is not ours: a plain temp folder, as before, which no sweep removes
        print(f"hedonic: {error}: a scratch folder is made outside it, not swept", file=sys.stderr)
        path, fd = Path(tempfile.mkdtemp(prefix=f"hedonic-{prefix}")), -1
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)  # while still held: no sweep can have it
        if fd >= 0:
            os.close(fd)


def remove_if_free(folder: Path, lock: Path) -> bool:
    """Remove ``folder`` if no process holds the lock of ``lock`` (the folder itself, or its mark); whether it was."""
    fd = opened(lock)
    if fd is None:
        return False  # no mark: not a folder of ours
    try:
        if not locked(fd) or not names(fd, lock):
            return False
        shutil.rmtree(folder, ignore_errors=True)
        return not os.path.lexists(folder)
    finally:
        os.close(fd)


def our_folders(parent: Path, prefix: str = "") -> Iterator[Path]:
    """The folders in ``parent`` (not links) whose names start with ``prefix`` and that this user owns."""
    with os.scandir(parent) as entries:
        for entry in entries:
            if entry.name.startswith(prefix) and entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid == os.getuid():
                        yield Path(entry.path)


def sweep_scratch(parent: Path | None = None, prefix: str = "") -> int:
    """Remove the scratch folders (named ``prefix``...) whose process is dead (their lock is free); how many."""
    where = parent if parent is not None else scratch_parent()
    return sum(remove_if_free(folder, folder) for folder in our_folders(where, prefix))


def sweep_game(pid: int) -> int:
    """Remove the scratch folder of the game process ``pid``, which was killed (never one a live process holds,
    should another have its number now); how many (a failure is logged, never raised)."""
    try:
        return sweep_scratch(prefix=game_prefix(pid))
    except OSError as error:
        log.warning("the scratch folder of game process %d was not swept: %s", pid, error)
        return 0


def hold_mp_temp() -> Path:
    """Mark this process's multiprocessing temp folder (where the fork server's socket goes) as held while it lives."""
    folder = Path(multiprocessing.util.get_temp_dir())
    if str(folder) not in HELD:
        fd, name = tempfile.mkstemp(prefix=".marking-", dir=folder)
        fcntl.flock(fd, fcntl.LOCK_EX)  # a new file no one else has open: taken at once
        os.replace(name, folder / MARK)  # so the mark appears already held
        HELD[str(folder)] = fd
    return folder


def sweep_mp_temps(tempdir: str | None = None) -> int:
    """Remove the multiprocessing temp folders of servers that died without removing them; how many."""
    where = Path(tempdir or tempfile.gettempdir())
    return sum(remove_if_free(folder, folder / MARK) for folder in our_folders(where, MP_PREFIX))


def sweep() -> int:
    """Sweep the dead games' scratch folders and dead servers' multiprocessing temp folders; how many were removed
    (a failure is logged, never raised: sweeping is only tidying)."""
    try:
        removed = sweep_scratch() + sweep_mp_temps()
    except OSError as error:
        log.warning("leftover folders of killed processes were not swept: %s", error)
        return 0
    if removed:
        log.info("removed %d leftover folder(s) of killed processes", removed)
    return removed
