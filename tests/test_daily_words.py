"""The daily's name prompt, the empty daily board and Help's Controls say what is true."""

from __future__ import annotations

import argparse
from pathlib import Path

from roguelike.cli.saves import games_for
from roguelike.core.names import DEFAULT_NAME
from roguelike.scores.daily import DailyStart, today
from roguelike.screens.helptext import CONTROLS
from roguelike.screens.newgame import DAILY_RULE, NewGameScreen
from save_helpers import screen_text, text
from test_scores_hall import hedonic


def daily_prompt(root: Path) -> NewGameScreen:
    """The daily's name prompt over a data directory."""
    games = games_for(argparse.Namespace(data_dir=str(root), seed=None, wizard=False))
    return NewGameScreen(games, daily=DailyStart(games, today()))


def test_the_daily_prompt_says_nothing_of_a_name_not_yet_typed(tmp_path: Path) -> None:
    screen = daily_prompt(tmp_path)
    shown = screen_text(screen)
    assert f"{DEFAULT_NAME}'s" not in shown and DAILY_RULE in shown
    screen.on_event(text("Ann"))
    assert "Ann's first attempt at this daily: it ranks on the board." in screen_text(screen)


def test_hall_daily_with_no_games_says_there_are_none_yet(tmp_path: Path) -> None:
    done = hedonic("hall", "--daily", "today", "--cached", "--data-dir", str(tmp_path))
    assert done.returncode == 0
    assert (
        done.stdout.strip().splitlines()[-1] == f"no games on the {today().isoformat()} daily board yet in {tmp_path}"
    )
    assert "#" not in done.stdout  # no table's header alone


def test_help_controls_name_the_rest_until_key() -> None:
    assert any(keys.startswith("R  ") and "Enter rests" in keys for _, keys in CONTROLS)
