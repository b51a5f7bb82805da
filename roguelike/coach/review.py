"""Where it went wrong: the planner takes over a finished game from points along it.

:func:`review` verifies the replay (a replay that does not prove its game is refused before
any rollout), turns each point (:mod:`roguelike.coach.points`) into the game's state there,
and lets the planner play on from it ``runs`` times (shifted starts, so the runs differ)
for ``horizon`` turns. A point's outlook is the share of runs alive at the horizon, then
their mean score gained; the turn named is the point where the outlook fell most from the
point before it. Everything runs in worker processes, and the result depends only on the
replay, ``runs``, ``horizon``, ``every`` and the rules epoch.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from roguelike.coach.capture import Captured, capture
from roguelike.coach.figures import EVERY, HORIZON, REVIEW_RUNS
from roguelike.coach.points import Point, choose
from roguelike.coach.pool import Progress, in_order, workers
from roguelike.coach.rollout import COACH, Run, runs_from
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.core.epoch import RULES_EPOCH
from roguelike.replay.fileformat import Replay


class ReviewRefused(Exception):
    """The replay cannot be reviewed (another rules epoch, or it does not verify); says why."""


@dataclass(frozen=True)
class Outlook:
    """The planner's runs from one point of the game."""

    point: Point
    runs: tuple[Run, ...]  # none at the death

    @property
    def alive(self) -> int:
        """How many runs were alive at the horizon."""
        return sum(run.alive for run in self.runs)

    @property
    def share(self) -> float:
        """The share of runs alive at the horizon (0 at the death)."""
        return self.alive / len(self.runs) if self.runs else 0.0

    @property
    def mean_score(self) -> float:
        """The runs' mean score gained (0 at the death)."""
        return sum(run.score for run in self.runs) / len(self.runs) if self.runs else 0.0

    def fall_from(self, before: Outlook) -> tuple[float, float]:
        """How far the outlook fell from ``before`` to here: the share alive first, then the mean score."""
        return before.share - self.share, before.mean_score - self.mean_score


@dataclass(frozen=True)
class Review:
    """A game reviewed: the outlook from each point, and the point where it fell most."""

    seed: int
    name: str
    turns: int
    cause: str | None
    runs: int
    horizon: int
    every: int
    outlooks: tuple[Outlook, ...]
    epoch: int = RULES_EPOCH

    @property
    def worst(self) -> int | None:
        """The index of the outlook the largest fall led to (the earliest of equals), None if it never fell."""
        falls = [(self.outlooks[i].fall_from(self.outlooks[i - 1]), -i) for i in range(1, len(self.outlooks))]
        if not falls or max(falls)[0] <= (0.0, 0.0):
            return None
        return -max(falls)[1]

    @property
    def named(self) -> Point | None:
        """The point of the turn named: where the outlook fell most."""
        index = self.worst
        return None if index is None else self.outlooks[index].point

    def lines(self) -> list[str]:
        """Three lines for a player."""
        index = self.worst
        if index is None:
            return [
                f"The planner's outlook never fell over your {self.turns} turns: no turn stands out.",
                f"It took over {self.runs} times from each of {len(self.outlooks)} points, for {self.horizon} turns.",
                best_line(self.outlooks),
            ]
        here, before = self.outlooks[index], self.outlooks[index - 1]
        return [
            f"Turn {here.point.turn}: {here.point.words}{from_here(here, self.horizon)}.",
            f"Just before, from turn {before.point.turn}, {outlook_words(before, self.horizon)}.",
            best_line(self.outlooks),
        ]

    def to_plain(self) -> dict[str, Any]:
        """The review as plain JSON-ready values (for ``--json`` and other tools)."""
        named = self.named
        return {
            "seed": self.seed,
            "name": self.name,
            "turns": self.turns,
            "cause": self.cause,
            "epoch": self.epoch,
            "bot": COACH,
            "runs": self.runs,
            "horizon": self.horizon,
            "every": self.every,
            "named": None
            if named is None
            else {"turn": named.turn, "position": named.position, "kind": named.kind, "words": named.words},
            "lines": self.lines(),
            "points": [
                {
                    "turn": o.point.turn,
                    "position": o.point.position,
                    "kind": o.point.kind,
                    "words": o.point.words,
                    "alive": o.alive,
                    "share": o.share,
                    "mean_score": o.mean_score,
                    "deaths": dict(sorted(Counter(run.cause for run in o.runs if run.cause).items())),
                }
                for o in self.outlooks
            ],
        }


