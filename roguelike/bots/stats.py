"""Statistics for the balance report: intervals that hold for any distribution, and rank correlation.

Every figure is a pure function of the results, so a report is the same on every run: a
quantile's interval comes from the binomial order statistics, a share's from Wilson's score
interval, and the rest from a bootstrap over seeds (:mod:`roguelike.bots.resample`) whose own
generator always starts from the same seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def median_interval(values: Sequence[float]) -> tuple[float, float]:
    """A 95% confidence interval of the median (see :func:`quantile_interval`)."""
    return quantile_interval(values, 0.5)


def quantile_interval(values: Sequence[float], q: float) -> tuple[float, float]:
    """A 95% confidence interval of the ``q`` quantile: the order statistics whose ranks the
    binomial(n, q) distribution puts 2.5% beyond on each side (normal approximation)."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return (0.0, 0.0)
    half_width = Z95 * math.sqrt(n * q * (1 - q))
    low = max(1, math.floor(n * q - half_width))  # ranks counted from 1
    high = min(n, math.ceil(1 + n * q + half_width))
    return (ordered[low - 1], ordered[high - 1])


def wilson(count: int, total: int) -> tuple[float, float]:
    """Wilson's 95% score interval of a share ``count / total``, in percent."""
    if total == 0:
        return (0.0, 0.0)
    p = count / total
    centre = p + Z95 * Z95 / (2 * total)
    spread = Z95 * math.sqrt(p * (1 - p) / total + Z95 * Z95 / (4 * total * total))
    scale = 1 + Z95 * Z95 / total
    return (round(100 * max(0.0, (centre - spread) / scale), 1), round(100 * min(1.0, (centre + spread) / scale), 1))


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank from 1, ties sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            result[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation of two equally long series (0 when either is constant)."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    spread = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return round(cov / spread, 3) if spread else 0.0
