"""Issue 41's skill figures in the balance report: the variance of log(turns) split by policy,
seed and chaos, reproducible bootstrap intervals, medians against careful's, the targets
table, and the planner without its pocket."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from roguelike.assist.carried import carried_figures
from roguelike.bots.balance import GameResult
from roguelike.bots.registry import make_bot
from roguelike.bots.report import build
from roguelike.bots.report_md import render
from roguelike.bots.resample import PARTS, bootstrap, interval, rank_correlation, variance_shares
from roguelike.bots.skill import band_intervals, median_ratio, variance_figures
from roguelike.bots.stats import quantile_interval, spearman
from roguelike.bots.targets import TARGETS, judge
from roguelike.core.game import Game
from test_balance_figures import result as made_result

BANDS = ((1, 1), (2, 15), (16, 20), (21, 10**6))


def result(bot: str, seed: int, turns: int, prelude: int = 0, **fields: Any) -> GameResult:
    """A made-up game result of ``bot`` (test_balance_figures' maker, bot first)."""
    return made_result(seed, turns, prelude, bot, **fields)


def shares_of(outcome: list[list[list[int]]]) -> dict[str, float]:
    """The variance split of ``outcome[seed][policy][twin]``, by part."""
    return dict(zip(PARTS, (round(float(s), 6) for s in variance_shares(np.array(outcome, dtype=float)))))


def test_when_only_the_policy_changes_the_outcome_policy_holds_all_its_variance() -> None:
    only_policy = [[[1, 1], [4, 4], [2, 2]] for _ in range(5)]  # every seed, every twin: the bot decides
    assert shares_of(only_policy) == {"policy": 1.0, "seed": 0.0, "seed_x_policy": 0.0, "chaos": 0.0}
    only_twins = [[[1, 3], [1, 3]], [[1, 3], [1, 3]]]
    assert shares_of(only_twins)["chaos"] == 1.0


def test_the_variance_split_matches_a_two_way_analysis_worked_by_hand() -> None:
    # Seed 0: bot A's twins 1 and 3, bot B's 5 and 5; seed 1: A 3 and 3, B 3 and 5. Grand mean 3.5.
    # Cell means 2, 5 / 3, 4; bot means 2.5, 4.5; seed means 3.5, 3.5. Sums of squares:
    # total 14; policy 2*2*(1 + 1) = 8; seed 0; cells 2*(2.25 + 2.25 + 0.25 + 0.25) = 10, so
    # seed x policy 10 - 8 - 0 = 2; chaos (1 + 1) + 0 + 0 + (1 + 1) = 4.
    outcome = [[[1, 3], [5, 5]], [[3, 3], [3, 5]]]
    assert shares_of(outcome) == pytest.approx(
        {"policy": 8 / 14, "seed": 0.0, "seed_x_policy": 2 / 14, "chaos": 4 / 14}, abs=1e-6
    )


def test_the_report_splits_log_turns_with_the_twins_as_chaos() -> None:
    results = [
        result(bot, seed, turns, prelude)
        for prelude in (0, 1)
        for bot, turns in (("careful", 100), ("diver", 800), ("explorer", 300))
        for seed in range(1, 7)
    ]
    (split,) = variance_figures(results)  # careful, diver, explorer: the three-bot group only
    assert split["bots"] == ["careful", "diver", "explorer"] and split["seeds"] == 6
    assert split["shares"]["policy"] == {"share": 100.0, "interval": [100.0, 100.0]}
    assert split["shares"]["chaos"]["share"] == 0.0
    assert variance_figures([r for r in results if r.prelude == 0]) == []  # no twins, no split


def test_bootstrap_intervals_are_the_same_on_every_run_whatever_was_drawn_before() -> None:
    values = np.array([3.0, 9.0, 1.0, 7.0, 5.0, 2.0, 8.0, 4.0])

    def mean(picks: np.ndarray[Any, np.dtype[np.intp]]) -> float:
        return float(values[picks].mean())

    first = interval(mean, len(values), 3)
    bootstrap(lambda picks: float(values[picks].max()), len(values))  # another figure drawn in between
    assert interval(mean, len(values), 3) == first
    assert first is not None and first[0] < values.mean() < first[1]
    results = [result("careful", seed, 100 + 37 * seed % 500, prelude) for prelude in (0, 1) for seed in range(20)]
    results += [result("diver", seed, 90 + 53 * seed % 700, prelude) for prelude in (0, 1) for seed in range(20)]
    assert build(results, list(range(20)), 20000) == build(results, list(range(20)), 20000)


def test_rank_correlation_and_the_p90_interval_agree_with_the_textbook() -> None:
    xs, ys = [1.0, 1.0, 2.0, 2.0, 5.0], [1.0, 2.0, 3.0, 4.0, 4.0]
    assert rank_correlation(np.array(xs), np.array(ys)) == pytest.approx(spearman(xs, ys), abs=0.001)
    assert math.isnan(rank_correlation(np.array([3.0, 3.0]), np.array([1.0, 2.0])))
    assert quantile_interval(list(range(1, 101)), 0.9) == (84, 97)  # ranks 90 -+ 1.96 * sqrt(9), widened out


def test_a_bots_median_against_careful_is_paired_by_seed() -> None:
    figures = median_ratio([150, 300, 450, 600, 60], [100, 200, 300, 400, 40])
    assert figures == {"ratio": 1.5, "interval": [1.5, 1.5]}  # every seed 1.5x: every resample too
    assert median_ratio([5, 5], [0, 0])["ratio"] is None


def test_deaths_on_the_deepest_floors_as_a_multiple_of_floors_16_to_20() -> None:
    games = [
        result("careful", 1, 3000, floor=18, cause="overdose", depth_turns={"17": 1000, "18": 1000}),
        result("careful", 2, 3000, floor=22, cause="overdose", depth_turns={"19": 2000, "22": 500}),
        result("careful", 3, 3000, floor=23, cause="overdose", depth_turns={"23": 500}),
    ]
    spans, deepest = band_intervals(games, BANDS)
    # 16-20: 1 death in 4,000 turns (0.25 a thousand); 21+: 2 in 1,000 (2.0): 8 times as deadly.
    assert deepest["ratio"] == 8.0 and spans[0] is None  # no turn spent on floor 1 in any draw
    assert spans[2] is not None and spans[2][0] <= 0.25 <= spans[2][1]


def skill_results() -> list[GameResult]:
    """Twin games of careful and the planner without its pocket, which scores 1.5x careful."""
    return [
        result(bot, seed, turns, prelude, score=int(factor * turns), cause=cause)
        for prelude in (0, 1)
        for bot, factor in (("careful", 1.0), ("planner-nopocket", 1.5))
        for seed, turns, cause in ((1, 900, "overdose"), (2, 1500, "depression"), (3, 2600, "exhaustion"))
    ]


def test_the_report_judges_each_skill_target_and_renders_the_table() -> None:
    report = build(skill_results(), [1, 2, 3], 20000)
    rows = {row["target"]: row for row in report["targets"]}
    assert len(rows) == len(TARGETS)
    nopocket = rows["planner without its pocket: median score 1.15x careful's"]
    assert (nopocket["value"], nopocket["met"]) == (1.5, True)
    assert rows["careful: p90 at least 2,500 turns"]["met"] is True
    assert rows["careful: median at least 1,000 turns"]["met"] is True
    assert rows["careful: butterfly at most 8%"]["value"] == 0.0  # every twin lived as long
    assert rows["reader: median turns within 10% of careful's"]["met"] is None
    markdown = render(report, [])
    assert "## Skill targets (issue 41; 95% intervals)" in markdown
    assert "| planner without its pocket: median score 1.15x careful's | 1.5x (1.5-1.5x) | **met** |" in markdown
    assert "| reader: median turns within 10% of careful's | - | not measured: play --bot reader |" in markdown
    assert "## Against careful, seed by seed" in markdown


def test_a_target_whose_interval_crosses_its_line_says_so() -> None:
    report = build(skill_results(), [1, 2, 3], 20000)
    report["bots"]["careful"]["turns"]["median"] = 1100
    report["bots"]["careful"]["intervals"]["turns_median"] = [900, 1400]
    row = next(row for row in judge(report) if row["target"] == "careful: median at least 1,000 turns")
    assert (row["met"], row["sure"]) == (True, False)
    assert "(the interval crosses the line)" in render({**report, "targets": judge(report)}, [])


@pytest.mark.parametrize("seed", [1, 2])
def test_the_planner_without_its_pocket_never_carries_a_dose(seed: int) -> None:
    carried = {}
    for name in ("planner", "planner-nopocket"):
        game, bot, most = Game.new(seed, "Bot"), make_bot(name), 0
        while not game.state.game_over and game.state.turn < 250:
            game.apply(bot.choose(game))
            most = max(most, len(carried_figures(game)))
        carried[name] = most
        game.close()
    assert carried["planner-nopocket"] == 0
    assert carried["planner"] > 0  # the same seed gives the planner doses worth carrying