def review(
    replay: Replay,
    runs: int = REVIEW_RUNS,
    horizon: int = HORIZON,
    every: int = EVERY,
    jobs: int | None = None,
    progress: Progress | None = None,
    method: str = "fork",
) -> Review:
    """Review a replayed game (:class:`ReviewRefused` if it is of another epoch or does not verify)."""
    if replay.header.epoch != RULES_EPOCH:
        raise ReviewRefused(
            f"it was played under rules epoch {replay.header.epoch}; the planner plays "
            f"epoch {RULES_EPOCH}'s rules, so it cannot take over that game"
        )
    if not replay.steps:
        raise ReviewRefused("it holds no command: there is no game to review")
    wanted = [point.position for point in choose(replay, None, every)]
    with workers(jobs, method) as pool:
        (captured,) = in_order(pool, capture, [(replay, wanted)])
        points = verified_points(replay, captured, every)
        rolled = [point for point in points if point.kind != "death"]
        done = in_order(
            pool,
            runs_from,
            [(captured.snapshots[p.position], runs, horizon) for p in rolled],
            stages(progress, len(rolled)),
        )
    found = dict(zip((point.position for point in rolled), done))
    outlooks = tuple(Outlook(point, tuple(found.get(point.position, []))) for point in points)
    return Review(
        replay.header.seed, replay.header.name, replay.final_turn, captured.cause, runs, horizon, every, outlooks
    )


def verified_points(replay: Replay, captured: Captured, every: int) -> list[Point]:
    """The points to look from, once the replay is proved (:class:`ReviewRefused` if it is not)."""
    if not captured.verified:
        raise ReviewRefused(f"it does not prove its game ({captured.problem}), so it is not reviewed")
    return [
        point
        for point in choose(replay, captured.cause, every)
        if point.kind == "death" or point.position in captured.snapshots
    ]


def stages(progress: Progress | None, points: int) -> Progress | None:
    """The rollouts' progress, counting the verification as the first job done."""
    if progress is None:
        return None
    shown = progress
    shown(1, points + 1)
    return lambda done, total: shown(done + 1, total + 1)


def died_words(cause: str) -> str:
    """``overdosed``, ``died of exhaustion``, ``was killed by a Depression``."""
    if cause == "overdose":
        return "overdosed"
    if cause == "exhaustion":
        return "died of exhaustion"
    kind = MONSTER_KINDS.get(cause)
    return f"was killed by {kind.one()}" if kind else f"died ({cause})"


def from_here(outlook: Outlook, horizon: int) -> str:
    """``; from here the planner overdosed in 5 of 6 runs`` (nothing at the death itself)."""
    if not outlook.runs:
        return ""
    return f"; from here {outlook_words(outlook, horizon)}"


def outlook_words(outlook: Outlook, horizon: int) -> str:
    """What the planner's runs from a point did, in words."""
    if not outlook.runs:
        return "the game was over"
    total = len(outlook.runs)
    causes = Counter(run.cause for run in outlook.runs if not run.alive and run.cause)
    if not causes:
        return (
            f"the planner lived through {horizon} more turns in all {total} runs, "
            f"adding {outlook.mean_score:,.0f} points on average"
        )
    dead = sum(causes.values())
    if len(causes) == 1:
        return f"the planner {died_words(next(iter(causes)))} in {dead} of {total} runs"
    told = ", ".join(f"{died_words(cause)} {count}" for cause, count in sorted(causes.items()))
    return f"the planner died in {dead} of {total} runs ({told})"


def best_line(outlooks: tuple[Outlook, ...]) -> str:
    """Where the outlook was best over the game."""
    best = max(outlooks, key=lambda o: (o.share, o.mean_score, -o.point.turn))
    return (
        f"The outlook was best at turn {best.point.turn}: alive in {best.alive} of {len(best.runs)} runs, "
        f"{best.mean_score:,.0f} points on average."
    )
