"""The real game in tmux: ? pages through help, x looks at a monster and a dose, then death.

The game starts from a small script file, so nothing long is typed: the test passes
from a checkout at a path of any length.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from roguelike.content.bestiary import MONSTER_KINDS
from test_terminal_e2e import LIMIT
from test_terminal_tmux import Tmux, new_game, require_tmux

pytestmark = pytest.mark.slow
SEED = 204
DEPRESSION = str(sorted(MONSTER_KINDS).index("depression") + 1)  # its number in the wizard's list


@pytest.mark.long(25)
def test_help_look_and_death_in_tmux(tmp_path: Path) -> None:
    require_tmux()
    tmux = new_game(tmp_path, f"--wizard --seed {SEED}")
    try:
        page_through_help(tmux)
        wizard(tmux, "a")  # the monsters stand still while we look
        wizard(tmux, "s", DEPRESSION)  # a Depression next to the player
        look_at_a_monster_and_a_dose(tmux)
        wizard(tmux, "a")  # the monsters move again
        die(tmux)
    finally:
        tmux.run("kill-server")


def page_through_help(tmux: Tmux) -> None:
    """? opens help on Controls; Right turns through every page (a page too long for 80x25 in parts, "Rules 2/2"),
    each page's words coming in order; Esc goes back."""
    tmux.keys("?")
    tmux.wait_for("Controls 1/2")
    for words in ("Message log", "Desperation", "(not met yet)", "Str 36-56", "High streak", "stairs down"):
        turn_until(tmux, words)
    tmux.keys("Escape")
    tmux.wait_for("Turn 0")


def turn_until(tmux: Tmux, words: str, most: int = 3) -> None:
    """Turn the help's pages (Right) until one shows ``words``: the next page, or a later part of this one."""
    for _ in range(most):
        tmux.keys("Right")
        deadline = time.monotonic() + LIMIT / most
        while words not in tmux.pane() and time.monotonic() < deadline:
            time.sleep(0.05)
        if words in tmux.pane():
            return
    tmux.wait_for(words)  # fails naming what the pane shows


def wizard(tmux: Tmux, *keys: str) -> None:
    """A change through the wizard prompt (& in a wizard-mode game), recorded like any command."""
    tmux.keys("&")
    tmux.wait_for("Wizard (this game never counts)")
    for key in keys:
        tmux.keys(key)
    deadline = time.monotonic() + LIMIT
    while "Wizard (this game never counts)" in tmux.pane():
        assert time.monotonic() < deadline, tmux.pane()
        time.sleep(0.05)


def look_at_a_monster_and_a_dose(tmux: Tmux) -> None:
    """x starts on the player; Tab goes to the nearest things in turn (on seed 204 the start dose and
    the Depression both stand beside the player: the upper row comes first)."""
    tmux.keys("x")
    tmux.wait_for("You, Tess.")
    tmux.keys("Tab")
    tmux.wait_for("Tolerance 0: no risk")  # the dose: what it could give, and the overdose risk
    tmux.keys("Tab")
    tmux.wait_for("Depression (D): kills you.")
    tmux.keys("Escape")
    tmux.wait_for("Floor 1")


def die(tmux: Tmux) -> None:
    """Wait until death; the map stays with the death line, then a key opens the record."""
    deadline = time.monotonic() + LIMIT * 4
    while "Press a key to see how it came to this." not in tmux.pane():
        assert time.monotonic() < deadline, tmux.pane()
        tmux.keys(".")
        time.sleep(0.4)  # keys typed ahead of a monster coming into view are dropped on purpose
    assert "Depression swallows you whole." in tmux.pane()
    time.sleep(1.7)  # the death is shown a moment before keys count
    tmux.keys("Enter")
    tmux.wait_for("Tess was killed by Depression.")
    tmux.wait_for("State of Mind, turn by turn")
    tmux.keys("Enter")
    tmux.wait_for("H E D O N I C")
    tmux.keys("q")
    tmux.wait_for("ready>")
