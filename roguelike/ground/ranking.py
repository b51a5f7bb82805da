"""The one ranking rule, for the local hall of fame and the score server's board alike.

Higher scores rank first. Of equal scores, the game that took fewer turns ranks first
(the same score reached sooner is the better game, and the re-simulation proves the
turns); then the game started earlier, by the date its replay records; last the replay's
SHA-256, so the order never depends on file names or on when a file was uploaded.

Of a daily date, only a character's first attempt ranks: the one started earliest (by the
same recorded date, then the SHA-256); later attempts are practice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

Item = TypeVar("Item")


@dataclass(frozen=True)
class Placing:
    """What the ranking reads of a verified game."""

    score: int
    turns: int
    recorded: str  # when the game started, as its replay's header says (ISO 8601, so it sorts as text)
    digest: str  # the SHA-256 of the replay's bytes
    name: str = ""
    daily: str | None = None  # the date of a daily game, proved by its seed

    @property
    def order(self) -> tuple[int, int, str, str]:
        """Where the game stands: sorting by this puts the best first."""
        return -self.score, self.turns, self.recorded, self.digest

    @property
    def started(self) -> tuple[str, str]:
        """Which of a character's attempts at a daily date came first."""
        return self.recorded, self.digest


def best_first(items: Iterable[Item], placing: Callable[[Item], Placing]) -> list[Item]:
    """The items in ranking order."""
    return sorted(items, key=lambda item: placing(item).order)


def first_attempts(items: Iterable[Item], placing: Callable[[Item], Placing]) -> tuple[list[Item], list[Item]]:
    """The items that rank, and the later attempts of a character at a daily date, which do not
    (each in the order given)."""
    listed = [(item, placing(item)) for item in items]
    earliest: dict[tuple[str, str], int] = {}
    for index, (_, place) in enumerate(listed):
        if place.daily is not None:
            key = (place.daily, place.name)
            if key not in earliest or place.started < listed[earliest[key]][1].started:
                earliest[key] = index
    first_ones = set(earliest.values())
    first = [item for index, (item, place) in enumerate(listed) if place.daily is None or index in first_ones]
    later = [item for index, (item, place) in enumerate(listed) if place.daily is not None and index not in first_ones]
    return first, later
