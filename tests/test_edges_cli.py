"""Edges of the command line: names, bad turns, bad folders, nested replays, closed pipes."""

from __future__ import annotations

import errno
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import msgpack
import pytest

from conftest import ROOT
from replay_helpers import record_bot_game
from roguelike.cli.main import main
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.names import NAME_MAX, clean_name
from roguelike.ground.replayframe import MASK32
from roguelike.replay.fileformat import STEP, frame, preamble, read_replay

GOOD_HEADER = {
    "id": "g1",
    "seed": 3,
    "name": "Bot",
    "version": "0.1.0",
    "date": "2026-01-01T00:00:00+00:00",
    "epoch": RULES_EPOCH,
}


@pytest.mark.parametrize("typed", ["a" * 199 + " tail", "x" * 199 + "\u200b y", " " + "b" * 205, "é" * 199 + "  z"])
def test_a_name_cleaned_once_is_clean(typed: str) -> None:
    once = clean_name(typed)
    assert clean_name(once) == once
    assert len(once) <= NAME_MAX and once == once.strip()


def test_a_replay_saved_under_a_long_name_is_one_the_game_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay, _ = record_bot_game(tmp_path / "a", seed=5, turns=10)
    name = "a" * 199 + " tail"
    assert main(["replay", str(replay), "--to-turn", "3", "--save-as", name, "--data-dir", str(tmp_path / "b")]) == 0
    (made,) = (tmp_path / "b" / "replays").glob("*.replay")
    assert read_replay(made).header.name == clean_name(name)


def test_a_negative_turn_is_refused_like_one_past_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay, _ = record_bot_game(tmp_path / "a", seed=5, turns=10)
    status = main(["replay", str(replay), "--to-turn", "-5", "--save-as", "Ann", "--data-dir", str(tmp_path / "b")])
    err = capsys.readouterr().err
    assert status == 1 and "turn -5" in err
    assert not (tmp_path / "b" / "saves").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="names open files through /proc")
def test_save_as_onto_a_full_disk_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    replay, _ = record_bot_game(tmp_path / "a", seed=5, turns=10)
    target = tmp_path / "b"
    (target / "replays").mkdir(parents=True)
    real_write = os.write

    def full(fd: int, data: Any) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(target)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    status = main(["replay", str(replay), "--to-turn", "3", "--save-as", "Ann", "--data-dir", str(target)])
    err = capsys.readouterr().err
    assert status == 1 and len(err.splitlines()) == 1 and "no space left" in err.lower()
    assert not list(target.rglob("*.save")) and not list(target.rglob("*.replay"))


@pytest.mark.parametrize("code", [errno.EROFS, errno.ENOSPC])
def test_save_as_into_a_folder_that_refuses_is_one_line_and_exit_1(
    tmp_path: Path, code: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    replay, _ = record_bot_game(tmp_path / "a", seed=5, turns=10)
    target = tmp_path / "b"
    real_mkdir = Path.mkdir

    def refusing(self: Path, *args: Any, **kwargs: Any) -> None:
        if str(self).startswith(str(target)):
            raise OSError(code, os.strerror(code), str(self))
        real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", refusing)
    status = main(["replay", str(replay), "--to-turn", "3", "--save-as", "Ann", "--data-dir", str(target)])
    err = capsys.readouterr().err
    assert status == 1
    assert len(err.splitlines()) == 1 and os.strerror(code).lower() in err.lower()


def test_a_deeply_nested_changes_table_is_a_bad_file_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # msgpack itself refuses to pack this deep, so the bytes are put together by hand.
    nested = b"\x91" * 1000 + b"\x00"
    payload = bytes([0x96, STEP, 1, 0x91, 0, 1, 0xC4, 8]) + b"\0" * 8 + b"\x81" + msgpack.packb("depth") + nested
    framing = struct.pack(">III", len(payload), len(payload) ^ MASK32, zlib.crc32(payload))
    path = tmp_path / "deep.replay"
    path.write_bytes(preamble() + frame(GOOD_HEADER) + framing + payload)
    status = main(["replay", "--verify", str(path)])
    err = capsys.readouterr().err
    assert status == 2 and "record 1" in err and len(err.splitlines()) == 1


def test_a_closed_output_pipe_ends_quietly(tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "roguelike",
        "simulate",
        "--seed",
        "5",
        "--turns",
        "300",
        "--data-dir",
        str(tmp_path),
    ]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # what `| head -1` does
    err = process.stderr.read().decode()
    status = process.wait(timeout=120)
    assert "Traceback" not in err and "crash" not in err.lower()
    assert status != 70
    assert not (tmp_path / "crashes").exists()


@pytest.mark.parametrize("where", ["closed", "full"])
def test_a_closed_or_full_output_is_one_line_and_exit_one_not_a_bug(tmp_path: Path, where: str) -> None:
    command = [
        sys.executable,
        "-m",
        "roguelike",
        "simulate",
        "--seed",
        "5",
        "--turns",
        "30",
        "--name",
        "Out",
        "--data-dir",
        str(tmp_path),
    ]
    with open(os.devnull if where == "closed" else "/dev/full", "w") as full:
        process = subprocess.run(
            command,
            cwd=ROOT,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            close_fds=True,
            preexec_fn=(lambda: os.close(1)) if where == "closed" else None,
        )
    said = {"closed": "standard output is closed", "full": "no space left on device"}[where]
    assert process.returncode == 1
    assert process.stderr.splitlines() == [f"hedonic: cannot write the output: {said}."]
    assert not (tmp_path / "crashes").exists()


def test_simulate_of_a_character_whose_save_is_damaged_says_so_and_starts_no_second_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_replay_saves import damage

    game = ["simulate", "--seed", "3", "--turns", "20", "--name", "Xan", "--data-dir", str(tmp_path)]
    assert main(game) == 0
    (save,) = (tmp_path / "saves").glob("*.save")
    damaged = damage(save)
    capsys.readouterr()
    assert main(game) == 1
    err = capsys.readouterr().err
    assert "Xan's save is damaged" in err and f"hedonic replay --rebuild {save}" in err
    assert list((tmp_path / "saves").glob("*.save")) == [save] and save.read_bytes() == damaged


def test_a_screenshot_without_a_seed_or_into_a_missing_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    assert main(["screenshot", "--out", str(tmp_path / "x.png"), *data]) == 2
    assert capsys.readouterr().err == "hedonic screenshot: --seed is required\n"
    missing = tmp_path / "no such folder" / "x.png"
    assert main(["screenshot", "--seed", "3", "--out", str(missing), *data]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and str(missing) in err
    assert not (tmp_path / "data" / "crashes").exists()  # neither is a crash of the game


def test_the_seed_given_before_the_sub_command_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data-dir", str(tmp_path)]
    assert main(["--seed", "5", "simulate", "--turns", "3", *data]) == 0  # `hedonic --help` lists --seed first
    assert main(["--seed", "3", "screenshot", "--out", str(tmp_path / "x.png"), *data]) == 0
    assert main(["simulate", "--turns", "3", *data]) == 2 and "--seed is required" in capsys.readouterr().err
