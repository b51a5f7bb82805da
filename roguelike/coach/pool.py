"""The coach's work in worker processes, never in the calling process.

The pool is the one ``hedonic replay --verify`` and the hall's proofs use (forked workers
that leave with their parent, one per core by default); ``method="spawn"`` is for a
process whose SDL must not be forked (a window's). Results come back in the order of the
jobs whatever the number of workers, so what is made of them does not depend on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any, TypeVar

from roguelike.ground.pool import cores, pool

T = TypeVar("T")
Progress = Callable[[int, int], None]  # (jobs done, of how many)


@contextmanager
def workers(count: int | None = None, method: str = "fork") -> Iterator[ProcessPoolExecutor]:
    """A pool of ``count`` worker processes (one per core by default) that leave with this one."""
    # The game is imported before forking, so forked workers share it instead of importing it again.
    import roguelike.coach.capture
    import roguelike.coach.rollout  # noqa: F401

    with pool(count or cores(), method) as executor:
        yield executor


def in_order(
    pool: ProcessPoolExecutor,
    function: Callable[..., T],
    jobs: Sequence[tuple[Any, ...]],
    progress: Progress | None = None,
) -> list[T]:
    """``function(*job)`` for every job, run in the pool, in the order of ``jobs``; progress as they finish."""
    futures: list[Future[T]] = [pool.submit(function, *job) for job in jobs]
    for done, _ in enumerate(as_completed(futures), start=1):
        if progress is not None:
            progress(done, len(futures))
    return [future.result() for future in futures]
