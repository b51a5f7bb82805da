"""Same seed and same commands give the same game, under any PYTHONHASHSEED."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT
from roguelike.bots.headless import play_bot, summarise
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.core.snapshot import checksum


def simulate_in_subprocess(hash_seed: str, seed: int, turns: int) -> str:
    """Run ``hedonic simulate`` in a fresh interpreter with a given hash seed."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "roguelike", "simulate", "--seed", str(seed), "--turns", str(turns)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=ROOT, timeout=600)
    return result.stdout


def test_simulate_is_identical_under_different_hash_seeds() -> None:
    outputs = {simulate_in_subprocess(h, 42, 400) for h in ("0", "1", "12345", "random")}
    assert len(outputs) == 1
    output = outputs.pop()
    for key in ("turns: ", "floor: ", "cause: ", "checksum: "):
        assert key in output


def test_same_seed_same_game_and_different_seed_different_game() -> None:
    def run(seed: int) -> str:
        session = Session(Game.new(seed, "Twin"))
        play_bot(session, 150)
        return summarise(session.game).checksum

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_games_in_one_process_do_not_disturb_each_other() -> None:
    a, b = Session(Game.new(8, "A")), Session(Game.new(8, "B2"))
    alone = Session(Game.new(8, "A"))
    play_bot(alone, 60)
    for _ in range(60):
        play_bot(a, a.game.state.turn + 1)
        play_bot(b, b.game.state.turn + 1)
    assert checksum(a.game) == checksum(alone.game)
