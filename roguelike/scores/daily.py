"""The daily seed: one dungeon a UTC date under one rules epoch, the same for everyone, with no network.

The seed is the first 63 bits of a SHA-256 of the date and the epoch, so it can be
worked out anywhere and a verified replay's seed proves which date it was played for. A
character's first daily game of a date on this machine is ranked; later ones are practice.
The clock is passed in (``Clock``), so the 00:00 UTC roll-over is tested without waiting.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.names import DEFAULT_NAME, clean_name
from roguelike.core.session import Session
from roguelike.ground.dailyseed import daily_seed_of
from roguelike.replay.fileformat import ReplayError, read_header
from roguelike.saves import Games
from roguelike.storage.datadir import DataDir

Clock = Callable[[], datetime]
AROUND = range(-2, 2)  # days around a replay's recorded date where its daily date is looked for


def utc_now() -> datetime:
    """The wall clock, in UTC (the daily board's time zone)."""
    return datetime.now(UTC)


def today(clock: Clock = utc_now) -> date:
    """The daily date now: the UTC date (the board rolls over at 00:00 UTC)."""
    return clock().astimezone(UTC).date()


def daily_seed(day: date, epoch: int = RULES_EPOCH) -> int:
    """The seed of a date's daily game under a rules epoch."""
    return daily_seed_of(day, epoch)


def daily_date_of(seed: int, epoch: int, recorded: str) -> date | None:
    """The date whose daily seed ``seed`` is, looked for around a replay's recorded date; None if none."""
    try:
        near = datetime.fromisoformat(recorded).astimezone(UTC).date()
    except ValueError:
        return None
    return next(
        (day for day in (near + timedelta(days=shift) for shift in AROUND) if daily_seed(day, epoch) == seed), None
    )


def attempts(root: Path, name: str, day: date, epoch: int = RULES_EPOCH) -> list[Path]:
    """The replays of this machine where ``name`` played ``day``'s daily seed (ranked or practice)."""
    seed, found = daily_seed(day, epoch), []
    for path in DataDir(root).replay_files():
        try:
            _, header = read_header(path)
        except ReplayError:
            continue
        if header.seed == seed and header.name == name and header.epoch == epoch:
            found.append(path)
    return found


def daily_origin(root: Path, name: str, day: date) -> str:
    """``daily`` for a character's first attempt at a date's seed, ``practice`` after."""
    return "practice" if attempts(root, name, day) else "daily"


@dataclass(frozen=True)
class DailyStart:
    """Starting a date's daily game for a character: ranked the first time, practice after."""

    games: Games
    day: date

    def origin(self, name: str) -> str:
        """``daily`` or ``practice`` for this character today."""
        return daily_origin(self.games.root, clean_name(name) or DEFAULT_NAME, self.day)

    def start(self, name: str) -> Session:
        """The new daily game, its origin marked (recorded, inside the checksum) before any move."""
        wanted = clean_name(name) or DEFAULT_NAME
        return replace(self.games, seed=daily_seed(self.day), origin=self.origin(wanted)).new(wanted)

    def standing(self, name: str) -> str:
        """One line for the name screen: whether this attempt ranks."""
        wanted = clean_name(name) or DEFAULT_NAME
        if self.origin(wanted) == "practice":
            return f"{wanted} has played this daily already: this attempt is practice and never ranks."
        return f"{wanted}'s first attempt at this daily: it ranks on the board."
