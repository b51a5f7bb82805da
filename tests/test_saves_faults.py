"""Faults: a full or read-only disk, failing syscalls, two games on one save, killed processes."""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from roguelike.core.commands import Wait
from roguelike.core.notices import Notices
from roguelike.replay.recorder import recording_observers
from roguelike.saves import FORMAT_VERSION, Games, list_saves, load_save, read_history, read_save, settle
from roguelike.storage.atomic import temp_path, write_atomic
from roguelike.storage.errors import SaveError
from save_helpers import SEED, about_to_die, played, read_only, saved

HEDONIC = [sys.executable, "-m", "roguelike"]


def failing(error: int, real: Any) -> Any:
    """A stand-in for an os function that fails like the disk would."""

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise OSError(error, os.strerror(error))

    return fail


@pytest.mark.parametrize(
    ("function", "error", "words"),
    [
        ("pwrite", errno.ENOSPC, "no space left on device"),
        ("fdatasync", errno.EIO, "input/output error"),
    ],
)
def test_a_failing_write_in_place_keeps_the_last_good_save_and_the_game_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, function: str, error: int, words: str
) -> None:
    session, step = played(tmp_path, turns=10)
    (path,) = (tmp_path / "saves").glob("*.save")
    monkeypatch.setattr(os, function, failing(error, getattr(os, function)))
    for _ in range(3):
        session.apply(Wait())
    settle(session)
    monkeypatch.undo()
    assert read_save(path).checksum == step.checksum  # a slot whose write failed is never read back
    assert session.game.state.turn > step.turn  # the game went on
    (notice,) = session.notices.lines()
    assert words in notice.lower() and f"turn {step.turn}" in notice
    assert sorted(p.name for p in path.parent.iterdir()) == sorted([path.name, path.with_suffix(".lock").name])
    latest = session.apply(Wait())
    settle(session)
    assert read_save(path).checksum == latest.checksum
    assert session.notices.lines() == []
    session.close()


def old_save(root: Path) -> Path:
    """A format 5 save (one envelope, no slots) in a data directory: its first autosave rewrites it whole."""
    path = root / "saves" / "20260101-000000-0ld5a7e0.save"
    path.parent.mkdir(parents=True)
    path.write_bytes((Path(__file__).resolve().parent.parent / "saves" / "v5.save").read_bytes())
    return path


@pytest.mark.parametrize(
    ("function", "error", "words"),
    [
        ("write", errno.ENOSPC, "no space left on device"),
        ("fsync", errno.EIO, "input/output error"),
        ("replace", errno.EXDEV, "cross-device link"),
    ],
)
def test_a_failing_whole_file_write_keeps_the_old_save_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, function: str, error: int, words: str
) -> None:
    path = old_save(tmp_path)
    good = path.read_bytes()
    session = Games(tmp_path).resume(path)
    monkeypatch.setattr(os, function, failing(error, getattr(os, function)))
    for _ in range(3):
        session.apply(Wait())
    settle(session)
    monkeypatch.undo()
    assert path.read_bytes() == good
    (notice,) = session.notices.lines()
    assert words in notice.lower() and "turn 100" in notice
    assert sorted(p.name for p in path.parent.iterdir()) == sorted([path.name, path.with_suffix(".lock").name])
    latest = session.apply(Wait())
    settle(session)
    save = read_save(path)
    assert save.checksum == latest.checksum and save.version == FORMAT_VERSION
    assert session.notices.lines() == []
    session.close()


def test_a_read_only_data_directory_warns_and_the_game_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, step = played(tmp_path, turns=5)
    (path,) = (tmp_path / "saves").glob("*.save")
    read_only(monkeypatch)
    session.apply(Wait())
    settle(session)
    assert "read-only file system" in session.notices.lines()[0].lower()
    session.close()  # quitting tries once more, and still keeps the old save
    monkeypatch.undo()
    assert read_save(path).checksum == step.checksum


