"""The balance report's intervals, rank correlation, depth bands and butterfly, and the diver bot."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from roguelike.bots import plots
from roguelike.bots.balance import GameResult, play_one
from roguelike.bots.diver import DiverBot
from roguelike.bots.report import build, butterfly_figures, depth_band_figures
from roguelike.bots.stats import median_interval, spearman, wilson
from roguelike.cli.main import main


def result(seed: int, turns: int, prelude: int = 0, bot: str = "careful", **fields: Any) -> GameResult:
    """A made-up game result."""
    base = GameResult(
        bot=bot,
        seed=seed,
        turns=turns,
        floor=1,
        deepest=1,
        cause="exhaustion",
        doses=0,
        close_calls=0,
        kills=0,
        score=turns,
        prelude=prelude,
    )
    return replace(base, **fields)  # fields named by the caller: Any, as replace checks them at run time


def test_the_median_interval_is_order_statistics_around_the_middle() -> None:
    assert median_interval(list(range(1, 101))) == (40, 61)  # the textbook ranks 40 and 61 for n = 100
    skewed = [1] * 60 + [1000] * 40
    assert median_interval(skewed) == (1, 1000) and median_interval(skewed[:50] + [1000] * 50) == (1, 1000)
    assert median_interval([5] * 90 + [100] * 10) == (5, 5)
    assert median_interval([7]) == (7, 7)


def test_wilson_intervals_match_their_published_values() -> None:
    assert wilson(0, 10) == (0.0, 27.8)
    assert wilson(5, 10) == (23.7, 76.3)
    assert wilson(10, 10) == (72.2, 100.0)


def test_spearman_sees_order_not_size_and_shares_ties() -> None:
    assert spearman([1, 2, 3, 4], [10, 200, 3000, 40000]) == 1.0
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert spearman([1, 1, 2, 2], [1, 2, 3, 4]) == pytest.approx(0.894, abs=0.001)
    assert spearman([3, 3, 3], [1, 2, 3]) == 0.0


def test_the_butterfly_counts_twin_games_more_than_twice_or_half_as_long() -> None:
    results = [result(1, 100), result(2, 100), result(3, 100), result(1, 250, 1), result(2, 40, 1), result(3, 150, 1)]
    figures = butterfly_figures(results)["careful"]
    assert (figures["pairs"], figures["changed"], figures["share"]) == (3, 2, 66.7)
    report = build(results, [1, 2, 3], 1000)
    assert report["bots"]["careful"]["games"] == 3  # the twins are not counted as games of their own


def test_deaths_per_thousand_turns_are_counted_by_the_band_the_player_died_in() -> None:
    games = [
        result(1, 300, floor=2, depth_turns={"1": 100, "2": 200}),
        result(2, 500, floor=5, depth_turns={"1": 100, "3": 150, "5": 250}),
        result(3, 80, floor=1, cause="alive", depth_turns={"1": 80}),
    ]
    bands = depth_band_figures(games)
    assert bands["1"] == {"turns": 280, "deaths": 0, "per_1000_turns": 0.0}
    assert bands["2-3"] == {"turns": 350, "deaths": 1, "per_1000_turns": 2.86}
    assert bands["4-6"] == {"turns": 250, "deaths": 1, "per_1000_turns": 4.0}
    with_intervals = build(games, [1, 2, 3], 1000)["bots"]["careful"]
    assert with_intervals["depth_bands"]["4-6"]["interval"] == [4.0, 4.0]  # a draw spending turns there saw the death
    low, high = with_intervals["depth_bands"]["2-3"]["interval"]
    assert 0.0 <= low < 2.86 < high <= 5.0  # between seed 2's 0 and seed 1's 1 in 200
    assert with_intervals["depth_bands"]["7-10"]["interval"] is None  # no turn spent there in any draw


def test_a_butterfly_twin_waits_first_and_then_plays_as_the_bot_does() -> None:
    first, twin = play_one(("diver", 7, 40, 0, ())), play_one(("diver", 7, 40, 1, ()))
    assert twin.prelude == 1 and first.prelude == 0
    assert sum(first.depth_turns.values()) == first.turns and sum(twin.depth_turns.values()) == twin.turns


def test_the_butterfly_report_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plots, "available", lambda: False)
    assert (
        main(
            [
                "balance",
                "--seeds",
                "3-4",
                "--bot",
                "diver",
                "--turns",
                "120",
                "--butterfly",
                "--jobs",
                "1",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["butterfly"]["diver"]["pairs"] == 2 and len(report["games"]) == 4
    assert set(report["bots"]["diver"]["intervals"]) == {
        "turns_median",
        "turns_p90",
        "score_median",
        "ended_on_floor_1",
        "spearman_score_turns",
    }
    markdown = (tmp_path / "report.md").read_text()
    assert "## Butterfly: one extra wait before the first move" in markdown and "## Deaths per 1,000 turns" in markdown
    assert "## Skill targets" in markdown and "--butterfly`." in markdown


def test_the_diver_heads_for_known_stairs_before_unexplored_tiles() -> None:
    from roguelike.core.game import Game

    game, bot = Game.new(1, "Diver"), DiverBot()
    while True:  # until the stairs are known with part of the floor still unexplored
        assert game.state.depth == 1 and not game.state.game_over, "seed 1 no longer shows it: pick another"
        floor = game.state.floor
        terrain = bot.routes.terrain(floor)
        seen = bot.routes.seen(terrain, floor.explored)
        if seen.any_stairs_down and seen.any(seen.unexplored):
            break
        game.apply(bot.choose(game))
    from components import Position
    from roguelike.bots.careful import Walks
    from roguelike.bots.sense import known_doses

    pos = game.player_component(Position)
    goals = bot.goals(game, terrain, known_doses(game), Walks(bot.routes, terrain, (pos.x, pos.y)))
    stairs_at = next(i for i, goal in enumerate(goals) if goal is not None and (goal == seen.stairs_down).all())
    assert all(goal is not None and not (goal & seen.unexplored).any() for goal in goals[:stairs_at])
    game.close()
