"""The bootstrap over seeds, rank correlation on arrays, and the variance of an outcome split
by policy, seed and chaos: the figures behind issue 41's skill targets.

The bootstrap's generator starts from ``BOOTSTRAP_SEED`` for every figure, so a report is the
same on every run and one figure's interval does not depend on which others were drawn first.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

BOOTSTRAP_SEED = 41  # the bootstrap's own generator, not any game's
DRAWS = 2000  # resamples of the seeds behind each interval
PARTS = ("policy", "seed", "seed_x_policy", "chaos")  # the parts of the variance, in order

Floats = NDArray[np.float64]
Picks = NDArray[np.intp]
Statistic = Callable[[Picks], "Floats | float"]


def bootstrap(statistic: Statistic, n: int, draws: int = DRAWS) -> Floats:
    """``statistic`` of ``draws`` resamples (with replacement) of ``n`` seeds, one row a draw."""
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    picks = rng.integers(0, n, size=(draws, n))
    return np.array([np.atleast_1d(statistic(row)) for row in picks], dtype=np.float64)


def intervals(samples: Floats, digits: int) -> list[tuple[float, float] | None]:
    """The 95% percentile interval of each column of ``samples`` (None where no draw gave a figure)."""
    found: list[tuple[float, float] | None] = []
    for column in samples.T:
        kept = column[np.isfinite(column)]
        if kept.size == 0:
            found.append(None)
            continue
        low, high = np.percentile(kept, [2.5, 97.5])
        found.append((round(float(low), digits), round(float(high), digits)))
    return found


def interval(statistic: Statistic, n: int, digits: int) -> tuple[float, float] | None:
    """The 95% bootstrap interval of one figure over ``n`` seeds."""
    return intervals(bootstrap(statistic, n), digits)[0]


def average_ranks(values: Floats) -> Floats:
    """Each value's rank from 1, ties sharing the mean of their ranks."""
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    starts = np.concatenate(([True], ordered[1:] != ordered[:-1]))
    group = np.cumsum(starts) - 1
    bounds = np.concatenate((np.flatnonzero(starts), [len(values)]))
    mean_rank = (bounds[:-1] + bounds[1:] + 1) / 2  # ranks start..end-1 counted from 1
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[order] = mean_rank[group]
    return ranks


def rank_correlation(xs: Floats, ys: Floats) -> float:
    """Spearman's correlation of two equally long arrays (NaN when either is constant)."""
    rx, ry = average_ranks(xs) - (len(xs) + 1) / 2, average_ranks(ys) - (len(ys) + 1) / 2
    spread = float(np.sqrt((rx * rx).sum() * (ry * ry).sum()))
    return float((rx * ry).sum()) / spread if spread else float("nan")


def variance_shares(outcome: Floats) -> Floats:
    """The two-way analysis of variance of ``outcome[seed, policy, replicate]`` (every cell
    holding the same number of replicates): the shares of the total sum of squares that
    policy, seed, seed x policy and chaos (within a cell) hold, in PARTS' order, summing to 1."""
    seeds, policies, replicates = outcome.shape
    grand = outcome.mean()
    cells = outcome.mean(axis=2)
    if np.ptp(outcome) == 0:
        return np.zeros(len(PARTS))  # nothing varies: nothing to split
    total = float(((outcome - grand) ** 2).sum())
    policy = seeds * replicates * float(((cells.mean(axis=0) - grand) ** 2).sum())
    seed = policies * replicates * float(((cells.mean(axis=1) - grand) ** 2).sum())
    between_cells = replicates * float(((cells - grand) ** 2).sum())
    chaos = float(((outcome - cells[:, :, None]) ** 2).sum())
    return np.array([policy, seed, between_cells - policy - seed, chaos]) / total
