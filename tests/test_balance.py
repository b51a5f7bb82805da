"""``hedonic balance``: every seed with every bot, the same report for any --jobs, and what it holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roguelike.bots import plots
from roguelike.bots.balance import parse_seeds, play_all
from roguelike.bots.report import build, percentile, seed_text
from roguelike.bots.report_md import CHARTS_HINT
from roguelike.cli.main import main
from roguelike.content.conditions import CONDITIONS

SEEDS = "3-5"
LIMIT = 250


def run(out: Path, jobs: int, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """Run the command; its report.json and report.md."""
    code = main(
        [
            "balance",
            "--seeds",
            SEEDS,
            "--bot",
            "careful",
            "--bot",
            "reckless",
            "--turns",
            str(LIMIT),
            "--jobs",
            str(jobs),
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert f"{2 * 3}/{2 * 3} games" in capsys.readouterr().err  # the progress bar reached the end
    return (out / "report.json").read_text(), (out / "report.md").read_text()


def test_the_report_is_identical_for_any_number_of_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = run(tmp_path / "one", 1, capsys)
    two = run(tmp_path / "two", 2, capsys)
    assert one == two


def test_the_report_holds_every_figure_the_issue_asks_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plots, "available", lambda: False)
    plain, markdown = run(tmp_path, 1, capsys)
    report = json.loads(plain)
    assert report["seeds"] == SEEDS and list(report["bots"]) == ["careful", "reckless"]
    careful = report["bots"]["careful"]
    assert careful["games"] == 3 and len(report["games"]) == 6
    for key in ("turns", "deepest_floor", "doses", "score", "best_streak", "streak_points", "finds"):
        assert set(careful[key]) == {"min", "p10", "median", "p90", "max", "mean"}
    assert set(careful["attributes"]) >= {"confidence", "nerve", "will", "tolerance", "will_reached_max"}
    assert (
        set(careful["takeovers"])
        == set(CONDITIONS)
        >= {
            "desperate",
            "desperate_carrying",
            "weak_will",
            "pocket_pull",
            "stunned",
            "panicked",
            "nerve_panic",
            "confused",
        }
    )  # each condition, one added later too
    assert set(careful["carried"]) == {
        "games_taking",
        "taken_per_game",
        "taken_low",
        "saved_games",
        "saved_share",
        "saved_interval",
    }
    deaths = sum(entry["games"] for entry in careful["causes"].values())
    assert deaths + careful["alive_at_limit"] == 3
    assert careful["survival"][0] == [0, 100.0]
    games = [game for game in report["games"] if game["bot"] == "careful"]
    assert careful["best_streak"]["max"] == max(game["best_streak"] for game in games)
    for heading in (
        "Turns survived",
        "Floors",
        "Causes of death",
        "Attributes",
        "Control taken over",
        "Longest High streak (turns)",
        "Points from High streaks",
        "Finds taken",
        "Carried doses",
    ):
        assert f"## {heading}" in markdown
    assert CHARTS_HINT in markdown and not list(tmp_path.glob("*.png"))


def test_with_matplotlib_the_report_shows_its_charts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")  # the balance extra; the test extra installs it too
    _, markdown = run(tmp_path, 1, capsys)
    for name in ("survival", "causes", "floors"):
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
        assert f"![{name}]({name}.png)" in markdown


def test_games_come_back_in_bot_then_seed_order() -> None:
    results = play_all(["reckless", "careful"], [2, 1], 60, 1)
    assert [(r.bot, r.seed) for r in results] == [("reckless", 2), ("reckless", 1), ("careful", 2), ("careful", 1)]
    assert all(r.turns <= 60 for r in results)
    report = build(results, [1, 2], 60)
    assert list(report["bots"]) == ["reckless", "careful"]


def test_seed_ranges_read_and_write_back() -> None:
    assert parse_seeds("1-3,7, 9-10") == [1, 2, 3, 7, 9, 10]
    assert seed_text([1, 2, 3, 7, 9, 10]) == "1-3,7,9-10"
    with pytest.raises(ValueError):
        parse_seeds("5-1")


def test_a_bad_seed_list_is_refused_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "--seeds", "many", "--out", str(tmp_path)]) == 2
    assert "--seeds" in capsys.readouterr().err


def test_percentiles_are_nearest_rank() -> None:
    values = list(range(1, 11))
    assert [percentile(values, p) for p in (0, 10, 50, 90, 100)] == [1, 1, 5, 9, 10]
