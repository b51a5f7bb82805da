"""Start-up: how long each command takes from launch, against importing its libraries.

Run: ``python -m bench.bench_startup``. Figures go in docs/performance.md ("Start-up").

Every command runs in a new process, as a user starts it (``python -m roguelike ...``,
the same as the ``hedonic`` script), in an empty data directory. Each is timed as the
median of RUNS launches, both as CPU time of the process (steady under load) and as wall
time. The window's first frame is timed from launch to the return of the first
``present`` (the title screen), under SDL's dummy video driver; the process then exits.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import ROOT, children_cpu, figure

RUNS = 7
LIMIT = 60.0
LIBRARIES = "import tcod, numpy, esper, msgpack"
FIRST_FRAME = """
import os, sys
import tcod.context
shown = tcod.context.Context.present
def present(self, *args, **kwargs):
    shown(self, *args, **kwargs)
    os._exit(0)
tcod.context.Context.present = present
from roguelike.cli.main import main
sys.exit(main(["play", "--window"]))
"""


def launch(args: list[str], data: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Median CPU and wall seconds of a command run to its end, RUNS times."""
    cpu, wall = [], []
    full_env = {**os.environ, "HEDONIC_DATA_DIR": str(data), "PYTHONPATH": str(ROOT), **(env or {})}
    for _ in range(RUNS):
        before, start = children_cpu(), time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=ROOT, env=full_env, check=True, capture_output=True, timeout=LIMIT)
        wall.append(time.perf_counter() - start)
        cpu.append(children_cpu() - before)
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    """Print every command's start-up, and what it adds to the import of its libraries."""
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        data = Path(folder)
        bare, _ = launch(["-c", "pass"], data)
        libraries, _ = launch(["-c", LIBRARIES], data)
        figure("python itself", bare * 1e3, "ms", "CPU")
        figure("importing tcod, numpy, esper and msgpack", libraries * 1e3, "ms", "CPU")
        commands = {
            "hedonic --version": (["--version"], bare),
            "hedonic --help": (["--help"], bare),
            "hedonic saves": (["saves"], bare),
            "hedonic simulate --turns 1": (["simulate", "--seed", "1", "--turns", "1"], libraries),
            "hedonic replay --verify (51 turns)": (["replay", "--verify", str(ROOT / "replays" / "death-overdose.replay")], libraries),
        }
        for label, (args, base) in commands.items():
            cpu, wall = launch(["-m", "roguelike", *args], data)
            figure(label, cpu * 1e3, "ms", f"CPU; {(cpu - base) * 1e3:+.0f} ms over its imports; wall {wall * 1e3:.0f} ms")
        cpu, wall = launch(["-c", FIRST_FRAME], data, {"SDL_VIDEODRIVER": "dummy"})
        figure("window: launch to first frame, CPU", cpu * 1e3, "ms")
        figure("window: launch to first frame, wall", wall * 1e3, "ms")


if __name__ == "__main__":
    main()
