"""A resumed game is recorded only into a replay that still verifies up to its save (issue 27, item 12)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from replay_helpers import only_replay
from roguelike.cli.saves import games_for
from roguelike.core.commands import Move, Wait
from roguelike.replay.fileformat import Replay, read_replay, replay_bytes


def saved_game(root: Path, turns: int = 30) -> Path:
    """A saved, recorded game of ``turns`` waits and steps, closed; its save's path."""
    session = games_for(argparse.Namespace(data_dir=str(root), seed=19)).new("Edna")
    for turn in range(turns):
        session.apply(Wait() if turn % 3 else Move(1, 0))
    session.close()
    (save,) = (root / "saves").glob("*.save")
    return save


def edited(replay: Replay, index: int) -> Replay:
    """The replay with one early command swapped (its frame and CRC written afresh)."""
    steps = list(replay.steps)
    old = steps[index - 1]
    steps[index - 1] = replace(old, command=Move(0, 1) if isinstance(old.command, Wait) else Wait())
    return replace(replay, steps=steps)


def test_a_replay_edited_before_the_save_is_not_recorded_into_and_the_player_is_told(tmp_path: Path) -> None:
    save = saved_game(tmp_path)
    path = only_replay(tmp_path)
    path.write_bytes(replay_bytes(edited(read_replay(path), 4)))
    tampered = path.read_bytes()
    session = games_for(argparse.Namespace(data_dir=str(tmp_path), seed=None)).resume(save)
    session.apply(Wait())
    session.close()
    assert path.read_bytes() == tampered
    (notice,) = [line for line in session.notices.lines() if line.startswith("Replay:")]
    assert "no longer verifies" in notice and "step 4" in notice and path.name in notice


def test_a_replay_that_verifies_goes_on_recording_after_a_resume(tmp_path: Path) -> None:
    save = saved_game(tmp_path)
    session = games_for(argparse.Namespace(data_dir=str(tmp_path), seed=None)).resume(save)
    session.apply(Wait())
    session.close()
    assert len(read_replay(only_replay(tmp_path)).steps) == 31
    assert not [line for line in session.notices.lines() if line.startswith("Replay:")]
