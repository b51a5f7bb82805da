"""A killed game's scratch folder, and a killed server's multiprocessing folder, are swept; a held one never is.

A hosted game's process plays in a scratch folder it holds (an exclusive lock on it) for its life; a process
killed with SIGKILL cannot remove it, so whoever starts games sweeps every folder whose lock is free
(``roguelike.server.leftovers``). The same goes for the folder of the fork server's socket, which a server
marks as its own. These tests kill real processes, and check that only the dead ones' folders go.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from roguelike.core.epoch import RULES_EPOCH
from roguelike.server import leftovers
from roguelike.server.hosted.gameproc import run_game
from roguelike.server.hosted.host import PlayOptions, game_context

REPOSITORY = Path(__file__).resolve().parent.parent
HOLDER = """
import sys
from pathlib import Path
from roguelike.server.leftovers import held_folder
path, fd = held_folder(Path(sys.argv[1]), "game-")
(path / "snapshot.save").write_bytes(bytes(28_000))
print(path, flush=True)
sys.stdin.read()  # holds the folder until its input closes (or it is killed)
"""
MP_HOLDER = """
import sys
from roguelike.server.leftovers import hold_mp_temp
print(hold_mp_temp(), flush=True)
sys.stdin.read()
"""


def started(script: str, *args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], Path]:
    """A Python process running ``script``, and the folder it printed."""
    process = subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY), **(env or {})},
    )
    assert process.stdout is not None
    return process, Path(process.stdout.readline().strip())


def killed(process: subprocess.Popen[str]) -> None:
    """Kill the process with SIGKILL and wait for it."""
    process.send_signal(signal.SIGKILL)
    assert process.wait(30) == -signal.SIGKILL


def ended(process: subprocess.Popen[str]) -> None:
    """Let the process end by itself (its input closed) and wait for it."""
    assert process.stdin is not None
    process.stdin.close()
    assert process.wait(30) == 0


def test_the_folder_of_a_holder_killed_with_sigkill_is_swept_and_a_held_one_kept(tmp_path: Path) -> None:
    dead, dead_folder = started(HOLDER, str(tmp_path))
    alive, alive_folder = started(HOLDER, str(tmp_path))
    try:
        killed(dead)
        assert (dead_folder / "snapshot.save").exists()  # a killed process removes nothing: the leak swept here
        assert leftovers.sweep_scratch(tmp_path) == 1
        assert not dead_folder.exists()
        assert (alive_folder / "snapshot.save").read_bytes() == bytes(28_000)  # held: untouched
        assert leftovers.sweep_scratch(tmp_path) == 0
    finally:
        ended(alive)
    assert leftovers.sweep_scratch(tmp_path) == 1  # its holder gone, nobody holds the lock
    assert list(tmp_path.iterdir()) == []


def test_a_folder_no_process_holds_is_swept_but_links_and_files_beside_it_are_not(tmp_path: Path) -> None:
    parent, elsewhere = tmp_path / "parent", tmp_path / "elsewhere"
    parent.mkdir()
    elsewhere.mkdir()
    (elsewhere / "keep").write_text("mine")
    orphan = parent / "game-1-abc"
    orphan.mkdir()
    (orphan / "snapshot.save").write_bytes(b"save")
    (parent / "link").symlink_to(elsewhere)
    (parent / "file").write_text("not a folder")
    path, fd = leftovers.held_folder(parent, "game-2-")  # held by this very process: another descriptor is refused
    try:
        assert leftovers.sweep_scratch(parent) == 1
        assert not orphan.exists() and path.is_dir()
        assert (elsewhere / "keep").read_text() == "mine" and (parent / "link").is_symlink()
        assert (parent / "file").exists()
    finally:
        os.close(fd)
    assert leftovers.sweep_scratch(parent) == 1 and not path.exists()


def test_a_killed_game_process_sweeps_only_its_own_number_and_never_a_held_folder_of_that_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the scratch parent is made here
    parent = leftovers.scratch_parent()
    dead, other = parent / "game-123-dead", parent / "game-1234-other"  # 1234 is not 123
    dead.mkdir()
    other.mkdir()
    reused, fd = leftovers.held_folder(parent, leftovers.game_prefix(123))  # a later process given number 123
    try:
        assert leftovers.sweep_game(123) == 1
        assert not dead.exists() and other.is_dir() and reused.is_dir()
    finally:
        os.close(fd)


def test_the_scratch_parent_is_refused_when_it_is_a_link(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / f"hedonic-hosted.{os.getuid()}").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(PermissionError, match="not a folder of this user's"):
        leftovers.scratch_parent(str(tmp_path))
    made = leftovers.scratch_parent(str(tmp_path / "elsewhere"))
    assert made.is_dir() and made.stat().st_mode & 0o777 == 0o700


def test_a_killed_servers_multiprocessing_folder_is_swept_and_no_other_is(tmp_path: Path) -> None:
    others = tmp_path / "pymp-another-program"  # no mark: another program's, whatever its state
    others.mkdir()
    dead, dead_folder = started(MP_HOLDER, env={"TMPDIR": str(tmp_path)})
    alive, alive_folder = started(MP_HOLDER, env={"TMPDIR": str(tmp_path)})
    try:
        assert dead_folder.parent == tmp_path and dead_folder.name.startswith("pymp-")
        killed(dead)
        assert (dead_folder / leftovers.MARK).exists()
        assert leftovers.sweep_mp_temps(str(tmp_path)) == 1
        assert not dead_folder.exists() and alive_folder.is_dir() and others.is_dir()
    finally:
        ended(alive)
    assert not alive_folder.exists()  # a server that ends removes its own, as multiprocessing always did
    assert leftovers.sweep_mp_temps(str(tmp_path)) == 0 and others.is_dir()


def game_folder(pid: int) -> Path:
    """The scratch folder of the game process ``pid``, once it has made it."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = list(leftovers.scratch_parent().glob(f"{leftovers.game_prefix(pid)}*"))
        if found:
            (folder,) = found
            return folder
        time.sleep(0.02)
    raise AssertionError(f"the game process {pid} made no scratch folder")


@pytest.fixture
def game_processes() -> Iterator[list[tuple[Any, socket.socket]]]:
    """Two hosted game processes forked as the host forks them, waiting for their plan; ended after."""
    made: list[tuple[Any, socket.socket]] = []
    for _ in range(2):
        ours, theirs = socket.socketpair()
        process = game_context().Process(target=run_game, args=(theirs, PlayOptions(RULES_EPOCH).limits()), daemon=True)
        process.start()
        theirs.close()
        made.append((process, ours))
    yield made
    for process, ours in made:
        ours.close()
        process.join(30)


@pytest.mark.long(15)
def test_a_game_process_killed_with_sigkill_leaves_its_folder_to_the_sweep_and_a_live_game_keeps_its_own(
    game_processes: list[tuple[Any, socket.socket]],
) -> None:
    (dead, _), (alive, alive_socket) = game_processes
    dead_folder, alive_folder = game_folder(dead.pid), game_folder(alive.pid)
    os.kill(dead.pid, signal.SIGKILL)
    dead.join(30)
    # The parent is the machine's, shared with the other xdist workers, whose servers sweep it as they start:
    # the killed game's folder may be gone before this sweep, so what is checked is the outcome, not a count.
    # (That a holder killed outright leaves its folder is shown in a parent of the test's own, above.)
    leftovers.sweep_scratch()
    assert not dead_folder.exists() and alive_folder.is_dir()
    alive_socket.close()  # the host closes the game: it ends by itself and removes its own folder
    alive.join(30)
    assert alive.exitcode == 0 and not alive_folder.exists()
