"""The death screen shows the proof as soon as it comes, whole, without a key pressed.

The terminal redraws only when something changed or the top screen is animated: the
record screen stays animated until it has drawn the verdict the proof brought, so it never
rests on "Verifying this game's replay...". A long verdict (the daily's place) wraps.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from bestiary_helpers import arena
from roguelike.saves.history import record_of
from roguelike.scores.standing import WAITING
from roguelike.screens.death import RecordScreen
from save_helpers import screen_rows
from test_terminal_e2e import LIMIT
from test_terminal_tmux import new_game, require_tmux

DYING = "Press a key to see how it came to this."  # the dying screen's hint, on its first frame
DAILY = "Verified: 12345 points, #12 of 123 in the hall; #1 of 1 on the 2026-11-28 daily board."


@dataclass
class Coming:
    """A proof being made, then made."""

    waiting: bool = True
    verdict: str = DAILY

    def line(self) -> str:
        """The verdict once it came."""
        return WAITING if self.waiting else self.verdict

    def feats_line(self) -> str:
        """The feats once they came."""
        return "" if self.waiting else "Feats: Clean floor"


def test_the_record_stays_animated_until_it_has_drawn_the_proof_that_came() -> None:
    standing = Coming()
    screen = RecordScreen(record_of(arena()), died=True, standing=standing)
    assert WAITING in "\n".join(screen_rows(screen)) and screen.animated
    standing.waiting = False  # the proof came after the last frame
    assert screen.animated  # so a frame is still due
    text = "\n".join(screen_rows(screen))
    assert "Verifying" not in text and "Feats: Clean floor" in text and not screen.animated


def test_the_dailys_long_verdict_wraps_whole() -> None:
    screen = RecordScreen(record_of(arena()), died=True, standing=Coming(waiting=False))
    rows = screen_rows(screen)
    assert " ".join(row.strip() for row in rows[19:22]).startswith(DAILY) and "…" not in "".join(rows)


def test_the_terminal_shows_the_verdict_without_a_key(tmp_path: Path) -> None:
    require_tmux()
    tmux = new_game(tmp_path, "--wizard")
    try:
        tmux.keys("&")
        tmux.wait_for("Wizard")
        tmux.keys("s", "2")  # a Depression beside the player: waiting, it notices, then kills
        for _ in range(6):
            if DYING in tmux.pane():
                break  # a wait pressed now would open the record once the dying screen takes keys
            tmux.keys(".")
            subprocess.run(["sleep", "0.3"], check=True)
        tmux.wait_for(DYING)
        deadline = LIMIT
        while "killed by Depression" not in tmux.pane() and deadline > 0:
            tmux.keys("Space")  # the dying screen takes a key only after its moment
            subprocess.run(["sleep", "0.5"], check=True)
            deadline -= 0.5
        tmux.wait_for("unranked (wizard)")  # the proof's verdict, drawn with no key pressed
        assert "Verifying" not in tmux.pane()
    finally:
        subprocess.run(tmux.command + ["kill-server"], env=tmux.env, capture_output=True, timeout=LIMIT)
