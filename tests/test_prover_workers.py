"""Workers proving replays never outlive the process that started them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARENT = """
import multiprocessing, os, sys, threading, time
from pathlib import Path
from roguelike.scores.workers import prove_all

if __name__ == "__main__":
    replay = Path("replays/death-depression.replay")  # the corpus's longest: still proving when the parent goes
    threading.Thread(target=prove_all, args=([replay],), kwargs={"method": "spawn", "apart": True}, daemon=True).start()
    while not multiprocessing.active_children():
        time.sleep(0.02)
    time.sleep(0.5)
    Path(sys.argv[1]).write_text(" ".join(str(child.pid) for child in multiprocessing.active_children()))
    os._exit(0)  # the parent gone at once, as a server killed while its death screen proves a game
"""


def running(pid: int) -> bool:
    """Whether a process exists and has not exited (a zombie waiting to be reaped has)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def test_a_worker_whose_parent_dies_mid_proof_exits_instead_of_waiting_forever(tmp_path: Path) -> None:
    pids_file = tmp_path / "pids"
    subprocess.run(
        [sys.executable, "-c", PARENT, str(pids_file)],
        cwd=ROOT,
        check=True,
        timeout=120,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    workers = [int(pid) for pid in pids_file.read_text().split()]
    assert workers
    deadline = time.monotonic() + 10
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if running(pid)]
    for pid in left:
        os.kill(pid, 9)
    assert not left, "a prover worker outlived its parent"
