"""The real game in tmux: a step into a dose that could overdose asks first; y takes it."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest

from components import Position
from roguelike.content.doses import DOSE_KINDS, LARGE_DOSE
from roguelike.core.commands import Wizard
from roguelike.core.game import Game
from test_feedback_tmux import wizard
from test_terminal_e2e import ROOT, game_env
from test_terminal_tmux import Tmux, require_tmux, short_socket

pytestmark = pytest.mark.slow
SEED = 204
STEP_KEYS = {(0, -1): "k", (0, 1): "j", (-1, 0): "h", (1, 0): "l", (-1, -1): "y", (1, -1): "u", (-1, 1): "b", (1, 1): "n"}
LARGE = str(sorted(DOSE_KINDS).index(LARGE_DOSE.key) + 1)  # its number in the wizard's list


def step_into_the_wizard_dose() -> str:
    """The key that walks into the dose the wizard puts beside the player (worked out on the same game)."""
    game = Game.new(SEED, "Tess")
    game.apply(Wizard("still"))
    game.apply(Wizard("dose", kind=LARGE_DOSE.key))
    player = game.player_component(Position)
    (spot,) = [(p.x - player.x, p.y - player.y) for _, p, dose in game.doses() if dose.kind == LARGE_DOSE.key]
    game.close()
    return STEP_KEYS[spot]


def test_a_risky_dose_asks_in_the_terminal(tmp_path: Path) -> None:
    require_tmux()
    step = step_into_the_wizard_dose()
    tmux = Tmux.__new__(Tmux)
    script = tmp_path / "g"
    script.write_text(
        f"cd {shlex.quote(str(ROOT))} && exec {shlex.quote(sys.executable)} -m roguelike play --terminal --wizard --seed {SEED}\n",
        encoding="utf-8",
    )
    tmux.command = ["tmux", "-S", str(short_socket())]
    tmux.env = game_env(tmp_path / "data")
    tmux.run("new-session", "-d", "-x", "80", "-y", "25", "-c", str(tmp_path), "env PS1='ready>' bash --norc --noprofile")
    try:
        tmux.wait_for("ready>")
        tmux.keys("sh g", "Enter")
        tmux.wait_for("H E D O N I C")
        tmux.keys("n")
        tmux.wait_for("name")
        tmux.keys("Tess", "Enter")
        tmux.wait_for("Turn 0")
        wizard(tmux, "a")
        wizard(tmux, "d", LARGE)
        tmux.keys(step)
        tmux.wait_for("Take the large dose?")  # +55..+75 at 20: only a purer batch (+95) could kill
        tmux.wait_for("purer batch COULD kill")
        time.sleep(0.6)  # keys typed ahead of the question are dropped: the player reads it first
        tmux.keys("Escape")
        tmux.wait_for("You leave the dose alone.")
        tmux.keys(step)
        tmux.wait_for("Take the large dose?")
        time.sleep(0.6)
        tmux.keys("y")
        tmux.wait_for("You take the large dose")
    finally:
        tmux.run("kill-server")