def test_a_new_game_in_a_folder_that_cannot_be_written_still_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    session = Games(blocked, seed=SEED).new("Ann")
    session.apply(Wait())
    settle(session)
    assert session.game.state.turn >= 1
    assert any("Cannot save" in line for line in session.notices.lines())
    session.close()


def test_disk_troubles_are_told_in_words_naming_the_file_never_as_raw_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unsaved = Games(tmp_path / "new", seed=SEED).new("Ann")
    unsaved.close()
    notices = Notices()
    (tmp_path / "replays").write_text("a file where the folder goes")
    assert recording_observers(tmp_path, unsaved.game, notices=notices) == []
    assert notices.lines() == [f"Replay: this game is not being recorded: {tmp_path / 'replays'}: file exists"]
    session, _ = played(tmp_path / "dies")
    (save,) = (tmp_path / "dies" / "saves").glob("*.save")
    about_to_die(session)
    monkeypatch.setattr(os, "unlink", failing(errno.EROFS, os.unlink))
    session.apply(Wait())
    settle(session)
    assert (
        session.notices.lines()[-1]
        == f"Cannot record this death yet ({save}: read-only file system); the save is kept."
    )


def test_when_the_file_size_limit_hits_a_headless_game_finishes_and_keeps_its_save(tmp_path: Path) -> None:
    run(["simulate", "--name", "Ann", "--seed", str(SEED), "--turns", "20"], tmp_path)
    (path,) = (tmp_path / "saves").glob("*.save")
    good = read_save(path).checksum

    def tiny_files() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    result = run(["simulate", "--name", "Ann", "--seed", str(SEED), "--turns", "40"], tmp_path, preexec_fn=tiny_files)
    assert result.returncode == 0
    assert "turns: 40" in result.stdout
    assert "Cannot save: file too large" in result.stderr
    assert read_save(path).checksum == good


def test_a_second_game_cannot_open_a_save_already_open(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=3)
    (path,) = (tmp_path / "saves").glob("*.save")
    with pytest.raises(SaveError, match="already open in another running game"):
        Games(tmp_path).resume(path)
    session.close()
    again = Games(tmp_path).resume(path)
    again.close()


def test_a_lock_held_by_another_process_blocks_until_that_process_dies(tmp_path: Path) -> None:
    path = saved(tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from roguelike.saves import SaveLock;"
            "SaveLock.acquire(Path(sys.argv[1])); print('locked', flush=True); time.sleep(60)",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        assert list_saves(tmp_path)[0].open_elsewhere
        with pytest.raises(SaveError, match="already open"):
            Games(tmp_path).resume(path)
    finally:
        holder.kill()
        holder.wait()
    assert not list_saves(tmp_path)[0].open_elsewhere
    Games(tmp_path).resume(path).close()


def test_a_leftover_temp_file_from_a_crash_is_ignored_then_swept(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=3)
    (path,) = (tmp_path / "saves").glob("*.save")
    temp = path.with_name(path.name + ".tmp")
    temp.write_bytes(b"half a save")
    assert [info.path for info in list_saves(tmp_path)] == [path]
    step = session.apply(Wait())
    settle(session)
    assert read_save(path).checksum == step.checksum
    session.close()
    Games(tmp_path).saves()
    assert not temp.exists() and read_save(path).checksum == step.checksum


def test_a_leftover_temp_symlink_is_never_written_through(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b"old")
    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"not the game's")
    temp_path(path).symlink_to(precious)
    write_atomic(path, b"new")
    assert precious.read_bytes() == b"not the game's"
    assert not path.is_symlink() and path.read_bytes() == b"new"
    assert not temp_path(path).exists()
    temp_path(path).write_bytes(b"a crash's half file")  # a plain leftover is replaced, too
    write_atomic(path, b"newer")
    assert path.read_bytes() == b"newer"


def run(arguments: list[str], data_dir: Path, **popen: Any) -> subprocess.CompletedProcess[str]:
    """Run ``hedonic`` with a data directory."""
    return subprocess.run(
        HEDONIC + arguments + ["--data-dir", str(data_dir)], capture_output=True, text=True, timeout=120, **popen
    )


