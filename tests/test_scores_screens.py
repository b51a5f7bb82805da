"""Daily and the hall of fame from the title screen, in the window's and the terminal's shared screens."""

from __future__ import annotations

import argparse
from pathlib import Path

from tcod.event import KeySym

from roguelike.cli.saves import games_for
from roguelike.scores.daily import daily_seed, today
from roguelike.screens.base import App
from roguelike.screens.hall import HallScreen
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.title import TitleScreen
from save_helpers import key, screen_text, text
from test_scores_hall import played


def title(root: Path) -> App:
    """The title screen over a data directory whose games are recorded."""
    app = App(TitleScreen(games_for(argparse.Namespace(data_dir=str(root), seed=None, wizard=False))))
    screen_text(app.stack[-1])
    return app


def daily_from_title(app: App, name: str) -> InGameScreen:
    """Choose Daily, type a name, press Enter."""
    app.handle(key(KeySym.D))
    app.handle(text("d"))  # the D key's own character
    app.handle(text(name))
    assert "first attempt at this daily: it ranks" in screen_text(app.stack[-1]) or "practice" in screen_text(
        app.stack[-1]
    )
    app.handle(key(KeySym.RETURN))
    screen = app.stack[-1]
    assert isinstance(screen, InGameScreen)
    return screen


def test_daily_from_the_title_plays_todays_seed_and_a_second_attempt_is_practice(tmp_path: Path) -> None:
    app = title(tmp_path)
    first = daily_from_title(app, "Ann").game.state
    assert (first.seed, first.origin) == (daily_seed(today()), "daily")
    app.close_all()
    app = title(tmp_path)
    app.handle(key(KeySym.D))
    app.handle(text("d"))
    app.handle(text("Ann"))
    assert "this attempt is practice" in screen_text(app.stack[-1])
    app.handle(key(KeySym.RETURN))
    playing = app.stack[-1]
    assert isinstance(playing, InGameScreen) and playing.game.state.origin == "practice"
    app.close_all()


def test_best_games_from_the_title_lists_the_verified_games(tmp_path: Path) -> None:
    played(tmp_path, "Ann", 11)
    app = title(tmp_path)
    app.handle(key(KeySym.B))
    screen = app.stack[-1]
    assert isinstance(screen, HallScreen)
    if screen.verifying is not None:
        screen.verifying.join(timeout=300)
    shown = screen_text(screen)
    assert "Hall of fame" in shown and "Ann" in shown and "verified" in shown
    app.handle(key(KeySym.TAB))
    assert "Daily board of" in screen_text(screen) and "No finished game here yet." in screen_text(screen)
    app.close_all()
