"""What a replay of another rules epoch costs: the same verify run in-process by the game of
its epoch, and dispatched to that epoch's runtime by a newer game (warm, sharing this
installation's libraries; cold in an isolated environment made by uv, and by venv and pip).

The newer game is a copy of this one with the epoch bumped; the runtime is this game's code
kept from a git commit of a scratch repository, as ``hedonic runtimes --add`` keeps one.
Each figure is the median wall time of whole ``hedonic replay --verify`` commands, as a
player waits for them. Run: ``python -m bench.bench_runtimes``; figures go in
docs/performance.md ("Runtimes").
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.wheelhouse import wheelhouse
from roguelike.core.epoch import RULES_EPOCH
from roguelike.runtimes.pins import current_lock

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("roguelike", "components", "systems")
RUNS = 5


def hedonic(args: list[str], cwd: Path, environment: dict[str, str]) -> float:
    """The wall time of one ``hedonic`` command run from a folder; it must succeed."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "roguelike", *args], cwd=cwd, env=environment, check=True, capture_output=True
    )
    return time.perf_counter() - start


def copy_game(folder: Path, epoch: int) -> Path:
    """This game's code in a folder, under a given epoch, committed to a git repository."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    epoch_file = folder / "roguelike/core/epoch.py"
    epoch_file.write_text(epoch_file.read_text().replace(f"= {RULES_EPOCH}\n", f"= {epoch}\n"))
    git = ["git", "-C", str(folder), "-c", "user.name=b", "-c", "user.email=b@b"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "bench"], check=True)
    return folder


def median_of(runs: int, measure: list[str], cwd: Path, environment: dict[str, str]) -> float:
    """The median of several runs of one command."""
    return statistics.median(hedonic(measure, cwd, environment) for _ in range(runs))


def cold(installer: str, replay: Path, new: Path, wheels: Path, environment: dict[str, str], cache: Path) -> float:
    """One verify that first makes the runtime's isolated environment."""
    shutil.rmtree(cache / "runtimes" / "environments", ignore_errors=True)
    return hedonic(
        ["replay", "--verify", "--isolated", "--installer", installer, "--wheels", str(wheels), str(replay)],
        new,
        environment,
    )


def main() -> None:
    """Print the figures."""
    with tempfile.TemporaryDirectory(prefix="bench-runtimes-") as scratch:
        base = Path(scratch)
        cache = base / "cache"
        environment = {**os.environ, "HEDONIC_CACHE_DIR": str(cache), "PIP_NO_INDEX": "1", "UV_OFFLINE": "1"}
        old, new = copy_game(base / "old", RULES_EPOCH), copy_game(base / "new", RULES_EPOCH + 1)
        hedonic(["runtimes", "--add", "HEAD"], old, environment)
        hedonic(["simulate", "--seed", "5", "--turns", "1000", "--data-dir", str(base / "d")], old, environment)
        replay = next((base / "d" / "replays").glob("*.replay"))
        same = median_of(RUNS, ["replay", "--verify", str(replay)], old, environment)
        warm = median_of(RUNS, ["replay", "--verify", str(replay)], new, environment)
        wheels = wheelhouse(current_lock(), base / "wheels")
        print(f"verify, same epoch (in-process):        {same:.2f} s")
        print(f"verify through a warm runtime:           {warm:.2f} s  (+{warm - same:.2f} s)")
        for installer in ("uv", "pip"):
            took = cold(installer, replay, new, wheels, environment, cache)
            print(f"verify through a cold runtime, {installer:<3}:      {took:.2f} s  (+{took - same:.2f} s)")


if __name__ == "__main__":
    main()
