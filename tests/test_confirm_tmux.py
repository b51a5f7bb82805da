"""The real game in tmux: a step into a dose that could overdose asks first; y takes it.

Since rules epoch 14 every floor's creeping walls and veils follow the State of Mind, and a dose
taken in Withdrawal that ends High turns both, which the log says in two lines: the death screen's
three message rows would then hold those and the death, not the dose taken. So the player is
first made High for a turn (the walls and veils turn to High and stay so until the next action),
then set back to 20 before the dose: taking it turns no wall, as every floor did before.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from components import Position
from roguelike.content.doses import DOSE_KINDS, EXTRA_LARGE_DOSE
from roguelike.core.commands import Wait, Wizard
from roguelike.core.game import Game
from test_feedback_tmux import wizard
from test_terminal_tmux import new_game, require_tmux

pytestmark = pytest.mark.slow
SEED = 204
STEP_KEYS = {
    (0, -1): "k",
    (0, 1): "j",
    (-1, 0): "h",
    (1, 0): "l",
    (-1, -1): "y",
    (1, -1): "u",
    (-1, 1): "b",
    (1, 1): "n",
}
EXTRA_LARGE = str(sorted(DOSE_KINDS).index(EXTRA_LARGE_DOSE.key) + 1)  # its number in the wizard's list
HIGH, START = 90, 20  # a State of Mind the walls open fully at (veils too), and the one the game starts at


def step_into_the_wizard_dose() -> str:
    """The key that walks into the dose the wizard puts beside the player (worked out on the same game)."""
    game = Game.new(SEED, "Tess")
    game.apply(Wizard("still"))
    game.apply(Wizard("mind", value=HIGH))
    game.apply(Wait())
    game.apply(Wizard("mind", value=START))
    game.apply(Wizard("dose", kind=EXTRA_LARGE_DOSE.key))
    player = game.player_component(Position)
    (spot,) = [(p.x - player.x, p.y - player.y) for _, p, dose in game.doses() if dose.kind == EXTRA_LARGE_DOSE.key]
    game.close()
    return STEP_KEYS[spot]


def test_a_risky_dose_asks_in_the_terminal(tmp_path: Path) -> None:
    require_tmux()
    step = step_into_the_wizard_dose()
    tmux = new_game(tmp_path, f"--wizard --seed {SEED}")
    try:
        wizard(tmux, "a")
        wizard(tmux, "m", *str(HIGH), "Enter")
        tmux.keys(".")
        tmux.wait_for("Veiled ways open in the walls.")
        wizard(tmux, "m", *str(START), "Enter")
        wizard(tmux, "d", EXTRA_LARGE)
        tmux.keys(step)
        tmux.wait_for("Take the extra-large dose?")  # +72..+96 at 20: it could pass 100
        tmux.wait_for("it COULD overdose you")
        time.sleep(0.6)  # keys typed ahead of the question are dropped: the player reads it first
        tmux.keys("Escape")
        tmux.wait_for("You leave the dose alone.")
        tmux.keys(step)
        tmux.wait_for("Take the extra-large dose?")
        time.sleep(0.6)
        tmux.keys("y")
        tmux.wait_for("You take the extra-large dose")
    finally:
        tmux.run("kill-server")
