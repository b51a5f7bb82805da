"""Writing files so that a crash at any instant leaves either the old or the new file.

Temp file in the same folder, write everything, fsync, ``os.replace`` over the old
file, fsync the folder. The temp file is always a new file of our own (``O_EXCL``,
``O_NOFOLLOW``): a leftover ``.tmp`` — a crash's, or a symlink someone planted — is
removed first, never written through. Unbuffered ``os.write`` means there is nothing to flush; if
anything fails the temp file is removed and the old file is left exactly as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

TEMP_SUFFIX = ".tmp"
_BINARY = getattr(os, "O_BINARY", 0)  # Windows would otherwise translate newlines
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | _BINARY


def temp_path(path: Path) -> Path:
    """Where a file is written before it replaces ``path``."""
    return path.with_name(path.name + TEMP_SUFFIX)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` durably; OSError leaves the old file intact."""
    temp = temp_path(path)
    fd = open_new(temp)
    try:
        write_all(fd, data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        discard(temp)
        raise
    os.close(fd)
    try:
        os.replace(temp, path)
    except BaseException:
        discard(temp)
        raise
    fsync_folder(path.parent)


def open_new(temp: Path) -> int:
    """Create ``temp`` as a new file, removing whatever a crash (or anyone) left at its name."""
    for _ in range(3):
        try:
            return os.open(temp, _NEW_FILE, 0o644)
        except FileExistsError:
            os.unlink(temp)  # a symlink goes, not its target; a folder raises and stops us
    raise OSError(errno.EEXIST, "something keeps recreating the temporary file", str(temp))


def write_all(fd: int, data: bytes) -> None:
    """Write every byte (``os.write`` may write fewer than asked)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.EIO, "nothing could be written")
        view = view[written:]


def fsync_folder(folder: Path) -> None:
    """Make a rename or removal in a folder durable (where the platform allows it)."""
    if os.name == "nt":
        return  # Windows cannot open a folder as a file; NTFS journals renames itself
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(fd)


def remove_durably(path: Path) -> None:
    """Delete a file and make the deletion durable; a missing file is fine."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
        fsync_folder(path.parent)


def discard(path: Path) -> None:
    """Remove a temp file on the error path, ignoring any further error."""
    with contextlib.suppress(OSError):
        os.unlink(path)


KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def write_over_regular(path: Path, data: bytes) -> None:
    """:func:`write_atomic` to a path the player named (``--out``), which may be new or a regular file only.

    A rename replaces whatever is at the name: a device node, a FIFO, a symbolic link would be
    swapped for a regular file (as root, ``/dev/full`` for the whole system). Those are refused
    (OSError naming the file and what it is) and left as they are; no temp file is made beside them.
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG
    if not stat.S_ISREG(mode):
        what = next((name for test, name in KINDS if test(mode)), "something else")
        raise OSError(errno.EEXIST, f"it is {what}, not a regular file: it is left as it is", str(path))
    write_atomic(path, data)
