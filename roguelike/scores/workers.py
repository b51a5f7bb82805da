"""Proving many replays at once: worker processes, as ``hedonic replay --verify`` uses them."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from roguelike.runtimes.dispatch import Options
from roguelike.scores.proof import Proof, prove_file

BYTES_PER_WORKER = 128 * 1024  # a worker is worth its fork for about this much replay (as --verify)
PARENT_CHECK_SECONDS = 0.2


def cores() -> int:
    """How many cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def size(path: Path) -> int:
    """A file's size (0 if it cannot be read: its proof says why)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def prove_all(paths: list[Path], jobs: int | None = None, options: Options | None = None,
              method: str = "fork", apart: bool = False) -> list[Proof]:
    """Every file's proof, in the order given, the largest started first.

    ``method`` is how workers start: forked (sharing the imported game) from the command
    line; a window's process, whose SDL must not be forked, spawns them. ``apart``: never in
    this process, even for one small file (a thread beside a screen drawing a game must not
    re-simulate: the world of esper is one per process)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if not paths:
        return []
    workers = min(jobs or max(1, min(cores(), sum(map(size, paths)) // BYTES_PER_WORKER)), len(paths))
    if workers <= 1 and not apart:
        return [prove_file(path, options) for path in paths]
    method = method if method in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                             initializer=leave_with_parent, initargs=(os.getpid(),)) as pool:
        futures = {path: pool.submit(prove_file, path, options) for path in sorted(paths, key=size, reverse=True)}
        return [futures[path].result() for path in paths]


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
