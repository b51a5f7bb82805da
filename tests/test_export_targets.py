"""``export --out`` and ``replay --film`` write only new or regular files (issue 47: R10).

A rename replaces whatever is at the name: a FIFO or a symbolic link (or, as root, a device
node such as ``/dev/full``) would be swapped for a regular file. The commands refuse such a
target with a line naming it, and leave it exactly as it was.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from replay_helpers import record_bot_game
from roguelike.cli.main import main

WRITERS = {
    "export": lambda replay, out, data: ["export", str(replay), "--out", str(out), "--data-dir", str(data)],
    "film": lambda replay, out, data: ["replay", str(replay), "--film", str(out)],
}


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short bot game's replay."""
    path, _ = record_bot_game(tmp_path_factory.mktemp("targets"), seed=5, turns=20)
    return path


def fifo(folder: Path) -> Path:
    """A FIFO in the folder."""
    path = folder / "target"
    os.mkfifo(path)
    return path


def symlink(folder: Path) -> Path:
    """A symbolic link to a file of someone else's."""
    (folder / "theirs.txt").write_text("someone else's file\n")
    path = folder / "target"
    path.symlink_to(folder / "theirs.txt")
    return path


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize("planted", [fifo, symlink], ids=["fifo", "symlink"])
def test_a_target_that_is_not_a_regular_file_is_refused_and_left_as_it_is(
    replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], writer: str, planted: Callable[[Path], Path]
) -> None:
    target = planted(tmp_path)
    before = os.lstat(target)
    assert main(WRITERS[writer](replay, target, replay.parent.parent)) == 2
    after = os.lstat(target)
    assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode), before.st_ino)
    assert f"cannot write {target}: it is a" in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        ["target", *(["theirs.txt"] if planted is symlink else [])]
    )  # no temp file beside it
    if planted is symlink:
        assert (tmp_path / "theirs.txt").read_text() == "someone else's file\n"


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_regular_file_at_the_target_is_still_replaced(replay: Path, tmp_path: Path, writer: str) -> None:
    target = tmp_path / "target"
    target.write_bytes(b"an older export")
    assert main(WRITERS[writer](replay, target, replay.parent.parent)) == 0
    assert target.is_file() and not target.is_symlink() and target.read_bytes() != b"an older export"
