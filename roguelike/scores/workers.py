"""Proving many replays at once, in the worker processes of :mod:`roguelike.ground.pool`."""

from __future__ import annotations

import functools
from pathlib import Path

from roguelike.ground.pool import in_workers, workers_for
from roguelike.runtimes.dispatch import Options
from roguelike.scores.proof import Proof, prove_file


def prove_all(
    paths: list[Path],
    jobs: int | None = None,
    options: Options | None = None,
    method: str = "fork",
    apart: bool = False,
) -> list[Proof]:
    """Every file's proof, in the order given, the largest started first.

    ``method`` is how workers start: forked (sharing the imported game) from the command
    line; a window's process, whose SDL must not be forked, spawns them. ``apart``: never in
    this process, even for one small file (a thread beside a screen drawing a game must not
    re-simulate: the world of esper is one per process)."""
    if not paths:
        return []
    workers = workers_for(paths, jobs)
    if workers <= 1 and not apart:
        return [prove_file(path, options) for path in paths]
    return list(in_workers(functools.partial(prove_file, options=options), paths, max(1, workers), method))
