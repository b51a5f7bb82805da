"""Par for a seed: how the planner does on it, as a band, under this rules epoch.

The planner plays the seed ``runs`` times from slightly shifted starts (a wait or two near
turn 0: :func:`roguelike.coach.rollout.shift_of`), in worker processes; par is the median
and the range of its scores and of its turns, stamped with the rules epoch and the number
of runs. It depends on nothing else, so it is worked out once (:mod:`roguelike.coach.parcache`
keeps it).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from roguelike.coach.figures import PAR_RUNS, PAR_TURN_LIMIT
from roguelike.coach.pool import Progress, in_order, workers
from roguelike.coach.rollout import COACH, par_run
from roguelike.core.epoch import RULES_EPOCH


@dataclass(frozen=True)
class Band:
    """The median and the range of a figure over the par games."""

    median: int
    low: int
    high: int

    @classmethod
    def of(cls, values: list[int]) -> Band:
        """The band of some values (the median rounded to a whole number)."""
        return cls(round(statistics.median(values)), min(values), max(values))

    def text(self) -> str:
        """``4,100 (2,300-9,800)``."""
        return f"{self.median:,} ({self.low:,}-{self.high:,})"


@dataclass(frozen=True)
class Par:
    """The planner's games of one seed under one rules epoch: their scores and turns, run by run."""

    seed: int
    epoch: int
    scores: tuple[int, ...]
    turns: tuple[int, ...]
    causes: tuple[str, ...]  # how each game ended ("alive" at the turn limit)

    @property
    def runs(self) -> int:
        """How many games par is made of."""
        return len(self.scores)

    @property
    def score(self) -> Band:
        """The band of the scores."""
        return Band.of(list(self.scores))

    @property
    def turn_band(self) -> Band:
        """The band of the turns."""
        return Band.of(list(self.turns))

    def beaten_by(self, score: int) -> int:
        """How many of the par games a score beats."""
        return sum(score > own for own in self.scores)

    def line(self, score: int | None = None) -> str:
        """``par 4,100 (2,300-9,800)``, with ``: you beat 6 of 8 runs`` for a score."""
        beaten = "" if score is None else f": you beat {self.beaten_by(score)} of {self.runs} runs"
        return f"par {self.score.text()}{beaten}"

    def lines(self) -> list[str]:
        """Par told in a few lines."""
        return [
            (
                f"Par for seed {self.seed} (rules epoch {self.epoch}): {self.score.text()} points, "
                f"{self.turn_band.text()} turns."
            ),
            (
                f"The {COACH} bot played it {self.runs} times from slightly shifted starts; "
                f"the band is the median and the range."
            ),
            "How its games ended: "
            + ", ".join(f"{cause} {self.causes.count(cause)}" for cause in sorted(set(self.causes)))
            + ".",
        ]

    def to_plain(self) -> dict[str, Any]:
        """Par as plain JSON-ready values (the cache's entry, and ``--json``)."""
        return {
            "seed": self.seed,
            "epoch": self.epoch,
            "bot": COACH,
            "runs": self.runs,
            "score": vars(self.score),
            "turns": vars(self.turn_band),
            "games": [{"score": s, "turns": t, "cause": c} for s, t, c in zip(self.scores, self.turns, self.causes)],
        }

    @classmethod
    def from_plain(cls, plain: dict[str, Any]) -> Par:
        """Par from :meth:`to_plain`'s values (ValueError, KeyError or TypeError if they are not that)."""
        games = plain["games"]
        if not isinstance(games, list) or not games:
            raise ValueError("a par without games")
        par = cls(
            whole(plain["seed"]),
            whole(plain["epoch"]),
            tuple(whole(g["score"]) for g in games),
            tuple(whole(g["turns"]) for g in games),
            tuple(str(g["cause"]) for g in games),
        )
        return par


def whole(value: object) -> int:
    """An integer read from JSON (TypeError for anything else, booleans included)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"not a whole number: {value!r}")
    return value


def par(
    seed: int,
    runs: int = PAR_RUNS,
    jobs: int | None = None,
    progress: Progress | None = None,
    method: str = "fork",
    limit: int = PAR_TURN_LIMIT,
) -> Par:
    """The planner's par for ``seed`` under this rules epoch, played in worker processes."""
    with workers(jobs, method) as pool:
        games = in_order(pool, par_run, [(seed, run, limit) for run in range(runs)], progress)
    return Par(
        seed,
        RULES_EPOCH,
        tuple(game.score for game in games),
        tuple(game.turns for game in games),
        tuple(game.cause or "alive" for game in games),
    )
