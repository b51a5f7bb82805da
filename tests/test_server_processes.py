"""The score server as a process: killed with runs pending it loses none and decides none twice; it never loads the game."""

from __future__ import annotations

import subprocess
import sys
import time

from sqlalchemy import func, select

from conftest import ROOT
from roguelike.server import store
from server_helpers import CORPUS, ServerProcess, database, distinct_files, post, postgres, wait_http  # noqa: F401


def test_killed_with_runs_pending_the_server_verifies_them_on_restart_none_lost_none_twice(database: str) -> None:
    files = distinct_files(4)
    server = ServerProcess("--db", database, "--port", "0", "--verifiers", "1")
    try:
        digests = [post(server.base, data)["hash"] for data in files]
        verifiers = server.children()
    finally:
        server.kill()
    engine = store.open_engine(database)
    with engine.connect() as connection:
        assert len(store.pending(connection)) >= len(files) - 1  # one verifier: the first file took it past the kill
    time.sleep(1)
    assert verifiers and not [pid for pid in verifiers if running(pid)]  # they died with it
    again = ServerProcess("--db", database, "--port", "0", "--verifiers", "2")
    try:
        runs = wait_http(again.base, digests, 180)
    finally:
        again.stop()
    assert [runs[digest]["status"] for digest in digests] == ["verified"] * len(files)
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(store.runs)).scalar() == len(files)
        assert connection.execute(select(func.count()).select_from(store.replays)).scalar() == len(files)
    engine.dispose()


def test_ctrl_c_ends_the_verifications_under_way_and_leaves_their_runs_pending(database: str) -> None:
    spinner = f"{sys.executable} -c 'while True: pass'"
    server = ServerProcess("--db", database, "--port", "0", "--verifier", spinner)
    digest = post(server.base, CORPUS[0].read_bytes())["hash"]
    time.sleep(0.5)
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 10 and server.process.returncode is not None
    engine = store.open_engine(database)
    with engine.connect() as connection:
        run = store.run_of(connection, digest)
        assert run is not None and store.pending(connection) == [(digest, run.epoch)]
    engine.dispose()


def running(pid: int) -> bool:
    """Whether a process still runs (a zombie no one has reaped yet does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_the_server_process_never_loads_the_game() -> None:
    probe = (
        "import sys\nfrom roguelike.cli.main import keep_own_runtime\nkeep_own_runtime()\n"
        "import roguelike.cli.serve, roguelike.server.serving, roguelike.server.local, roguelike.server.queue\n"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    game = [
        name
        for name in loaded.split()
        if name.split(".")[0] in ("components", "systems", "tcod", "numpy", "esper")
        or name.startswith(("roguelike.replay", "roguelike.scores", "roguelike.bots", "roguelike.saves.games"))
        or (name.startswith("roguelike.core.") and name not in ("roguelike.core.epoch", "roguelike.core.names"))
    ]
    assert "roguelike.server.app" in loaded.split() and "roguelike.server.job" not in loaded.split() and game == []


def test_a_worker_without_a_queue_is_refused_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "roguelike", "serve", "worker"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stderr.strip() == "hedonic serve worker: give the queue: --queue redis://..."


def test_a_queue_that_does_not_answer_is_said_in_one_line_before_serving(tmp_path: object) -> None:
    missing = f"unix://{tmp_path}/no-redis.sock"
    for args in (["--queue", missing, "--db", f"sqlite:///{tmp_path}/runs.sqlite"], ["worker", "--queue", missing]):
        done = subprocess.run(
            [sys.executable, "-m", "roguelike", "serve", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 1 and done.stderr.count("\n") == 1 and "cannot reach the queue" in done.stderr
