"""A power cut that takes a saved game's last replay records: the save carries them back.

A saved game's replay is fsynced every SYNC_EVERY records; each save (fsynced before the
next key is read) carries the records since. Resuming puts back what the replay lost.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from replay_helpers import only_replay
from roguelike.replay.fileformat import carried_steps, read_replay
from roguelike.replay.recorder import SYNC_EVERY
from roguelike.replay.verify import Outcome, verify
from roguelike.saves import read_save
from test_replay_saves import bot_steps, games, the_save

PLAYED = SYNC_EVERY + 10  # the replay was last synced after record SYNC_EVERY


def played(root: Path) -> tuple[Path, int]:
    """A saved game played PLAYED commands and quit; its replay and the save's step."""
    session = games(root).new("Ann")
    bot_steps(session, PLAYED)
    steps = session.steps
    session.close()
    return only_replay(root), steps


def cut(replay_file: Path, keep: int, leftovers: bytes = b"") -> None:
    """What a power cut leaves: the replay's first ``keep`` records, then ``leftovers``."""
    replay = read_replay(replay_file)
    replay_file.write_bytes(replay_file.read_bytes()[: replay.ends[keep]] + leftovers)


def test_each_save_carries_the_records_since_the_replays_last_sync(tmp_path: Path) -> None:
    replay_file, steps = played(tmp_path)
    carried = carried_steps(read_save(the_save(tmp_path)).header["replay_tail"])
    assert [record.index for record, _ in carried] == list(range(SYNC_EVERY + 1, steps + 1))
    assert [record for record, _ in carried] == read_replay(replay_file).steps[SYNC_EVERY:]


# What a power cut leaves where the unsynced records were: nothing, zeros, a cut record, or old blocks of the disk.
OLD_BLOCKS = random.Random(47).randbytes(4096)


@pytest.mark.parametrize(
    "leftovers", [b"", b"\0" * 4096, b"\x00\x00\x01", OLD_BLOCKS], ids=["clean", "zeros", "torn", "random"]
)
def test_resuming_puts_back_the_records_a_power_cut_took(tmp_path: Path, leftovers: bytes) -> None:
    replay_file, steps = played(tmp_path)
    whole = read_replay(replay_file).steps
    cut(replay_file, SYNC_EVERY, leftovers)
    session = games(tmp_path).resume(the_save(tmp_path))
    assert session.notices.lines() == []  # recorded, with nothing to warn about
    bot_steps(session, 5)
    session.close()
    replay = read_replay(replay_file)
    assert replay.steps[:steps] == whole and len(replay.steps) == steps + 5
    assert verify(replay).outcome is Outcome.MATCHED


def test_a_replay_cut_before_what_the_save_carries_is_not_patched(tmp_path: Path) -> None:
    replay_file, _ = played(tmp_path)
    cut(replay_file, SYNC_EVERY - 5)  # more than a power cut can take: records 28-32 are gone for good
    session = games(tmp_path).resume(the_save(tmp_path))
    assert any("not being recorded" in line for line in session.notices.lines())
    session.close()
    assert len(read_replay(replay_file).steps) == SYNC_EVERY - 5


def test_a_game_that_cannot_be_recorded_keeps_carrying_the_records_of_its_save(tmp_path: Path) -> None:
    replay_file, _ = played(tmp_path)
    tail = read_save(the_save(tmp_path)).header["replay_tail"]
    cut(replay_file, SYNC_EVERY - 5, OLD_BLOCKS)  # the records the save carries no longer fit on what is left
    session = games(tmp_path).resume(the_save(tmp_path))
    assert any("not being recorded" in line for line in session.notices.lines())
    bot_steps(session, 3)
    session.close()
    assert read_save(the_save(tmp_path)).header["replay_tail"] == tail  # they may be all that is left of those turns
