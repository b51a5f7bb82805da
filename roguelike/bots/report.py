"""The balance report: figures per bot from many games, as ``report.json`` and ``report.md``.

Figures only (no clock, no paths, no process counts), so the report of a seed range is
the same on any machine and for any ``--jobs``. Charts come from :mod:`roguelike.bots.plots`
when matplotlib is installed.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from roguelike.bots.balance import GameResult
from roguelike.bots.skill import band_intervals, skill_figures, spearman_interval
from roguelike.bots.stats import median_interval, quantile_interval, spearman, wilson
from roguelike.bots.targets import judge
from roguelike.bots.trials import Trial
from roguelike.bots.watch import ATTRIBUTES
from roguelike.content import formulas
from roguelike.content.conditions import CONDITIONS
from roguelike.storage.atomic import write_atomic

PERCENTILES = (("min", 0), ("p10", 10), ("median", 50), ("p90", 90), ("max", 100))
LIVING = ("confidence", "nerve", "will")
CURVE_STEP = 50  # turns between points of the survival curve
DEPTH_BANDS = ((1, 1), (2, 3), (4, 6), (7, 10), (11, 15), (16, 20), (21, 10**6))
BUTTERFLY_RATIO = 2  # a twin game "changed" when one lived more than this many times as long


def percentile(values: Sequence[int], p: int) -> int:
    """The nearest-rank percentile of some values (``p`` 0 is the minimum)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def spread(values: Sequence[int]) -> dict[str, float]:
    """Minimum, p10, median, p90, maximum and mean."""
    figures: dict[str, float] = {name: percentile(values, p) for name, p in PERCENTILES}
    figures["mean"] = round(sum(values) / len(values), 1)
    return figures


def share(count: int, total: int) -> float:
    """A count as a percentage, to one decimal."""
    return round(100 * count / total, 1) if total else 0.0


def bot_figures(games: list[GameResult]) -> dict[str, Any]:
    """Everything the report says about one bot's games."""
    total = len(games)
    deaths = [g for g in games if g.cause != "alive"]
    causes = Counter(g.cause for g in deaths)
    return {
        "games": total,
        "turns": spread([g.turns for g in games]),
        "deepest_floor": spread([g.deepest for g in games]),
        "ended_on_floor_1": share(sum(g.floor == 1 for g in games), total),
        "floors": dict(sorted(Counter(g.deepest for g in games).items())),
        "alive_at_limit": total - len(deaths),
        "causes": {
            cause: {"games": n, "share": share(n, len(deaths)), "interval": list(wilson(n, len(deaths)))}
            for cause, n in causes.most_common()
        },
        "doses": spread([g.doses for g in games]),
        "close_calls": spread([g.close_calls for g in games]),
        "kills": spread([g.kills for g in games]),
        "score": spread([g.score for g in games]),
        "best_streak": spread([g.best_streak for g in games]),
        "streak_points": spread([g.streak_points for g in games]),
        "finds": spread([g.finds for g in games]),
        "attributes": attribute_figures(games),
        "takeovers": takeover_figures(games),
        "survival": survival_curve(games),
        "intervals": interval_figures(games),
        "spearman_score_turns": spearman([g.score for g in games], [g.turns for g in games]),
        **depth_figures(games),
        "carried": carried_figures(games),
    }


def carried_figures(games: list[GameResult]) -> dict[str, Any]:
    """Carried doses: taken per game, taken low, and the games a carried dose saved (Watch.saved)."""
    total = len(games)
    saved = sum(g.carried_saved for g in games)
    return {
        "games_taking": share(sum(g.carried_taken > 0 for g in games), total),
        "taken_per_game": round(sum(g.carried_taken for g in games) / total, 2) if total else 0.0,
        "taken_low": sum(g.carried_low for g in games),
        "saved_games": saved,
        "saved_share": share(saved, total),
        "saved_interval": list(wilson(saved, total)),
    }


def interval_figures(games: list[GameResult]) -> dict[str, list[float] | None]:
    """95% intervals: the medians of turns and score, turns' p90, the share of games ending on
    floor 1, and Spearman's correlation of score with turns (bootstrap)."""
    return {
        "turns_median": list(median_interval([g.turns for g in games])),
        "turns_p90": list(quantile_interval([g.turns for g in games], 0.9)),
        "score_median": list(median_interval([g.score for g in games])),
        "ended_on_floor_1": list(wilson(sum(g.floor == 1 for g in games), len(games))),
        "spearman_score_turns": spearman_interval(games),
    }


def depth_figures(games: list[GameResult]) -> dict[str, Any]:
    """Deaths per 1,000 turns by band of depths with their intervals, and the deepest band's
    rate as a multiple of the one before."""
    bands = depth_band_figures(games)
    spans, deepest = band_intervals(games, DEPTH_BANDS)
    for figures, span in zip(bands.values(), spans):
        figures["interval"] = span
    return {"depth_bands": bands, "deaths_21_vs_16_20": deepest}


