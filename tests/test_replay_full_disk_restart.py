"""Restarting while the disk is still full loses no replay record: the saves keep carrying them."""

from __future__ import annotations

from pathlib import Path

import pytest

from roguelike.replay.fileformat import read_replay
from roguelike.replay.verify import Outcome, verify
from roguelike.saves import read_save
from test_edges_files import linux_only, replays_refused
from test_replay_saves import bot_steps, games, the_save


def resumed_for(root: Path, commands: int) -> list[str]:
    """Resume the one save, let the bot give ``commands`` commands, quit; the notices shown."""
    session = games(root).resume(the_save(root))
    bot_steps(session, commands)
    notices = session.notices.lines()
    session.close()
    return notices


@linux_only
def test_restarts_on_a_full_disk_keep_every_record_until_space_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = games(tmp_path).new("Ann")
    bot_steps(session, 40)  # the replay is synced at record 32; the saves carry the rest
    with replays_refused(monkeypatch):
        bot_steps(session, 10)
        session.close()
        for _ in range(2):  # restarted twice while the disk is still full
            notices = resumed_for(tmp_path, 5)
            assert not any("not being recorded" in line for line in notices), notices
            assert any("trying again every turn" in line for line in notices)
        assert read_save(the_save(tmp_path)).header["steps"] == 60
        assert len(read_replay(tmp_path / "replays" / f"{the_save(tmp_path).stem}.replay").steps) == 40
    notices = resumed_for(tmp_path, 5)  # space returns
    assert not notices
    replay = read_replay(tmp_path / "replays" / f"{the_save(tmp_path).stem}.replay")
    assert len(replay.steps) == 65 and verify(replay).outcome is Outcome.MATCHED
