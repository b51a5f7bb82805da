"""Edges of the files: read-only folders, lost replays, full disks, power cuts, busy listings."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from replay_helpers import only_replay, record_bot_game
from roguelike.cli.main import main
from roguelike.core.commands import Wait
from roguelike.replay.fileformat import carried_steps, parse_replay, read_replay
from roguelike.replay.recorder import SYNC_EVERY
from roguelike.replay.verify import Outcome, verify
from roguelike.saves import SaveLock, read_save, settle
from roguelike.storage.errors import SaveError
from save_helpers import read_only
from test_replay_saves import bot_steps, damage, games, recorded_game, the_save

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="names open files through /proc")


@pytest.mark.parametrize("keep_lock_file", [True, False])
def test_a_save_in_a_read_only_folder_resumes_and_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keep_lock_file: bool
) -> None:
    recorded_game(tmp_path, commands=10)
    save = the_save(tmp_path)
    before = save.read_bytes()
    if not keep_lock_file:
        save.with_suffix(".lock").unlink()
    read_only(monkeypatch)
    session = games(tmp_path).resume(save)
    session.apply(Wait())
    settle(session)
    notices = session.notices.lines()
    assert any("Cannot save" in line for line in notices)
    session.close()
    monkeypatch.undo()
    assert save.read_bytes() == before


def test_a_game_whose_replay_was_deleted_never_writes_an_unreadable_one(tmp_path: Path) -> None:
    replay = recorded_game(tmp_path, commands=20)
    replay.unlink()
    session = games(tmp_path).resume(the_save(tmp_path))
    bot_steps(session, 10)
    warned = session.notices.lines()
    session.close()
    assert any("not being recorded" in line and "missing" in line for line in warned)
    for path in (tmp_path / "replays").glob("*.replay"):
        assert verify(read_replay(path)).outcome is Outcome.MATCHED


def fd_path(fd: int) -> str:
    """The file an open descriptor names."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""


@contextmanager
def replays_refused(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """While inside, every write to a replay file fails as on a full disk."""
    real_write = os.write

    def full(fd: int, data: Any) -> int:
        if fd_path(fd).endswith(".replay"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    yield
    monkeypatch.setattr(os, "write", real_write)


@linux_only
def test_a_replay_begun_on_a_full_disk_is_written_whole_once_space_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with replays_refused(monkeypatch):
        session = games(tmp_path).new("Ann")
        bot_steps(session, 5)
        assert any("Replay" in line for line in session.notices.lines())
    bot_steps(session, 5)
    assert not any("Replay" in line for line in session.notices.lines())
    session.close()
    replay = read_replay(only_replay(tmp_path))
    assert len(replay.steps) == 10 and verify(replay).outcome is Outcome.MATCHED


@linux_only
def test_a_game_quit_while_the_disk_is_full_leaves_no_empty_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with replays_refused(monkeypatch):
        session = games(tmp_path).new("Ann")
        session.close()
    assert [path.stat().st_size for path in (tmp_path / "replays").glob("*.replay")] in ([], [0]) and not [
        path for path in (tmp_path / "replays").glob("*.replay") if path.stat().st_size == 0
    ]
    resumed = games(tmp_path).resume(the_save(tmp_path))
    bot_steps(resumed, 5)
    resumed.close()
    replay = read_replay(only_replay(tmp_path))
    assert len(replay.steps) == 5 and verify(replay).outcome is Outcome.MATCHED


def test_a_tail_of_zero_bytes_keeps_every_intact_record(tmp_path: Path) -> None:
    path, steps = record_bot_game(tmp_path, seed=5, turns=30)
    data = path.read_bytes()
    path.write_bytes(data + b"\0" * 4096)
    assert len(read_replay(path).steps) == 30
    path.write_bytes(data[:-10] + b"\0" * 4096)  # the last record's end zeroed as well
    replay = read_replay(path)
    assert len(replay.steps) == 29 and replay.torn_at is not None
    assert main(["replay", "--verify", str(path)]) == 0


@linux_only
def test_every_record_is_on_disk_before_the_next_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the replay, synced, or carried by the save, which is on disk before the next key."""
    synced_bytes = [0]
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        if fd_path(fd).endswith(".replay"):
            synced_bytes[0] = os.fstat(fd).st_size

    monkeypatch.setattr(os, "fsync", fsync)
    session = games(tmp_path).new("Ann")
    replay_file = only_replay(tmp_path)
    for done in range(1, SYNC_EVERY + 9):  # past one sync of the replay
        bot_steps(session, 1)  # the save is on disk when this returns
        synced = len(parse_replay(replay_file.read_bytes()[: synced_bytes[0]]).steps)
        carried = carried_steps(read_save(the_save(tmp_path)).header["replay_tail"])
        assert {record.index for record, _ in carried} | set(range(1, synced + 1)) >= set(range(1, done + 1))
    assert synced >= SYNC_EVERY and len(carried) < SYNC_EVERY  # the replay was synced, the save carries the rest
    session.close()


def test_a_rebuild_that_cannot_write_puts_the_damaged_save_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded_game(tmp_path, commands=20)
    save = the_save(tmp_path)
    damaged = damage(save)

    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("roguelike.saves.savefile.write_atomic", full)
    assert main(["replay", "--rebuild", str(save)]) == 1
    assert "no space left" in capsys.readouterr().err.lower()
    assert save.read_bytes() == damaged
    assert not list(save.parent.glob("*.damaged*"))


PROBE = """
import sys
from pathlib import Path
from roguelike.saves import is_locked
save = Path(sys.argv[1])
print("probing", flush=True)
while True:
    is_locked(save)
"""


def test_listing_saves_never_makes_a_resume_fail(tmp_path: Path) -> None:
    recorded_game(tmp_path, commands=3)
    save = the_save(tmp_path)
    prober = subprocess.Popen(
        [sys.executable, "-c", PROBE, str(save)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert prober.stdout is not None and prober.stdout.readline() == b"probing\n"
    try:
        for _ in range(20):
            games(tmp_path).resume(save).close()
        for _ in range(5000):  # what a resume does first, often enough to meet the probe
            SaveLock.acquire(save).release()
    except SaveError as error:
        pytest.fail(f"a listing made a resume fail: {error}")
    finally:
        prober.kill()
        prober.wait()


def test_rebuilding_a_save_outside_a_data_directory_writes_nothing_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded_game(tmp_path / "data", commands=5)
    loose = tmp_path / "loose" / "inbox"
    loose.mkdir(parents=True)
    copy = loose / "mine.save"
    copy.write_bytes(damage(the_save(tmp_path / "data")))
    assert main(["replay", "--rebuild", str(copy)]) == 1
    assert "data directory" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "loose").rglob("*")) == ["inbox", "mine.save"]
