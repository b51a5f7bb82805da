"""How many bytes one client may have the server keep per hour, and how much it may log of one error.

An upload that is stored costs disk for good and a verification: each client address has an
allowance of bytes that refills over ``window`` seconds (a token bucket), so a client sending
well-framed garbage or many variants is refused (429) long before it fills the disk. Behind a
reverse proxy every client is the proxy: give the proxy its own limits.

:class:`Hush` is a logging filter that lets through a few records of each kind per window and
then one line saying how many it held back, so a flood of failing connections cannot fill the
disk with the same traceback. Both take a clock, so tests need not wait.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

Clock = Callable[[], float]


class Allowance:
    """Bytes each client may have kept, refilled at ``most`` bytes per ``window`` seconds."""

    def __init__(self, most: int, window: float = 3600.0, clock: Clock = time.monotonic) -> None:
        self.most = most
        self.window = window
        self.clock = clock
        self.left: dict[str, tuple[float, float]] = {}  # client: (bytes left, when counted)
        self.lock = threading.Lock()  # uploads are kept from several threads

    def take(self, client: str, size: int) -> bool:
        """Spend ``size`` bytes of the client's allowance; False (nothing spent) if it has not that many."""
        with self.lock:
            now = self.clock()
            left = self.room(client, now)
            if size > left:
                self.left[client] = (left, now)
                return False
            self.left[client] = (left - size, now)
            self.forget_full(now)
            return True

    def room(self, client: str, now: float) -> float:
        """The bytes a client may still send now."""
        left, then = self.left.get(client, (float(self.most), now))
        return min(float(self.most), left + (now - then) * self.most / self.window)

    def forget_full(self, now: float) -> None:
        """Drop clients whose allowance has refilled (the table stays as small as the busy clients)."""
        if len(self.left) > 1024:
            self.left = {client: kept for client, kept in self.left.items() if self.room(client, now) < self.most}


class Hush(logging.Filter):
    """Let ``most`` records of each kind (logger and message) through per ``window`` seconds, then one
    line saying how many more there were."""

    def __init__(self, most: int = 5, window: float = 60.0, clock: Clock = time.monotonic) -> None:
        super().__init__()
        self.most = most
        self.window = window
        self.clock = clock
        self.seen: dict[tuple[str, str], tuple[float, int]] = {}  # kind: (window's start, records in it)
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether this record is written (the first after a held-back run says how many were held back)."""
        kind = (record.name, str(record.msg))
        with self.lock:
            now = self.clock()
            start, count = self.seen.get(kind, (now, 0))
            if now - start >= self.window:
                held = count - self.most
                if held > 0:
                    record.msg = f"{record.msg} [{held} more like this were not logged in the last {self.window:g} s]"
                start, count = now, 0
            self.seen[kind] = (start, count + 1)
            if len(self.seen) > 4096:
                self.seen = {key: kept for key, kept in self.seen.items() if now - kept[0] < self.window}
            return count < self.most
