"""The score (design: "Score"): doses, close calls, kills, floors reached and the longest High, kept by how
much of each floor was explored.

What the player earns on a floor is banked, times the share of the floor explored, when
they leave it; the floor they stand on counts the same way live, so the panel, the death
screen and the history all show one number computed here. The longest High (design: "a
bonus for maintaining the High for a long run without a withdrawal") pays its milestones
as it grows, on the floor where each is reached, and is kept like the rest: a High kept
going by diving through floors half seen keeps half its worth.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from components import HighStreak, Record, Score
from roguelike.content import formulas
from roguelike.core.floor import PASSABLE, Floor


@dataclass(frozen=True)
class Breakdown:
    """The score and what it is made of, for the death screen."""

    doses: int
    close_calls: int
    kills: int
    total: int
    high_streaks: int = 0  # points the longest High streak paid
    best_streak: int = 0  # the longest High streak, in turns
    deepest: int = 1  # the deepest floor reached
    floor_points: int | None = None  # what the floors reached paid, as a record kept it (None: by today's worth)

    @property
    def floors(self) -> int:
        """What reaching the floors paid: as the game's own rules counted it, or by today's worth."""
        return formulas.depth_points(self.deepest) if self.floor_points is None else self.floor_points

    @property
    def raw(self) -> int:
        """Points before exploration counts."""
        return formulas.raw_points(self.doses, self.close_calls, self.kills) + self.floors + self.high_streaks

    @property
    def unexplored(self) -> int:
        """Points lost to leaving floors unexplored (zero or negative)."""
        return self.total - self.raw

    @property
    def kept_percent(self) -> int:
        """The share of the points that exploring kept."""
        return self.total * 100 // self.raw if self.raw else 100

    def rows(self) -> list[tuple[str, str, int]]:
        """(label, how it was counted, points) for each part, the total last."""
        return [
            ("Doses", f"{self.doses} x {formulas.POINTS_PER_DOSE}", self.doses * formulas.POINTS_PER_DOSE),
            (
                "Close calls",
                f"{self.close_calls} x {formulas.POINTS_PER_CLOSE_CALL}",
                self.close_calls * formulas.POINTS_PER_CLOSE_CALL,
            ),
            ("Monsters slain", f"{self.kills} x {formulas.POINTS_PER_KILL}", self.kills * formulas.POINTS_PER_KILL),
            ("Floors reached", depth_sum(self.deepest), self.floors),
            ("Longest High", f"{self.best_streak} turns", self.high_streaks),
            ("Unexplored", f"{self.kept_percent}% kept", self.unexplored),
            ("Score", "", self.total),
        ]


def depth_sum(deepest: int) -> str:
    """How the floors' points were counted, as the death screen says it: "10 x (2+...+6)", and below
    the floor whose worth is the last to grow "10 x (2+...+12) + 120 x 3"."""
    if deepest < 2:
        return "floor 1 only"
    grown = formulas.floor_worth_depth(deepest)
    floors = "2" if grown == 2 else ("(2+3)" if grown == 3 else f"(2+...+{grown})")
    beyond = deepest - grown
    flat = f" + {formulas.POINTS_PER_DEPTH * grown} x {beyond}" if beyond else ""
    return f"{formulas.POINTS_PER_DEPTH} x {floors}{flat}"


def floor_percent(floor: Floor) -> int:
    """The whole percentage of a floor's open tiles that has been seen."""
    open_tiles = PASSABLE[floor.tiles]
    return formulas.explored_percent(
        int(np.count_nonzero(floor.explored & open_tiles)), int(np.count_nonzero(open_tiles))
    )


def record_points(record: Record, streak: HighStreak) -> int:
    """Everything the character earned so far, before exploration counts."""
    return formulas.raw_points(record.doses_used, record.close_calls, record.kills, record.deepest_floor) + streak.bonus


def current_score(floor: Floor, record: Record, score: Score, streak: HighStreak) -> int:
    """The banked score plus this floor's points, kept as far as it is explored."""
    pending = record_points(record, streak) - score.floor_start
    return score.banked + formulas.banked_points(pending, floor_percent(floor))


def bank(floor: Floor, record: Record, score: Score, streak: HighStreak) -> None:
    """Leaving ``floor``: keep its points by how much of it was seen, start counting afresh."""
    score.banked = current_score(floor, record, score, streak)
    score.floor_start = record_points(record, streak)


def breakdown(floor: Floor, record: Record, score: Score, streak: HighStreak) -> Breakdown:
    """The score as it stands, with its parts."""
    total = current_score(floor, record, score, streak)
    return Breakdown(
        record.doses_used,
        record.close_calls,
        record.kills,
        total,
        streak.bonus,
        streak.best,
        deepest=record.deepest_floor,
    )
