"""Start-up: commands that only print or list load no tcod or numpy (the slow imports), and
numpy, once loaded, starts no idle BLAS threads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from save_helpers import saved

REPOSITORY = Path(__file__).resolve().parent.parent
HEAVY = ("tcod", "numpy")
# Runs the real command in a fresh interpreter, then reports its output and what it loaded.
PROBE = """
import contextlib, io, json, sys
from roguelike.cli.main import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exit:
        code = exit.code
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def run_probe(*args: str) -> dict[str, object]:
    """The exit code, output and loaded modules of ``hedonic ARGS`` in a new interpreter."""
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def heavy_in(modules: object) -> list[str]:
    """The heavy libraries among loaded module names."""
    assert isinstance(modules, list)
    return sorted({name.split(".")[0] for name in modules} & set(HEAVY))


@pytest.mark.parametrize("args", [("--version",), ("--help",), ("simulate", "--help")])
def test_printing_commands_load_no_tcod_or_numpy(args: tuple[str, ...]) -> None:
    result = run_probe(*args)
    assert result["code"] in (0, None)
    assert "hedonic" in str(result["out"])
    assert heavy_in(result["modules"]) == []


def test_listing_saves_loads_no_tcod_or_numpy(tmp_path: Path) -> None:
    good = saved(tmp_path, "Ann")
    damaged = good.with_name(f"cut{good.suffix}")
    damaged.write_bytes(good.read_bytes()[:-9])  # what a torn write could leave
    result = run_probe("--data-dir", str(tmp_path), "saves")
    assert result["code"] == 0
    lines = str(result["out"]).splitlines()
    assert len(lines) == 2 and lines[0].startswith("Ann  turn ") and lines[0].endswith("ok")
    assert lines[1].startswith(damaged.name) and "damaged" in lines[1]
    assert heavy_in(result["modules"]) == []


# What only some paths of a command need: several files' verification (a process pool), and
# keeping a new runtime (reading the installation's metadata).
ONLY_SOME_PATHS = ("multiprocessing", "concurrent.futures.process", "importlib.metadata")


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--seed", "1", "--turns", "3"),
        ("replay", "--verify", str(REPOSITORY / "replays" / "death-overdose.replay")),
    ],
)
def test_simulating_and_verifying_one_file_load_no_process_pool_or_metadata(
    args: tuple[str, ...], tmp_path: Path
) -> None:
    run_probe("--data-dir", str(tmp_path), *args)  # the first start keeps this version's runtime
    result = run_probe("--data-dir", str(tmp_path), *args)
    assert result["code"] == 0
    assert isinstance(result["modules"], list)
    assert [name for name in ONLY_SOME_PATHS if name in result["modules"]] == []


# The threads of a process that starts as ``hedonic`` does and then loads numpy (Linux).
THREADS = """
import os
import roguelike.cli.main
import numpy
print(len(os.listdir("/proc/self/task")))
"""


def threads_after_numpy(**player_env: str) -> int:
    """Threads in a new ``hedonic`` process once numpy has loaded, under the player's environment."""
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    env.update(PYTHONPATH=str(REPOSITORY), **player_env)
    done = subprocess.run(
        [sys.executable, "-c", THREADS], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    return int(done.stdout)


# What numpy's BLAS reads when it loads in a process that starts as ``hedonic`` does.
BLAS_SETTING = """
import os
import roguelike.cli.main
print(os.environ.get("OPENBLAS_NUM_THREADS"))
"""


def test_hedonic_asks_numpy_for_one_blas_thread_unless_the_player_chose() -> None:
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    env.update(PYTHONPATH=str(REPOSITORY))
    for chosen, seen in ((None, "1"), ("2", "2")):
        run_env = env if chosen is None else {**env, "OPENBLAS_NUM_THREADS": chosen}
        done = subprocess.run(
            [sys.executable, "-c", BLAS_SETTING], capture_output=True, text=True, env=run_env, timeout=60, check=True
        )
        assert done.stdout.strip() == seen


# The effect itself shows only where OpenBLAS would start more than one thread; the test
# above holds the setting everywhere.
@pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2, reason="needs 2 cores, Linux"
)
def test_numpy_starts_no_idle_blas_threads_unless_the_player_asks() -> None:
    assert threads_after_numpy() == 1
    assert threads_after_numpy(OPENBLAS_NUM_THREADS="2") == 2


# multiprocessing's spawn and forkserver start a process by importing the parent's main module
# again under the name __mp_main__: that import must not start the game.
AS_MP_MAIN = """
import runpy
runpy.run_module("roguelike.__main__", run_name="__mp_main__")
print("imported, nothing run")
"""


def test_python_m_roguelike_runs_the_command_and_importing_its_main_module_again_runs_nothing() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    ran = subprocess.run(
        [sys.executable, "-m", "roguelike", "--version"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    imported = subprocess.run(
        [sys.executable, "-c", AS_MP_MAIN, "--version"], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    assert ran.stdout.startswith("hedonic") and imported.stdout == "imported, nothing run\n"
