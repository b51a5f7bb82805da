"""A crash while playing in a real terminal: the terminal comes back, the player reads where the files are.

The real program runs in a pty (the helpers of ``test_terminal_e2e``) with the game logic
made to fail after a few turns.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from roguelike.replay.fileformat import read_replay
from roguelike.saves import read_save
from test_terminal_e2e import PtyGame, assert_restored, start_new_game, step_somewhere

pytestmark = pytest.mark.slow

CRASH_AFTER_TURN = 1
FAILING_GAME = f"""
import sys
from roguelike.cli.main import main
from roguelike.core.game import Game

original = Game.apply

def apply(self, command):
    if self.state.turn >= {CRASH_AFTER_TURN}:
        raise RuntimeError("the floor gave way")
    original(self, command)

Game.apply = apply
sys.exit(main(["play", "--terminal"]))
"""


def test_a_crash_in_the_terminal_restores_it_and_names_the_files(tmp_path: Path) -> None:
    data = tmp_path / "data"
    game = PtyGame(data, program=("-c", FAILING_GAME), args=())
    try:
        start_new_game(game)
        step_somewhere(game)  # turn 1
        game.send(b"s")  # waits a turn: the game logic raises
        assert game.wait_exit() == 70
        assert_restored(game)
        after = bytes(game.output[game.output.rindex(b"\x1b[?1049l") :]).decode("utf-8", "replace")
    finally:
        game.close()
    assert "stopped because of a bug (RuntimeError)" in after
    report, replay = (Path(found) for found in re.findall(r"^ +(/\S+\.(?:txt|replay))\r?$", after, re.MULTILINE))
    assert report.is_file() and "RuntimeError: the floor gave way" in report.read_text()
    recorded = read_replay(replay)
    assert recorded.crash is not None and recorded.crash.command is not None
    (save,) = (data / "saves").glob("*.save")
    assert read_save(save).checksum == recorded.steps[-1].checksum  # the last turn that finished
