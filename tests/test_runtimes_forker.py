"""Runtime children forked from one import of their libraries (``shared_imports``): each run is
still a process of its own running the runtime's code from its sources, seeing what a fresh
child sees and ending as it would; at the time limit the forker's whole group dies; a forker
that is gone is replaced.

The runtimes are the small stand-in games of ``test_runtimes_guard``: no real game starts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from roguelike.runtimes.dispatch import BOOT, Options, child_environment, run_in_runtime
from roguelike.runtimes.forker import SHARING, run_forked, shared_imports
from roguelike.runtimes.sources import add_source
from roguelike.runtimes.store import damage
from test_runtimes_guard import HONEST_MAIN, SLEEPER_MAIN, offline_cache, plant_pyc, processes_naming, stand_in

__all__ = ["offline_cache"]  # its autouse fixture: a cache of each test's own, no package index

SEEING_MAIN = """\
def main(argv):
    import os, sys
    print("numpy imported before the game:", "numpy" in sys.modules)
    print("parent", os.getppid())
    print("argv", argv, "cwd", os.getcwd(), "first on the path", sys.path[0])
    if "fail" in argv:
        raise ValueError("the game failed")
    return int(argv[-1]) if argv[-1].isdigit() else 0
"""


def lines(done: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """A stand-in's report: each line's first words (up to a space before a value) and the rest."""
    return {line.rsplit(" ", 1)[0]: line.rsplit(" ", 1)[1] for line in done.stdout.splitlines() if " " in line}


def test_runs_inside_the_block_fork_from_one_forker_that_imported_the_libraries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game", main=SEEING_MAIN)))
    monkeypatch.chdir(tmp_path)
    fresh = run_in_runtime(runtime, ["replay"], Options(), print, capture=True)
    with shared_imports():
        first = run_in_runtime(runtime, ["replay"], Options(), print, capture=True)
        second = run_in_runtime(runtime, ["replay", "7"], Options(), print, capture=True)
    assert lines(fresh)["numpy imported before the game:"] == "False"
    assert lines(fresh)["parent"] == str(os.getpid())
    assert lines(first)["numpy imported before the game:"] == "True", first.stdout + first.stderr
    assert lines(first)["parent"] == lines(second)["parent"] != str(os.getpid()), "one forker, not this process"
    assert lines(first)["argv ['replay'] cwd " + str(tmp_path) + " first on the path"] == str(runtime.code)
    assert (first.returncode, second.returncode) == (0, 7)
    assert SHARING.get() is None, "the block's forkers end with it"


def test_a_forked_child_sees_what_a_fresh_child_sees_and_fails_as_it_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "path").mkdir()
    (tmp_path / "path/planted.py").write_text("print('planted on PYTHONPATH')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "path"))
    honest = add_source(str(stand_in(tmp_path / "game", main=HONEST_MAIN)))
    seeing = add_source(str(stand_in(tmp_path / "other", main=SEEING_MAIN, version="0.0.2")))
    with shared_imports():
        done = run_in_runtime(honest, ["replay"], Options(), print, capture=True)
        failed = run_in_runtime(seeing, ["fail"], Options(), print, capture=True)
    assert done.stdout.splitlines() == ["nothing planted", "flags 1 1 1"], done.stdout + done.stderr
    assert damage(honest) == [] and damage(seeing) == [], "running a runtime wrote into it"
    assert failed.returncode == 1 and failed.stderr.rstrip().endswith("ValueError: the game failed"), failed.stderr


@pytest.mark.parametrize("sourceless", [False, True])
def test_bytecode_planted_after_the_check_never_loads_in_a_fork(tmp_path: Path, sourceless: bool) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game")))
    if sourceless:
        (runtime.code / "roguelike/cli/main.py").unlink()  # a module that is only bytecode
    plant_pyc(runtime.code / "roguelike/cli", "main.py", sourceless)
    with shared_imports():
        done = run_forked(Path(sys.executable), child_environment(), BOOT, runtime.code, ["replay"])
    assert done is not None, "the run was not forked"
    assert "planted bytecode ran" not in done.stdout, done.stdout
    assert done.returncode != 0 if sourceless else done.stdout.startswith("nothing planted"), done.stdout + done.stderr


def test_a_forker_gone_between_runs_is_replaced(tmp_path: Path) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game", main=SEEING_MAIN)))
    with shared_imports():
        first = run_in_runtime(runtime, ["replay"], Options(), print, capture=True)
        subprocess.run(["kill", "-9", lines(first)["parent"]], check=True)
        again = run_in_runtime(runtime, ["replay"], Options(), print, capture=True)
    assert again.returncode == 0 and lines(again)["parent"] != lines(first)["parent"], again.stdout + again.stderr


WORK_HORSE = """\
import signal, sys
from pathlib import Path
from roguelike.runtimes.dispatch import Options, run_in_runtime
from roguelike.runtimes.forker import shared_imports
from roguelike.runtimes.store import read_runtime
runtime = read_runtime(Path(sys.argv[1]))
with shared_imports():
    signal.setitimer(signal.ITIMER_REAL, float(sys.argv[2]))  # a score server's work-horse: SIGALRM kills it
    run_in_runtime(runtime, ["replay"], Options(), print, capture=True)
print("the runtime came back")
"""


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the process table from /proc")
def test_a_forked_child_its_forker_and_all_it_started_die_at_the_time_limit(tmp_path: Path) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game", main=SLEEPER_MAIN)))
    token = f"HEDONIC_TEST_TOKEN={uuid.uuid4().hex}"
    name, _, value = token.partition("=")
    try:
        horse = subprocess.run(
            [sys.executable, "-c", WORK_HORSE, str(runtime.path), "12"],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, name: value},
        )
        assert (runtime.path.parent / "started").is_file(), "the runtime's child never started: " + horse.stderr
        assert "the runtime came back" not in horse.stdout
        assert "over its time limit" in horse.stderr or horse.returncode == -signal.SIGALRM, horse.stderr
        left = processes_naming(token, "environ")
        for _ in range(100):  # a killed grandchild is reaped by init, not by us
            if not left:
                break
            time.sleep(0.1)
            left = processes_naming(token, "environ")
        assert left == [], "the forker, its fork or what it started outlived the time limit"
    finally:
        for pid in processes_naming(token, "environ"):
            os.kill(pid, 9)
