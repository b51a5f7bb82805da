"""``hedonic balance --try NAME=VALUE``: tuning ideas measured without touching the code or a real game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roguelike.bots.balance import play_all
from roguelike.bots.trials import baked, describe, parse_trials
from roguelike.cli.main import main
from roguelike.content import formulas

FASTER_DRAIN = parse_trials(["STATE_OF_MIND_DECAY=3"])


def test_a_tried_formula_changes_the_games_in_this_process_and_in_workers_alike() -> None:
    today = play_all(["careful"], [1, 2], 300, 1)
    here = play_all(["careful"], [1, 2], 300, 1, trial=FASTER_DRAIN)
    workers = play_all(["careful"], [1, 2], 300, 2, trial=FASTER_DRAIN)
    assert [r.turns for r in here] == [r.turns for r in workers]
    assert all(tried.turns < plain.turns for tried, plain in zip(here, today))  # a triple drain ends them sooner


def test_a_trial_puts_todays_formulas_back_after_its_games() -> None:
    play_all(["reckless"], [1], 20, 1, trial=FASTER_DRAIN)
    assert formulas.STATE_OF_MIND_DECAY == 1


def test_a_formula_built_into_a_table_when_the_game_loads_is_refused_by_name() -> None:
    # Depression's two actions are copied into its bestiary row: trying them would change nothing
    # while the report said otherwise.
    assert baked()["DEPRESSION_ACTION_POINTS"] == "roguelike/content/bestiary.py"
    with pytest.raises(ValueError, match="DEPRESSION_ACTION_POINTS cannot be tried.*bestiary.py"):
        parse_trials(["DEPRESSION_ACTION_POINTS=1"])


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("NO_SUCH_FORMULA=1", "not NAME=VALUE"),
        ("STATE_OF_MIND_DECAY", "not NAME=VALUE"),
        ("STATE_OF_MIND_DECAY=fast", "not a Python literal"),
        ("PURE_BATCH_CHANCE=3", "look like its value today, (1, 150)"),
        ("PURE_BATCH_CHANCE=(1, 2, 3)", "look like its value today"),
        ("STATE_OF_MIND_DECAY=1.5", "look like its value today, 1"),  # the rules count in whole points
        ("grown_depth=3", "not NAME=VALUE"),
    ],
)
def test_a_trial_that_cannot_be_played_is_refused_with_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
        parse_trials([text])


def test_tuples_read_as_written_or_as_json_lists_give_the_same_options() -> None:
    trial = parse_trials(["PURE_BATCH_CHANCE=(1, 100)", "EXTRA_DOSES_FEWER_PER_FLOOR=1"])
    assert trial == parse_trials(["PURE_BATCH_CHANCE=[1,100]", "EXTRA_DOSES_FEWER_PER_FLOOR=1"])
    assert describe(trial) == ["--try PURE_BATCH_CHANCE=(1,100)", "--try EXTRA_DOSES_FEWER_PER_FLOOR=1"]


def test_the_report_names_what_was_tried_and_warns_its_figures_are_not_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["balance", "--seeds", "1-2", "--bot", "reckless", "--turns", "250", "--jobs", "1", "--out", str(tmp_path)]
    assert main([*args, "--try", "STATE_OF_MIND_DECAY=2"]) == 0
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert report["tried"] == {"STATE_OF_MIND_DECAY": 2}
    assert "--try STATE_OF_MIND_DECAY=2`" in markdown and "**Formulas tried**" in markdown
    assert main([*args, "--try", "DEPRESSION_ACTION_POINTS=1"]) == 2
    assert "bestiary.py" in capsys.readouterr().err
