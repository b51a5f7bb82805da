"""The balance report's figures of skill (issue 41): how much of an outcome policy explains
against seed and chaos, each bot's median against careful's, and the bootstrap intervals of
the per-bot figures the targets read (Spearman of score with turns, deaths by depth).

Every interval is a 95% bootstrap over seeds (:mod:`roguelike.bots.resample`); medians are
nearest-rank, as the report's tables give them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from roguelike.bots.balance import GameResult
from roguelike.bots.resample import (
    PARTS,
    Floats,
    Picks,
    bootstrap,
    interval,
    intervals,
    rank_correlation,
    variance_shares,
)

REFERENCE = "careful"  # the bot every other is measured against
# Sets of bots whose variance of log(turns) the report splits, when all were played with twins:
# the four sensible bots, and the three whose play differs most but whose outcome did not.
VARIANCE_GROUPS: tuple[tuple[str, ...], ...] = (
    ("careful", "planner", "diver", "explorer"),
    ("careful", "diver", "explorer"),
)
Band = tuple[int, int]


def nearest_median(values: Floats) -> float:
    """The nearest-rank median (the lower middle of an even count), as the report's tables give it."""
    return float(np.sort(values)[(len(values) + 1) // 2 - 1])


def skill_figures(results: list[GameResult]) -> dict[str, Any]:
    """The figures that compare bots: the variance split (with twins) and the medians against careful's."""
    firsts = {(r.bot, r.seed): r for r in results if r.prelude == 0}
    return {"variance": variance_figures(results), "versus_careful": versus_reference(firsts)}


def variance_figures(results: list[GameResult]) -> list[dict[str, Any]]:
    """The variance of log(turns) split into policy, seed, seed x policy and chaos (the twins'
    difference), for each group of bots all played with twins, and for all the bots played."""
    twins: dict[tuple[str, int], list[int]] = {}
    for r in sorted(results, key=lambda r: r.prelude):
        twins.setdefault((r.bot, r.seed), []).append(r.turns)
    played = tuple(dict.fromkeys(bot for (bot, _), turns in twins.items() if len(turns) == 2))
    groups = [group for group in VARIANCE_GROUPS if set(group) <= set(played)]
    if len(played) > 1 and not any(set(group) == set(played) for group in groups):
        groups.append(played)
    return [group_variance(group, twins) for group in groups]


def group_variance(group: Sequence[str], twins: dict[tuple[str, int], list[int]]) -> dict[str, Any]:
    """The split of one group's variance, over the seeds every bot of it played twice."""
    seeds = sorted({seed for (_, seed) in twins})
    seeds = [seed for seed in seeds if all(len(twins.get((bot, seed), ())) == 2 for bot in group)]
    outcome = np.log(np.maximum(1, np.array([[twins[(bot, seed)] for bot in group] for seed in seeds], dtype=float)))
    shares = variance_shares(outcome)
    spans = intervals(100 * bootstrap(lambda picks: variance_shares(outcome[picks]), len(seeds)), 1)
    return {
        "bots": list(group),
        "seeds": len(seeds),
        "shares": {
            part: {"share": round(100 * float(share), 1), "interval": list(span) if span else None}
            for part, share, span in zip(PARTS, shares, spans)
        },
    }


def versus_reference(firsts: dict[tuple[str, int], GameResult]) -> dict[str, Any]:
    """Each bot's median score and turns as multiples of careful's, paired by seed."""
    bots = dict.fromkeys(bot for bot, _ in firsts)
    if REFERENCE not in bots:
        return {}
    figures = {}
    for bot in bots:
        if bot == REFERENCE:
            continue
        seeds = sorted(seed for b, seed in firsts if b == bot and (REFERENCE, seed) in firsts)
        if seeds:
            pairs = [(firsts[(bot, seed)], firsts[(REFERENCE, seed)]) for seed in seeds]
            figures[bot] = {
                "seeds": len(seeds),
                "score": median_ratio([a.score for a, _ in pairs], [b.score for _, b in pairs]),
                "turns": median_ratio([a.turns for a, _ in pairs], [b.turns for _, b in pairs]),
            }
    return figures


def median_ratio(values: Sequence[int], reference: Sequence[int]) -> dict[str, Any]:
    """median(values) / median(reference), seeds resampled in pairs (None where careful's median is 0)."""
    mine, theirs = np.array(values, dtype=float), np.array(reference, dtype=float)

    def ratio(picks: Picks) -> float:
        below = nearest_median(theirs[picks])
        return nearest_median(mine[picks]) / below if below else math.nan

    point = ratio(np.arange(len(mine)))
    span = interval(ratio, len(mine), 3)
    return {"ratio": None if math.isnan(point) else round(point, 3), "interval": list(span) if span else None}


def spearman_interval(games: list[GameResult]) -> list[float] | None:
    """The 95% bootstrap interval of Spearman's correlation of score with turns."""
    scores = np.array([g.score for g in games], dtype=float)
    turns = np.array([g.turns for g in games], dtype=float)
    span = interval(lambda picks: rank_correlation(scores[picks], turns[picks]), len(games), 3)
    return list(span) if span else None


def band_intervals(games: list[GameResult], bands: Sequence[Band]) -> tuple[list[list[float] | None], dict[str, Any]]:
    """Per band of depths, the 95% interval of deaths per 1,000 turns; and the last band's rate
    as a multiple of the one before (21+ against 16-20), with its interval."""
    spent = np.array([[turns_in(g, band) for band in bands] for g in games], dtype=float)
    died = np.array(
        [[g.cause != "alive" and band[0] <= g.floor <= band[1] for band in bands] for g in games], dtype=float
    )

    def rates(picks: Picks) -> Floats:
        turns, deaths = spent[picks].sum(axis=0), died[picks].sum(axis=0)
        per_1000 = np.divide(1000 * deaths, turns, out=np.full(len(bands), np.nan), where=turns > 0)
        before = per_1000[-2]
        last = per_1000[-1] / before if before > 0 else math.nan
        return np.append(per_1000, last)

    point = rates(np.arange(len(games)))[-1]
    spans = intervals(bootstrap(rates, len(games)), 2)
    per_band = [list(span) if span else None for span in spans[:-1]]
    last = spans[-1]
    ratio = {"ratio": None if math.isnan(point) else round(float(point), 2), "interval": list(last) if last else None}
    return per_band, ratio


def turns_in(game: GameResult, band: Band) -> int:
    """Turns the game spent on floors of the band."""
    return sum(n for depth, n in game.depth_turns.items() if band[0] <= int(depth) <= band[1])
