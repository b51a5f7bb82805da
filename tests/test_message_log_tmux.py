"""The real game in tmux: the message log (m) uses the whole of a larger terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_terminal_tmux import new_game, require_tmux

pytestmark = pytest.mark.slow


def test_the_message_log_fills_a_120x40_terminal(tmp_path: Path) -> None:
    require_tmux()
    tmux = new_game(tmp_path, "--seed 5", "Ida", (120, 40))
    try:
        tmux.keys("m")
        tmux.wait_for("PgUp/PgDn")
        rows = tmux.pane().splitlines()
        assert rows[1].startswith("  Messages")  # top-left, not an 80x25 box in the middle
        assert "PgUp/PgDn: scroll" in rows[39]  # on the terminal's last row
        assert not any("In view" in row for row in rows)  # the log, not the game beside it
    finally:
        tmux.run("kill-server")
