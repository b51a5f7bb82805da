"""Silence what C libraries print while the window is tried on a machine that may have none."""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def quiet_c_output() -> Iterator[None]:
    """Send file descriptors 1 and 2 to /dev/null for the block, C's buffers flushed there.

    libtcod and SDL write their start-up errors to C's buffered stdout, which would
    otherwise appear when the program ends, after the terminal game the player fell back to.
    """
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(null, 1)
    os.dup2(null, 2)
    try:
        yield
    finally:
        ctypes.CDLL(None).fflush(None)
        for fd, copy in ((1, saved[0]), (2, saved[1])):
            os.dup2(copy, fd)
            os.close(copy)
        os.close(null)
