"""The death screen's morgue line is never cut at 80 columns: home as ~, then the first folders left out."""

from __future__ import annotations

import pytest
import tcod.console

from roguelike.core.game import Game
from roguelike.render.text import fit_path
from roguelike.saves.history import record_of
from roguelike.screens.death import RecordScreen


def morgue_row(morgue: str) -> str:
    """The row the death screen shows the morgue line on."""
    game = Game.new(3, "Ada")
    console = tcod.console.Console(80, 25, order="C")
    RecordScreen(record_of(game), died=True, morgue=morgue).on_draw(console, 0.0)
    game.close()
    return "".join(chr(c) for c in console.rgb["ch"][23]).strip()


def test_a_morgue_file_under_a_long_home_is_shown_from_home(monkeypatch: pytest.MonkeyPatch) -> None:
    home = "/home/" + "someone-with-a-long-name" * 2
    monkeypatch.setenv("HOME", home)
    name = "20261126-162236-a926b1-turn1234.txt"
    assert morgue_row(f"Morgue file: {home}/games/hh/morgue/{name}") == f"Morgue file: ~/games/hh/morgue/{name}"


def test_a_morgue_file_deep_in_a_long_folder_keeps_its_name_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/nonexistent-home")
    name = "20261126-162236-a926b1-turn1234.txt"
    row = morgue_row(f"Morgue file: /srv/{'x' * 100}/data/morgue/{name}")
    assert row == f"Morgue file: …/data/morgue/{name}" and len(row) <= 78


def test_a_short_line_is_shown_as_it_is() -> None:
    assert (
        fit_path("No morgue file: this game is not being recorded.", 78)
        == "No morgue file: this game is not being recorded."
    )
