"""Working through many replay files side by side: the one pool of worker processes.

``hedonic replay --verify`` and the hall's prover (:mod:`roguelike.scores.workers`) both hand
it a function of one file. Workers are started only when the work is worth their start
(about ``BYTES_PER_WORKER`` of replay each), the largest file first so the last to finish
starts early; results come back in the order the files were given, so what is reported is
the same whatever the number of workers. Standard library only, and imported lazily: every
``hedonic`` command loads the module that verifies. The coach's rollouts use the same
:func:`pool`.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

Result = TypeVar("Result")

BYTES_PER_WORKER = 128 * 1024  # a worker is worth its start for this much replay (~0.25 s of verifying)
PARENT_CHECK_SECONDS = 0.2


def cores() -> int:
    """How many cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def file_size(path: Path) -> int:
    """A file's size in bytes (0 if it cannot be read: its worker then says why)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def workers_for(paths: list[Path], jobs: int | None = None) -> int:
    """How many workers: ``jobs`` if given, else one per core but no more than one per
    ``BYTES_PER_WORKER`` of replay; never more than there are files."""
    worth = max(1, min(cores(), sum(map(file_size, paths)) // BYTES_PER_WORKER))
    return min(jobs or worth, len(paths))


@contextmanager
def pool(workers: int, method: str = "fork") -> Iterator[ProcessPoolExecutor]:
    """``workers`` processes started by ``method`` (forked where the platform can, sharing the
    modules already imported; else spawned) that leave with this process; shut down on leaving."""
    method = method if method in multiprocessing.get_all_start_methods() else "spawn"
    executor = ProcessPoolExecutor(
        max(1, workers),
        mp_context=multiprocessing.get_context(method),
        initializer=leave_with_parent,
        initargs=(os.getpid(),),
    )
    try:
        yield executor
    finally:
        executor.shutdown(cancel_futures=True)


def in_workers(
    task: Callable[[Path], Result], paths: list[Path], workers: int, method: str = "fork"
) -> Iterator[Result]:
    """Each file's result, in the order given, from the pool's ``workers`` processes."""
    with pool(workers, method) as executor:
        futures = {path: executor.submit(task, path) for path in sorted(paths, key=file_size, reverse=True)}
        for path in paths:
            yield futures[path].result()


def leave_with_parent(parent: int) -> None:
    """In a worker: exit as soon as the process that started it is gone. A worker holds both
    ends of its task queue's pipe, so it never sees the parent go and would wait for work
    forever (a game's server stopped while its death screen proved a replay left one behind,
    holding the server's stdout open)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()
