"""The verifiers' sweep: what a lost moment of Redis or the database left waiting is taken up again.

Every ``SWEEP_SECONDS`` each verifier reads the runs still pending and sets going those it is
not already verifying (a run uploaded while Redis was away, a verdict that met a database
outage): nothing waits for a restart. A run that was "unverifiable here" is tried again every
``RETRY_UNVERIFIABLE`` seconds (a runtime may have been installed) and, on a queue, as soon as
a worker that was not there before listens on its epoch's queue.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

SWEEP_SECONDS = 30.0
RETRY_UNVERIFIABLE = 600.0
log = logging.getLogger("hedonic.serve")


class Cadence:
    """Whether it is time to do something again, by a clock a test can drive."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.last: float | None = None

    def due(self) -> bool:
        """True the first time, then once ``seconds`` have passed since the last time it was."""
        now = self.clock()
        if self.last is not None and now - self.last < self.seconds:
            return False
        self.last = now
        return True


async def sweeping(sweep_once: Callable[[], object], seconds: float = SWEEP_SECONDS) -> None:
    """Run ``sweep_once`` in a thread every ``seconds``, for ever (a failure is logged, and tried again)."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await asyncio.to_thread(sweep_once)
        except Exception:  # the database or Redis away: the next sweep tries again
            log.exception("sweeping the pending runs failed")
