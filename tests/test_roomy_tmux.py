"""The real game in tmux: a 120x40 terminal lists what is in view beside the map; 80x25 does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, START_DOSE, dose_odds
from test_terminal_tmux import Tmux, new_game, require_tmux

pytestmark = pytest.mark.slow


def started(tmp_path: Path, columns: int, rows: int) -> Tmux:
    """A new game (seed 5) in a tmux window of ``columns`` x ``rows``, at its first turn."""
    return new_game(tmp_path, "--seed 5", "Ida", (columns, rows))


def test_a_120x40_terminal_lists_the_start_dose_with_its_true_range_beside_the_map(tmp_path: Path) -> None:
    require_tmux()
    odds = dose_odds(DOSE_KINDS[START_DOSE.key], 1, formulas.STATE_OF_MIND_START, 0)
    tmux = started(tmp_path, 120, 40)
    try:
        tmux.wait_for("In view")
        rows = tmux.pane().splitlines()
        assert rows[0][81:].startswith("In view")
        gives = f"+{odds.low}..+{odds.high}" + odds.if_purer(f", purer +{odds.purest}")  # none on floor 1
        assert any(gives in row[81:] for row in rows)
        assert any("no risk of overdose" in row[81:] for row in rows)
        assert any(row.startswith("Floor 1") for row in rows[21:25])  # the panel stays in the game's rows
    finally:
        tmux.run("kill-server")


def test_an_80x25_terminal_shows_the_game_as_before_without_the_list(tmp_path: Path) -> None:
    require_tmux()
    tmux = started(tmp_path, 80, 25)
    try:
        pane = tmux.pane()
        assert "In view" not in pane and "Floor 1" in pane.splitlines()[24]
    finally:
        tmux.run("kill-server")