def band_name(band: tuple[int, int]) -> str:
    """``2-3``, ``1`` or ``21+``."""
    low, high = band
    return str(low) if low == high else f"{low}+" if high >= 10**6 else f"{low}-{high}"


def depth_band_figures(games: list[GameResult]) -> dict[str, dict[str, Any]]:
    """Per band of floor depths: turns spent there, deaths there, and deaths per 1,000 turns."""
    figures = {}
    for band in DEPTH_BANDS:
        inside = range(band[0], band[1] + 1)
        turns = sum(n for g in games for depth, n in g.depth_turns.items() if int(depth) in inside)
        deaths = sum(g.cause != "alive" and g.floor in inside for g in games)
        rate = round(1000 * deaths / turns, 2) if turns else 0.0
        figures[band_name(band)] = {"turns": turns, "deaths": deaths, "per_1000_turns": rate}
    return figures


def butterfly_figures(results: list[GameResult]) -> dict[str, dict[str, Any]]:
    """Per bot: how many twin games (one extra wait first) lived more than twice or half as long."""
    firsts = {(r.bot, r.seed): r for r in results if r.prelude == 0}
    figures: dict[str, dict[str, Any]] = {}
    for bot in dict.fromkeys(r.bot for r in results if r.prelude == 1):
        pairs = [(firsts[(bot, r.seed)].turns, r.turns) for r in results if r.prelude == 1 and r.bot == bot]
        changed = sum(max(a, b) > BUTTERFLY_RATIO * max(1, min(a, b)) for a, b in pairs)
        figures[bot] = {
            "pairs": len(pairs),
            "changed": changed,
            "share": share(changed, len(pairs)),
            "interval": list(wilson(changed, len(pairs))),
        }
    return figures


def attribute_figures(games: list[GameResult]) -> dict[str, Any]:
    """Per attribute: the share of games in which it rose, fell, and both; and the special marks."""
    total = len(games)
    figures: dict[str, Any] = {}
    for name in ATTRIBUTES:
        rose = sum(g.rises.get(name, 0) > 0 for g in games)
        fell = sum(g.falls.get(name, 0) > 0 for g in games)
        both = sum(g.rises.get(name, 0) > 0 and g.falls.get(name, 0) > 0 for g in games)
        figures[name] = {"rose": share(rose, total), "fell": share(fell, total), "both": share(both, total)}
    figures["will_reached_max"] = share(sum(g.high.get("will", 0) >= formulas.ATTRIBUTE_MAX for g in games), total)
    figures["nerve_at_panic"] = share(
        sum(g.low.get("nerve", formulas.ATTRIBUTE_MAX) <= formulas.NERVE_PANIC_AT for g in games), total
    )
    return figures


def takeover_figures(games: list[GameResult]) -> dict[str, dict[str, float]]:
    """Per way of losing control: the share of games it happened in, and actions per game."""
    total = len(games)
    return {
        key: {
            "games": share(sum(g.takeovers.get(key, 0) > 0 for g in games), total),
            "actions_per_game": round(sum(g.takeovers.get(key, 0) for g in games) / total, 1),
        }
        for key in CONDITIONS
    }


def survival_curve(games: list[GameResult]) -> list[list[float]]:
    """[turn, percentage of games still alive] every CURVE_STEP turns, until none is."""
    longest = max(g.turns for g in games)
    points = []
    for turn in range(0, longest + CURVE_STEP, CURVE_STEP):
        points.append([turn, share(sum(g.turns > turn or g.cause == "alive" for g in games), len(games))])
    return points


def build(results: list[GameResult], seeds: list[int], limit: int, trial: Trial = ()) -> dict[str, Any]:
    """The whole report as plain data (``tried``: the formulas a trial changed, by name)."""
    bots = list(dict.fromkeys(r.bot for r in results))
    firsts = [r for r in results if r.prelude == 0]
    report = {
        "seeds": seed_text(seeds),
        "turn_limit": limit,
        "tried": dict(trial),
        "bots": {bot: bot_figures([r for r in firsts if r.bot == bot]) for bot in bots},
        "butterfly": butterfly_figures(results),
        "skill": skill_figures(results),
    }
    return {**report, "targets": judge(report), "games": [r.plain() for r in results]}


def seed_text(seeds: list[int]) -> str:
    """Seeds as ranges: ``1-50,70``."""
    runs: list[list[int]] = []
    for seed in seeds:
        if runs and seed == runs[-1][1] + 1:
            runs[-1][1] = seed
        else:
            runs.append([seed, seed])
    return ",".join(f"{low}-{high}" if high > low else f"{low}" for low, high in runs)


def write_json(report: dict[str, Any], out: Path) -> Path:
    """``report.json``: indented, keys in a fixed order."""
    path = out / "report.json"
    write_atomic(path, (json.dumps(report, indent=1) + "\n").encode("utf-8"))
    return path
