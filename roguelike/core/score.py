"""The score (design: "Score"): doses, close calls and kills, kept by how much of each floor was explored.

What the player earns on a floor is banked, times the share of the floor explored, when
they leave it; the floor they stand on counts the same way live, so the panel, the death
screen and the history all show one number computed here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from components import Record, Score
from roguelike.content import formulas
from roguelike.core.floor import Floor, Tile


@dataclass(frozen=True)
class Breakdown:
    """The score and what it is made of, for the death screen."""

    doses: int
    close_calls: int
    kills: int
    total: int

    @property
    def raw(self) -> int:
        """Points before exploration counts."""
        return formulas.raw_points(self.doses, self.close_calls, self.kills)

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
            ("Close calls", f"{self.close_calls} x {formulas.POINTS_PER_CLOSE_CALL}",
             self.close_calls * formulas.POINTS_PER_CLOSE_CALL),
            ("Monsters slain", f"{self.kills} x {formulas.POINTS_PER_KILL}", self.kills * formulas.POINTS_PER_KILL),
            ("Unexplored", f"{self.kept_percent}% kept", self.unexplored),
            ("Score", "", self.total),
        ]


def floor_percent(floor: Floor) -> int:
    """The whole percentage of a floor's open tiles that has been seen."""
    open_tiles = floor.tiles != Tile.WALL
    return formulas.explored_percent(int(np.count_nonzero(floor.explored & open_tiles)), int(np.count_nonzero(open_tiles)))


def record_points(record: Record) -> int:
    """Everything the character earned so far, before exploration counts."""
    return formulas.raw_points(record.doses_used, record.close_calls, record.kills)


def current_score(floor: Floor, record: Record, score: Score) -> int:
    """The banked score plus this floor's points, kept as far as it is explored."""
    pending = record_points(record) - score.floor_start
    return score.banked + formulas.banked_points(pending, floor_percent(floor))


def bank(floor: Floor, record: Record, score: Score) -> None:
    """Leaving ``floor``: keep its points by how much of it was seen, start counting afresh."""
    score.banked = current_score(floor, record, score)
    score.floor_start = record_points(record)


def breakdown(floor: Floor, record: Record, score: Score) -> Breakdown:
    """The score as it stands, with its parts."""
    return Breakdown(record.doses_used, record.close_calls, record.kills, current_score(floor, record, score))