def summary(output: str) -> dict[str, str]:
    """The ``key: value`` lines of ``hedonic simulate`` about the game itself.

    The ``attributes:`` line is left out: it tells what one run of simulate watched, and a
    resumed run watches only from where it resumed.
    """
    lines = dict(line.split(": ", 1) for line in output.splitlines() if ": " in line)
    lines.pop("attributes", None)
    return lines


# The careful bot lives through 2,400 turns on this seed, so the game is still being
# played after a dozen kills even though a saved turn now takes about a millisecond
# (with the 600 turns of seed 53, four kills late in start-up could let it finish first).
KILLED_SEED = 4
KILLED_GAME = ["simulate", "--name", "K", "--seed", str(KILLED_SEED), "--bot", "careful"]


def reference_turns(data_dir: Path) -> tuple[int, dict[str, str]]:
    """A turn count at which the bot is still alive, and the uninterrupted game's summary."""
    turns = 2400
    result = summary(run(KILLED_GAME + ["--turns", str(turns)], data_dir / "a").stdout)
    if result["cause"] != "alive":  # the bot died: the game to that point is a prefix, alive at half of it
        turns = int(result["turns"]) // 2
        result = summary(run(KILLED_GAME + ["--turns", str(turns)], data_dir / "b").stdout)
    assert result["cause"] == "alive"
    return turns, result


def wait_for_progress(process: subprocess.Popen[str], folder: Path, since: int) -> bool:
    """Wait until the game writes its save again (or ends); True if it is still running."""
    while process.poll() is None:
        stamps = [p.stat().st_mtime_ns for p in folder.glob("*.save")] if folder.is_dir() else []
        if stamps and max(stamps) != since:
            return True
        time.sleep(0.001)
    return False


@pytest.mark.slow
def test_a_game_killed_at_random_instants_always_resumes_and_never_goes_back(tmp_path: Path) -> None:
    turns, expected = reference_turns(tmp_path / "reference")
    data, chance = tmp_path / "killed", random.Random(20261125)
    folder, last_turn, kills = data / "saves", -1, 0
    command = HEDONIC + KILLED_GAME + ["--turns", str(turns), "--data-dir", str(data)]
    while kills < 12:
        stamps = [p.stat().st_mtime_ns for p in folder.glob("*.save")] if folder.is_dir() else [0]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if kills % 3:  # kill while playing: once the game has saved again, within a few turns
            started = wait_for_progress(process, folder, max(stamps))
            time.sleep(chance.uniform(0, 0.03))
        else:  # kill anywhere from starting up and loading to the first turns
            started = True
            time.sleep(chance.uniform(0, 0.6))
        if process.poll() is not None:
            break
        process.send_signal(signal.SIGKILL)
        process.communicate()
        kills += 1
        saves = list(folder.glob("*.save"))
        if not saves:  # killed before the first save of the game was written
            assert last_turn == -1, "the save disappeared"
            continue
        (save,) = saves
        turn = load_save(save).state.turn
        assert turn >= last_turn, f"the save went back from turn {last_turn} to {turn}"
        last_turn = turn
        assert started
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert summary(finished.stdout) == expected
    assert read_history(data).records == []
    assert kills >= 6


def test_what_a_crashed_game_left_behind_is_swept_but_never_a_save(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=2)
    (path,) = (tmp_path / "saves").glob("*.save")
    running_temp = path.with_name(path.name + ".tmp")
    running_temp.write_bytes(b"being written")
    orphan_temp = tmp_path / "saves" / "20260101-000000-dead.save.tmp"
    orphan_temp.write_bytes(b"half")
    orphan_lock = tmp_path / "saves" / "20260101-000000-dead.lock"
    orphan_lock.write_bytes(b"")
    Games(tmp_path).saves()
    assert running_temp.exists()  # its game is still running
    assert not orphan_temp.exists() and not orphan_lock.exists()
    session.close()
    Games(tmp_path).saves()
    assert not running_temp.exists()
    assert path.exists() and path.with_suffix(".lock").exists()
